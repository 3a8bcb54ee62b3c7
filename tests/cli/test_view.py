"""``rhetorica view``: clear errors and exit 2 before serving; the server binds the loopback only."""

from __future__ import annotations

import urllib.request
from pathlib import Path

from typer.testing import CliRunner

from rhetorica.cli.app import app
from rhetorica.report.viewer.server import ViewerServer

from ..report.runs import make_run

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
