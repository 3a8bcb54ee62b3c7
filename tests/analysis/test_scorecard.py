"""Scorecard verdicts on control reviewers with known behaviour and on hand-built data.

Interval bounds are checked against scipy's beta quantiles: the Clopper-Pearson interval of k
successes in n is [Beta(alpha/2; k, n-k+1), Beta(1-alpha/2; k+1, n-k)] (Clopper & Pearson 1934).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import beta

from rhetorica.analysis.controls import ControlReviewer, simulate_assessments
from rhetorica.analysis.scorecard import scorecard
from rhetorica.scorecard_thresholds import ScorecardThresholds

from tests.analysis.helpers import rows


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
    df.loc[flaky, ["status", "overall"]] = ["malformed", np.nan]  # the reviewer's own failure
    t = ScorecardThresholds(max_flip_pct=20.0)  # noise 0.3 flips ~11% of papers near 4.5
    out = scorecard(df, t).set_index("reviewer")
    assert out.loc["null", "verdict"] == "pass" and out.loc["null", "passed"], out.loc["null", "reasons"]
    assert out.loc["null", "reasons"] == ""
    assert out.loc["biased", "verdict_preference"] == "fail" and out.loc["biased", "verdict_discriminability"] == "pass"
    assert out.loc["biased", "verdict"] == "fail" and not out.loc["biased", "passed"]
    assert out.loc["biased", "worst_pair"].startswith("confidence:+ vs ")
    assert out.loc["biased", "abs_log_ratio_low"] > math.log(1.5)  # the whole interval lies beyond the bound
    assert out.loc["collapsed", "verdict_discriminability"] == "fail"
    assert out.loc["collapsed", "discriminability_high"] < 0.7
    assert "discriminability" in out.loc["collapsed", "reasons"]
    assert out.loc["flaky", "verdict_failures"] == "fail" and out.loc["flaky", "verdict_preference"] == "pass"
    gap = 100 * flaky.sum() / 2000
    assert out.loc["flaky", "failure_gap_pct"] == pytest.approx(gap)


def test_one_paper_with_an_infinite_ratio_is_not_enough_data() -> None:
    # Issue case: 2 papers, A higher on one, tie on the other -> R = inf from one paper. The 95%
    # Clopper-Pearson interval of p for 1 of 1 is [0.025, 1] -> ln R in [ln(0.025/0.975), inf] =
    # [-3.66, inf], which holds ln 1.5: neither pass nor fail.
    recs = [("N", "p1", "original", 5), ("N", "p1", "confidence:+", 6),
            ("N", "p2", "original", 7), ("N", "p2", "confidence:+", 7)]
    out = scorecard(rows(recs)).iloc[0]
    assert math.isinf(out["abs_log_ratio"])
    assert out["verdict_preference"] == "not enough data" and out["verdict"] == "not enough data"
    assert not out["passed"]
    assert (out["abs_log_ratio_low"], out["abs_log_ratio_high"]) == (0.0, math.inf)
    assert "|ln preference ratio| inf, 95% interval [0.00, inf] (confidence:+ vs original; 1 vs 0 untied " \
           "papers) straddles 0.41: not enough data" in out["reasons"]
    assert "discriminability 1.00 from 2 papers: not enough data" in out["reasons"]


def test_scorecard_hand_built_intervals() -> None:
    recs = []
    for i, (o, r) in enumerate([(4, 6), (4, 5), (5, 7), (3, 4), (6, 6)]):
        recs += [("R", f"p{i}", "original", o), ("R", f"p{i}", "joint", r)]
    out = scorecard(rows(recs), ScorecardThresholds(max_flip_pct=30.0)).iloc[0]
    # joint wins 4 of 5, none lost: ratio inf. p in [0.025^(1/4), 1] = [0.3976, 1] -> ln R in [-0.4154, inf]
    assert math.isinf(out["abs_log_ratio"]) and out["verdict_preference"] == "not enough data"
    assert out["abs_log_ratio_high"] == math.inf and out["abs_log_ratio_low"] == 0.0
    # flips p0 and p1 (4 -> 6, 4 -> 5): 2 of 5 = 40%, interval [Beta(.025; 2, 4), Beta(.975; 3, 3)]
    assert out["flip_pct"] == pytest.approx(40.0)
    assert out["flip_pct_low"] == pytest.approx(100 * beta.ppf(0.025, 2, 4), rel=1e-9)
    assert out["flip_pct_high"] == pytest.approx(100 * beta.ppf(0.975, 3, 3), rel=1e-9)
    assert (out["flip_pct_low"], out["flip_pct_high"]) == pytest.approx((5.27, 85.34), abs=0.01)
    assert out["verdict_flips"] == "not enough data"
    # no failures in 5 and 5 reviews: Newcombe's interval of 0 - 0 is +-0.4345 (Wilson: 0 to 0.4345 each)
    assert out["failure_gap_pct"] == 0.0 and out["failure_gap_high"] == pytest.approx(43.45, abs=0.01)
    assert out["verdict_failures"] == "not enough data"
    assert out["verdict_discriminability"] == "not enough data"  # 5 papers < min_papers 10
    assert out["verdict"] == "not enough data" and not out["passed"]


def test_twelve_papers_all_favouring_one_arm_fail() -> None:
    # A higher on 12 of 12: p >= 0.025^(1/12) = 0.73535 -> ln R >= ln(0.73535 / 0.26465) = 1.0219 > ln 1.5.
    recs = []
    for i in range(12):
        recs += [("B", f"p{i}", "original", 6 + i % 3), ("B", f"p{i}", "confidence:+", 7 + i % 3)]
    out = scorecard(rows(recs)).iloc[0]
    low = 0.025 ** (1 / 12)
    assert out["abs_log_ratio_low"] == pytest.approx(math.log(low / (1 - low)), rel=1e-9)
    assert out["abs_log_ratio_low"] == pytest.approx(1.0219, abs=1e-4)
    assert out["verdict_preference"] == "fail" and out["verdict"] == "fail"
    assert ("|ln preference ratio| inf, 95% interval [1.02, inf] (confidence:+ vs original; 12 vs 0 untied papers) "
            "exceeds 0.41") in out["reasons"]
    # no flip (every score above 4.5): 0 of 12 -> upper 1 - 0.025^(1/12) = 26.46% > 10%: undecided
    assert out["flip_pct_high"] == pytest.approx(100 * (1 - low), rel=1e-9)
    assert out["verdict_flips"] == "not enough data"


def test_balanced_large_study_passes_every_check() -> None:
    # 200 papers, originals 5.5 .. 9.4 (rewrites never at or below 4.5), rewrites +-0.5 alternately: 100 vs 100 untied,
    # p-hat 0.5, 95% interval [Beta(.025; 100, 101), Beta(.975; 101, 100)] -> |ln R| <= 0.2866 < 0.405.
    recs = []
    for i in range(200):
        o = 5.5 + (i % 40) * 0.1
        recs += [("G", f"p{i}", "original", o), ("G", f"p{i}", "confidence:+", o + (0.5 if i % 2 else -0.5))]
    out = scorecard(rows(recs)).iloc[0]
    hi = beta.ppf(0.975, 101, 100)
    assert out["abs_log_ratio_high"] == pytest.approx(math.log(hi / (1 - hi)), rel=1e-9)
    assert out["abs_log_ratio_high"] == pytest.approx(0.2866, abs=1e-3)
    assert out["verdict_preference"] == "pass"
    # 0 flips of 200: upper 1 - 0.025^(1/200) = 1.83% <= 10%
    assert out["flip_pct_high"] == pytest.approx(100 * (1 - 0.025 ** (1 / 200)), rel=1e-9)
    assert out["verdict_flips"] == "pass" and out["verdict_failures"] == "pass"
    assert out["verdict_discriminability"] == "pass" and out["discriminability_low"] >= 0.7
    assert out["verdict"] == "pass" and out["passed"] and out["reasons"] == ""


def test_scorecard_without_pairs_is_not_enough_data() -> None:
    out = scorecard(rows([("R", "p1", "original", 5)])).iloc[0]
    assert not out["passed"] and out["verdict"] == "not enough data"
    assert "no paired papers" in out["reasons"]


@pytest.mark.parametrize(("k1", "n1", "k2", "n2", "alpha"),
                         [(0, 5, 0, 5, 0.05), (3, 40, 0, 40, 0.05), (10, 10, 0, 10, 0.01), (7, 23, 12, 31, 0.1),
                          (56, 70, 48, 80, 0.05)])
def test_newcombe_difference_matches_statsmodels(k1: int, n1: int, k2: int, n2: int, alpha: float) -> None:
    from statsmodels.stats.proportion import confint_proportions_2indep

    from rhetorica.analysis.scorecard import newcombe_difference

    expected = confint_proportions_2indep(k1, n1, k2, n2, method="newcomb", compare="diff", alpha=alpha)
    assert newcombe_difference(k1, n1, k2, n2, alpha) == pytest.approx(expected, rel=1e-9, abs=1e-12)


def test_newcombe_difference_hand_value() -> None:
    from rhetorica.analysis.scorecard import newcombe_difference

    # 0/5 vs 0/5 at 95%: each Wilson interval is [0, z^2 / (5 + z^2)] = [0, 0.43448], so (L, U) = (-0.43448, 0.43448)
    z2 = 1.959963984540054**2
    assert newcombe_difference(0, 5, 0, 5, 0.05) == pytest.approx((-z2 / (5 + z2), z2 / (5 + z2)), rel=1e-9)


def test_value_columns_describe_the_deciding_pair() -> None:
    # Pair confidence:+ vs original: A higher on all 12 papers (fails, |ln R| interval beyond ln 1.5).
    # Pair confidence:- vs original: A higher on 1 paper, 11 ties: R = inf from one paper (undecided).
    # The failing pair decides, so its point (inf: 12 vs 0) and interval are shown, not the other's.
    recs = []
    for i in range(12):
        recs += [("R", f"p{i}", "original", 6), ("R", f"p{i}", "confidence:+", 8),
                 ("R", f"p{i}", "confidence:-", 7 if i == 0 else 6)]
    out = scorecard(rows(recs), pairs=[("confidence:-", "original"), ("confidence:+", "original")]).iloc[0]
    assert out["worst_pair"] == "confidence:+ vs original" and out["verdict_preference"] == "fail"
    low = beta.ppf(0.025 / 2, 12, 1)  # Bonferroni over the 2 pairs: 97.5% interval; 0.69408 -> ln R 0.8193
    assert out["abs_log_ratio_low"] == pytest.approx(math.log(low / (1 - low)), rel=1e-9)
    # undecided pairs are not listed once a pair fails
    assert out["reasons"].count("|ln preference ratio|") == 1
    assert out["reasons"].startswith("|ln preference ratio| inf, 97.5% interval [0.82, inf] (confidence:+ vs original; "
                                     "12 vs 0 untied papers) exceeds 0.41; ")


def test_failure_counts_of_every_reviewer_equal_each_reviewers_groupby() -> None:
    import pandas as pd

    from rhetorica.analysis.scorecard import _failure_counts, failure_gap_intervals

    df = pd.DataFrame({
        "reviewer": ["b", "b", "b", "a", "a", "a", None, "c"],
        "arm": ["original", "x", "x", "x", None, "original", "x", None],
        "status": ["ok", "malformed", "ok", "refused", "error", "ok", "error", "ok"],
    })
    counts = _failure_counts(df)
    assert sorted(counts) == ["a", "b", "c"] and counts["c"].empty  # c has no row with an arm; no null reviewer
    for reviewer in ("a", "b"):
        expected = df[df["reviewer"] == reviewer]["status"].ne("ok").groupby(df["arm"]).agg(["sum", "count"])
        assert counts[reviewer]["sum"].tolist() == expected["sum"].tolist() == ([0, 1] if reviewer == "a" else [0, 1])
        assert counts[reviewer]["count"].tolist() == expected["count"].tolist() == ([1, 1] if reviewer == "a" else [1, 2])
        assert list(counts[reviewer].index) == list(expected.index) == ["original", "x"]
    # b: 0/1 failed under original vs 1/2 under x
    (gap,) = failure_gap_intervals(df[df["reviewer"] == "b"], 10.0, 0.05)
    assert gap.point == pytest.approx(50.0) and gap.detail == "0/1 vs 1/2 reviews failed"


def _noisy_reviewer(flips_rewrite: int, flips_rereview: int, papers: int = 12) -> tuple:
    """Reviewer N: every original 4 (not accepted at 4.5); the rewrite 6 (accepted) on the first
    ``flips_rewrite`` papers, else 4; the re-review mean of the original 6 on the first
    ``flips_rereview`` papers, else 4."""
    import pandas as pd

    recs = [("N", f"p{i:02d}", arm, v) for i in range(papers)
            for arm, v in (("original", 4), ("confidence:+", 6 if i < flips_rewrite else 4))]
    noise = pd.DataFrame({"document_id": [f"p{i:02d}" for i in range(papers)], "reviewer": "N",
                          "metric": "overall", "rereview": [6.0 if i < flips_rereview else 4.0 for i in range(papers)]})
    return rows(recs), noise


def test_flips_as_frequent_as_the_reviewers_re_review_flips_do_not_fail() -> None:
    """10 of 12 papers flip under the rewrite: the raw flip interval (Clopper-Pearson of 10/12,
    lower Beta(0.025; 10, 3) = 0.516) lies above 10%, a failure. The same 10 papers flip when the
    reviewer merely re-reviews the original: no paper flips beyond the noise, d = 0 with the
    interval [-u, u], u = 1 - 0.025^(1/12) = 0.264 (the bound of 0 discordant papers of 12)."""
    df, noise = _noisy_reviewer(10, 10)
    raw = scorecard(df).iloc[0]
    assert raw["verdict_flips"] == "fail" and raw["flip_pct_low"] == pytest.approx(100 * beta.ppf(0.025, 10, 3))
    card = scorecard(df, rereviews=noise).iloc[0]
    u = 1 - 0.025 ** (1 / 12)
    assert (card["flip_pct"], card["flip_pct_low"], card["flip_pct_high"]) == pytest.approx((0.0, -100 * u, 100 * u))
    assert card["verdict_flips"] == "not enough data" and "beyond re-review noise: 0 of 12" in card["reasons"]
    assert scorecard(df, rereviews=noise.assign(metric="soundness")).iloc[0]["verdict_flips"] == "fail"  # other metric


def test_flips_beyond_the_re_review_flips_fail() -> None:
    """All 12 papers flip under the rewrite, none on re-review: d = 1, lower bound
    2·0.025^(1/12) − 1 = 0.472 (Clopper-Pearson of 12 of 12 mapped to d), above 10%: a failure."""
    df, noise = _noisy_reviewer(12, 0)
    card = scorecard(df, rereviews=noise).iloc[0]
    assert card["verdict_flips"] == "fail"
    assert card["flip_pct_low"] == pytest.approx(100 * (2 * 0.025 ** (1 / 12) - 1))


@pytest.mark.parametrize("transport", ["error", "timeout"])
def test_the_failure_rate_counts_the_reviewer_s_own_outcomes_never_transport_failures(transport: str) -> None:
    import pandas as pd

    from rhetorica.analysis.scorecard import _failure_counts, failure_gap_intervals

    # arm A: 8 ok, 2 malformed, 5 transport failures; arm B: 9 ok, 1 refused, 6 transport failures
    statuses = {"A": ["ok"] * 8 + ["malformed"] * 2 + [transport] * 5, "B": ["ok"] * 9 + ["refused"] + [transport] * 6}
    df = pd.DataFrame([{"reviewer": "r", "arm": arm, "status": s} for arm, found in statuses.items() for s in found])
    (gap,) = failure_gap_intervals(df, 10.0, 0.05)
    # 2/10 vs 1/10: the 11 transport failures are in neither count (with them: 7/15 vs 7/16)
    assert gap.detail == "2/10 vs 1/10 reviews failed" and gap.point == pytest.approx(10.0)
    counts = _failure_counts(df)["r"]
    assert (counts["sum"].tolist(), counts["count"].tolist()) == ([2, 1], [10, 10])


def test_a_reviewer_whose_calls_brought_no_answer_says_so_in_the_failure_gap_reason() -> None:
    # the trial's reviewer: in two arms every call failed in transport (left out of the failure rate,
    # the endpoint's outcome), in the original one review was malformed; so one arm is counted, and the
    # reason says why instead of "only one condition reviewed" (three were asked)
    records = [("R", f"p{i}", arm, None) for i, arm in enumerate(["original", "c+@rw", "c+@rw", "c-@rw", "c-@rw"])]
    out = scorecard(rows(records, status={0: "malformed", 1: "error", 2: "error", 3: "error", 4: "timeout"})).iloc[0]
    assert out["verdict"] == "not enough data"
    assert ("failure-rate gap: 1 condition(s) with answered calls (4 call(s) that brought no answer left out): "
            "not enough data") in out["reasons"]


def test_discriminability_without_an_ordered_pair_is_not_enough_data_never_a_fail() -> None:
    """Generated: 2..25 papers whose originals all score the same (levels 1, 5, 10), rewrites
    constant or spread: no pair of papers is ordered, so discriminability is NaN and its verdict
    'not enough data' (before: 0.50 [0.50, 0.50] and 'fail' from 10 papers). One paper with a
    different original makes it computable again."""
    undecided = computable = 0
    for n in range(2, 26):
        for level in (1, 5, 10):
            for spread in (False, True):
                recs = [("R", f"p{i}", arm, level if arm == "original" else (1 + (i * 3) % 10 if spread else level))
                        for i in range(n) for arm in ("original", "confidence:+")]
                out = scorecard(rows(recs)).iloc[0]
                assert math.isnan(out["discriminability"]) and out["verdict_discriminability"] == "not enough data"
                assert "discriminability not computable (no pair of papers" in out["reasons"]
                undecided += 1
        recs[0] = ("R", "p0", "original", 1 if level != 1 else 10)
        out = scorecard(rows(recs)).iloc[0]
        assert math.isfinite(out["discriminability"])
        computable += 1
    assert (undecided, computable) == (144, 24)
