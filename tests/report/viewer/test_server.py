"""The viewer's HTTP server: only its own loopback Host names, GET and HEAD only."""

from __future__ import annotations

import http.client
from collections.abc import Iterator
from pathlib import Path

import pytest

from ..runs import make_run
from ...store.holders import EXCLUSIVE, WRITING, holding
from .conftest import serve


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    run = make_run(tmp_path_factory.mktemp("server") / "run", [("r", "p1", "original", 5)])
    with serve(run) as url:
        yield int(url.rstrip("/").rsplit(":", 1)[1])


def _request(port: int, method: str, path: str = "/", host: str | None = None) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Host": host} if host is not None else {}
    conn.request(method, path, headers=headers)
    response = conn.getresponse()
    response.body = response.read()  # type: ignore[attr-defined]
    conn.close()
    return response


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "LOCALHOST:{port}"])
def test_own_loopback_host_names_are_served(port: int, host: str) -> None:
    response = _request(port, "GET", "/paper?doc=p1", host.format(port=port))
    assert response.status == 200 and b'<h1 id="paper-title">p1</h1>' in response.body  # type: ignore[attr-defined]


@pytest.mark.parametrize("host", ["evil.example.com", "evil.example.com:{port}", "127.0.0.1", "127.0.0.1:1",
                                  "localhost.evil.example.com:{port}", "<script>:{port}"])
def test_any_other_host_is_421_without_store_content(port: int, host: str) -> None:
    response = _request(port, "GET", "/paper?doc=p1", host.format(port=port))
    body = response.body  # type: ignore[attr-defined]
    assert response.status == 421
    assert response.getheader("Content-Type") == "text/plain; charset=utf-8"
    assert b"p1" not in body and b"this viewer answers only to http://127.0.0.1:" in body
    assert repr(host.format(port=port).lower()).encode() in body


def test_head_sends_the_headers_of_get_and_no_body(port: int) -> None:
    host = f"127.0.0.1:{port}"
    get, head = _request(port, "GET", "/paper?doc=p1", host), _request(port, "HEAD", "/paper?doc=p1", host)
    assert head.status == 200 and head.body == b""  # type: ignore[attr-defined]
    assert head.getheader("Content-Length") == str(len(get.body))  # type: ignore[attr-defined]
    assert head.getheader("Content-Type") == get.getheader("Content-Type") == "text/html; charset=utf-8"
    assert head.getheader("Content-Security-Policy") == get.getheader("Content-Security-Policy")
    missing = _request(port, "HEAD", "/paper?doc=nope", host)
    assert missing.status == 404 and missing.body == b""  # type: ignore[attr-defined]


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "OPTIONS", "PATCH"])
def test_other_methods_are_405_allowing_get_and_head(port: int, method: str) -> None:
    response = _request(port, method, "/", f"127.0.0.1:{port}")
    assert response.status == 405 and response.getheader("Allow") == "GET, HEAD"
    assert response.body == f"{method} not allowed: the viewer is read-only\n".encode()  # type: ignore[attr-defined]


def test_a_run_writing_beside_it_stays_viewable_and_a_lock_of_the_moment_is_503(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run", [("r", "p1", "original", 5)])
    with holding(run / "store.sqlite", WRITING), serve(run) as url:
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        response = _request(port, "GET", "/paper?doc=p1", f"127.0.0.1:{port}")
        assert response.status == 200 and b'<h1 id="paper-title">p1</h1>' in response.body  # type: ignore[attr-defined]
    with serve(run) as url:
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        with holding(run / "store.sqlite", EXCLUSIVE):
            locked = _request(port, "GET", "/paper?doc=p1", f"127.0.0.1:{port}")
        assert locked.status == 503
        assert b"store.sqlite is locked by another process (a study writing to it?)" in locked.body  # type: ignore[attr-defined]


def test_pages_say_the_study_is_still_running_while_it_holds_its_run_lock(tmp_path: Path) -> None:
    import os

    from rhetorica.store.lock import run_lock

    run = make_run(tmp_path / "run", [("r", "p1", "original", 5)])
    notice = f"This study is still running (process {os.getpid()}): numbers are partial."
    with serve(run) as url:
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        host = f"127.0.0.1:{port}"
        assert b"still running" not in _request(port, "GET", "/", host).body  # type: ignore[attr-defined]
        with run_lock(run):
            for path in ("/", "/paper?doc=p1", "/paper?doc=nope"):
                assert notice.encode() in _request(port, "GET", path, host).body  # type: ignore[attr-defined]
        assert b"still running" not in _request(port, "GET", "/", host).body  # type: ignore[attr-defined]
