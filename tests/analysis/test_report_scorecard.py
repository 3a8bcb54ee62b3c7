"""Scorecard pass/fail on control reviewers with known behaviour and on hand-built data."""

from __future__ import annotations

import math

import numpy as np
import pytest

from rhetorica.analysis.controls import ControlReviewer, simulate_assessments
from rhetorica.report.scorecard import ScorecardThresholds, scorecard

from .helpers import rows


def test_scorecard_on_control_reviewers() -> None:
    arms = ["original", "confidence:+", "confidence:-"]
    reviewers = [
        ControlReviewer(name="null", noise_sd=0.3),
        ControlReviewer(name="biased", noise_sd=0.3, bias_arm="confidence:+", preference_ratio=3.0),
        ControlReviewer(name="collapsed", noise_sd=0.3),
        ControlReviewer(name="flaky", noise_sd=0.3),
    ]
    # 2,000 papers: a null reviewer's |ln R| has SE ~0.045, so ln 1.5 = 0.41 is ~9 SE away
    df = simulate_assessments(2000, arms, reviewers, seed=4)
    rng = np.random.default_rng(0)
    collapsed = df["reviewer"] == "collapsed"
    df.loc[collapsed, "overall"] = 5.0 + 0.05 * rng.standard_normal(collapsed.sum())
    flaky = (
        (df["reviewer"] == "flaky") & (df["arm"] == "confidence:+") & (rng.random(len(df)) < 0.2)
    )
    df.loc[flaky, ["status", "overall"]] = ["error", np.nan]
    t = ScorecardThresholds(max_flip_pct=20.0)  # noise 0.3 flips ~11% of papers near 4.5
    out = scorecard(df, t).set_index("reviewer")
    assert out.loc["null", "passed"], out.loc["null", "reasons"]
    assert out.loc["null", "reasons"] == ""
    assert not out.loc["biased", "pass_preference"] and out.loc["biased", "pass_discriminability"]
    assert out.loc["biased", "worst_pair"].startswith("confidence:+ vs ")
    assert not out.loc["collapsed", "pass_discriminability"]
    assert "discriminability" in out.loc["collapsed", "reasons"]
    assert not out.loc["flaky", "pass_failures"] and out.loc["flaky", "pass_preference"]
    gap = 100 * flaky.sum() / 2000
    assert out.loc["flaky", "failure_gap_pct"] == pytest.approx(gap)


def test_scorecard_hand_built_reasons() -> None:
    recs = []
    for i, (o, r) in enumerate([(4, 6), (4, 5), (5, 7), (3, 4), (6, 6)]):
        recs += [("R", f"p{i}", "original", o), ("R", f"p{i}", "joint", r)]
    out = scorecard(rows(recs), ScorecardThresholds(max_flip_pct=30.0)).iloc[0]
    # joint wins 4 of 5, none lost: ratio inf; flips: p0 and p1 (4 -> 6, 4 -> 5) = 40%
    assert math.isinf(out["max_abs_log_ratio"])
    assert out["max_flip_pct"] == pytest.approx(40.0)
    assert out["failure_gap_pct"] == 0.0
    assert not out["passed"]
    assert "|ln preference ratio| inf (joint vs original) exceeds 0.41" in out["reasons"]
    assert "decision flips 40.0% exceed 30%" in out["reasons"]
    # originals 4,4,5,3,6 order the pairs; rewrites respect the order except ties -> high
    assert out["discriminability"] > 0.7 and out["pass_discriminability"]


def test_scorecard_without_pairs_fails_with_reason() -> None:
    out = scorecard(rows([("R", "p1", "original", 5)])).iloc[0]
    assert not out["passed"]
    assert "no paired papers" in out["reasons"]
