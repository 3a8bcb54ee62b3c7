"""``rhetorica.cli.errors``: a server that cannot be reached is one line naming the endpoint and the
problem, exit 2, wherever in a command the client library raised it."""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
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
    requests = pytest.importorskip("requests")  # openreview-py's client (the datasets extra)
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


def test_a_host_that_does_not_resolve_is_named_with_the_resolver_error() -> None:
    requests = pytest.importorskip("requests")
    with pytest.raises(requests.ConnectionError) as caught:
        requests.get("http://no-such-host.invalid/notes?x=1", timeout=5)
    said = connection_failure(caught.value)
    assert said is not None and re.fullmatch(r"cannot reach http://no-such-host\.invalid/notes: \[Errno -\d+\] [^\n]+",
                                             said), said


def test_other_errors_are_not_connection_failures() -> None:
    assert known_failure(ValueError("bad")) is None
    assert known_failure(OSError(2, "No such file or directory")) is None


def test_dataset_openreview_offline_exits_2_with_one_line(refused_port: int, tmp_path: Path) -> None:
    pytest.importorskip("openreview")
    result = CliRunner().invoke(app, ["dataset", "openreview", "ICLR.cc/2026/Conference", "--out",
                                      str(tmp_path / "ds"), "--per-bin", "1", "--baseurl",
                                      f"http://127.0.0.1:{refused_port}"])
    assert result.exit_code == 2, result.output
    assert result.stderr == f"error: cannot reach http://127.0.0.1:{refused_port}/notes: {REFUSED}\n"
    assert "Traceback" not in result.output


def _corrupt(store: Path, how: str) -> None:
    """Spoil a real store: random bytes, cut to its first page, or a table dropped."""
    import random
    import sqlite3

    if how == "random":
        store.write_bytes(random.Random(3).randbytes(8192))
    elif how == "truncated":
        store.write_bytes(store.read_bytes()[:5000])
    else:
        with sqlite3.connect(store) as conn:
            conn.execute("DROP TABLE assessments")
        conn.close()


@pytest.mark.parametrize(("how", "problem"), [
    ("random", "not a readable rhetorica store (file is not a database)"),
    ("truncated", "not a readable rhetorica store (database disk image is malformed)"),
    ("table", "not a readable rhetorica store: table assessments missing"),
])
def test_every_command_on_a_spoiled_store_says_one_line_and_exits_2(tmp_path: Path, how: str, problem: str) -> None:
    (tmp_path / "paper.md").write_text("# A paper\n\n## Abstract\n\nWe study a method and report its accuracy.\n")
    study = tmp_path / "study.yaml"
    study.write_text("name: c\noutput_dir: run\ndocuments:\n  - path: paper.md\nreviewers:\n"
                     "  - {name: r1, model: mock/a}\nreplicates: 1\n")
    first = CliRunner().invoke(app, ["run", str(study)])
    assert first.exit_code == 0, first.output
    store = tmp_path / "run" / "store.sqlite"
    for extra in ("-wal", "-shm"):
        Path(f"{store}{extra}").unlink(missing_ok=True)
    _corrupt(store, how)
    said = f"error: {store}: {problem}\n"
    for command in (["run", str(study)], ["estimate", str(study)], ["status", str(study)],
                    ["validate", str(tmp_path / "run")], ["report", str(tmp_path / "run")],
                    ["check", str(tmp_path / "run")]):
        result = CliRunner().invoke(app, command)
        assert (result.exit_code, result.stderr) == (2, said), (command, result.output)
