"""``rhetorica estimate``, ``status`` and ``batch submit``: exit codes tell the truth (unreadable
input is a failure, as in ``run``), status columns add up, no "Next:" hint when nothing was sent."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from rhetorica.cli.app import app
from rhetorica.store.db import Store
from tests.reviewers.external.helpers import ICLR_REVIEW
from tests.study.helpers import study_dict, write_study

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
ENV = {"COLUMNS": "200"}


def test_an_absent_dataset_makes_estimate_status_and_batch_submit_fail(tmp_path):
    spec = study_dict(DATA, tmp_path / "run", documents=[{"dataset": str(tmp_path / "no-such-dataset")}])
    study = write_study(tmp_path / "study.yaml", spec)
    cli = CliRunner()
    for command in (["estimate", str(study)], ["estimate", str(study), "--json"], ["status", str(study)],
                    ["batch", "submit", str(study)]):
        result = cli.invoke(app, command, env=ENV)
        assert result.exit_code == 1, (command, result.output)
        assert "no-such-dataset" in result.output, (command, result.output)
        assert "Next:" not in result.output


def test_batch_submit_with_only_live_models_gives_no_next_hint(tmp_path):
    study = write_study(tmp_path / "study.yaml", study_dict(DATA, tmp_path / "run", replicates=1))
    submitted = CliRunner().invoke(app, ["batch", "submit", str(study)], env=ENV)
    assert submitted.exit_code == 0, submitted.output
    assert "has no batch API" in submitted.output and "Next:" not in submitted.output


def odd_replicates_fail(manuscript: str, *, replicate: int, **kwargs) -> dict:
    if replicate % 2:
        raise RuntimeError("odd replicate")
    return ICLR_REVIEW


def test_status_columns_ok_failed_and_pending_add_up_to_the_units(tmp_path):
    # one paper, no rewriters, 8 replicates of a reviewer that fails on the odd ones: 4 ok, 4 error
    spec = study_dict(DATA, tmp_path / "run", rewriters=[], replicates=8, reviewers=[
        {"name": "py", "kind": "python", "options": {"entry": f"{__name__}:odd_replicates_fail"}}])
    spec["documents"] = spec["documents"][:1]
    study = write_study(tmp_path / "study.yaml", spec)
    cli = CliRunner()
    ran = cli.invoke(app, ["run", str(study)], env=ENV)
    assert ran.exit_code == 1  # failed units
    assert "; 8 model requests (0 retries), 0 cache hits;" in ran.output, ran.output  # one logged call per review
    output = cli.invoke(app, ["status", str(study)], env=ENV).output
    header = next(line for line in output.splitlines() if "stage" in line and "units" in line)
    assert [c.strip() for c in header.split("┃")[1:-1]] == ["stage", "units", "ok", "failed", "pending"]
    row = next(line.split("│")[1:-1] for line in output.splitlines() if re.match(r"│ review ", line))
    assert [c.strip() for c in row] == ["review", "8", "4", "4 (error: 4)", "0"]


def test_a_reader_warning_is_printed_but_the_run_and_status_exit_0(tmp_path):
    # a paper that \input's a missing file is read (the warning says what was skipped) and reviewed
    project = tmp_path / "paper"
    project.mkdir()
    (project / "main.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\n\\section{Intro}\nSome words about graphs here.\n"
        "\\input{sections/missing}\n\\end{document}\n")
    spec = study_dict(DATA, tmp_path / "run", documents=[{"path": str(project)}], rewriters=[], replicates=1)
    study = write_study(tmp_path / "study.yaml", spec)
    cli = CliRunner()
    for command in (["run", str(study)], ["status", str(study)]):
        result = cli.invoke(app, command, env=ENV)
        assert result.exit_code == 0, (command, result.output)
        missing = ("main.tex:5: missing \\input file 'sections/missing': the text it would bring in is absent from "
                   "this document")
        assert f"warning (ingest) {project} (paper): {missing}" in result.output, result.output
        if command[0] == "run":  # the scan could not read the missing part either: never reported clean (issue 35)
            assert f"warning (scan) paper / original / none: not scanned: {project}/{missing}" in result.output
        assert "problem" not in result.output.replace("0 other problem(s); 2 warning(s)", "")
    store = Store.in_dir(tmp_path / "run")
    assert [tuple(r) for r in store.rows("SELECT stage, status FROM problems")] == [("ingest", "warning"), ("scan", "warning")]
    store.close()
