"""Paper-clustered review-metric analysis against hand-computed values and scipy/statsmodels."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import wilcoxon
from statsmodels.stats.weightstats import ttost_paired

from rhetorica.analysis.clustered import (
    aggregate_differences, cluster_bootstrap, clustered_reliability, level_differences, pair_differences,
)
from rhetorica.analysis.equivalence import judge_agreement


def table(rows: list[tuple[str, str, str, float, float]], judge: str = "j1", metric: str = "m") -> pd.DataFrame:
    """rows: (paper, review, variant, original score, rewrite score)."""
    out = []
    for paper, review, variant, orig, new in rows:
        out.append({"paper_id": paper, "document_id": review, "variant": None, "arm": "original", "judge": judge,
                    "metric": metric, "score": orig})
        out.append({"paper_id": paper, "document_id": review, "variant": variant, "arm": "rewrite", "judge": judge,
                    "metric": metric, "score": new})
    return pd.DataFrame(out)


ROWS = [("P1", "r1", "r1.a", 3, 4), ("P1", "r1", "r1.b", 3, 6), ("P1", "r2", "r2.a", 2, 2),
        ("P2", "r3", "r3.a", 5, 4), ("P3", "r4", "r4.a", 1, 2), ("P3", "r4", "r4.b", 1, 3)]


def test_differences_per_rewrite_review_and_paper() -> None:
    t = table(ROWS)
    t.loc[2, "score"] = 5.0  # r1's original is judged twice (3 and 5): its mean 4 is the base of both rewrites
    diffs = pair_differences(t)
    assert dict(zip(diffs["variant"], diffs["d"])) == {"r1.a": 0.0, "r1.b": 2.0, "r2.a": 0.0, "r3.a": -1.0,
                                                      "r4.a": 1.0, "r4.b": 2.0}
    reviews = aggregate_differences(diffs, "review")
    assert dict(zip(reviews["unit"], reviews["d"])) == {"r1": 1.0, "r2": 0.0, "r3": -1.0, "r4": 1.5}
    papers = aggregate_differences(diffs, "paper")
    assert dict(zip(papers["unit"], papers["d"])) == {"P1": pytest.approx(2 / 3), "P2": -1.0, "P3": 1.5}  # (0 + 2 + 0) / 3 rewrites


def test_paper_level_tests_equal_scipy_and_statsmodels_on_paper_means() -> None:
    rng = np.random.default_rng(7)
    rows = []
    for p in range(12):
        for r in range(2):
            for v in range(3):
                rows.append((f"P{p}", f"P{p}r{r}", f"P{p}r{r}v{v}", 3.0, 3.0 + round(float(rng.normal(0.3, 1)), 2)))
    t = table(rows)
    result = clustered_reliability(t, 1.0, level="paper").iloc[0]
    means = np.array([np.mean([new - orig for (pp, _, _, orig, new) in rows if pp == f"P{p}"]) for p in range(12)])
    assert result["n_pairs"] == 12 and result["level"] == "paper"
    assert result["mean_diff"] == pytest.approx(means.mean())
    assert result["wilcoxon_p"] == pytest.approx(wilcoxon(means, method="exact").pvalue)
    assert result["tost_p"] == pytest.approx(ttost_paired(means, np.zeros(12), -1.0, 1.0)[0])
    pair = clustered_reliability(t, 1.0, level="pair").iloc[0]
    assert pair["n_pairs"] == 72


def test_cluster_bootstrap_degenerate_interval_is_no_verdict() -> None:
    # every paper's pair-weighted mean is 2 (P1: d = 1, 3; P2: d = 2), so every resample gives 2:
    # a point, not an interval, whatever the bound (was sensitive at 0.5, sensitive and robust at 3)
    rows = [("P1", "r1", "a", 0, 1), ("P1", "r1", "b", 0, 3), ("P2", "r2", "a", 0, 2)]
    for bound in (0.5, 3.0):
        out = cluster_bootstrap(table(rows), bound, n_resamples=2000).iloc[0]
        assert out["mean_diff"] == 2.0 and out["n_clusters"] == 2 and out["n_pairs"] == 3
        assert out[["sensitive_low", "sensitive_high", "robust_low", "robust_high"]].isna().all()
        assert out["classification"] == "not_informative"
        assert out["reason"] == "each of the 2 paper(s) has mean difference 2: every resample gives it, no interval"
    # every d = 0 (was robust) and one paper alone: no verdict either
    zero = [("P1", "r1", "a", 2, 2), ("P2", "r2", "a", 1, 1)]
    assert cluster_bootstrap(table(zero), 0.5, n_resamples=500).iloc[0]["classification"] == "not_informative"
    one = [("P1", "r1", "a", 0, 1), ("P1", "r1", "b", 0, -1)]
    assert cluster_bootstrap(table(one), 0.5, n_resamples=500).iloc[0]["classification"] == "not_informative"


def test_cluster_bootstrap_interval_within_cluster_means() -> None:
    rows = [("P1", "r1", "a", 0, 1), ("P2", "r2", "a", 0, -1), ("P3", "r3", "a", 0, 0.5), ("P3", "r3", "b", 0, 1.5)]
    out = cluster_bootstrap(table(rows), 1.0, n_resamples=5000, seed=3).iloc[0]
    assert out["mean_diff"] == pytest.approx(0.5)
    assert -1.0 <= out["sensitive_low"] <= out["robust_low"] <= 0.5 <= out["robust_high"] <= out["sensitive_high"] <= 1.0
    assert out["classification"] == "inconclusive"


def test_level_differences_and_same_class_count() -> None:
    shifted = [(f"P{i}", f"r{i}", f"v{i}", 1, 2 + 0.01 * i) for i in range(10)]
    t = pd.concat([table(shifted, "j1", "shift"), table(shifted, "j2", "shift"),
                   table([(f"P{i}", f"r{i}", f"v{i}", 1, 1) for i in range(10)], "j1", "flat"),
                   table([(f"P{i}", f"r{i}", f"v{i}", 1, 1 + (-1) ** i * 3) for i in range(10)], "j2", "flat")])
    pair = clustered_reliability(t, 0.5, level="pair")
    classes = dict(zip(zip(pair["judge"], pair["metric"]), pair["classification"]))
    # j1's flat metric is 1 in all 20 judgements: not informative, never robust (issue 36)
    assert classes == {("j1", "flat"): "not_informative", ("j1", "shift"): "sensitive", ("j2", "flat"): "inconclusive",
                       ("j2", "shift"): "sensitive"}
    agreement = judge_agreement(pair, "j1", "j2")
    assert (agreement.n_metrics, agreement.n_same) == (2, 1)
    assert level_differences(pair, pair).empty
    other = pair.assign(classification=["inconclusive"] * len(pair))
    assert level_differences(pair, other)["metric"].tolist() == ["flat", "shift", "shift"]
