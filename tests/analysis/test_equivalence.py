"""Judge reliability: Wilcoxon vs scipy, TOST vs statsmodels, Bonferroni, classes, agreement."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import wilcoxon

from rhetorica.analysis.equivalence import (
    bonferroni,
    judge_agreement,
    judge_reliability,
    paired_judge_differences,
    tost_paired,
    wilcoxon_signed_rank,
)


def test_wilcoxon_hand_computed_exact() -> None:
    # ranks 1,2,3,4; T+ = 6, T- = 4; P(T+ <= 4) = 7/16 for n = 4 -> p = 7/8
    r = wilcoxon_signed_rank([1.0, 2.0, 3.0, -4.0, 0.0])
    assert (r.statistic, r.n, r.method) == (6.0, 4, "exact")
    assert r.pvalue == pytest.approx(0.875)
    assert wilcoxon_signed_rank([0.0, 0.0]).pvalue == 1.0


@pytest.mark.parametrize("seed", range(4))
def test_wilcoxon_exact_matches_scipy(seed: int) -> None:
    d = np.random.default_rng(seed).normal(0.3, 1.0, 25)
    ours = wilcoxon_signed_rank(d)
    ref = wilcoxon(d, zero_method="wilcox", method="exact")
    assert ours.method == "exact"
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-10)


@pytest.mark.parametrize("seed", range(4))
def test_wilcoxon_normal_with_ties_and_zeros_matches_scipy(seed: int) -> None:
    d = np.random.default_rng(seed).integers(-3, 5, 70).astype(float)
    ours = wilcoxon_signed_rank(d)
    ref = wilcoxon(d, zero_method="wilcox", correction=False, method="asymptotic")
    assert ours.method == "normal" and ours.n == int(np.sum(d != 0))
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-10)


@pytest.mark.parametrize("seed", range(4))
def test_tost_matches_statsmodels(seed: int) -> None:
    smw = pytest.importorskip("statsmodels.stats.weightstats")
    rng = np.random.default_rng(seed)
    original = rng.normal(50, 10, 40)
    rewrite = original + rng.normal(0.5 * seed, 3, 40)
    ref = smw.ttost_paired(rewrite, original, -2.0, 2.0)[0]
    assert tost_paired(rewrite - original, -2.0, 2.0) == pytest.approx(ref, rel=1e-10)


def test_tost_edge_cases() -> None:
    assert tost_paired([1.0, 1.0, 1.0], -2, 2) == 0.0
    assert tost_paired([3.0, 3.0], -2, 2) == 1.0
    assert math.isnan(tost_paired([1.0], -2, 2))
    with pytest.raises(ValueError, match="low < high"):
        tost_paired([1.0, 2.0], 2, -2)


def test_bonferroni_hand_computed() -> None:
    level, reject = bonferroni([0.01, 0.02, 0.2, np.nan], alpha=0.05)
    assert level == 0.0125
    assert reject.tolist() == [True, False, False, False]


def judge_table() -> pd.DataFrame:
    rng = np.random.default_rng(0)
    n = 30
    alternating = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    shifts = {
        "polish": np.full(n, 5.0) + rng.normal(0, 0.1, n),  # large consistent shift
        "stable": alternating * rng.uniform(0.01, 0.2, n),  # symmetric, tiny
        "small_shift": 0.2 + rng.uniform(0.0, 0.05, n),  # consistent but inside the bound
        "noisy": alternating * rng.uniform(0.5, 3.0, n),  # wide, symmetric
    }
    recs = []
    for judge in ("j1", "j2"):
        for metric, d in shifts.items():
            if judge == "j2" and metric == "small_shift":
                d = d + 5.0  # j2 is fooled: moves small_shift into "sensitive"
            for i in range(n):
                base = 50.0 + i
                recs.append((f"doc{i}", "original", judge, metric, base))
                recs.append((f"doc{i}", "rewrite", judge, metric, base + d[i]))
    return pd.DataFrame(recs, columns=["document_id", "arm", "judge", "metric", "score"])


def test_classification_of_constructed_metrics() -> None:
    bounds = {"polish": 1.0, "stable": 1.0, "small_shift": 1.0, "noisy": 0.5}
    out = judge_reliability(judge_table(), bounds)
    j1 = out[out["judge"] == "j1"].set_index("metric")
    assert j1.loc["polish", "classification"] == "sensitive"
    assert j1.loc["stable", "classification"] == "robust"
    assert j1.loc["small_shift", "classification"] == "sensitive_and_robust"
    assert j1.loc["noisy", "classification"] == "inconclusive"
    assert (out["alpha_bonferroni"] == 0.05 / 4).all()
    assert (out["n_pairs"] == 30).all()
    agreement = judge_agreement(out, "j1", "j2")
    assert (agreement.n_metrics, agreement.n_same) == (4, 3)
    assert agreement.table["sensitive_and_robust"]["sensitive"] == 1
    assert agreement.share_same == 0.75


def test_judge_table_errors_and_missing_pairs() -> None:
    t = judge_table()
    with pytest.raises(ValueError, match="equivalence bound"):
        judge_reliability(t, {"polish": 1.0})
    bad = t.copy()
    bad.loc[0, "arm"] = "paraphrase"
    with pytest.raises(ValueError, match="'paraphrase'"):
        paired_judge_differences(bad)
    t = t.assign(status="ok")
    t.loc[(t["document_id"] == "doc0") & (t["arm"] == "rewrite"), "status"] = "malformed"
    d = paired_judge_differences(t)
    assert len(d) == 2 * 4 * 29  # doc0 unpaired for every judge and metric
