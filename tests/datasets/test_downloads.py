"""Retried, capped, streaming GETs over httpx (:mod:`rhetorica.datasets.downloads`), against a
loopback server that plays a script of answers; the waits are recorded, not slept."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import httpx
import pytest

from rhetorica.datasets.downloads import (
    NO_RETRY,
    DownloadLog,
    RetryPolicy,
    download_file,
    download_pdfs,
    fetch_bytes,
    parse_retry_after,
)

PDF = b"%PDF-1.4 tiny"


@dataclass
class Script:
    """Per path (or ``pdf?id=``): the answers still to give, each ``(status, headers, body)``;
    the last one repeats. ``hits`` counts requests per key, ``seen`` keeps their headers."""

    answers: dict[str, list[tuple[int, dict[str, str], bytes]]] = field(default_factory=dict)
    hits: dict[str, int] = field(default_factory=dict)
    seen: list[dict[str, str]] = field(default_factory=list)


@contextmanager
def serve(script: Script) -> Iterator[str]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            url = urlparse(self.path)
            key = url.path.lstrip("/") + "".join(f"?id={v}" for v in parse_qs(url.query).get("id", []))
            script.hits[key] = script.hits.get(key, 0) + 1
            script.seen.append(dict(self.headers))
            queue = script.answers.get(key, [(404, {}, b"not found")])
            status, headers, body = queue.pop(0) if len(queue) > 1 else queue[0]
            self.send_response(status)
            self.send_header("Content-Length", str(len(body)))
            for k, v in headers.items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_retry_after_is_honoured_up_to_the_cap_then_the_body_is_returned() -> None:
    script = Script({"f": [(429, {"Retry-After": "1"}, b""), (503, {"Retry-After": "120"}, b""), (200, {}, b"data")]})
    waits: list[float] = []
    with serve(script) as base, httpx.Client() as http:
        body = fetch_bytes(http, f"{base}/f", policy=RetryPolicy(max_retries=3, max_wait_s=30), sleep=waits.append)
    assert body == b"data"
    assert waits == [1.0, 30.0]  # the 120 s asked for is capped at 30
    assert script.hits["f"] == 3


def test_without_retry_after_the_wait_doubles_and_the_last_answer_is_raised() -> None:
    script = Script({"f": [(500, {}, b"boom")]})
    waits: list[float] = []
    with serve(script) as base, httpx.Client() as http, pytest.raises(httpx.HTTPStatusError) as caught:
        fetch_bytes(http, f"{base}/f", policy=RetryPolicy(max_retries=4, max_wait_s=3, backoff_s=0.5),
                    sleep=waits.append)
    assert caught.value.response.status_code == 500
    assert waits == [0.5, 1.0, 2.0, 3.0]  # 0.5 * 2**(n-1), the fourth capped at 3
    assert script.hits["f"] == 5  # one attempt + four retries


@pytest.mark.parametrize("status", [400, 401, 403, 404])
def test_a_client_error_is_not_retried(status: int) -> None:
    script = Script({"f": [(status, {}, b"no")]})
    waits: list[float] = []
    with serve(script) as base, httpx.Client() as http, pytest.raises(httpx.HTTPStatusError):
        fetch_bytes(http, f"{base}/f", policy=RetryPolicy(max_retries=3), sleep=waits.append)
    assert script.hits["f"] == 1 and waits == []


def test_no_retry_policy_makes_one_attempt() -> None:
    script = Script({"f": [(429, {"Retry-After": "1"}, b"")]})
    with serve(script) as base, httpx.Client() as http, pytest.raises(httpx.HTTPStatusError):
        fetch_bytes(http, f"{base}/f", policy=NO_RETRY, sleep=lambda s: None)
    assert script.hits["f"] == 1


def test_a_refused_connection_is_retried_once() -> None:
    with serve(Script()) as base:
        pass  # the port is closed again: connections are refused
    waits: list[float] = []
    with httpx.Client() as http, pytest.raises(httpx.ConnectError):
        fetch_bytes(http, f"{base}/f", policy=RetryPolicy(max_retries=3, backoff_s=0.25), sleep=waits.append)
    assert waits == [0.25]


def test_a_body_over_the_limit_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    script = Script({"big": [(200, {}, b"x" * (2 * 2**20 + 1))], "ok": [(200, {}, b"y" * 2**20)]})
    with serve(script) as base, httpx.Client() as http:
        with pytest.raises(ValueError, match="larger than 2 MiB"):
            download_file(http, f"{base}/big", tmp_path / "big", max_bytes=2 * 2**20)
        download_file(http, f"{base}/ok", tmp_path / "ok", max_bytes=2**20)  # exactly the limit
    assert not (tmp_path / "big").exists()
    assert (tmp_path / "ok").read_bytes() == b"y" * 2**20


def test_retry_after_parses_seconds_and_dates() -> None:
    now = datetime(2015, 10, 21, 7, 27, 0, tzinfo=timezone.utc)
    assert parse_retry_after("120") == 120.0
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now) == 60.0
    assert parse_retry_after("Wed, 21 Oct 2015 07:26:00 GMT", now) == -60.0
    assert parse_retry_after("soon") is None and parse_retry_after(None) is None
    assert RetryPolicy(max_wait_s=10).wait_s(1, "Wed, 21 Oct 2015 07:26:00 GMT") == 0.0  # a past date: no wait


def test_download_pdfs_sorts_every_outcome(tmp_path: Path) -> None:
    """Six ids: one on disk, one fetched, one not a PDF, one missing, one rate limited for good,
    one after it (left pending without a request)."""
    script = Script({"pdf?id=ok": [(200, {}, PDF)], "pdf?id=html": [(200, {}, b"<html>")],
                     "pdf?id=gone": [(404, {}, b"{}")], "pdf?id=busy": [(429, {"Retry-After": "2"}, b"")],
                     "pdf?id=later": [(200, {}, PDF)]})
    (tmp_path / "have.pdf").write_bytes(PDF)
    targets = {i: tmp_path / f"{i}.pdf" for i in ("have", "ok", "html", "gone", "busy", "later")}
    log = DownloadLog()
    waits: list[float] = []
    with serve(script) as base, httpx.Client() as http:
        download_pdfs(http, f"{base}/pdf", targets, log, policy=RetryPolicy(max_retries=2, max_wait_s=60),
                      headers={"Authorization": "Bearer t"}, sleep=waits.append)
    assert log.cached == ["have"] and log.fetched == ["ok"]
    assert log.failed == {"html": "the server's answer is not a PDF", "gone": "HTTP 404 Not Found"}
    assert log.rate_limited and log.pending == ["busy", "later"]
    assert waits == [2.0, 2.0]
    assert script.hits == {"pdf?id=ok": 1, "pdf?id=html": 1, "pdf?id=gone": 1, "pdf?id=busy": 3}
    assert {h.get("Authorization") for h in script.seen} == {"Bearer t"}
    assert (tmp_path / "ok.pdf").read_bytes() == PDF and not (tmp_path / "html.pdf").exists()
