"""A counting, fault-injecting loopback proxy in front of any OpenAI-compatible server.

It listens on 127.0.0.1 (a free port), forwards every request to the upstream base URL and counts
what it received, so a study's call log can be compared with what a server was sent. With
``fault_rate`` > 0 a share of the chat-completion requests (chosen by a seeded generator) gets a
fault instead of, or on top of, the upstream answer:

- ``reset``: the connection is closed without an answer (nothing forwarded);
- ``429``: HTTP 429 with ``Retry-After: <retry_after_s>`` (nothing forwarded);
- ``500``: HTTP 500 ``upstream overloaded`` (nothing forwarded);
- ``truncated``: forwarded; half of the upstream body is written under the full ``Content-Length``,
  then the connection is closed.

Standard library only (``http.server``, ``urllib``); one thread per connection.
"""

from __future__ import annotations

import json
import random
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

FAULTS = ("reset", "429", "500", "truncated")


@dataclass
class Seen:
    """One request the proxy received: path, the ``response_format`` type (``None``: none), the
    fault injected (``None``: forwarded as is), the upstream status (``None``: not forwarded or no
    answer), and when it arrived and was answered (monotonic seconds; ``inf``: never)."""

    path: str
    response_format: str | None
    fault: str | None
    upstream_status: int | None = None
    started: float = field(default_factory=time.monotonic)
    finished: float = float("inf")


class Proxy:
    """The proxy. Use as a context manager; :attr:`url` is its base URL (``http://127.0.0.1:PORT``).

    Args:
        upstream: the upstream base URL, e.g. ``http://127.0.0.1:8000`` (paths are appended as
            received: a study names ``<proxy url>/v1``).
        fault_rate: share of chat-completion requests that get a fault, in [0, 1].
        seed: seed of the fault choice.
        retry_after_s: the ``Retry-After`` of injected 429s.
        timeout_s: how long an upstream answer may take.
    """

    def __init__(self, upstream: str, *, fault_rate: float = 0.0, seed: int = 0, retry_after_s: float = 1.0,
                 timeout_s: float = 600.0) -> None:
        if not 0.0 <= fault_rate <= 1.0:
            raise ValueError(f"fault_rate must be in [0, 1], got {fault_rate}")
        self.upstream = upstream.rstrip("/")
        self.fault_rate = fault_rate
        self.retry_after_s = retry_after_s
        self.timeout_s = timeout_s
        self.seen: list[Seen] = []
        self._rng = random.Random(seed)
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None

    # -- lifecycle -----------------------------------------------------------------------------
    def __enter__(self) -> Proxy:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                return

            def do_GET(self) -> None:
                proxy._handle(self, "GET")

            def do_POST(self) -> None:
                proxy._handle(self, "POST")

        class Server(ThreadingHTTPServer):
            daemon_threads = True
            request_queue_size = 256

            def handle_error(self, request: Any, client_address: Any) -> None:
                return  # a client killed mid-connection (the point of the benchmark) is not an error

        self._httpd = Server(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._httpd.serve_forever, args=(0.05,), daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    @property
    def url(self) -> str:
        assert self._httpd is not None, "proxy not started"
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    # -- counts --------------------------------------------------------------------------------
    def chat_requests(self) -> list[Seen]:
        """The chat-completion requests received so far."""
        with self._lock:
            return [s for s in self.seen if s.path.endswith("/chat/completions")]

    def counts(self) -> dict[str, Any]:
        """Received chat requests, forwarded ones, faults by kind and ``response_format`` types."""
        chats = self.chat_requests()
        faults: dict[str, int] = {}
        formats: dict[str, int] = {}
        for s in chats:
            if s.fault:
                faults[s.fault] = faults.get(s.fault, 0) + 1
            key = s.response_format or "none"
            formats[key] = formats.get(key, 0) + 1
        return {"received": len(chats), "forwarded": sum(s.fault not in ("reset", "429", "500") for s in chats),
                "faults": faults, "response_formats": formats}

    # -- handling ------------------------------------------------------------------------------
    def _handle(self, h: BaseHTTPRequestHandler, method: str) -> None:
        length = int(h.headers.get("Content-Length") or 0)
        try:
            raw = h.rfile.read(length) if length else b""
        except OSError:
            raw = b""
        if len(raw) < length:  # the client went away while sending (a killed run): no request was made
            h.close_connection = True
            return
        path = h.path
        chat = path.split("?", 1)[0].endswith("/chat/completions")
        fmt = None
        if chat and raw:
            try:
                fmt = ((json.loads(raw).get("response_format") or {}).get("type"))
            except (ValueError, AttributeError):
                fmt = None
        with self._lock:
            fault = self._rng.choice(FAULTS) if chat and self._rng.random() < self.fault_rate else None
            seen = Seen(path, fmt, fault)
            self.seen.append(seen)
        try:
            if fault == "reset":
                h.close_connection = True
                h.connection.shutdown(2)
                return
            if fault in ("429", "500"):
                status = int(fault)
                message = "rate limited by the proxy" if status == 429 else "upstream overloaded"
                self._reply(h, status, json.dumps({"error": {"message": message}}).encode(),
                            {"Retry-After": f"{self.retry_after_s:g}"} if status == 429 else {})
                return
            status, body, headers = self._forward(method, path, raw, h.headers.get("Content-Type"),
                                                  h.headers.get("Authorization"))
            seen.upstream_status = status
            if fault == "truncated":
                h.send_response(status)
                h.send_header("Content-Type", headers.get("Content-Type", "application/json"))
                h.send_header("Content-Length", str(len(body)))
                h.end_headers()
                h.wfile.write(body[: len(body) // 2])
                h.wfile.flush()
                h.close_connection = True
                h.connection.shutdown(2)
                return
            self._reply(h, status, body, {k: v for k, v in headers.items()
                                          if k.lower() in ("content-type", "retry-after")})
        except OSError:
            pass  # the client went away (a killed run)
        finally:
            seen.finished = time.monotonic()

    def _forward(self, method: str, path: str, raw: bytes, content_type: str | None,
                 authorization: str | None) -> tuple[int, bytes, dict[str, str]]:
        request = urllib.request.Request(f"{self.upstream}{path}", data=raw if method == "POST" else None,
                                         method=method)
        if content_type:
            request.add_header("Content-Type", content_type)
        if authorization:
            request.add_header("Authorization", authorization)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout_s) as answer:
                return answer.status, answer.read(), dict(answer.headers.items())
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read(), dict(exc.headers.items())

    @staticmethod
    def _reply(h: BaseHTTPRequestHandler, status: int, body: bytes, headers: dict[str, str]) -> None:
        h.send_response(status)
        h.send_header("Content-Type", headers.pop("Content-Type", headers.pop("content-type", "application/json")))
        for key, value in headers.items():
            h.send_header(key, value)
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)
