"""Null and injected-bias control reviewers inside a study (kind: control, no model call)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from rhetorica.analysis.paired import compare_arms
from rhetorica.reviewers.control import control_review
from rhetorica.analysis.controls import ControlReviewer
from rhetorica.store.export import assessments_table
from rhetorica.study.config import ConfigError, parse_study
from rhetorica.study.runner import StudyRunner

PAPER = ("# Paper {i}\n\n## Abstract\n\nOur results suggest that the method may improve accuracy on task {i}. "
         "It could possibly generalise.\n")


def test_control_scores_are_reproducible_and_only_the_favoured_arm_moves() -> None:
    biased = ControlReviewer(name="b", noise_sd=0.5, bias_arm="confidence:+", preference_ratio=3.0)
    first = control_review(biased, "p1", "confidence:+", 0, replicates=2)
    assert control_review(biased, "p1", "confidence:+", 0, replicates=2) == first
    # A null reviewer of the same name draws the same latent quality and noise for the same
    # (paper, condition, replicate), so the difference is the injected shift alone:
    # delta = sigma sqrt(2/m) Phi^-1(R / (1 + R)) = 0.5 * sqrt(2/2) * Phi^-1(0.75), and Phi^-1(0.75) =
    # 0.6744897501960817 (the standard normal's upper quartile) -> 0.33724487509804085 for m = 2;
    # for m = 1 it is sqrt(2) times larger, 0.47693627620446987.
    same_noise = ControlReviewer(name="b", noise_sd=0.5)
    for replicates, delta in ((2, 0.33724487509804085), (1, 0.47693627620446987)):
        for doc in ("p1", "p2", "p3"):
            base = control_review(same_noise, doc, "confidence:+", 1, replicates=replicates).overall
            shifted = control_review(biased, doc, "confidence:+", 1, replicates=replicates).overall
            assert 1.0 < base < shifted < 10.0  # not clipped
            assert shifted - base == pytest.approx(delta, rel=1e-12)
        # other arms are not shifted
        assert control_review(biased, "p1", "original", 1, replicates=replicates) == control_review(
            same_noise, "p1", "original", 1, replicates=replicates)
    null = ControlReviewer(name="b", noise_sd=0.0)
    assert control_review(null, "p1", "original", 0, replicates=2, human_score=6.5).overall == 6.5


def test_controls_in_a_study_are_detected_or_not(tmp_path: Path) -> None:
    for i in range(60):
        (tmp_path / f"paper{i:02d}.md").write_text(PAPER.format(i=i), encoding="utf-8")
    spec = {
        "name": "controls", "output_dir": str(tmp_path / "run"), "documents": [{"path": str(tmp_path / "*.md")}],
        "rewriters": [{"name": "rules", "kind": "rule-based", "conditions": ["confidence:+", "confidence:-"]}],
        "reviewers": [
            {"name": "null", "kind": "control", "options": {"noise_sd": 0.5}},
            {"name": "biased", "kind": "control",
             "options": {"noise_sd": 0.5, "bias_arm": "confidence:+", "preference_ratio": 19.0}},
        ],
        "replicates": 2, "validation": {"enabled": False},
    }
    runner = StudyRunner(parse_study(spec), tmp_path)
    summary = asyncio.run(runner.run())
    assert summary.model_calls == 0 and dict(summary.stage_statuses["review"]) == {"ok": 2 * 60 * 3 * 2}
    table = assessments_table(runner.store)
    runner.store.close()
    assert set(table["model"]) == {"control"}
    result = compare_arms(table, "confidence:+", "original").set_index("reviewer")
    # R = 19 means P(favoured arm higher) = 0.95: with 60 papers the sign test is overwhelming.
    assert result.loc["biased", "pct_first_higher"] >= 80 and result.loc["biased", "sign_test_p"] < 1e-6
    assert result.loc["null", "sign_test_p"] > 0.01
    assert 30 <= result.loc["null", "pct_first_higher"] <= 70


def test_control_settings_are_checked_at_load(tmp_path: Path) -> None:
    spec = {"name": "x", "documents": ["a.md"],
            "reviewers": [{"name": "bad", "kind": "control", "options": {"preference_ratio": 2.0}}]}
    with pytest.raises(ConfigError, match="preference_ratio needs bias_arm"):
        parse_study(spec)
    spec["reviewers"] = [{"name": "llm-without-model"}]
    with pytest.raises(ConfigError, match="needs a 'model'"):
        parse_study(spec)
