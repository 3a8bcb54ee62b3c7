"""Judge reliability: Wilcoxon vs scipy, TOST vs statsmodels, Bonferroni, classes, agreement."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import wilcoxon

from rhetorica.analysis.equivalence import (
    NOT_INFORMATIVE,
    bonferroni,
    judge_agreement,
    judge_reliability,
    min_attainable_p,
    paired_judge_differences,
    tost_paired,
    wilcoxon_signed_rank,
)


def test_wilcoxon_hand_computed_exact() -> None:
    # ranks 1,2,3,4; T+ = 6, T- = 4; P(T+ <= 4) = 7/16 for n = 4 -> p = 7/8
    r = wilcoxon_signed_rank([1.0, 2.0, 3.0, -4.0, 0.0])
    assert (r.statistic, r.n, r.method) == (6.0, 4, "exact")
    assert r.pvalue == pytest.approx(0.875)
    assert math.isnan(wilcoxon_signed_rank([0.0, 0.0]).pvalue)  # no non-zero difference: no test


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
    # the t statistic divides by the sample sd: undefined (NaN) with zero variance inside or
    # outside the bounds, and with fewer than two differences
    assert math.isnan(tost_paired([1.0, 1.0, 1.0], -2, 2))
    assert math.isnan(tost_paired([3.0, 3.0], -2, 2))
    assert math.isnan(tost_paired([1.0], -2, 2))
    assert math.isnan(tost_paired([], -2, 2))
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


def test_min_attainable_p_is_the_tests_p_with_every_sign_alike() -> None:
    # 3 untied non-zero differences: the exact null's smallest two-sided p is 2 / 2**3
    assert min_attainable_p([0.5, -2.0, 3.0, 0.0]) == pytest.approx(0.25)
    assert min_attainable_p([0.5, -2.0, 3.0]) == pytest.approx(wilcoxon([0.5, 2.0, 3.0], method="exact").pvalue)
    # tied |d|: the normal approximation with tie correction, as the test itself would use
    ref = wilcoxon([1.0, 1.0, 1.0, 1.0], zero_method="wilcox", correction=False, method="asymptotic").pvalue
    assert min_attainable_p([1.0, -1.0, 1.0, -1.0]) == pytest.approx(ref)
    assert math.isnan(min_attainable_p([0.0, 0.0]))


def _two_arm_table(original: list[float], rewrite: list[float], metric: str = "m") -> pd.DataFrame:
    recs = [(f"doc{i}", arm, "j", metric, s) for i, (o, r) in enumerate(zip(original, rewrite))
            for arm, s in (("original", o), ("rewrite", r))]
    return pd.DataFrame(recs, columns=["document_id", "arm", "judge", "metric", "score"])


def test_a_constant_metric_is_not_informative_never_robust() -> None:
    """The issue's case: a judge metric 0 in all 8 judgements of 4 pairs (zero variance: no TOST)."""
    out = judge_reliability(_two_arm_table([0.0] * 4, [0.0] * 4), 0.5).iloc[0]
    assert math.isnan(out["tost_p"])
    assert out["classification"] == NOT_INFORMATIVE
    assert out["reason"] == "no variation: every judgement scored 0"
    # every original 3, every rewrite 4: a shift of one sign in every pair is a finding, not "no variation"
    each = judge_reliability(_two_arm_table([3.0] * 5, [4.0] * 5), 0.5).iloc[0]
    p = wilcoxon([1.0] * 5, zero_method="wilcox", correction=False, method="asymptotic").pvalue
    assert each["wilcoxon_p"] == pytest.approx(p) and p < 0.05
    assert each["classification"] == "sensitive" and pd.isna(each["reason"])


def test_equal_differences_are_never_robust_however_many_pairs() -> None:
    # scores vary, every d = 0: the t statistic is undefined, so no robust verdict at 4, 6 or 40 pairs
    for n in (4, 6, 40):
        levels = [float(1 + i % 5) for i in range(n)]
        out = judge_reliability(_two_arm_table(levels, levels), 0.5).iloc[0]
        assert math.isnan(out["tost_p"]) and math.isnan(out["wilcoxon_p"])
        assert out["classification"] == NOT_INFORMATIVE
        assert out["reason"] == (f"TOST is not computable: every one of the {n} differences is 0 (zero variance, "
                                 "the t statistic is undefined); the Wilcoxon test is not computable (no non-zero "
                                 "difference)")
    # every d = 0.25, inside the bound 0.5: 5 pairs, Wilcoxon p (ties: normal) 0.0253 is not below 0.05 / 2
    five = judge_reliability(_two_arm_table([1.0, 2, 3, 1, 2, 1.0, 2, 3, 1, 2],
                                            [1.25, 2.25, 3.25, 1.25, 2.25, 1.0, 2, 3, 1, 2],
                                            ).assign(metric=["a"] * 10 + ["b"] * 10), 0.5)
    a = five.set_index("metric").loc["a"]
    p = wilcoxon([0.25] * 5, correction=False, method="asymptotic").pvalue
    assert a["wilcoxon_p"] == pytest.approx(p) and 0.025 < p < 0.05
    assert a["classification"] == NOT_INFORMATIVE and a["reason"].startswith(
        "TOST is not computable: every one of the 5 differences is 0.25 (zero variance")
    # the same constant shift in 30 pairs: the Wilcoxon test rejects, so sensitive (TOST could not show
    # the shift stays inside the bound), never sensitive and robust
    levels = [float(1 + i % 5) for i in range(30)]
    thirty = judge_reliability(_two_arm_table(levels, [v + 0.25 for v in levels]), 0.5).iloc[0]
    assert math.isnan(thirty["tost_p"]) and thirty["classification"] == "sensitive" and pd.isna(thirty["reason"])


def test_too_few_non_zero_differences_is_not_informative_not_inconclusive() -> None:
    # d = 0.5, -2, 3: TOST cannot reject (sd 2.5) and the Wilcoxon's smallest p is 0.25 >= 0.05
    out = judge_reliability(_two_arm_table([1.0, 4.0, 1.0], [1.5, 2.0, 4.0]), 0.5).iloc[0]
    assert out["classification"] == NOT_INFORMATIVE
    assert out["reason"] == ("too few non-zero differences (3 of 3): the smallest attainable Wilcoxon p 0.25 "
                             "is not below α' = 0.05")
    # 30 noisy pairs (Wilcoxon could reach α' = 0.0125) stay inconclusive
    assert (judge_reliability(judge_table(), {"polish": 1.0, "stable": 1.0, "small_shift": 1.0, "noisy": 0.5})
            .set_index(["judge", "metric"]).loc[("j1", "noisy"), "classification"] == "inconclusive")


def test_two_not_informative_judges_do_not_agree() -> None:
    # hand-made: m1 sensitive for both, m2 robust vs sensitive, m3 and m4 not informative for both,
    # m5 not informative for j1 only: 5 shared, 2 classifiable by both, 1 the same
    classes = {"m1": ("sensitive", "sensitive"), "m2": ("robust", "sensitive"),
               "m3": ("not_informative", "not_informative"), "m4": ("not_informative", "not_informative"),
               "m5": ("not_informative", "inconclusive")}
    frame = pd.DataFrame([{"judge": j, "metric": m, "classification": c[k]} for m, c in classes.items()
                          for k, j in enumerate(("j1", "j2"))])
    agreement = judge_agreement(frame, "j1", "j2")
    assert (agreement.n_metrics, agreement.n_classified, agreement.n_same) == (5, 2, 1)
    assert agreement.share_same == 0.5
    assert agreement.table["not_informative"]["not_informative"] == 2


def test_agreement_is_compared_only_where_both_classes_carry_a_verdict() -> None:
    """Every pair of the 6 classes, a missing class (None, NaN: the second judge had no test) and
    an unknown word: 8 x 8 = 64 pairs; compared only the 5 x 5 = 25 pairs of verdict classes (all
    but not_informative), agreeing on the 5 equal ones; judge_agreement over a table built from the
    36 class pairs counts the same."""
    from rhetorica.analysis.equivalence import CLASSES, classes_agree, judge_agreement

    values: list[object] = [*CLASSES, None, math.nan]
    verdicts = {"sensitive", "robust", "sensitive_and_robust", "inconclusive", "false_robustness"}
    compared = same = 0
    for a in values:
        for b in values:
            got = classes_agree(a, b)
            if a in verdicts and b in verdicts:
                assert got is (a == b)
                compared += 1
                same += a == b
            else:
                assert got is None, (a, b)
    assert (len(values) ** 2, compared, same) == (64, 25, 5)
    metrics = [(a, b) for a in CLASSES for b in CLASSES]
    table = pd.DataFrame([{"judge": j, "metric": f"m{i}", "classification": pair[k]}
                          for i, pair in enumerate(metrics) for k, j in enumerate(("A", "B"))])
    found = judge_agreement(table, "A", "B")
    assert (found.n_metrics, found.n_classified, found.n_same, found.share_same) == (36, 25, 5, 5 / 25)


def test_wilcoxon_is_not_computable_exactly_without_a_non_zero_difference() -> None:
    """Generated: 1-20 differences, all zero, all one value, one non-zero among zeros, alternating
    signs: p NaN exactly where no difference is non-zero, scipy's wilcoxon (zeros dropped) elsewhere."""
    nan = 0
    cases = 0
    for n in range(1, 21):
        alternating = (-1.0) ** np.arange(n) * np.arange(1, n + 1)
        for d in (np.zeros(n), np.full(n, 1.0), np.r_[2.0, np.zeros(n - 1)], alternating):
            got = wilcoxon_signed_rank(d).pvalue
            cases += 1
            nz = d[d != 0]
            if nz.size == 0:
                assert math.isnan(got)
                nan += 1
            else:
                method = "exact" if nz.size <= 50 and len(np.unique(np.abs(nz))) == nz.size else "approx"
                assert got == pytest.approx(min(1.0, wilcoxon(nz, correction=False, method=method).pvalue), rel=1e-12)
    assert (cases, nan) == (80, 20)
