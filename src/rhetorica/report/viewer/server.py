"""The viewer's HTTP server: standard-library ``http.server`` on the loopback address only.

Read-only: each request opens the run's store read-only (:func:`rhetorica.store.runs.open_run_store`),
runs its page's queries and closes it, so a study still running beside the viewer is never
locked or written. Every asset (CSS, JS) is served from the package; the pages carry a
Content-Security-Policy that allows nothing but this server (no CDN, no inline script, no
request to another host), so a rewrite or review that escaped its escaping still could not run
code or reach out. A request whose ``Host`` header is not this server's own loopback name
(``127.0.0.1:PORT`` or ``localhost:PORT``) is refused with 421, so a web page that rebinds its
domain name to 127.0.0.1 (DNS rebinding) cannot read the store through the visitor's browser.
GET and HEAD are served; any other method is 405 with ``Allow: GET, HEAD``. While a study holds
its run lock every page says it is still running (:func:`rhetorica.store.lock.lock_holder`, which
reads the lock without taking it).
"""

from __future__ import annotations

import errno
import sys
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from rhetorica.store.db import StoreLockedError
from rhetorica.store.lock import lock_holder
from rhetorica.store.runs import open_run_store
from rhetorica.study.run_study import load_run_study
from rhetorica.report.viewer import attack, pages, tables

HOST = "127.0.0.1"
"""The only address the viewer listens on."""

BUSY_TIMEOUT_S = 1.0
"""Seconds the viewer waits for a lock that keeps readers out of the store before saying so (a run
writing in WAL mode never takes one)."""

SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; "
                               "form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}

ALLOWED_METHODS = "GET, HEAD"
"""The methods the viewer serves (it never changes anything)."""

STATIC_TYPES = {".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8"}

ROUTES = {"/": ("overview.html.j2", pages.overview), "/cell": ("cell.html.j2", pages.cell),
          "/paper": ("paper.html.j2", pages.paper), "/call": ("call.html.j2", pages.call),
          "/tables": ("tables.html.j2", tables.analysis_tables),
          "/attacks": ("attacks.html.j2", attack.attacks), "/attack": ("attack.html.j2", attack.attack)}


class PortInUseError(OSError):
    """The port asked for is already taken on 127.0.0.1 (``port``: the number)."""

    def __init__(self, port: int) -> None:
        super().__init__(errno.EADDRINUSE, f"port {port} on {HOST} is already in use (another viewer or server)")
        self.port = port

    def __str__(self) -> str:
        return str(self.strerror)


class ViewerServer(ThreadingHTTPServer):
    """A threading HTTP server bound to ``127.0.0.1:port`` that serves one run directory.

    Args:
        run_dir: the run directory (its ``store.sqlite`` is opened per request, read-only).
        port: TCP port; 0 picks a free one (see :attr:`url`).
        quiet: do not log requests to stderr.

    Raises:
        FileNotFoundError: ``run_dir`` does not exist, is not a folder, or holds no store.
        rhetorica.store.db.StoreLockedError: another process locks the store against readers.
        rhetorica.store.db.StoreError: the store is not a readable rhetorica store.
        rhetorica.study.config.ConfigError: ``study.json`` is missing or not a valid study
            (:func:`rhetorica.study.run_study.load_run_study`).
        PortInUseError: the port is taken.
        OSError: the port cannot be bound otherwise.
    """

    daemon_threads = True

    def __init__(self, run_dir: Path, port: int = 0, *, quiet: bool = False) -> None:
        self.run_dir = Path(run_dir)
        if not self.run_dir.exists():
            raise FileNotFoundError(f"{self.run_dir}: no such folder")
        if not self.run_dir.is_dir():
            raise FileNotFoundError(f"{self.run_dir}: not a folder (a run directory holds store.sqlite)")
        # fail now, with the store's own error, not on the first page
        open_run_store(self.run_dir, busy_timeout_s=BUSY_TIMEOUT_S).close()
        load_run_study(self.run_dir)  # a study.json that is not a valid study: one error now, naming it
        self.env = pages.environment()
        self.quiet = quiet
        try:
            super().__init__((HOST, port), _Handler)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise PortInUseError(port) from exc
            raise

    @property
    def hosts(self) -> frozenset[str]:
        """The ``Host`` header values accepted: ``127.0.0.1:PORT`` and ``localhost:PORT`` (lower case)."""
        port = self.server_address[1]
        return frozenset({f"{HOST}:{port}", f"localhost:{port}"})

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT/``."""
        return f"http://{HOST}:{self.server_address[1]}/"

    def start_background(self) -> threading.Thread:
        """Serve from a daemon thread (tests, notebooks); stop with :meth:`shutdown`."""
        thread = threading.Thread(target=self.serve_forever, name="rhetorica-viewer", daemon=True)
        thread.start()
        return thread


class _Handler(BaseHTTPRequestHandler):
    server: ViewerServer
    server_version = "rhetorica-viewer"

    head_only = False

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        if not self._host_allowed():
            return
        parts = urlsplit(self.path)
        if parts.path.startswith("/static/"):
            self._static(parts.path.removeprefix("/static/"))
            return
        if parts.path == "/favicon.ico":
            self._send(HTTPStatus.NO_CONTENT, b"", "text/plain")
            return
        route = ROUTES.get(parts.path)
        if route is None:
            self._page(HTTPStatus.NOT_FOUND, "error.html.j2", {"message": f"no page {parts.path}"})
            return
        template, build = route
        try:
            store = open_run_store(self.server.run_dir, busy_timeout_s=BUSY_TIMEOUT_S)
            try:
                context = build(store, self.server.run_dir, parse_qs(parts.query, keep_blank_values=True))
            finally:
                store.close()
        except pages.PageError as exc:
            self._page(HTTPStatus(exc.status), "error.html.j2", {"message": str(exc)})
            return
        except StoreLockedError as exc:  # a lock of the moment: the page can be reloaded
            self._page(HTTPStatus.SERVICE_UNAVAILABLE, "error.html.j2", {"message": str(exc)})
            return
        except Exception as exc:  # one bad page never stops the viewer; the reason is shown and logged
            self.log_error("%s failed: %r", self.path, exc)
            self._page(HTTPStatus.INTERNAL_SERVER_ERROR, "error.html.j2", {"message": f"{type(exc).__name__}: {exc}"})
            return
        self._page(HTTPStatus.OK, template, context)

    def do_HEAD(self) -> None:  # noqa: N802 - http.server's naming
        """The headers the GET of this path would send, without its body."""
        self.head_only = True
        try:
            self.do_GET()
        finally:
            self.head_only = False

    def _not_allowed(self) -> None:
        if self._host_allowed():
            self._send(HTTPStatus.METHOD_NOT_ALLOWED, f"{self.command} not allowed: the viewer is read-only\n".encode(),
                       "text/plain; charset=utf-8", {"Allow": ALLOWED_METHODS})

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = _not_allowed  # noqa: N815

    def _host_allowed(self) -> bool:
        """Whether the ``Host`` header names this server; otherwise answer 421 and return False."""
        host = (self.headers.get("Host") or "").strip().lower()
        if host in self.server.hosts:
            return True
        self._send(HTTPStatus.MISDIRECTED_REQUEST,
                   f"421 Misdirected Request: this viewer answers only to {self.server.url} "
                   f"(Host header {host[:100]!r})\n".encode("ascii", "backslashreplace"), "text/plain; charset=utf-8")
        return False

    def _page(self, status: HTTPStatus, template: str, context: dict[str, Any]) -> None:
        running = lock_holder(self.server.run_dir)  # a study still running: its numbers are partial
        body = self.server.env.get_template(template).render(**context, running=running).encode("utf-8")
        self._send(status, body, "text/html; charset=utf-8")

    def _static(self, name: str) -> None:
        folder = resources.files("rhetorica.report.viewer") / "static"
        suffix = Path(name).suffix
        if "/" in name or name.startswith(".") or suffix not in STATIC_TYPES or not (folder / name).is_file():
            self._send(HTTPStatus.NOT_FOUND, b"not found", "text/plain; charset=utf-8")
            return
        self._send(HTTPStatus.OK, (folder / name).read_bytes(), STATIC_TYPES[suffix])

    def _send(self, status: HTTPStatus, body: bytes, content_type: str, extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for key, value in {**SECURITY_HEADERS, **(extra or {})}.items():
            self.send_header(key, value)
        self.end_headers()
        if not self.head_only:
            self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - http.server's signature
        if not self.server.quiet:
            sys.stderr.write(f"{self.address_string()} {format % args}\n")
