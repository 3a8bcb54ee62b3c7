"""Unusable input files give one line naming the file and exit 2, never a traceback; report and
check never create or migrate a store."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rhetorica.cli.app import app
from rhetorica.store.db import STORE_FILENAME

from ..report.runs import make_run
from ..study.helpers import study_dict, write_study

runner = CliRunner()


def _one_error(result, name: str) -> str:  # noqa: ANN001 - typer's Result
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    assert name in lines[0], result.output
    return lines[0]


@pytest.mark.parametrize("command", ["run", "status", "estimate"])
def test_study_file_not_utf8_names_the_file(tmp_path: Path, command: str) -> None:
    study = tmp_path / "latin1.yaml"
    study.write_bytes("name: caf\xe9\n".encode("latin-1"))  # byte 0xe9 at offset 9
    result = runner.invoke(app, [command, str(study)])
    assert result.exit_code == 2
    line = _one_error(result, str(study))
    assert "not UTF-8 text (byte 0xe9 at offset 9)" in line


def test_corrupt_store_is_an_error_naming_it(tmp_path: Path) -> None:
    run_dir = tmp_path / "fake"
    run_dir.mkdir()
    (run_dir / STORE_FILENAME).write_text("notsqlite\n")
    for command in ("report", "check"):
        result = runner.invoke(app, [command, str(run_dir)])
        assert result.exit_code == 2, (command, result.output)
        assert "not a readable rhetorica store" in _one_error(result, STORE_FILENAME)


@pytest.mark.parametrize("kind", ["empty", "foreign"])
def test_report_and_check_never_create_a_store(tmp_path: Path, kind: str) -> None:
    run_dir = tmp_path / "fake"
    run_dir.mkdir()
    path = run_dir / STORE_FILENAME
    if kind == "empty":
        path.write_bytes(b"")
    else:
        with sqlite3.connect(path) as conn:
            conn.execute("create table foo(x)")
        conn.close()
    before = path.read_bytes()
    for command in ("report", "check"):
        result = runner.invoke(app, [command, str(run_dir)])
        assert result.exit_code == 2, (command, result.output)
        assert "not a rhetorica store" in _one_error(result, STORE_FILENAME)
    assert path.read_bytes() == before
    assert sorted(p.name for p in run_dir.iterdir()) == [STORE_FILENAME]  # no report, no tables, no -wal


def test_malformed_run_study_json_names_it(tmp_path: Path) -> None:
    run_dir = make_run(tmp_path / "run", [("r", "d1", "original", 5.0), ("r", "d1", "confidence:+", 6.0)])
    (run_dir / "study.json").write_text('{"name": "x",', encoding="utf-8")
    for command in ("report", "check"):
        result = runner.invoke(app, [command, str(run_dir)])
        assert result.exit_code == 2, (command, result.output)
        line = _one_error(result, "study.json")
        assert str(run_dir / "study.json") in line and "not valid JSON at line 1" in line


def test_run_study_json_that_is_not_a_study_names_file_and_key(tmp_path: Path) -> None:
    run_dir = make_run(tmp_path / "run", [("r", "d1", "original", 5.0), ("r", "d1", "confidence:+", 6.0)])
    study = json.loads((run_dir / "study.json").read_text("utf-8"))
    study["replicates"] = 0  # replicates >= 1
    (run_dir / "study.json").write_text(json.dumps(study), encoding="utf-8")
    for command in ("report", "check", "view"):
        result = runner.invoke(app, [command, str(run_dir)])
        assert result.exit_code == 2, (command, result.output)
        line = _one_error(result, "study.json")
        assert f"{run_dir / 'study.json'}: replicates: Input should be greater than or equal to 1" in line, line
    assert not (run_dir / "report.md").exists() and not (run_dir / "tables").exists()


def test_run_without_study_json_names_it(tmp_path: Path) -> None:
    run_dir = make_run(tmp_path / "run", [("r", "d1", "original", 5.0)])
    (run_dir / "study.json").unlink()
    for command in ("report", "check", "view"):
        result = runner.invoke(app, [command, str(run_dir)])
        assert result.exit_code == 2, (command, result.output)
        assert f"{run_dir / 'study.json'}: missing" in _one_error(result, "study.json")


@pytest.mark.parametrize("where", ["a file", "under a file"])
def test_output_dir_that_cannot_be_a_folder(tmp_path: Path, shared_data: Path, where: str) -> None:
    blocker = tmp_path / "taken"
    blocker.write_text("not a folder\n")
    out = blocker if where == "a file" else blocker / "run"
    study = write_study(tmp_path / "s.yaml", study_dict(shared_data, out))
    reason = "exists and is not a folder" if where == "a file" else f"cannot be created: {blocker} is a file"
    for command in ("run", "status", "estimate"):
        result = runner.invoke(app, [command, str(study)])
        assert result.exit_code == 2, (command, result.output)
        assert _one_error(result, f"output_dir {out}").endswith(reason), (command, result.output)
    assert blocker.read_text() == "not a folder\n"
