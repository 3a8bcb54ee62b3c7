"""A configuration whose every unit failed keeps its rows in every summary table that lists
configurations (report.md, HTML, LaTeX), with its counts and why, never silently absent.

Reviewers study: reviewer ``good`` scores 4 papers (original 5 or 6, rewrite one point more);
reviewer ``dead`` has 8 stored reviews, every one ``error`` ("HTTP 500 from the endpoint").
Judges study: :mod:`tests.report.judge_runs` plus ``dead-judge`` (REMOR family) whose 9 judgements
(3 reviews x original and two rewrites) are all refused.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from rhetorica.models.providers.mock import MockModel
from rhetorica.report.coverage import WHY, configuration_gaps, why_sentence, with_every_configuration
from rhetorica.report.render import write_report

from .judge_runs import TextJudge, judge_spec
from .runs import make_run, run_study_summary
from .test_content import md_table

DEAD_WHY = "not computable: 0 of 8 stored assessments ok (error 8: HTTP 500 from the endpoint)"
JUDGE_WHY = "not computable: 0 of 9 stored assessments ok (refused 9: I cannot judge reviews)"


def test_gaps_count_each_status_and_name_the_commonest_reason() -> None:
    rows = pd.DataFrame({"reviewer": ["a", "a", "a", "b", "b", "c"],
                         "status": ["timeout", "error", "timeout", "ok", "error", "malformed"],
                         "reason": ["took 60 s", "HTTP 500", "took 61 s", None, "HTTP 500", None]})
    assert configuration_gaps(rows, ["a", "b", "c", "d"]) == {
        "a": "not computable: 0 of 3 stored assessments ok (timeout 2, error 1: took 60 s)",
        "c": "not computable: 0 of 1 stored assessments ok (malformed 1)",
        "d": "not computable: none of its units ran (see the study flow)"}


def test_missing_configuration_gets_a_row_with_zero_counts() -> None:
    table = pd.DataFrame({"reviewer": ["a"], "n_papers": [4], "mad": [0.5]})
    out = with_every_configuration(table, {"z": "not computable: none of its units ran (see the study flow)"})
    assert out["reviewer"].tolist() == ["a", "z"]
    assert out["n_papers"].tolist() == [4, 0]
    assert out["mad"].iloc[0] == 0.5 and pd.isna(out["mad"].iloc[1])
    assert pd.isna(out[WHY].iloc[0]) and out[WHY].iloc[1].startswith("not computable: none")
    assert why_sentence(out) == " Not computable: z (none of its units ran (see the study flow))."
    assert with_every_configuration(table, {}) is table


@pytest.fixture(scope="module")
def reviewer_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    records, status = [], {}
    for p in range(4):
        for arm, base in (("original", 5.0), ("confidence:+", 6.0)):
            records.append(("good", f"p{p}", arm, base + p % 2))
            status[len(records)] = "error"
            records.append(("dead", f"p{p}", arm, None))
    run = make_run(tmp_path_factory.mktemp("coverage") / "run", records, status=status,
                   reasons={i: "HTTP 500 from the endpoint" for i in status})
    write_report(run, n_resamples=200)
    return run


@pytest.mark.parametrize(("heading", "index"), [
    ("Paired comparison of conditions (overall score)", 0), ("Magnitude of paired differences", 0),
    ("Change versus the original", 0), ("Change versus the original", 1), ("Rhetorical robustness", 0),
    ("Mean overall score by condition", 0)])
def test_failed_reviewer_is_in_every_reviewer_table(reviewer_run: Path, heading: str, index: int) -> None:
    rows = md_table((reviewer_run / "report.md").read_text("utf-8"), heading, index)
    assert rows[0][0] == "Reviewer" and rows[0][-1] == "Why not computable"
    dead = [r for r in rows[1:] if r[0] == "dead"]
    good = [r for r in rows[1:] if r[0] == "good"]
    assert dead and all(r[-1] == DEAD_WHY for r in dead)
    assert good and all(r[-1] == "–" for r in good)
    counts = [i for i, h in enumerate(rows[0]) if h == "Papers"]
    assert counts and all(r[counts[0]] == "0" for r in dead)


def test_failed_reviewer_in_movement_table(reviewer_run: Path) -> None:
    """The movement table (one row per initial-score bin) had no row for ``dead`` at all."""
    rows = md_table((reviewer_run / "report.md").read_text("utf-8"), "Change versus the original", 1)
    assert rows[0][:4] == ["Reviewer", "Condition", "Initial score", "Papers"]
    assert [r[:4] for r in rows[1:]] == [["good", "confidence:+", "[5,6)", "2"], ["good", "confidence:+", "[6,7)", "2"],
                                          ["dead", "–", "–", "0"]]


def test_failed_reviewer_in_html_and_latex(reviewer_run: Path) -> None:
    html = (reviewer_run / "report.html").read_text("utf-8")
    assert html.count(DEAD_WHY) == 7  # comparison, magnitude, change, movement, robustness, means x2 (arms)
    for name in ("comparison", "magnitude", "change", "robustness"):
        tex = (reviewer_run / "tables" / f"{name}.tex").read_text("utf-8")
        assert "Not computable: dead (0 of 8 stored assessments ok (error 8: HTTP 500 from the endpoint))." in tex
        rows = [line.removesuffix(r" \\").split(" & ") for line in tex.splitlines() if " & " in line]
        dead = [cells for cells in rows[1:] if "dead" in cells]
        assert len(dead) == 1 and set(dead[0]) - {"dead"} <= {"0", "--", "confidence:+ vs original"}, name


class RefusingJudge(MockModel):
    """Refuses every judgement."""

    def _default_answer(self, messages: Any, config: Any) -> Any:
        return {"refusal": "I cannot judge reviews"}


def _factory(model_id: str, options: dict[str, Any]) -> Any:
    return RefusingJudge(model="refusing") if model_id == "mock/refusing" else TextJudge(model="text-judge")


@pytest.fixture(scope="module")
def judge_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("coverage-judges")
    spec = judge_spec(tmp)
    spec["reviewers"].append({"name": "dead-judge", "kind": "judge", "model": "mock/refusing",
                              "options": {"family": "remor"}})
    run, summary = run_study_summary(spec, tmp, _factory)
    assert summary.stage_statuses["review"] == {"ok": 18, "refused": 9}, summary.problems
    write_report(run, n_resamples=200)
    return run


def test_failed_judge_in_scores_by_form(judge_run: Path) -> None:
    md = (judge_run / "report.md").read_text("utf-8")
    remor = md_table(md, "Scores by form", 0)
    assert remor[0][:5] == ["Reviewer", "Condition", "Papers", "Reviews", "criticism (primary)"]
    assert remor[0][-1] == "Why not computable"
    assert [r[:5] + r[-1:] for r in remor[1:] if r[0] == "dead-judge"] == [
        ["dead-judge", arm, "0", "0", "–", JUDGE_WHY] for arm in ("original", "paraphrase", "polish:+")]
    # the live judge's rows are unchanged: criticism 0.30 / 0.50 / 0.20 (judge_runs.ANSWERS), 2 papers, 3 reviews
    assert [r[:5] for r in remor[1:] if r[0] == "remor-judge"] == [
        ["remor-judge", "original", "2", "3", "0.30"], ["remor-judge", "paraphrase", "2", "3", "0.50"],
        ["remor-judge", "polish:+", "2", "3", "0.20"]]
    means = md_table(md, "Mean overall score by condition")
    dead = [r for r in means[1:] if r[0] == "dead-judge"]
    assert len(dead) == 3 and all(r[-1] == JUDGE_WHY for r in dead)
    assert JUDGE_WHY in (judge_run / "report.html").read_text("utf-8")


def test_failed_judge_in_exported_form_rows(judge_run: Path) -> None:
    """The flow counts the same 9 refused judgements the reason gives."""
    flow = pd.read_csv(judge_run / "tables" / "flow.csv")
    dead = flow[(flow["stage"] == "review") & (flow["configuration"] == "dead-judge")]
    assert int(dead["failed"].sum()) == 9 and int(dead["analysed"].sum()) == 0
    assert json.loads((judge_run / "study.json").read_text("utf-8"))["reviewers"][-1]["name"] == "dead-judge"


def test_a_configuration_that_never_ran_is_listed_and_the_analysis_left_as_computed(tmp_path: Path) -> None:
    """``ghost`` is declared but has no stored unit: every reviewer table of report.md lists it with
    'none of its units ran'; the exported comparison (the analysis itself) has only ``good``."""
    records = [("good", f"p{p}", arm, base + p % 2) for p in range(4)
               for arm, base in (("original", 5.0), ("confidence:+", 6.0))]
    run = make_run(tmp_path / "run", records, study={"reviewers": [{"name": "good", "model": "mock/reviewer"},
                                                                   {"name": "ghost", "model": "mock/reviewer"}]})
    write_report(run, n_resamples=200)
    md = (run / "report.md").read_text("utf-8")
    why = "not computable: none of its units ran (see the study flow)"
    for heading, index in (("Paired comparison of conditions (overall score)", 0), ("Magnitude of paired differences", 0),
                           ("Change versus the original", 0), ("Change versus the original", 1),
                           ("Rhetorical robustness", 0)):
        rows = md_table(md, heading, index)
        assert [r[-1] for r in rows[1:] if r[0] == "ghost"] == [why], heading
    assert pd.read_csv(run / "tables" / "comparison.csv")["reviewer"].tolist() == ["good"]
    assert "Not computable: ghost (none of its units ran (see the study flow))." in (
        run / "tables" / "magnitude.tex").read_text("utf-8")
