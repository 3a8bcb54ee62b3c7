"""``rhetorica estimate``, ``status``, ``run`` and ``batch submit`` count the same units of one study."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from rhetorica.cli.app import app
from tests.study.helpers import study_dict, write_study

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
# 3 papers x (2 rule-based + 2 LLM conditions) rewrites; (3 originals + 12 variants) x 1 reviewer x 2 replicates
UNITS = 3 * 4 + (3 + 12) * 2


def _status_units(output: str) -> tuple[int, int]:
    """(units, done) summed over the rows of the status table."""
    rows = [line.split("│")[1:-1] for line in output.splitlines() if re.match(r"│ (rewrite|validate|review) ", line)]
    return sum(int(r[1]) for r in rows), sum(int(r[2]) for r in rows)


def test_estimate_status_run_and_batch_agree(tmp_path):
    study = write_study(tmp_path / "study.yaml", study_dict(DATA, tmp_path / "run"))
    cli = CliRunner()
    env = {"COLUMNS": "200"}

    estimate = json.loads(cli.invoke(app, ["estimate", str(study), "--json"]).output)
    assert (estimate["units_pending"], estimate["units_done"]) == (UNITS, 0)
    assert _status_units(cli.invoke(app, ["status", str(study)], env=env).output) == (UNITS, 0)

    submitted = cli.invoke(app, ["batch", "submit", str(study)], env=env)
    assert submitted.exit_code == 0, submitted.output
    assert f"Plan: {UNITS} units, {UNITS} pending." in submitted.output
    # the mock provider has no batch API: the capture run's rewrite calls are the estimate's
    echo = next(r for r in estimate["rows"] if r["stage"] == "rewrite" and r["model"] == "mock/echo")
    assert f"its {echo['calls']} calls will run live" in submitted.output

    ran = cli.invoke(app, ["run", str(study)], env=env)
    assert re.search(rf"Ran {UNITS} units \(", ran.output), ran.output
    assert _status_units(cli.invoke(app, ["status", str(study)], env=env).output) == (UNITS, UNITS)
    again = json.loads(cli.invoke(app, ["estimate", str(study), "--json"]).output)
    assert (again["units_pending"], again["units_done"]) == (0, UNITS)
    assert f"all {UNITS} units were already in the store" in cli.invoke(app, ["run", str(study)], env=env).output
