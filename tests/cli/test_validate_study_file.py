"""``rhetorica validate`` given a study file, and on a judge run (issue 23.6): it validates the run in
the study's output_dir, and counts the checked review variants instead of saying there are none."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from typer.testing import CliRunner

from rhetorica.cli.app import app

runner = CliRunner()
PAIRS = [  # one faithful paraphrase, one rewrite that changes the numeric rating 4 -> 8
    {"paper_id": "p1", "review_id": "a", "original": "Summary: graph filters.\n\nWeaknesses:\n- The baselines in "
     "Table 2 are outdated.\n- No ablation of the filter order K.\n\nRating: 4",
     "rewrite": "Summary: filters on graphs.\n\nWeaknesses:\n- Table 2 compares with outdated baselines.\n- The "
     "filter order K is not ablated.\n\nRating: 4", "rewriter": "gpt-x"},
    {"paper_id": "p1", "review_id": "b", "original": "Summary: a new dataset.\n\nWeaknesses:\n- Only one "
     "benchmark.\n\nRating: 4", "rewrite": "Summary: a new dataset.\n\nWeaknesses:\n- Only one benchmark.\n\n"
     "Rating: 8", "rewriter": "gpt-x"},
]


def write_study(tmp_path: Path) -> Path:
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("\n".join(json.dumps(r) for r in PAIRS) + "\n", encoding="utf-8")
    spec = {"name": "v", "output_dir": "run", "documents": [{"pairs": "pairs.jsonl"}],
            "rewriters": [{"name": "gpt-x", "kind": "imported", "conditions": ["paraphrase"]}],
            "reviewers": [{"name": "rr", "kind": "judge", "model": "mock/j", "options": {"family": "rottenreviews"}}],
            "validation": {"failed_variants": "include"}}
    study = tmp_path / "study.yaml"
    study.write_text(yaml.safe_dump(spec), encoding="utf-8")
    return study


def test_validate_takes_the_study_file_and_counts_review_checks(tmp_path: Path) -> None:
    study = write_study(tmp_path)
    never = runner.invoke(app, ["validate", str(study)])
    assert never.exit_code == 2 and "not run yet" in never.output
    assert runner.invoke(app, ["run", str(study)]).exit_code in (0, 1)  # a failed check is a listed problem
    result = runner.invoke(app, ["validate", str(study)])
    assert result.exit_code == 0, result.output
    output = " ".join(result.output.split())
    assert "No validated variants" not in output
    assert "Checked 2 variant(s):" in output and str(tmp_path / "run" / "report.html") in output


def test_validate_on_a_judge_run_lists_only_the_variant_that_failed(tmp_path: Path) -> None:
    # review variants have no Table-2 style measures: a passed one is not a "failed ... measures unreadable"
    study = write_study(tmp_path)
    runner.invoke(app, ["run", str(study)])
    result = runner.invoke(app, ["validate", str(study)])
    failed = [line for line in result.output.splitlines() if line.startswith("failed ")]
    assert "Checked 2 variant(s): 1 passed, 1 failed" in " ".join(result.output.split())
    assert failed == ["failed b / paraphrase / gpt-x / rating changed: 4 -> 8"]
    assert "measures unreadable" not in result.output
