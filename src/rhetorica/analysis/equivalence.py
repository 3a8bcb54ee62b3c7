"""Are review-quality judges fooled by polish? (the review-metric study, STUDIES.md §3).

Input is a tidy *judge table*, one row per judgement: ``document_id`` (the reviewed review),
``arm`` (``"original"`` or ``"rewrite"``), ``judge`` (judge model), ``metric``, ``score`` and,
optionally, ``status`` (only ``"ok"`` rows are used when present). For each judge and metric
``d_i = S(rewrite_i) - S(original_i)`` per document (duplicates averaged first; documents missing
either side left out).

- Surface sensitivity: Wilcoxon signed-rank test on ``d`` (Wilcoxon 1945), computed by
  ``scipy.stats.wilcoxon``. **Zero differences are discarded** before ranking (Wilcoxon's original
  rule, ``zero_method="wilcox"``); ties among ``|d|`` get average ranks. Exact null distribution when
  1 <= n <= 50 and no ties, otherwise the normal approximation with tie-corrected variance and no
  continuity correction. With no non-zero difference the p-value is 1.
- Robustness: paired TOST equivalence test (Schuirmann 1987) with bounds ``(-delta_m, delta_m)``:
  two one-sided t-tests on ``d``, ``p = max(p_lower, p_upper)``, computed by statsmodels'
  ``ttost_paired``.
- Multiplicity: Bonferroni, ``alpha / M`` with M the number of metrics of the judge.
- Classes: ``sensitive`` (Wilcoxon rejects, TOST does not), ``robust`` (TOST rejects, Wilcoxon
  does not), ``sensitive_and_robust`` (both: a small but consistent shift inside the bound),
  ``inconclusive`` (neither), and ``not_informative`` (issue 36) before any of these when the data
  cannot carry a verdict (:func:`not_informative_reason`, in this order):

  1. *no variation*: one score level in both arms together (a judge that never varies has shown
     nothing about stability; its zero differences would make TOST reject by convention);
  2. *degenerate TOST*: TOST rejects only because every difference is the same value (zero
     variance, the t statistics are undefined) and the pairs are too few for the sign test over
     all n of them to reach the Bonferroni level: ``2 * 0.5**n >= alpha / M``;
  3. *too few non-zero differences*: neither test rejects and the Wilcoxon test could not have
     rejected whatever the signs: its smallest attainable p (:func:`min_attainable_p`) is
     ``>= alpha / M``.

  A robust verdict from a TOST on differences that vary is kept whatever the Wilcoxon's power:
  the Wilcoxon test decides only *sensitive*.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Literal, NamedTuple

import numpy as np
import numpy.typing as npt
import pandas as pd
from pydantic import BaseModel

from rhetorica.analysis.tidy import require_columns
from rhetorica.labels import ORIGINAL
from scipy.stats import rankdata, wilcoxon
from statsmodels.stats.weightstats import ttost_paired
from rhetorica.wording import counted

Array = npt.NDArray[np.float64]
Classification = Literal["sensitive", "robust", "sensitive_and_robust", "inconclusive", "not_informative",
                         "false_robustness"]
NOT_INFORMATIVE = "not_informative"
"""The class of a metric whose data cannot carry a verdict (:func:`not_informative_reason`)."""
FALSE_ROBUSTNESS = "false_robustness"
"""The class a judge study gives a robust metric that does not tell reviews apart
(:func:`rhetorica.judges.analysis.with_discrimination`; RobustReview's false robustness)."""
CLASSES: tuple[str, ...] = ("sensitive", "robust", "sensitive_and_robust", "inconclusive", NOT_INFORMATIVE,
                            FALSE_ROBUSTNESS)
JUDGE_COLUMNS = ["document_id", "arm", "judge", "metric", "score"]
EXACT_MAX_N = 50

RELIABILITY_COLUMNS = [
    "judge",
    "metric",
    "n_pairs",
    "mean_diff",
    "sd_diff",
    "wilcoxon_stat",
    "wilcoxon_n",
    "wilcoxon_method",
    "wilcoxon_p",
    "bound",
    "tost_p",
    "alpha_bonferroni",
    "classification",
    "reason",
]
"""Columns of :func:`judge_reliability`; ``reason`` says why a metric is ``not_informative``
(else missing)."""


class WilcoxonResult(NamedTuple):
    """Wilcoxon signed-rank result: ``statistic`` is T+ (sum of ranks of positive d)."""

    statistic: float
    n: int
    method: Literal["exact", "normal", "none"]
    pvalue: float


def wilcoxon_signed_rank(d: npt.ArrayLike) -> WilcoxonResult:
    """Two-sided Wilcoxon signed-rank test of paired differences (zeros discarded).

    The p-value is ``scipy.stats.wilcoxon(d, zero_method="wilcox", correction=False)`` with the
    exact null distribution when 1 <= n <= 50 non-zero differences and no tied ``|d|``, otherwise
    the normal approximation with tie-corrected variance (the rule stated in the module docstring).

    Args:
        d: paired differences (NaN not allowed).

    Returns:
        :class:`WilcoxonResult` with ``statistic`` T+ (sum of the ranks of the positive
        differences) and a p-value in (0, 1]; ``method="none"`` and p NaN with no non-zero
        difference (nothing to rank: the test is not computable, never p = 1).

    Raises:
        ValueError: if ``d`` contains NaN.
    """

    x = np.asarray(d, dtype=float)
    if np.isnan(x).any():
        raise ValueError("wilcoxon: differences contain NaN; drop unpaired documents first")
    x = x[x != 0]
    n = len(x)
    if n == 0:
        return WilcoxonResult(0.0, 0, "none", np.nan)
    t_plus = float(rankdata(np.abs(x))[x > 0].sum())
    has_ties = len(np.unique(np.abs(x))) < n
    method: Literal["exact", "normal"] = "exact" if n <= EXACT_MAX_N and not has_ties else "normal"
    result = wilcoxon(x, zero_method="wilcox", correction=False, method="exact" if method == "exact" else "approx")
    return WilcoxonResult(t_plus, n, method, float(min(1.0, result.pvalue)))


def tost_paired(d: npt.ArrayLike, low: float, high: float) -> float:
    """Paired two one-sided t-tests for ``low < mean(d) < high`` (Schuirmann 1987), from statsmodels.

    Args:
        d: paired differences (rewrite - original), at least 2 values, no NaN.
        low: lower equivalence bound (score units), ``low < high``.
        high: upper equivalence bound.

    Returns:
        ``statsmodels.stats.weightstats.ttost_paired(d, 0, low, high)`` p-value
        ``max(p_lower, p_upper)`` with ``n - 1`` degrees of freedom; NaN for fewer than two
        differences. Zero-variance differences (where the t statistics are undefined) give 0
        inside the bounds and 1 outside.

    Raises:
        ValueError: if ``low >= high``.
    """

    if not low < high:
        raise ValueError(f"TOST bounds must satisfy low < high, got ({low}, {high})")
    x = np.asarray(d, dtype=float)
    if len(x) < 2:
        return np.nan
    if x.std() == 0:
        return 0.0 if low < x.mean() < high else 1.0
    return float(ttost_paired(x, np.zeros_like(x), low, high)[0])


def min_attainable_p(d: npt.ArrayLike) -> float:
    """The smallest two-sided p the Wilcoxon signed-rank test (:func:`wilcoxon_signed_rank`) can
    give on differences with these absolute values, whatever their signs.

    Every difference of one sign maximises ``|T+ - n(n+1)/4|`` for the observed ``|d|`` (ties and
    zeros kept), so the minimum is the test's p on ``|d|``: ``2 * 0.5**n`` for n <= 50 non-zero
    differences without tied ``|d|`` (the exact null; also the sign test's smallest p), the normal
    approximation's p otherwise. NaN with no non-zero difference (no test, so no p is attainable).

    Raises:
        ValueError: if ``d`` contains NaN.
    """
    return wilcoxon_signed_rank(np.abs(np.asarray(d, dtype=float))).pvalue


def no_variation_reason(original: npt.ArrayLike, rewrite: npt.ArrayLike) -> str | None:
    """Why a metric's scores cannot show anything: one score level in both arms together;
    ``None`` when the scores take two levels or more (NaN ignored; ``None`` also with no score).

    Returns:
        e.g. ``"no variation: every judgement scored 0"``.
    """
    values = np.unique(np.concatenate([np.asarray(original, dtype=float).ravel(),
                                       np.asarray(rewrite, dtype=float).ravel()]))
    values = values[~np.isnan(values)]
    return f"no variation: every judgement scored {values[0]:g}" if len(values) == 1 else None


def not_informative_reason(d: npt.ArrayLike, level: float, *, sensitive: bool, robust: bool,
                           variation: str | None = None) -> str | None:
    """Why the tests of ``d`` carry no verdict at the corrected level ``level`` (rules 1-3 of the
    module docstring), or ``None``.

    Args:
        d: the paired differences tested (no NaN).
        level: the Bonferroni level alpha / M.
        sensitive, robust: the Wilcoxon and TOST decisions at ``level``.
        variation: :func:`no_variation_reason` of the raw scores (rule 1), when known.
    """
    if variation:
        return variation
    x = np.asarray(d, dtype=float)
    n = len(x)
    if robust and n and np.all(x == x[0]) and 2 * 0.5**n >= level:
        return (f"every one of the {n} differences is {x[0]:g}: TOST is degenerate (zero variance) and "
                f"{counted(n, 'pair')} cannot reach α' = {level:.3g} (smallest sign-test p {2 * 0.5**n:.3g})")
    smallest = min_attainable_p(x)
    if not sensitive and not robust and not smallest < level:  # NaN: no non-zero difference, no test
        k = int(np.count_nonzero(x))
        if np.isnan(smallest):
            return f"no non-zero difference (0 of {n}): the Wilcoxon test is not computable"
        return (f"too few non-zero differences ({k} of {n}): the smallest attainable Wilcoxon p "
                f"{smallest:.3g} is not below α' = {level:.3g}")
    return None


def bonferroni(pvalues: npt.ArrayLike, alpha: float = 0.05) -> tuple[float, npt.NDArray[np.bool_]]:
    """Bonferroni correction over a family of M tests (Dunn 1961).

    Args:
        pvalues: the family's M p-values (NaN never rejects).
        alpha: family-wise error rate in (0, 1).

    Returns:
        ``(alpha / M, reject)`` with ``reject[i] = p_i < alpha / M``.

    Raises:
        ValueError: if ``alpha`` is not in (0, 1) or the family is empty.
    """
    p = np.asarray(pvalues, dtype=float)
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha}")
    if p.size == 0:
        raise ValueError("Bonferroni needs at least one p-value")
    level = alpha / p.size
    return level, np.nan_to_num(p, nan=np.inf) < level


def classify(sensitive: bool, robust: bool) -> Classification:
    """Class of a metric from the two test decisions (see module docstring)."""
    if sensitive and robust:
        return "sensitive_and_robust"
    if sensitive:
        return "sensitive"
    if robust:
        return "robust"
    return "inconclusive"


def paired_judge_differences(table: pd.DataFrame) -> pd.DataFrame:
    """``d = rewrite - original`` per judge, metric and document.

    Args:
        table: judge table (see module docstring).

    Returns:
        DataFrame with columns ``judge, metric, document_id, original, rewrite, d`` for documents
        scored on both sides.

    Raises:
        ValueError: on a missing column or an arm other than ``original`` / ``rewrite``.
    """
    require_columns(table, JUDGE_COLUMNS, "judge table")
    bad = set(pd.unique(table["arm"])) - {ORIGINAL, "rewrite"}
    if bad:
        raise ValueError(f"judge table: arm must be 'original' or 'rewrite', found {sorted(bad)}")
    t = table
    if "status" in t.columns:
        t = t[t["status"] == "ok"]
    t = t.assign(score=pd.to_numeric(t["score"], errors="coerce")).dropna(subset=["score"])
    wide = (
        t.groupby(["judge", "metric", "document_id", "arm"])["score"]
        .mean()
        .unstack("arm")
        .reindex(columns=[ORIGINAL, "rewrite"])
        .dropna()
    )
    wide["d"] = wide["rewrite"] - wide[ORIGINAL]
    return wide.reset_index()


def metric_bound(bounds: Mapping[str, float] | float, metric: str) -> float:
    """The equivalence bound delta_m of ``metric``: ``bounds`` itself when one value is given for
    all metrics, else its entry for ``metric``.

    Raises:
        ValueError: ``metric 'x': equivalence bound must be > 0, got …`` when missing or not > 0.
    """
    bound = bounds if isinstance(bounds, int | float) else bounds.get(metric)
    if bound is None or not bound > 0:
        raise ValueError(f"metric {metric!r}: equivalence bound must be > 0, got {bound}")
    return float(bound)


def judge_metric_tests(diffs: pd.DataFrame, bounds: Mapping[str, float] | float,
                       alpha: float, n_tests: Mapping[Any, int] | None = None,
                       ) -> Iterator[tuple[Any, Any, pd.DataFrame, float, float]]:
    """Each (judge, metric) of a table of paired differences, sorted, with what its tests need.

    Args:
        diffs: one row per pair with ``judge``, ``metric`` and ``d``.
        bounds: equivalence bound per metric or one for all (:func:`metric_bound`).
        alpha: family-wise level, Bonferroni-corrected over each judge's metrics.
        n_tests: judge -> M, the size of its Bonferroni family (the metrics it was declared to
            score, so a metric without data does not shrink M); default: the metrics present.

    Yields:
        ``(judge, metric, rows of that metric, bound, corrected level)``.

    Raises:
        ValueError: a metric without a bound > 0.
    """
    for judge, part in diffs.groupby("judge", sort=True):
        metrics = sorted(pd.unique(part["metric"]))
        size = max(len(metrics), (n_tests or {}).get(judge, 0))
        level = bonferroni(np.zeros(size), alpha)[0]
        for metric in metrics:
            yield judge, metric, part[part["metric"] == metric], metric_bound(bounds, metric), level


def judge_reliability(
    table: pd.DataFrame,
    bounds: Mapping[str, float] | float,
    *,
    alpha: float = 0.05,
    n_tests: Mapping[Any, int] | None = None,
    variations: Mapping[tuple[Any, Any], str | None] | None = None,
) -> pd.DataFrame:
    """Sensitivity / robustness classification of every (judge, metric), ``not_informative`` where
    the data cannot carry a verdict (module docstring).

    Args:
        table: judge table (see module docstring).
        bounds: equivalence bound delta_m > 0 per metric (score units), or one value for all.
        alpha: family-wise level before Bonferroni over each judge's metrics.
        n_tests: judge -> Bonferroni M (:func:`judge_metric_tests`).
        variations: (judge, metric) -> :func:`no_variation_reason` of the raw scores, for a caller
            whose ``table`` holds derived scores (unit means of d); default: computed from
            ``table``'s paired scores.

    Returns:
        DataFrame with :data:`RELIABILITY_COLUMNS`, one row per judge and metric (sorted);
        ``mean_diff``/``sd_diff`` in score units.

    Raises:
        ValueError: on a bad table, a metric without a bound, or a non-positive bound.
    """
    diffs = paired_judge_differences(table)
    rows = []
    for judge, metric, m, bound, level in judge_metric_tests(diffs, bounds, alpha, n_tests):
        d = m["d"].to_numpy()
        w = wilcoxon_signed_rank(d)
        p_tost = tost_paired(d, -float(bound), float(bound))
        sensitive, robust = bool(w.pvalue < level), bool(np.nan_to_num(p_tost, nan=1.0) < level)
        variation = (variations.get((judge, metric)) if variations is not None
                     else no_variation_reason(m[ORIGINAL], m["rewrite"]))
        reason = not_informative_reason(d, level, sensitive=sensitive, robust=robust, variation=variation)
        rows.append(
            {
                "judge": judge,
                "metric": metric,
                "n_pairs": len(d),
                "mean_diff": float(d.mean()),
                "sd_diff": float(d.std(ddof=1)) if len(d) > 1 else np.nan,
                "wilcoxon_stat": w.statistic,
                "wilcoxon_n": w.n,
                "wilcoxon_method": w.method,
                "wilcoxon_p": w.pvalue,
                "bound": float(bound),
                "tost_p": p_tost,
                "alpha_bonferroni": level,
                "classification": NOT_INFORMATIVE if reason else classify(sensitive, robust),
                "reason": reason,
            }
        )
    return pd.DataFrame(rows, columns=RELIABILITY_COLUMNS)


def carries_verdict(classification: object) -> bool:
    """Whether a metric's class is a verdict two judges can agree or disagree on: one of the
    classes (a string), not ``not_informative`` and not missing (no test, or the metric absent for
    that judge). Agreement is compared only where both classes carry a verdict."""
    return isinstance(classification, str) and classification in CLASSES and classification != NOT_INFORMATIVE


def classes_agree(first: object, second: object) -> bool | None:
    """``first == second`` where both carry a verdict (:func:`carries_verdict`), else ``None``:
    nothing was compared."""
    return first == second if carries_verdict(first) and carries_verdict(second) else None


class JudgeAgreement(BaseModel):
    """How often two judge models put a metric in the same class.

    Attributes:
        judge_a: first judge.
        judge_b: second judge.
        n_metrics: metrics classified for both judges.
        n_same: metrics with the same class, a class that carries a verdict: two judges that both
            find a metric ``not_informative`` do not agree on it, their data says nothing.
        share_same: ``n_same / n_classified`` (None when no metric is informative for both).
        n_classified: metrics neither judge found ``not_informative`` (those both could classify).
        table: ``table[class_a][class_b]`` = number of metrics (all four classes present).
    """

    judge_a: str
    judge_b: str
    n_metrics: int
    n_same: int
    share_same: float | None
    table: dict[str, dict[str, int]]
    n_classified: int = 0


def judge_agreement(reliability: pd.DataFrame, judge_a: str, judge_b: str) -> JudgeAgreement:
    """Agreement of two judges' classifications (the review-metric study's replication).

    Args:
        reliability: output of :func:`judge_reliability`.
        judge_a: judge name.
        judge_b: another judge name.

    Returns:
        :class:`JudgeAgreement`.

    Raises:
        ValueError: if a judge does not appear in ``reliability``.
    """
    for j in (judge_a, judge_b):
        if j not in set(reliability["judge"]):
            raise ValueError(f"judge {j!r} is not in the reliability table")
    a = reliability[reliability["judge"] == judge_a].set_index("metric")["classification"]
    b = reliability[reliability["judge"] == judge_b].set_index("metric")["classification"]
    shared = a.index.intersection(b.index)
    table = {ca: {cb: 0 for cb in CLASSES} for ca in CLASSES}
    for m in shared:
        table[a[m]][b[m]] += 1
    compared = [classes_agree(a[m], b[m]) for m in shared]
    n_same = sum(c is True for c in compared)
    n_classified = sum(c is not None for c in compared)
    return JudgeAgreement(
        judge_a=judge_a,
        judge_b=judge_b,
        n_metrics=len(shared),
        n_same=n_same,
        share_same=n_same / n_classified if n_classified else None,
        table=table,
        n_classified=n_classified,
    )
