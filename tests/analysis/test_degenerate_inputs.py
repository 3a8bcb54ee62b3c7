"""Degenerate data is not informative: a generated corpus of inputs on which a statistic divides by
a zero variance (constant vectors, all zero, n = 0, 1, 2, one category, a constant judge). Every
statistic of analysis/ that can meet one returns NaN there (and the judge classes no verdict);
on the non-degenerate cases of the same generator it equals a scipy / statsmodels / scikit-learn /
krippendorff oracle or an exact-fraction computation.
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import krippendorff
import numpy as np
import pandas as pd
import pytest
from scipy.stats import t as student_t, wilcoxon
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.weightstats import ttost_paired

from rhetorica.analysis.agreement import cohen_kappa, krippendorff_alpha
from rhetorica.analysis.attack import mean_interval
from rhetorica.analysis.clustered import cluster_bootstrap
from rhetorica.analysis.equivalence import (NOT_INFORMATIVE, judge_reliability, tost_not_computable, tost_paired,
                                            wilcoxon_signed_rank)
from rhetorica.analysis.robustness import icc_a1, one_way
from rhetorica.analysis.soft import paired_soft_test

CONSTANTS = (0.0, 1.0, -0.5, 0.1, 1 / 3, 0.7)
VERDICTS_FROM_TOST = {"robust", "sensitive_and_robust"}


def difference_corpus() -> list[tuple[np.ndarray, bool]]:
    """(differences, degenerate for a t statistic): n = 0 and 1 (any value), every difference one
    value (n = 2..60 x 6 values, 0.1 and 1/3 made by subtracting scores as the analysis does), and
    as many varying vectors (random normal, two values, one value apart) of the same sizes."""
    rng = np.random.default_rng(7)
    out: list[tuple[np.ndarray, bool]] = [(np.array([]), True)]
    out += [(np.array([c]), True) for c in CONSTANTS]
    for n in (2, 3, 5, 10, 30, 60):
        for c in CONSTANTS:
            base = rng.integers(1, 6, n).astype(float)
            out.append(((base + c) - base if c in (0.1, 1 / 3) else np.full(n, c), True))
        out.append((rng.normal(0.2, 1.0, n), False))
        out.append((np.r_[np.zeros(n - 1), 1.0], False))
        out.append((np.r_[np.full(n - 1, 0.25), 0.5], False))
    return out


def test_tost_is_not_computable_exactly_on_degenerate_differences() -> None:
    corpus = difference_corpus()
    nan = computed = 0
    for d, degenerate in corpus:
        p = tost_paired(d, -0.5, 0.5)
        reason = tost_not_computable(d)
        if degenerate:
            assert math.isnan(p) and isinstance(reason, str), d
            nan += 1
        else:
            assert reason is None
            assert p == pytest.approx(ttost_paired(d, np.zeros_like(d), -0.5, 0.5)[0], rel=1e-12, abs=1e-300)
            computed += 1
    # before: 36 of the 43 degenerate vectors had a finite p (0 inside the bounds, 1 outside)
    assert (len(corpus), nan, computed) == (61, 43, 18)


def test_wilcoxon_is_not_computable_exactly_without_a_non_zero_difference_in_the_corpus() -> None:
    counted = {"nan": 0, "scipy": 0}
    for d, _ in difference_corpus():
        got = wilcoxon_signed_rank(d).pvalue
        nz = d[d != 0]
        if nz.size == 0:
            assert math.isnan(got)
            counted["nan"] += 1
        else:
            method = "exact" if nz.size <= 50 and len(np.unique(np.abs(nz))) == nz.size else "approx"
            assert got == pytest.approx(min(1.0, wilcoxon(nz, correction=False, method=method).pvalue), rel=1e-12)
            counted["scipy"] += 1
    assert counted == {"nan": 8, "scipy": 53}


def _judge_table(d: np.ndarray) -> pd.DataFrame:
    original = [float(1 + i % 5) for i in range(len(d))]
    rows = [(f"doc{i}", arm, "j", "m", s) for i, o in enumerate(original)
            for arm, s in (("original", o), ("rewrite", o + d[i]))]
    return pd.DataFrame(rows, columns=["document_id", "arm", "judge", "metric", "score"])


def test_a_degenerate_judge_metric_never_gets_a_tost_verdict() -> None:
    """Each degenerate vector as one judge metric (originals varying 1..5, bound 0.5): TOST p NaN,
    never robust; not informative with a reason unless the Wilcoxon test rejects a one-signed
    shift (sensitive); a constant judge (every score the same) is not informative by rule 1."""
    classes: dict[str, int] = {}
    for d, degenerate in difference_corpus():
        if not degenerate or len(d) == 0:
            continue
        row = judge_reliability(_judge_table(d), 0.5).iloc[0]
        assert math.isnan(row["tost_p"])
        assert row["classification"] not in VERDICTS_FROM_TOST
        if row["classification"] == NOT_INFORMATIVE:
            assert "not computable" in row["reason"] or row["reason"].startswith("no variation")
        else:
            assert row["classification"] == "sensitive" and row["wilcoxon_p"] < 0.05
        classes[row["classification"]] = classes.get(row["classification"], 0) + 1
    # 42 = 6 of n = 1 + 6 values x 6 sizes. One-signed tied shifts: Wilcoxon z = (n(n+1)/4) /
    # sqrt(n(n+1)(2n+1)/24), p = 0.109 at n = 3 and 0.0433 at n = 5, so the 5 non-zero values at
    # n = 5, 10, 30, 60 are sensitive (20); the rest (every 0, n <= 3) not informative (22)
    assert classes == {NOT_INFORMATIVE: 22, "sensitive": 20}
    constant = pd.DataFrame([(f"doc{i}", arm, "j", "m", 3.0) for i in range(12) for arm in ("original", "rewrite")],
                            columns=["document_id", "arm", "judge", "metric", "score"])
    row = judge_reliability(constant, 0.5).iloc[0]
    assert row["classification"] == NOT_INFORMATIVE and row["reason"] == "no variation: every judgement scored 3"


def test_cluster_bootstrap_never_classifies_equal_paper_means() -> None:
    verdicts = 0
    for n_papers in (1, 2, 5):
        for c in CONSTANTS:
            rows = [{"paper_id": f"P{p}", "document_id": f"r{p}", "variant": v, "arm": arm, "judge": "j",
                     "metric": "m", "score": base + (c if arm == "rewrite" else 0.0)}
                    for p in range(n_papers) for base in (float(1 + p % 4),)
                    for v, arm in ((None, "original"), (f"r{p}.a", "rewrite"))]
            out = cluster_bootstrap(pd.DataFrame(rows), 0.5, n_resamples=200).iloc[0]
            assert out["classification"] == NOT_INFORMATIVE and out[["robust_low", "robust_high"]].isna().all()
            verdicts += 1
    assert verdicts == 18


def _exact_one_way_icc(table: list[list[int]]) -> float:
    """ICC(1) from exact fractions (balanced: k scores per paper)."""
    a, k = len(table), len(table[0])
    grand = Fraction(sum(map(sum, table)), a * k)
    means = [Fraction(sum(r), k) for r in table]
    msb = k * sum((m - grand) ** 2 for m in means) / (a - 1)
    msw = sum((x - m) ** 2 for r, m in zip(table, means) for x in r) / (a * (k - 1))
    return float((msb - msw) / (msb + (k - 1) * msw))


def _exact_icc_a1(table: list[list[int]]) -> float:
    n, k = len(table), len(table[0])
    grand = Fraction(sum(map(sum, table)), n * k)
    rows = [Fraction(sum(r), k) for r in table]
    cols = [Fraction(sum(r[j] for r in table), n) for j in range(k)]
    ssr = k * sum((m - grand) ** 2 for m in rows)
    ssc = n * sum((m - grand) ** 2 for m in cols)
    sse = sum((x - grand) ** 2 for r in table for x in r) - ssr - ssc
    msr, msc, mse = ssr / (n - 1), ssc / (k - 1), sse / ((n - 1) * (k - 1))
    return float((msr - mse) / (msr + (k - 1) * mse + k * (msc - mse) / n))


def test_icc_and_spr_are_not_computable_on_constant_scores() -> None:
    """Every score equal (0, 1, -0.5, 0.1, 1/3, 0.7 on 2-5 papers x 2-3 variants: 36 matrices):
    ICC(1), SPR and ICC(A,1) NaN (before: 10 of the 36 gave numbers made of rounding in the means of
    0.1, 1/3 or 0.7: ICC(1) 1.0 with SPR inf, ICC(A,1) between 0 and 2); 24 random integer matrices:
    the exact-fraction values."""
    degenerate = 0
    for a in (2, 3, 5):
        for k in (2, 3):
            for c in CONSTANTS:
                y = np.full((a, k), c)
                ow = one_way(y.ravel(), np.repeat(np.arange(a), k))
                assert math.isnan(ow.icc1) and math.isnan(ow.spr) and math.isnan(icc_a1(y)), (a, k, c)
                degenerate += 1
    rng = np.random.default_rng(3)
    computed = 0
    for a in (3, 4, 6, 9):
        for k in (2, 3, 4):
            for _ in range(2):
                table = rng.integers(1, 6, (a, k)).tolist()
                if len({x for r in table for x in r}) < 2:
                    continue
                y = np.asarray(table, dtype=float)
                assert one_way(y.ravel(), np.repeat(np.arange(a), k)).icc1 == pytest.approx(_exact_one_way_icc(table))
                assert icc_a1(y) == pytest.approx(_exact_icc_a1(table))
                computed += 1
    assert (degenerate, computed) == (36, 24)


def test_agreement_with_one_category_is_not_computable() -> None:
    """Two annotators using one and the same category (1-20 items x 2 values x 3 weightings; 3
    annotators for alpha x 3 levels): NaN; with a second category used, sklearn's kappa and the
    krippendorff package's alpha."""
    nan = oracle = 0
    rng = np.random.default_rng(11)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for n in (1, 2, 5, 20):
            for c in (1.0, 3.0):
                for weights in ("none", "linear", "quadratic"):
                    assert math.isnan(cohen_kappa(np.full(n, c), np.full(n, c), weights=weights))
                    nan += 1
                for level in ("nominal", "ordinal", "interval"):
                    assert math.isnan(krippendorff_alpha(np.full((3, n), c), level))
                    nan += 1
    for n in (5, 12, 30):
        for weights in ("none", "linear", "quadratic"):
            a, b = rng.integers(1, 4, n).astype(float), rng.integers(1, 4, n).astype(float)
            ref = cohen_kappa_score(a, b, weights=None if weights == "none" else weights)
            assert cohen_kappa(a, b, weights=weights) == pytest.approx(ref)
            oracle += 1
        for level in ("nominal", "ordinal", "interval"):
            data = rng.integers(1, 4, (3, n)).astype(float)
            assert krippendorff_alpha(data, level) == pytest.approx(
                krippendorff.alpha(reliability_data=data, level_of_measurement=level))
            oracle += 1
    assert (nan, oracle) == (48, 18)


def test_intervals_of_equal_differences_are_not_computable() -> None:
    """The t interval of a mean (attack shifts) and the paired bootstrap interval (soft ratings) on
    the corpus: no interval where every value is equal or there is one (before: [c, c] on the 36
    constant vectors of n >= 2); on the 18 varying ones the t interval equals scipy's and the
    bootstrap interval holds the mean with positive width."""
    nan = computed = 0
    for d, degenerate in difference_corpus():
        mean, low, high = mean_interval(d)
        soft = paired_soft_test(d, np.zeros(len(d)), n_resamples=199)
        if degenerate:
            assert math.isnan(low) and math.isnan(high)
            assert math.isnan(soft["soft_ci_low"]) and math.isnan(soft["soft_ci_high"])
            nan += 1
        else:
            ref = student_t.interval(0.95, len(d) - 1, loc=d.mean(), scale=d.std(ddof=1) / math.sqrt(len(d)))
            assert (low, high) == pytest.approx(ref, rel=1e-12)
            assert soft["soft_ci_low"] < soft["soft_ci_high"]
            computed += 1
    assert (nan, computed) == (43, 18)
