"""Paired tests on expected scores (soft ratings) and papers needed from a pilot run."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

from rhetorica.analysis.paired import comparison_table
from rhetorica.analysis.power import integer_pair_probabilities, papers_needed
from rhetorica.analysis.soft import (
    WILCOXON_ARE,
    paired_soft_test,
    pilot_plan,
    pooled_sd,
    soft_comparison,
    with_soft_ratings,
)
from tests.analysis.helpers import rows


def test_wilcoxon_exact_p_and_mean_by_hand() -> None:
    d = np.array([0.5, -0.2, 1.0, 0.3, 0.8])
    out = paired_soft_test(d, np.zeros(5), n_resamples=999)
    # ranks of |d|: 0.2->1 (negative), 0.3->2, 0.5->3, 0.8->4, 1.0->5; W- = 1.
    # Exact null: of 2^5 = 32 sign patterns, W- <= 1 in 2 (W- = 0 and W- = 1): p = 2 * 2/32
    assert out["wilcoxon_p"] == pytest.approx(0.125)
    assert out["soft_mean_diff"] == pytest.approx(0.48) and out["soft_n_pairs"] == 5
    assert -0.2 <= out["soft_ci_low"] < 0.48 < out["soft_ci_high"] <= 1.0


def test_all_equal_differences_and_no_pairs() -> None:
    same = paired_soft_test([2.0, 3.0, 4.0], [1.5, 2.5, 3.5])
    # every difference 0.5: every resample gives 0.5, so no interval (was [0.5, 0.5])
    assert same["soft_mean_diff"] == 0.5 and math.isnan(same["soft_ci_low"]) and math.isnan(same["soft_ci_high"])
    none = paired_soft_test([1.0, np.nan], [np.nan, 2.0])
    assert none["soft_n_pairs"] == 0 and math.isnan(none["soft_mean_diff"]) and math.isnan(none["wilcoxon_p"])


def _tidy() -> pd.DataFrame:
    records, expected = [], []
    # reviewer r: rewrite higher by 0.25, 0.5, 0.75 expected points (integers equal); replicates averaged
    for i, shift in enumerate((0.25, 0.5, 0.75)):
        for rep, e in enumerate((6.0, 6.2)):
            records += [("r", f"p{i}", "original", 6), ("r", f"p{i}", "confidence:+@rw", 6)]
            expected += [e, e + shift]
    df = rows(records)
    df["replicate"] = [k // 2 % 2 for k in range(len(df))]
    df["overall.expected"] = expected
    return df


def test_soft_comparison_by_hand_where_integers_tie() -> None:
    df = _tidy()
    out = soft_comparison(df, [("confidence:+@rw", "original")], n_resamples=999)
    row = out.iloc[0]
    assert row["soft_n_pairs"] == 3 and row["soft_mean_diff"] == pytest.approx(0.5)
    assert row["wilcoxon_p"] == pytest.approx(0.25)  # n = 3, all positive: 2 / 2^3
    table = comparison_table(df, [("confidence:+@rw", "original")])
    assert table.iloc[0]["pct_tie"] == 100.0  # the sign test sees nothing
    joined = with_soft_ratings(table, df, n_resamples=999)
    assert joined.iloc[0]["soft_mean_diff"] == pytest.approx(0.5)
    assert list(joined.columns[: len(table.columns)]) == list(table.columns)


def test_tables_unchanged_without_soft_ratings() -> None:
    df = _tidy().drop(columns=["overall.expected"])
    table = comparison_table(df, [("confidence:+@rw", "original")])
    pd.testing.assert_frame_equal(with_soft_ratings(table, df), table)
    df["overall.expected"] = np.nan  # a reviewer whose provider has no log-probabilities
    pd.testing.assert_frame_equal(with_soft_ratings(table, df), table)


def test_pilot_plan_soft_papers_follow_the_pilot_sd() -> None:
    rng = np.random.default_rng(3)
    records, expected = [], []
    for i in range(40):
        base = rng.normal(6, 1)
        e0, e1 = base + rng.normal(0, 0.25), base + rng.normal(0, 0.25)
        records += [("r", f"p{i}", "original", int(np.clip(round(e0), 1, 10))),
                    ("r", f"p{i}", "confidence:+@rw", int(np.clip(round(e1), 1, 10)))]
        expected += [e0, e1]
    df = rows(records)
    df["overall.expected"] = expected
    plan = pilot_plan(df, 0.3, pairs=[("confidence:+@rw", "original")]).iloc[0]
    d = df["overall.expected"].to_numpy()[1::2] - df["overall.expected"].to_numpy()[0::2]
    assert plan["sd_soft"] == pytest.approx(np.std(d, ddof=1))
    # normal approximation (Noether 1987): n_z = ((z_.975 + z_.8) sd / shift)^2; the t-test needs a little more
    n_z = ((norm.ppf(0.975) + norm.ppf(0.8)) * plan["sd_soft"] / 0.3) ** 2
    assert n_z / WILCOXON_ARE <= plan["papers_soft"] <= (n_z + 3) / WILCOXON_ARE + 1
    assert plan["papers_integer"] > plan["papers_soft"] and plan["ratio"] > 1


def test_pilot_plan_without_soft_ratings_gives_integer_only() -> None:
    df = _tidy().drop(columns=["overall.expected"])
    df.loc[df["arm"] == "original", "overall"] = [5, 6, 7, 5, 6, 7]
    plan = pilot_plan(df, 0.5).iloc[0]
    assert plan["papers_soft"] is None and math.isnan(plan["sd_soft"]) and plan["papers_integer"] is not None
    with pytest.raises(ValueError, match="shift must be a finite number > 0"):
        pilot_plan(df, 0.0)


#: Two compared pairs of unequal size (p2 has no confidence:+ review):
#: confidence:+ - original = 1, 3 (mean 2); proficiency:+ - original = 0, 2, 4 (mean 2)
TWO_PAIRS = [("r", "p0", "original", 5), ("r", "p0", "confidence:+", 6), ("r", "p0", "proficiency:+", 5),
             ("r", "p1", "original", 5), ("r", "p1", "confidence:+", 8), ("r", "p1", "proficiency:+", 7),
             ("r", "p2", "original", 5), ("r", "p2", "proficiency:+", 9)]


def test_pooled_sd_by_hand() -> None:
    # deviations from each group's mean: -1, 1 and -2, 0, 2: SS = 10 on 5 - 2 = 3 degrees of freedom
    assert pooled_sd([[1, 3], [0, 2, 4]]) == (pytest.approx(math.sqrt(10 / 3)), 3)
    assert pooled_sd([[2.5], [], [7.0]])[1] == 0 and math.isnan(pooled_sd([[2.5], [7.0]])[0])
    assert pooled_sd([[1, 3]]) == (pytest.approx(np.std([1, 3], ddof=1)), 1)  # one group: the sample SD


def test_pilot_plan_pools_the_pairs_and_one_paper_per_pair_is_not_estimable() -> None:
    """The SD of paired differences pools the compared pairs with one degree of freedom per pair mean
    (before: the centred values' sample SD, sqrt(10/4) here, and 0.0 when every pair had one paper)."""
    plan = pilot_plan(rows(TWO_PAIRS), 0.5).iloc[0]
    assert (plan["n_pairs"], plan["df_integer"]) == (5, 3)
    assert plan["sd_integer"] == pytest.approx(1.8257418583505538)  # sqrt(10 / 3)
    win, loss, tie = integer_pair_probabilities(0.5, math.sqrt(10 / 3) / math.sqrt(2))
    assert plan["papers_integer"] == papers_needed(win / loss, power=0.8, alpha=0.05, tie_prob=tie, max_papers=5000)
    single = [r for r in TWO_PAIRS if r[1] == "p0"]  # one paper: one difference per compared pair
    plan = pilot_plan(rows(single), 0.5).iloc[0]
    assert (plan["n_pairs"], plan["df_integer"], plan["papers_integer"]) == (2, 0, None)
    assert math.isnan(plan["sd_integer"]) and math.isnan(plan["ratio"])
