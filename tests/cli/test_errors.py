"""``rhetorica.cli.errors``: a server that cannot be reached is one line naming the endpoint and the
problem, exit 2, wherever in a command the client library raised it."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import requests
from typer.testing import CliRunner

from rhetorica.cli.app import app
from rhetorica.cli.errors import connection_failure, known_failure

REFUSED = "[Errno 111] Connection refused"


@pytest.fixture
def refused_port() -> Iterator[int]:
    """A loopback port bound but not listening: every connection to it is refused."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A loopback port that accepts connections (the kernel's backlog) and never answers."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(8)
        yield sock.getsockname()[1]


def test_requests_refused_is_named_by_endpoint_and_problem(refused_port: int) -> None:
    with pytest.raises(requests.ConnectionError) as caught:
        requests.get(f"http://127.0.0.1:{refused_port}/notes?invitation=x", timeout=5)
    assert connection_failure(caught.value) == f"cannot reach http://127.0.0.1:{refused_port}/notes: {REFUSED}"


def test_httpx_refused_and_timeout_wrapped_in_another_error(refused_port: int, silent_port: int) -> None:
    with pytest.raises(httpx.ConnectError) as refused:
        httpx.get(f"http://127.0.0.1:{refused_port}/pdf/A1")
    with pytest.raises(httpx.ReadTimeout) as slow:
        httpx.get(f"http://127.0.0.1:{silent_port}/api", timeout=0.2)
    try:  # a library that wraps the client's error in its own keeps it as the cause
        raise RuntimeError("download failed") from refused.value
    except RuntimeError as wrapped:
        assert known_failure(wrapped) == f"cannot reach http://127.0.0.1:{refused_port}/pdf/A1: {REFUSED}"
    assert connection_failure(slow.value) == f"cannot reach http://127.0.0.1:{silent_port}/api: timed out"


def test_other_errors_are_not_connection_failures() -> None:
    assert known_failure(ValueError("bad")) is None
    assert known_failure(OSError(2, "No such file or directory")) is None


def test_dataset_openreview_offline_exits_2_with_one_line(refused_port: int, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["dataset", "openreview", "ICLR.cc/2026/Conference", "--out",
                                      str(tmp_path / "ds"), "--per-bin", "1", "--baseurl",
                                      f"http://127.0.0.1:{refused_port}"])
    assert result.exit_code == 2, result.output
    assert result.stderr == f"error: cannot reach http://127.0.0.1:{refused_port}/notes: {REFUSED}\n"
    assert "Traceback" not in result.output

