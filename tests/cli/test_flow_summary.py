"""``rhetorica run``'s last lines agree with the study flow: the units failed, the planned units that
never ran (a stopped configuration) and the other problems add up to the problems it exits 1 for."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from typer.testing import CliRunner

from rhetorica.cli.app import app
from tests.report.judge_runs import judge_spec
from tests.study.helpers import write_study

ENV = {"COLUMNS": "250"}


def test_a_stopped_judge_family_is_counted_the_same_by_the_run_and_the_report(tmp_path: Path) -> None:
    spec = judge_spec(tmp_path)
    for reviewer in spec["reviewers"]:
        reviewer["model"] = "mock/judge"  # unscripted: fills each family's schema
    spec["reviewers"][0]["options"]["model_options"] = {"script": ["this is not JSON"] * 40}  # remor: malformed
    spec["concurrency"] = 1
    result = CliRunner().invoke(app, ["run", str(write_study(tmp_path / "study.yaml", spec))], env=ENV)
    assert result.exit_code == 1, result.output
    text = " ".join(result.output.split())
    # 3 remor reviews of originals + 2 of rewrites malformed, then stopped: 4 of its 9 units never ran
    assert ("Failures: 5 unit(s) and 1 other problem(s) listed in the report; 4 planned unit(s) not run "
            "(see the study flow).") in text
    assert "finished with 6 problem(s)" in text  # 5 failed units + the stopped configuration
    flow = pd.read_parquet(tmp_path / "run" / "tables" / "flow.parquet")
    review = flow[flow["stage"] == "review"]
    assert (review["failed"].sum(), review["not_run"].sum()) == (5, 4)
