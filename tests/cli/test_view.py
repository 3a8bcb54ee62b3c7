"""``rhetorica view``: clear errors and exit 2 before serving; the server binds the loopback only."""

from __future__ import annotations

import urllib.request
from pathlib import Path

from typer.testing import CliRunner

from rhetorica.cli.app import app
from rhetorica.report.viewer.server import ViewerServer

from ..report.runs import make_run
from ..store.holders import EXCLUSIVE, holding

runner = CliRunner()


def test_no_store_is_exit_2_naming_the_folder(tmp_path: Path) -> None:
    result = runner.invoke(app, ["view", str(tmp_path)])
    assert result.exit_code == 2
    assert f"{tmp_path}: no store.sqlite here" in result.output


def test_not_a_store_is_exit_2(tmp_path: Path) -> None:
    (tmp_path / "store.sqlite").write_text("not sqlite", encoding="utf-8")
    result = runner.invoke(app, ["view", str(tmp_path)])
    assert result.exit_code == 2 and "not a readable rhetorica store" in result.output


def test_taken_port_is_exit_2(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run", [("r", "p1", "original", 5)])
    first = ViewerServer(run, 0, quiet=True)
    try:
        result = runner.invoke(app, ["view", str(run), "--port", str(first.server_address[1])])
        assert result.exit_code == 2 and "error:" in result.output
    finally:
        first.server_close()


def test_server_listens_on_loopback_and_sends_a_restrictive_policy(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run", [("r", "p1", "original", 5)])
    server = ViewerServer(run, 0, quiet=True)
    server.start_background()
    try:
        assert server.server_address[0] == "127.0.0.1" and server.url.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(server.url + "paper?doc=p1") as response:  # noqa: S310 - loopback
            policy = response.headers["Content-Security-Policy"]
            body = response.read().decode("utf-8")
        assert "default-src 'none'" in policy and "script-src 'self'" in policy
        assert "<h1 id=\"paper-title\">p1</h1>" in body
    finally:
        server.shutdown()
        server.server_close()


def test_a_missing_folder_is_named_as_missing(tmp_path: Path) -> None:
    result = runner.invoke(app, ["view", str(tmp_path / "nonexistent")])
    assert result.exit_code == 2
    assert f"error: {tmp_path / 'nonexistent'}: no such folder" in result.output
    assert "no store.sqlite here" not in result.output


def test_taken_port_names_the_port_and_suggests_port_0(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run", [("r", "p1", "original", 5)])
    first = ViewerServer(run, 0, quiet=True)
    try:
        port = first.server_address[1]
        result = runner.invoke(app, ["view", str(run), "--port", str(port)])
        assert result.exit_code == 2
        assert (f"error: port {port} on 127.0.0.1 is already in use (another viewer or server); "
                "choose another with --port N, or --port 0 for a free one") in result.output
        assert "Errno" not in result.output
    finally:
        first.server_close()


def test_a_store_locked_by_another_process_is_said_at_once(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run", [("r", "p1", "original", 5)])
    with holding(run / "store.sqlite", EXCLUSIVE):
        result = runner.invoke(app, ["view", str(run), "--port", "0"])
    assert result.exit_code == 2
    assert (f"{run.resolve()}: store.sqlite is locked by another process (a study writing to it?); "
            "try again when it finishes") in result.output
    assert "not a readable" not in result.output
