"""One way for a command to report an error and exit: ``error: <message>`` on stderr, then the code."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn
from urllib.parse import urlsplit

import typer
from rich.console import Console
from rich.markup import escape


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``error: message`` (escaped, unwrapped) on stderr and exit with ``code``.

    Raises:
        typer.Exit: always, with ``code``.
    """
    Console(stderr=True, soft_wrap=True).print(f"[red]error:[/red] {escape(message)}", highlight=False)
    raise typer.Exit(code)


@contextmanager
def exit_on(*errors: type[BaseException], code: int = 2) -> Iterator[None]:
    """Turn any of ``errors`` raised inside the block into :func:`fail` with its message.

    Raises:
        typer.Exit: with ``code`` when one of ``errors`` was raised.
    """
    try:
        yield
    except errors as exc:
        try:
            fail(str(exc), code)
        except typer.Exit as stop:
            raise stop from exc


def _client_connection_errors() -> tuple[type[BaseException], ...]:
    """The connection and timeout exception classes of the HTTP client libraries loaded now
    (``requests``: ``ConnectionError``, ``Timeout``; ``httpx``: ``NetworkError``, ``TimeoutException``,
    ``ProxyError``). A library not imported yet raised nothing, so it is not imported here."""
    classes: list[type[BaseException]] = []
    requests_exceptions = sys.modules.get("requests.exceptions")
    if requests_exceptions is not None:
        classes += [requests_exceptions.ConnectionError, requests_exceptions.Timeout]
    httpx = sys.modules.get("httpx")
    if httpx is not None:
        classes += [httpx.NetworkError, httpx.TimeoutException, httpx.ProxyError]
    return tuple(classes)


def _chain(exc: BaseException) -> Iterator[BaseException]:
    """``exc``, then its causes and contexts, then the ``reason`` urllib3 keeps (each once)."""
    seen: set[int] = set()
    todo = [exc]
    while todo:
        item = todo.pop(0)
        if id(item) in seen:
            continue
        seen.add(id(item))
        yield item
        todo += [e for e in (item.__cause__, item.__context__, getattr(item, "reason", None))
                 if isinstance(e, BaseException)]
        todo += [a for a in item.args if isinstance(a, BaseException)]


def _endpoint(exc: BaseException) -> str | None:
    """``scheme://host[:port]/path`` of the request ``exc`` carries (query left out), if any."""
    try:
        request = getattr(exc, "request", None)  # httpx raises RuntimeError when none was set
    except RuntimeError:
        return None
    url = getattr(request, "url", None)
    if url is None:
        return None
    parts = urlsplit(str(url))
    return f"{parts.scheme}://{parts.netloc}{parts.path}" if parts.netloc else str(url)


def connection_failure(exc: BaseException) -> str | None:
    """One line for a failed connection somewhere in ``exc``'s chain: the endpoint and the problem,
    e.g. ``cannot reach http://127.0.0.1:9/notes: [Errno 111] Connection refused``; ``None`` when
    no connection or timeout error of an HTTP client library (:func:`_client_connection_errors`) is in it.
    """
    classes = _client_connection_errors()
    chain = list(_chain(exc))
    failed = next((e for e in chain if classes and isinstance(e, classes)), None)
    if failed is None:
        return None
    endpoint = next((u for u in map(_endpoint, _chain(failed)) if u), None)
    system = [e for e in _chain(failed)  # the operating system's own error: refused, timed out, no such host
              if isinstance(e, OSError) and type(e).__module__ in ("builtins", "socket", "ssl")]
    said = str(system[-1]) if system else str(failed)
    problem = said.splitlines()[0] if said.strip() else type(failed).__name__
    return f"cannot reach {endpoint or 'the server'}: {problem}"


def known_failure(exc: BaseException) -> str | None:
    """The one line a command prints (exit 2) for ``exc`` raised anywhere below it, or ``None`` for
    an exception that is a defect (its traceback is kept): a run's store that cannot be read
    (:class:`rhetorica.store.db.StoreError`: corrupt, truncated, a table missing, newer, locked),
    or a server that cannot be reached (:func:`connection_failure`)."""
    store = sys.modules.get("rhetorica.store.db")  # not imported: no store was opened
    if store is not None:
        found = next((e for e in _chain(exc) if isinstance(e, store.StoreError)), None)
        if found is not None:
            return str(found)
    return connection_failure(exc)
