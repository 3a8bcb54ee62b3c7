"""A study whose reviewers answer on two declared forms (the 000 review form and the ICLR 2026
form) runs through the runner with the mock provider, stores each form's scores, and its report
shows both forms' primary and secondary scores."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

from rhetorica.models.providers.mock import MockModel
from rhetorica.store.runs import STUDY_FILE
from rhetorica.report.render import write_report
from rhetorica.study.config import parse_study
from rhetorica.study.runner import StudyRunner

from .helpers import study_dict

TEXTS = {"summary": "s", "strengths": ["a"], "weaknesses": ["b"]}


def answer_000(overall: int, soundness: int) -> str:
    return json.dumps(TEXTS | {"suggestions": [], "soundness": soundness, "significance": 2, "evidence": 3,
                               "clarity": 4, "confidence": 4, "overall": overall})


def answer_iclr(overall: int, presentation: int) -> str:
    return json.dumps(TEXTS | {"questions": ["q"], "soundness": 3, "presentation": presentation,
                               "contribution": 4, "confidence": 2, "overall": overall})


def test_mixed_form_study_stores_and_reports_both_forms(shared_data: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    spec = study_dict(shared_data, out, documents=[{"path": str(shared_data / "papers" / "gcrn_iclr2017")}],
                      rewriters=[], replicates=3, concurrency=1, reviewers=[
                          {"name": "r000", "model": "mock/r000", "protocol": "default"},
                          {"name": "riclr", "model": "mock/riclr", "protocol": "standard"}])
    models = {
        "mock/r000": MockModel(model="r000", script=[answer_000(6, 3), answer_000(8, 2), answer_000(4, 1)]),
        # the second review is out of range twice (presentation 5 on a 1-4 scale): malformed, not clipped
        "mock/riclr": MockModel(model="riclr", script=[answer_iclr(5, 2), answer_iclr(7, 5), answer_iclr(7, 5),
                                                       answer_iclr(9, 3)]),
    }
    runner = StudyRunner(parse_study(spec), tmp_path, model_factory=lambda model_id, options: models[model_id])
    (runner.run_dir / STUDY_FILE).write_text(runner.config.model_dump_json(indent=2), encoding="utf-8")
    try:
        summary = asyncio.run(runner.run())
        rows = {(r["reviewer"], r["replicate"]): (r["status"], r["form"]) for r in runner.store.assessment_rows()}
        stored = runner.store.score_rows()
    finally:
        runner.store.close()
    assert dict(summary.statuses) == {"ok": 5, "malformed": 1}
    assert rows == {("r000", 0): ("ok", "review-000@1"), ("r000", 1): ("ok", "review-000@1"),
                    ("r000", 2): ("ok", "review-000@1"), ("riclr", 0): ("ok", "iclr-2026@1"),
                    ("riclr", 1): ("malformed", "iclr-2026@1"), ("riclr", 2): ("ok", "iclr-2026@1")}
    assert sorted(m for _, m, _ in stored) == sorted(
        ["overall", "soundness", "significance", "evidence", "clarity", "confidence"] * 3
        + ["overall", "soundness", "presentation", "contribution", "confidence"] * 2)

    data = write_report(out, n_resamples=100)
    forms = data.analysis["forms"]
    means = {(f, m): round(v, 4) for f, m, v in zip(forms["form"], forms["metric"], forms["mean"])}
    # hand-computed: 000 overall (6+8+4)/3 = 6, soundness (3+2+1)/3 = 2; ICLR (ok reviews only)
    # overall (5+9)/2 = 7, presentation (2+3)/2 = 2.5, contribution 4, confidence 2
    assert means == {
        ("review-000@1", "overall"): 6.0, ("review-000@1", "soundness"): 2.0,
        ("review-000@1", "significance"): 2.0, ("review-000@1", "evidence"): 3.0,
        ("review-000@1", "clarity"): 4.0, ("review-000@1", "confidence"): 4.0,
        ("iclr-2026@1", "overall"): 7.0, ("iclr-2026@1", "soundness"): 3.0,
        ("iclr-2026@1", "presentation"): 2.5, ("iclr-2026@1", "contribution"): 4.0,
        ("iclr-2026@1", "confidence"): 2.0}
    report = re.sub(r" +", " ", (out / "report.md").read_text(encoding="utf-8"))  # cells unpadded
    assert "## Scores by form" in report
    assert ("| Reviewer | Condition | Papers | overall (primary) | soundness | presentation | contribution "
            "| confidence |") in report
    assert "| riclr | original | 1 | 7.00 | 3.00 | 2.50 | 4.00 | 2.00 |" in report
    assert ("| Reviewer | Condition | Papers | overall (primary) | soundness | significance | evidence | clarity "
            "| confidence |") in report
    assert "| r000 | original | 1 | 6.00 | 2.00 | 2.00 | 3.00 | 4.00 | 4.00 |" in report
    wide = data.tables["assessments"]
    assert list(wide.columns[11:19]) == ["overall", "soundness", "significance", "evidence", "clarity",
                                         "confidence", "presentation", "contribution"]
