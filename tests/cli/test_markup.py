"""User- and model-supplied text reaches the terminal literally, never as rich markup."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from rhetorica.cli.app import app

from ..report.runs import make_run
from ..study.helpers import study_dict, write_study

runner = CliRunner()


@pytest.mark.parametrize("command", ["run", "status"])
def test_problem_lines_show_paths_literally(tmp_path: Path, shared_data: Path, command: str) -> None:
    spec = study_dict(shared_data, tmp_path / "run", documents=[{"path": "[red]x.md"}])
    result = runner.invoke(app, [command, str(write_study(tmp_path / "s.yaml", spec))], env={"COLUMNS": "250"})
    assert "problem (ingest) [red]x.md: no file matches this path or glob" in result.output, result.output


def test_headline_shows_reviewer_names_literally(tmp_path: Path) -> None:
    records = [("[bold]rev", f"d{i}", arm, score) for i in range(3)
               for arm, score in (("original", 5.0), ("confidence:+", 6.0))]
    # the stored name holds markup a study's reviewer name cannot: the study declares another
    run_dir = make_run(tmp_path / "run", records, study={"reviewers": [{"name": "declared", "model": "mock/reviewer"}]})
    result = runner.invoke(app, ["report", str(run_dir)], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    assert "[bold]rev" in result.output


def test_bracketed_document_file_is_read(tmp_path: Path, shared_data: Path) -> None:
    (tmp_path / "paper[v2].md").write_text("# A paper\n\n## Abstract\n\nWe study a method on three tasks.\n",
                                           encoding="utf-8")
    spec = study_dict(shared_data, tmp_path / "run", documents=[{"path": "paper[v2].md"}])
    result = runner.invoke(app, ["status", str(write_study(tmp_path / "s.yaml", spec))], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    assert "problem" not in result.output
