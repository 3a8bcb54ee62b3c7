"""``rhetorica run``'s last lines agree with the study flow: the units failed, the planned units that
never ran (a stopped configuration) and the other problems add up to the problems it exits 1 for."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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


def test_a_validation_check_that_could_not_be_made_is_counted_the_same_by_both_lines(
        tmp_path: Path, monkeypatch: Any) -> None:
    """Three reviews, one review rewrite each; the check of r1's rewrite cannot be made (planted):
    the run's 'failed 1 unit(s) … (validate: error 1)' and its last 'Failures:' line agree (the
    last line said 0 unit(s): it counted rewrite and review failures only)."""
    import json

    import rhetorica.judges.study as judges_study

    reviews = [{"review_id": f"r{k}", "paper_id": paper, "review": text, "rating": 5} for k, (paper, text) in
               enumerate([("A", "The method is sound. The experiments on two datasets are thin."),
                          ("A", "Clear writing. Missing comparison with spectral baselines."),
                          ("B", "An interesting dataset, but the licence of the audio is unclear.")])]
    (tmp_path / "reviews.jsonl").write_text("\n".join(json.dumps(r) for r in reviews) + "\n", encoding="utf-8")
    spec = {"name": "checks", "output_dir": str(tmp_path / "run"), "documents": [{"reviews": "reviews.jsonl"}],
            "rewriters": [{"name": "para", "kind": "review", "model": "mock/rewriter", "conditions": ["paraphrase"],
                           "options": {"script": [f"## Review\n\nIn other words: {r['review']}" for r in reviews]}}],
            "reviewers": [{"name": "remor", "kind": "judge", "model": "mock/judge", "options": {"family": "remor"}}],
            "concurrency": 1}
    real = judges_study.check_review_variant

    def planted(original: Any, variant: Any, **kwargs: Any) -> Any:
        if original.id == "r1":
            raise ValueError("planted: cannot check r1")
        return real(original, variant, **kwargs)

    monkeypatch.setattr(judges_study, "check_review_variant", planted)
    result = CliRunner().invoke(app, ["run", str(write_study(tmp_path / "study.yaml", spec))], env=ENV)
    assert result.exit_code == 1, result.output
    text = " ".join(result.output.split())
    assert "failed 1 unit(s) of this study are stored as failures (validate: error 1)" in text
    assert "Failures: 1 unit(s) and 0 other problem(s) listed in the report." in text
    assert "finished with 1 problem(s)" in text
