"""Reports of studies too small (or too broken) for some statistics: no crash, reasons shown."""

from __future__ import annotations

from pathlib import Path

from rhetorica.report.render import write_report

from .runs import make_run
from .test_content import md_table


def test_one_paper_reports_what_cannot_be_computed(tmp_path: Path) -> None:
    records = [("R", "p1", "original", 6), ("R", "p1", "confidence:+", 7), ("R", "p1", "confidence:-", 5)]
    run = make_run(tmp_path / "run", records)
    data = write_report(run, n_resamples=50)
    md = (run / "report.md").read_text("utf-8")
    assert "ICC, SPR and discriminability: not computable" in md
    assert "Human MAE and Spearman: not computable (no document carries human scores" in md
    header, row = md_table(md, "Rhetorical robustness")
    cells = dict(zip(header, row, strict=True))
    assert cells["ICC(1) ↑"] == "–" and cells["Discriminability ↑"] == "–" and cells["MAD ↓"] == "1.00"
    assert "Figure 'Stability (drift SD) against discriminability' not computable" in md
    assert not (run / "plots" / "stability.png").exists()
    # scorecard: discriminability cannot be computed, so that check does not pass
    assert "discriminability not computable" in data.scorecard.iloc[0]["reasons"]
    assert (run / "report.html").read_text("utf-8").count("data:image/png;base64,") == 4  # flow included


def test_empty_store_gives_a_report_of_reasons(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run", [])
    data = write_report(run, n_resamples=50)
    md = (run / "report.md").read_text("utf-8")
    assert data.comparisons.empty and not data.analysis
    assert "_Not computable (no successful assessments in the store yet)._" in md
    assert "_Not computable (no assessments in the store yet)._" in md  # scorecard
    assert "data:image" not in (run / "report.html").read_text("utf-8")


def test_every_review_failed(tmp_path: Path) -> None:
    records = [("R", "p1", "original", None), ("R", "p1", "confidence:+", None)]
    run = make_run(tmp_path / "run", records, status={0: "malformed", 1: "timeout"})
    write_report(run, n_resamples=50)
    md = (run / "report.md").read_text("utf-8")
    assert "_Not computable (no successful assessments in the store yet)._" in md
    failures = md_table(md, "Failures")
    assert sorted(r[2] for r in failures[1:]) == ["malformed", "timeout"]


def test_single_condition_has_no_pairs(tmp_path: Path) -> None:
    records = [("R", "p1", "original", 6), ("R", "p2", "original", 4)]
    run = make_run(tmp_path / "run", records)
    write_report(run, n_resamples=50)
    md = (run / "report.md").read_text("utf-8")
    assert "_Not computable (needs two conditions with assessments of the same papers)._" in md
    assert "_Not computable (needs the original arm and at least one rewrite of the same papers)._" in md
