"""Pooled SD, stratified bootstrap and change-vs-original against hand computations."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from rhetorica.analysis.bootstrap import (
    percentile_ci,
    stratified_bootstrap,
    stratum_weighted_mean,
)
from rhetorica.analysis.change import movement_by_initial_score, paired_change
from rhetorica.analysis.variance import pooled_sd

from .helpers import rows


def test_pooled_sd_hand_computed() -> None:
    # group p1: 4, 6 (var 2, dof 1); group p2: 5, 5, 8 (var 3, dof 2); p3 single score skipped;
    # a failed review (status error, score 1) never counts.
    recs = [
        ("R", "p1", "original", 4),
        ("R", "p1", "original", 6),
        ("R", "p2", "original", 5),
        ("R", "p2", "original", 5),
        ("R", "p2", "original", 8),
        ("R", "p3", "original", 7),
        ("R", "p1", "original", 1),
        ("S", "p1", "original", 5),
    ]
    df = rows(recs, replicate={1: 1, 3: 1, 4: 2, 6: 2}, status={6: "error"})
    out = pooled_sd(df).set_index("reviewer")
    assert out.loc["R", "pooled_sd"] == pytest.approx(math.sqrt((1 * 2 + 2 * 3) / 3))
    assert out.loc["R", "n_groups"] == 2 and out.loc["R", "n_reviews"] == 5
    assert math.isnan(out.loc["S", "pooled_sd"]) and out.loc["S", "n_groups"] == 0


def test_pooled_sd_equals_anova_within_mean_square() -> None:
    rng = np.random.default_rng(3)
    recs = [("R", f"p{i}", "original", float(x)) for i in range(6) for x in rng.integers(1, 11, 4)]
    df = rows(recs)
    groups = df.groupby("document_id")["overall"]
    msw = sum(((g - g.mean()) ** 2).sum() for _, g in groups) / (len(df) - 6)
    assert pooled_sd(df, arm="original").iloc[0]["pooled_sd"] == pytest.approx(math.sqrt(msw))


def test_stratum_weighted_mean_gives_strata_equal_weight() -> None:
    values = np.array([[1.0], [1.0], [1.0], [4.0]])
    assert stratum_weighted_mean(values, ["a", "a", "a", "b"])[0] == 2.5


def test_stratified_bootstrap_reproducible_and_stratified() -> None:
    values = np.array([[0.0], [1.0], [2.0], [10.0], [20.0]])
    strata = ["a", "a", "a", "b", "b"]
    s1 = stratified_bootstrap(values, strata, n_resamples=2000, seed=11)
    s2 = stratified_bootstrap(values, strata, n_resamples=2000, seed=11)
    s3 = stratified_bootstrap(values, strata, n_resamples=2000, seed=12)
    assert np.array_equal(s1, s2) and not np.array_equal(s1, s3)
    # each resample keeps both strata: the stratum-b mean lies in [10, 20], a-mean in [0, 2]
    assert s1.min() >= (0 + 10) / 2 and s1.max() <= (2 + 20) / 2
    # the bootstrap mean of a mean is unbiased: close to the point estimate (1 + 15) / 2 = 8
    assert s1.mean() == pytest.approx(8.0, abs=0.2)
    low, high = percentile_ci(s1)
    assert low[0] == np.quantile(s1[:, 0], 0.025) and high[0] == np.quantile(s1[:, 0], 0.975)


def test_bootstrap_single_value_strata_have_zero_width() -> None:
    s = stratified_bootstrap(np.array([[3.0], [3.0], [5.0]]), ["a", "a", "b"], n_resamples=50)
    assert np.all(s == 4.0)
    with pytest.raises(ValueError, match="NaN"):
        stratified_bootstrap(np.array([[np.nan]]), ["a"])


def change_data() -> pd.DataFrame:
    # stratum low: p1 (orig 3, rewrite 5), p2 (orig 4, rewrite 4)
    # stratum high: p3 (orig 6, rewrite 5), p4 (orig 7 replicated 6/8, rewrite 9)
    # p5: rewrite failed -> left out
    recs = [
        ("R", "p1", "original", 3),
        ("R", "p1", "joint", 5),
        ("R", "p2", "original", 4),
        ("R", "p2", "joint", 4),
        ("R", "p3", "original", 6),
        ("R", "p3", "joint", 5),
        ("R", "p4", "original", 6),
        ("R", "p4", "original", 8),
        ("R", "p4", "joint", 9),
        ("R", "p5", "original", 5),
        ("R", "p5", "joint", None),
    ]
    df = rows(recs, replicate={7: 1}, status={10: "malformed"})
    df["human_stratum"] = df["document_id"].map(
        {"p1": "[1,3)", "p2": "[1,3)", "p3": "[6,7)", "p4": "[6,7)", "p5": "[6,7)"}
    )
    return df


def test_paired_change_hand_computed() -> None:
    out = paired_change(change_data(), n_resamples=500, seed=1).iloc[0]
    assert (out["first"], out["second"], out["n_papers"], out["n_strata"]) == (
        "joint",
        "original",
        4,
        2,
    )
    # d: low stratum (2, 0) -> 1; high stratum (-1, 2) -> 0.5; equal weight -> 0.75
    assert out["mean_change"] == pytest.approx(0.75)
    # |d|: low (2, 0) -> 1; high (1, 2) -> 1.5 -> 1.25
    assert out["mean_abs_change"] == pytest.approx(1.25)
    # weak accept (>= 6): original p1 0, p2 0 | p3 1, p4 1 (6 and 8) -> (0 + 1) / 2
    assert out["weak_accept_second"] == pytest.approx(0.5)
    # rewrite: p1 0, p2 0 | p3 0, p4 1 -> (0 + 0.5) / 2
    assert out["weak_accept_first"] == pytest.approx(0.25)
    assert out["weak_accept_change"] == pytest.approx(-0.25)
    assert out["mean_change_low"] <= 0.75 <= out["mean_change_high"]
    # extreme resamples: low stratum in {0, 1, 2}, high in {-1, 0.5, 2}
    assert out["mean_change_low"] >= -0.5 and out["mean_change_high"] <= 2.0


def test_paired_change_seeded_is_reproducible() -> None:
    df = change_data()
    a = paired_change(df, n_resamples=300, seed=5)
    b = paired_change(df, n_resamples=300, seed=5)
    pd.testing.assert_frame_equal(a, b)


def test_paired_change_without_strata_is_plain_mean() -> None:
    df = change_data().drop(columns=["human_stratum"])
    out = paired_change(df, n_resamples=100).iloc[0]
    assert out["n_strata"] == 1
    assert out["mean_change"] == pytest.approx((2 + 0 - 1 + 2) / 4)


def test_movement_by_initial_score_bins() -> None:
    out = movement_by_initial_score(change_data())
    got = out.set_index("initial_bin")
    # originals: p1 3 -> [3,4), p2 4 -> [4,5), p3 6 and p4 7 -> [6,7) and [7,10]; p5 5 unpaired
    assert list(out["initial_bin"]) == ["[3,4)", "[4,5)", "[6,7)", "[7,10]"]
    assert got.loc["[3,4)", "mean_change"] == 2 and got.loc["[3,4)", "share_up"] == 1.0
    assert got.loc["[4,5)", "share_same"] == 1.0
    assert got.loc["[6,7)", "share_down"] == 1.0
    assert got.loc["[7,10]", "mean_abs_change"] == 2.0
    with pytest.raises(ValueError, match="increasing"):
        movement_by_initial_score(change_data(), bins=[1, 1, 10])


def test_bootstrap_columns_share_draws_and_equal_one_at_a_time() -> None:
    from rhetorica.analysis.bootstrap import stratified_bootstrap_columns

    rng = np.random.default_rng(0)
    values = rng.normal(size=(7, 3))
    strata = ["a", "b", "a", "b", "a", "c", "c"]
    columns = stratified_bootstrap_columns(values, strata, n_resamples=300, seed=9)
    for k in range(3):  # one draw per stratum serves every column
        assert np.allclose(columns[:, k], stratified_bootstrap(values[:, [k]], strata, n_resamples=300, seed=9)[:, 0])
    with pytest.raises(ValueError, match="n_resamples"):
        stratified_bootstrap(np.ones((2, 1)), ["a", "a"], n_resamples=0)


def test_bootstrap_columns_with_missing_papers_by_hand() -> None:
    from rhetorica.analysis.bootstrap import resample_counts, stratified_bootstrap_columns

    # one stratum of three papers; column 0 has all three, column 1 lacks paper 2
    values = np.array([[1.0, 10.0], [2.0, 20.0], [4.0, np.nan]])
    samples = stratified_bootstrap_columns(values, ["s"] * 3, n_resamples=400, seed=2)
    counts = resample_counts(3, 400, np.random.default_rng([2, 0, 3]))
    assert np.allclose(samples[:, 0], counts @ values[:, 0] / 3)
    drawn = counts[:, :2].sum(axis=1)
    expected = np.where(drawn > 0, (counts[:, :2] @ values[:2, 1]) / np.where(drawn > 0, drawn, 1), np.nan)
    assert np.array_equal(np.isnan(samples[:, 1]), drawn == 0) and (drawn == 0).any()  # only paper 2 drawn
    assert np.allclose(samples[:, 1], expected, equal_nan=True)
    low, high = percentile_ci(samples)  # undefined resamples are left out
    assert (low[1], high[1]) == (np.quantile(expected[drawn > 0], 0.025), np.quantile(expected[drawn > 0], 0.975))


def test_change_interval_needs_two_papers_in_a_stratum() -> None:
    """Generated: 1-6 paired papers, all in one stratum, each in its own stratum, or without a
    stratum; plus a paper whose rewrite failed. The change and weak-accept change keep their point
    (hand mean) everywhere, and have an interval exactly where some stratum holds two paired papers
    (before: one paper gave 2.00 [2.00, 2.00] and 1.00 [1.00, 1.00])."""
    none = intervals = 0
    for n in range(1, 7):
        for layout in ("one", "own", "missing"):
            recs = [("R", f"p{i}", arm, s) for i in range(n) for arm, s in (("original", 4), ("joint", 6 + i % 2))]
            recs += [("R", "pf", "original", 5), ("R", "pf", "joint", None)]
            df = rows(recs, status={len(recs) - 1: "malformed"})
            if layout != "missing":
                df["human_stratum"] = df["document_id"].map(lambda d: "s" if layout == "one" else d)
            r = paired_change(df, n_resamples=200).iloc[0]
            assert r["n_papers"] == n
            diffs = [2 + i % 2 for i in range(n)]
            assert r["mean_change"] == pytest.approx(np.mean(diffs))  # one paper per stratum: the plain mean too
            assert r["weak_accept_change"] == 1.0
            cols = ["mean_change_low", "mean_change_high", "mean_abs_change_low", "weak_accept_change_high"]
            if layout == "own" or n == 1:
                assert all(math.isnan(r[c]) for c in cols), (n, layout)
                none += 1
            else:
                assert r["mean_change_low"] <= r["mean_change"] <= r["mean_change_high"]
                intervals += 1
    assert (none, intervals) == (8, 10)  # own: 6; one and missing at n = 1: 2


def test_resamplable_by_hand() -> None:
    from rhetorica.analysis.bootstrap import resamplable

    values = np.array([[1.0, np.nan, 1.0], [2.0, np.nan, np.nan], [np.nan, 3.0, 4.0], [np.nan, 5.0, np.nan]])
    # column 0: stratum a has 2 papers; column 1: stratum b has 2; column 2: one paper in each
    assert resamplable(values, ["a", "a", "b", "b"]).tolist() == [True, True, False]
    assert resamplable(values, ["a", "b", "c", "d"]).tolist() == [False, False, False]
