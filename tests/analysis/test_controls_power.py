"""Control reviewers and power: null false-positive rate, injected-bias power, plan."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from scipy.stats import binom, binomtest
from typer.testing import CliRunner

from rhetorica.analysis.controls import ControlReviewer, mean_shift_for_ratio, simulate_assessments
from rhetorica.analysis.paired import compare_arms
from rhetorica.analysis.power import (
    critical_counts,
    integer_pair_probabilities,
    papers_needed,
    plan_study,
    sign_test_power,
    simulate_sign_test,
)
from rhetorica.analysis.variance import pooled_sd

ALPHA = 0.05


def test_null_control_false_positive_rate_within_two_mc_se() -> None:
    null = ControlReviewer(name="null", noise_sd=0.5, integer_scores=True)
    n_studies = 2000
    sim = simulate_sign_test(null, n_papers=500, n_studies=n_studies, alpha=ALPHA, seed=2026)
    se = math.sqrt(ALPHA * (1 - ALPHA) / n_studies)
    assert abs(sim.rejection_rate - ALPHA) <= 2 * se
    # and the rate agrees with the test's exact size given each study's untied count
    assert abs(sim.rejection_rate - sim.exact_rate) <= 2 * math.sqrt(
        sim.exact_rate * (1 - sim.exact_rate) / n_studies
    )
    assert 0.4 < sim.mean_tie_share < 0.6  # integer reviews with SD 0.5 tie about half the time


def test_injected_bias_detected_at_analytic_power() -> None:
    biased = ControlReviewer(name="biased", noise_sd=0.7, bias_arm="A", preference_ratio=1.5)
    n_studies = 1500
    sim = simulate_sign_test(biased, n_papers=120, n_studies=n_studies, alpha=ALPHA, seed=7)
    expected = sign_test_power(120, 1.5, alpha=ALPHA)
    se = math.sqrt(expected * (1 - expected) / n_studies)
    assert 0.4 < expected < 0.8  # a design where power is informative
    assert abs(sim.rejection_rate - expected) <= 3 * se  # tolerance fixed a priori: 3 MC SE
    assert sim.untied_ratio == pytest.approx(1.5, rel=0.03)


def test_sign_test_power_hand_values() -> None:
    assert sign_test_power(10, 1.0) == pytest.approx(22 / 1024)  # rejects k <= 1 or k >= 9
    assert sign_test_power(5, 100.0) == 0.0  # 5 pairs can never reach p <= 0.05
    assert sign_test_power(6, 3.0) == pytest.approx(0.75**6 + 0.25**6)
    assert sign_test_power(0, 2.0) == 0.0


def test_sign_test_power_equals_brute_force_with_ties() -> None:
    n, ratio, tie = 12, 2.0, 0.3
    p = ratio / (1 + ratio)
    total = 0.0
    for untied in range(n + 1):
        for k in range(untied + 1):
            if untied and binomtest(k, untied, 0.5).pvalue <= ALPHA:
                total += binom.pmf(untied, n, 1 - tie) * binom.pmf(k, untied, p)
    assert sign_test_power(n, ratio, tie_prob=tie) == pytest.approx(total, rel=1e-10)


def test_critical_counts_match_binomtest() -> None:
    c = critical_counts(60, ALPHA)
    for n in range(1, 61):
        rejecting = [k for k in range(n + 1) if binomtest(k, n, 0.5).pvalue <= ALPHA and k <= n / 2]
        assert c[n] == (max(rejecting) if rejecting else -1)


def test_papers_needed_is_smallest_sufficient_size() -> None:
    n = papers_needed(1.5, power=0.8)
    assert n is not None
    assert sign_test_power(n, 1.5) >= 0.8
    assert all(sign_test_power(m, 1.5) < 0.8 for m in range(max(1, n - 25), n))
    assert papers_needed(1.05, max_papers=50) is None
    with pytest.raises(ValueError, match="no effect"):
        papers_needed(1.0)


def test_integer_pair_probabilities_match_monte_carlo() -> None:
    rng = np.random.default_rng(0)
    n, shift, sd, m = 200_000, 0.3, 0.8, 2
    q = rng.normal(5, 1.5, n)[:, None]
    first = np.clip(np.round(q + shift + rng.normal(0, sd, (n, m))), 1, 10).mean(axis=1)
    second = np.clip(np.round(q + rng.normal(0, sd, (n, m))), 1, 10).mean(axis=1)
    win, loss, tie = integer_pair_probabilities(shift, sd, m)
    se = 0.5 / math.sqrt(n)
    assert abs(win - np.mean(first > second)) < 4 * se
    assert abs(loss - np.mean(first < second)) < 4 * se
    assert abs(tie - np.mean(first == second)) < 4 * se


def test_plan_continuous_and_integer() -> None:
    cont = plan_study(1.5, noise_sd=0.5, integer_scores=False, n_studies=0)
    assert cont.tie_prob == 0.0
    assert cont.papers_needed == papers_needed(1.5)
    assert cont.mean_shift == pytest.approx(mean_shift_for_ratio(1.5, 0.5))
    integer = plan_study(1.5, noise_sd=0.5, integer_scores=True, n_studies=1000, seed=3)
    assert integer.tie_prob > 0.3
    assert integer.papers_needed > cont.papers_needed  # ties cost papers
    win, loss, _ = integer_pair_probabilities(integer.mean_shift, 0.5)
    assert win / loss == pytest.approx(1.5, rel=1e-6)
    assert abs(integer.simulated_power - integer.analytic_power) <= 3 * integer.simulated_power_se


def test_plan_cli_json() -> None:
    import typer

    from rhetorica.cli.plan import plan

    app = typer.Typer()
    app.command()(plan)
    result = CliRunner().invoke(
        app, ["--ratio", "2", "--continuous", "--simulations", "0", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["papers_needed"] == papers_needed(2.0)
    bad = CliRunner().invoke(app, ["--ratio", "1", "--simulations", "0"])
    assert bad.exit_code == 2


def test_simulated_tidy_table_feeds_the_analysis() -> None:
    arms = ["original", "confidence:+", "confidence:-"]
    reviewers = [
        ControlReviewer(name="null", noise_sd=0.6),
        ControlReviewer(name="biased", noise_sd=0.6, bias_arm="confidence:+", preference_ratio=2.0),
        ControlReviewer(name="flaky", noise_sd=0.6, failure_rate=0.2, integer_scores=True),
    ]
    df = simulate_assessments(3000, arms, reviewers, replicates=2, seed=1)
    assert len(df) == 3000 * 3 * 3 * 2
    out = compare_arms(df, "confidence:+", "original").set_index("reviewer")
    # preference ratio R = 2 is injected for paper means; SE of log R at n=3000 is about 0.04
    assert out.loc["biased", "preference_ratio"] == pytest.approx(2.0, rel=0.12)
    assert out.loc["null", "preference_ratio"] == pytest.approx(1.0, rel=0.12)
    flaky = df[df["reviewer"] == "flaky"]
    assert (flaky["status"] == "error").mean() == pytest.approx(0.2, abs=0.01)
    assert flaky.loc[flaky["status"] == "error", "overall"].isna().all()
    sd = pooled_sd(df, arm="original").set_index("reviewer")
    assert sd.loc["null", "pooled_sd"] == pytest.approx(0.6, rel=0.05)
    assert set(df["human_stratum"]) <= {"[1,3)", "[3,4)", "[4,5)", "[5,6)", "[6,7)", "[7,8.5]"}


def test_control_reviewer_validation() -> None:
    with pytest.raises(ValueError, match="needs bias_arm"):
        ControlReviewer(name="x", preference_ratio=2.0)
    with pytest.raises(ValueError, match="noise_sd > 0"):
        ControlReviewer(name="x", bias_arm="a", preference_ratio=2.0, noise_sd=0)
    with pytest.raises(ValueError, match="not in arms"):
        simulate_assessments(
            3, ["original"], [ControlReviewer(name="x", bias_arm="a", preference_ratio=2)]
        )
