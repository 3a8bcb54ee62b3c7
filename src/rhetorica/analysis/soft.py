"""Paired tests on soft ratings (expected scores, issue 27 section 2) and the papers they need.

A reviewer configuration with ``soft_ratings: true`` stores, beside each integer score ``m``, the
expected score ``m.expected`` (:mod:`rhetorica.reviewers.soft_ratings`): a continuous value that
moves with shifts smaller than one scale step. Its paired differences are tested as continuous
data, beside the integer sign test:

- Wilcoxon signed-rank test (``scipy.stats.wilcoxon``, two-sided, zero differences dropped:
  Wilcoxon 1945) on the per-paper differences of mean expected scores (replicates averaged per
  paper and arm, as :func:`rhetorica.analysis.paired.paper_scores` does for integer scores);
- a paired bootstrap interval of the mean difference (``scipy.stats.bootstrap`` with
  ``paired=True``, BCa; Efron 1987), seeded.

:func:`pilot_plan` answers "how many papers for a shift of x points?" from a pilot run's own
variances, with soft and with integer scores.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from rhetorica.analysis.paired import _resolve, paper_scores, wide_scores
from rhetorica.analysis.equivalence import all_equal
from rhetorica.analysis.tidy import primary_metric
from rhetorica.forms import expected_metric
from rhetorica.reviewers.soft_ratings import ARTEFACT
from rhetorica.analysis.arms import default_pairs
from rhetorica.analysis.power import MAX_PAPERS, integer_pair_probabilities, papers_needed
from scipy.stats import bootstrap, wilcoxon
from statsmodels.stats.power import TTestPower

#: Columns :func:`soft_comparison` adds to a comparison table (besides its keys).
SOFT_COLUMNS = ["soft_n_pairs", "soft_mean_diff", "soft_ci_low", "soft_ci_high", "wilcoxon_p"]
_KEYS = ["reviewer", "first", "second", "given", "score"]

#: Asymptotic relative efficiency of the Wilcoxon signed-rank test to the t-test for normal
#: differences, 3/pi (Hodges & Lehmann 1956).
WILCOXON_ARE = 3 / math.pi


def covered_mass(fields: Mapping[str, Any]) -> float | None:
    """The covered probability mass of one stored soft rating (a metric's entry of the
    ``soft_ratings`` artefact): its ``covered`` (a reviewer's rating,
    :class:`rhetorica.models.logprobs.SoftRating`), else the smallest ``covered`` of its
    ``ratings`` (a judge's mean over calls or points, :mod:`rhetorica.judges.soft_ratings`: every
    rating it averages must have the mass); ``None`` when neither is stored."""
    if fields.get("covered") is not None:
        return float(fields["covered"])
    masses = [float(r["covered"]) for r in fields.get("ratings") or [] if r.get("covered") is not None]
    return min(masses) if masses else None


def soft_rating_reasons(artefacts: pd.DataFrame, min_covered: float = 0.0) -> pd.DataFrame:
    """Why an assessment's metric has no expected score, from the stored ``soft_ratings``
    artefacts (:mod:`rhetorica.reviewers.soft_ratings`, :mod:`rhetorica.judges.soft_ratings`:
    metric -> fields with ``reason``), or why the analysis leaves its expected score out: its
    covered mass (:func:`covered_mass`) below ``min_covered`` (issue 36; ``covered mass 0.47 < 0.9``).

    Args:
        artefacts: :func:`rhetorica.store.export.artefacts_table` rows (``unit_key``, ``name``,
            ``value_json``).
        min_covered: the study's ``soft_ratings.min_covered`` (0-1; 0 keeps every expected score).

    Returns:
        Columns ``unit_key, metric, reason``, one row per rated metric without a usable expected
        score (the metric as the form names it).
    """
    columns = ["unit_key", "metric", "reason"]
    if artefacts.empty:
        return pd.DataFrame(columns=columns)
    rows = []
    for key, text in zip(artefacts["unit_key"], artefacts["value_json"].where(artefacts["name"] == ARTEFACT)):
        if not isinstance(text, str):
            continue
        for metric, fields in json.loads(text).items():
            covered = covered_mass(fields)
            if fields.get("expected") is None:
                rows.append((key, metric, fields.get("reason") or "no expected score"))
            elif covered is not None and covered < min_covered:
                rows.append((key, metric, f"covered mass {covered:.2f} < {min_covered:g}"))
    return pd.DataFrame(rows, columns=columns)


def apply_min_covered(assessments: pd.DataFrame, scores: pd.DataFrame, artefacts: pd.DataFrame,
                      min_covered: float) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The tidy tables with every expected score whose covered mass is below ``min_covered`` made
    missing (NaN, never imputed): its expectation rests on too little of the probability (the
    unresolved or outside mass could move it anywhere between the rating's ``low`` and ``high``).
    :func:`soft_rating_reasons` with the same ``min_covered`` gives each one's reason.

    Args:
        assessments: :func:`rhetorica.store.export.assessments_table` (``unit_key`` and the
            ``<metric>.expected`` columns).
        scores: :func:`rhetorica.store.export.scores_long` (``unit_key, metric, value``).
        artefacts: :func:`rhetorica.store.export.artefacts_table`.
        min_covered: the threshold (0-1).

    Returns:
        ``(assessments, scores)`` copies (the inputs themselves when nothing is below).
    """
    reasons = soft_rating_reasons(artefacts, min_covered)
    low = reasons[reasons["reason"].astype(str).str.startswith("covered mass ")]
    if low.empty:
        return assessments, scores
    drop = set(zip(low["unit_key"].astype(str), low["metric"].map(expected_metric)))
    out_a = assessments.copy()
    for column in sorted({m for _, m in drop} & set(out_a.columns)):
        keys = {k for k, m in drop if m == column}
        out_a.loc[out_a["unit_key"].astype(str).isin(keys), column] = np.nan
    out_s = scores.copy()
    if not out_s.empty:
        hit = [(str(k), str(m)) in drop for k, m in zip(out_s["unit_key"], out_s["metric"])]
        out_s.loc[hit, "value"] = np.nan
    return out_a, out_s


def has_soft_ratings(df: pd.DataFrame, score: str) -> bool:
    """Whether ``df`` carries at least one expected score of ``score``."""
    column = expected_metric(score)
    return column in df.columns and bool(pd.to_numeric(df[column], errors="coerce").notna().any())


def paired_soft_test(
    first: npt.ArrayLike, second: npt.ArrayLike, *, confidence: float = 0.95, n_resamples: int = 2000,
    seed: int = 0,
) -> dict[str, float]:
    """Wilcoxon signed-rank p and paired bootstrap interval of the mean of ``first - second``.

    Args:
        first, second: paired values (same length); pairs with a NaN are dropped.
        confidence: interval level in (0, 1).
        n_resamples: bootstrap resamples.
        seed: bootstrap seed.

    Returns:
        ``soft_n_pairs``, ``soft_mean_diff`` (points), ``soft_ci_low``, ``soft_ci_high`` (NaN with
        fewer than 2 pairs, and when every difference is equal: every resample gives the point, so
        there is no interval; :func:`rhetorica.analysis.equivalence.all_equal`) and ``wilcoxon_p``
        (NaN when no difference is non-zero).
    """

    a, b = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    keep = ~(np.isnan(a) | np.isnan(b))
    a, b = a[keep], b[keep]
    d = a - b
    nan = float("nan")
    out = {"soft_n_pairs": float(len(d)), "soft_mean_diff": float(d.mean()) if len(d) else nan,
           "soft_ci_low": nan, "soft_ci_high": nan, "wilcoxon_p": nan}
    if np.any(d != 0):
        out["wilcoxon_p"] = float(wilcoxon(d, zero_method="wilcox", alternative="two-sided").pvalue)
    if len(d) >= 2 and not all_equal(d):
        result = bootstrap((a, b), lambda x, y, axis: np.mean(x - y, axis=axis), paired=True, vectorized=True,
                           confidence_level=confidence, n_resamples=n_resamples, method="BCa",
                           random_state=np.random.default_rng(seed))
        out["soft_ci_low"], out["soft_ci_high"] = map(float, (result.confidence_interval.low,
                                                              result.confidence_interval.high))
    return out


def soft_comparison(
    df: pd.DataFrame,
    pairs: Sequence[tuple[str, str]],
    *,
    score: str | None = None,
    given: str | None = None,
    confidence: float = 0.95,
    n_resamples: int = 2000,
    seed: int = 0,
) -> pd.DataFrame:
    """Paired tests on expected scores, one row per reviewer and pair.

    Args:
        df: tidy assessments with the column ``<score>.expected``.
        pairs: ``(first, second)`` arm labels.
        score: the integer score (default: the forms' primary).
        given: optional third factor (as :func:`rhetorica.analysis.paired.compare_arms`).
        confidence, n_resamples, seed: of the bootstrap interval.

    Returns:
        Columns ``reviewer, first, second, given, score`` (``score`` names the integer score, so
        rows join a comparison table's) and :data:`SOFT_COLUMNS`; statistics NaN for a reviewer
        with no pair.

    Raises:
        ValueError: the column is missing, or an arm is not in the data.
    """
    score = score or primary_metric(df)
    column = expected_metric(score)
    w = wide_scores(paper_scores(df, column), column)
    rows = []
    for first, second in pairs:
        arm_a, arm_b = _resolve(list(w.table.columns), first, second, given)
        a, b = w.column(arm_a), w.column(arm_b)
        for code, reviewer in enumerate(w.reviewers):
            mine = w.codes == code
            rows.append({"reviewer": reviewer, "first": first, "second": second, "given": given, "score": score,
                         **paired_soft_test(a[mine], b[mine], confidence=confidence, n_resamples=n_resamples,
                                            seed=seed)})
    out = pd.DataFrame(rows, columns=[*_KEYS, *SOFT_COLUMNS])
    return out.astype({"soft_n_pairs": int})


def with_soft_ratings(table: pd.DataFrame, df: pd.DataFrame, **options: object) -> pd.DataFrame:
    """``table`` (a comparison table) with :data:`SOFT_COLUMNS` joined on its rows, when ``df``
    carries expected scores of the table's score; otherwise ``table`` unchanged (studies without
    soft ratings keep their tables exactly).

    Args:
        table: rows keyed by ``reviewer, first, second, given, score``.
        df: the tidy assessments the table was computed from.
        **options: passed to :func:`soft_comparison` (``confidence``, ``n_resamples``, ``seed``).
    """
    if table.empty:
        return table
    parts = []
    for (score, given), rows in table.groupby(["score", "given"], dropna=False, sort=False):
        given_value = None if pd.isna(given) else str(given)
        if not has_soft_ratings(df, str(score)):
            continue
        pairs = list(dict.fromkeys(zip(rows["first"], rows["second"])))
        parts.append(soft_comparison(df, pairs, score=str(score), given=given_value, **options))  # type: ignore[arg-type]
    if not parts:
        return table
    soft = pd.concat(parts, ignore_index=True)
    keys = table[_KEYS].astype(object).where(table[_KEYS].notna(), None)
    soft_keys = soft[_KEYS].astype(object).where(soft[_KEYS].notna(), None)
    index = {tuple(k): i for i, k in enumerate(soft_keys.itertuples(index=False))}
    matched = [index.get(tuple(k)) for k in keys.itertuples(index=False)]
    out = table.copy()
    for column in SOFT_COLUMNS:
        values = soft[column].to_numpy(dtype=float)
        out[column] = [values[i] if i is not None else np.nan for i in matched]
    return out


def pooled_sd(groups: Sequence[npt.ArrayLike]) -> tuple[float, int]:
    """Pooled within-group SD of ``groups`` and its degrees of freedom: ``sqrt(SS / (n - k))``,
    ``SS`` the sum of squared deviations from each group's own mean, ``n`` the values, ``k`` the
    non-empty groups (one degree of freedom spent per group mean: the within-group mean square
    ``SS_E / (N - a)`` of a one-way ANOVA; Montgomery, *Design and Analysis of Experiments*, ch. 3).

    Returns:
        ``(sd, n - k)``; ``sd`` NaN when ``n - k`` is 0 (every group a single value: not estimable).
    """
    arrays = [np.asarray(g, dtype=float) for g in groups]
    arrays = [a for a in arrays if a.size]
    df = sum(a.size for a in arrays) - len(arrays)
    if df < 1:
        return float("nan"), 0
    return math.sqrt(sum(float(((a - a.mean()) ** 2).sum()) for a in arrays) / df), df


def pilot_plan(
    df: pd.DataFrame,
    shift: float,
    *,
    pairs: Sequence[tuple[str, str]] | None = None,
    score: str | None = None,
    alpha: float = 0.05,
    power: float = 0.8,
    max_papers: int = MAX_PAPERS,
) -> pd.DataFrame:
    """Papers needed to detect a mean shift of ``shift`` points, with soft and with integer scores,
    from a pilot run's own variances.

    Per reviewer, over the pilot's compared pairs (paper-level differences first - second, each
    pair's mean removed so a pilot effect does not count as noise: :func:`pooled_sd`, with
    ``n_differences - n_compared_pairs`` degrees of freedom; a pilot with one paper per compared
    pair has none, and its SD is not estimable, NaN):

    - soft: ``sd_soft`` = SD of the differences of expected scores; papers for the Wilcoxon test
      = the paired t-test's n at effect ``shift / sd_soft`` (``statsmodels`` TTestPower) divided
      by :data:`WILCOXON_ARE`;
    - integer: ``sd_integer`` = SD of the differences of integer scores; one review's SD is
      ``sd_integer / sqrt(2)``; the sign test's n follows from the win, loss and tie
      probabilities of integer reviews shifted by ``shift``
      (:func:`rhetorica.analysis.power.integer_pair_probabilities`, the 1-10 review model of
      ``rhetorica plan``) and :func:`rhetorica.analysis.power.papers_needed`.

    Args:
        df: the pilot's tidy assessments (with ``<score>.expected`` for the soft rows).
        shift: target mean shift in score points (> 0).
        pairs: compared arms (default :func:`rhetorica.analysis.arms.default_pairs`).
        score: the integer score (default: the forms' primary).
        alpha, power: two-sided level and target power.
        max_papers: search limit (``None`` beyond it).

    Returns:
        One row per reviewer: ``reviewer, n_pairs`` (paper-level differences), ``df_integer``,
        ``sd_integer``, ``df_soft``, ``sd_soft`` (each SD's degrees of freedom), ``papers_integer,
        papers_soft`` and ``ratio`` (integer / soft papers); NaN or ``None`` where the pilot has
        too few papers (a degrees of freedom of 0), no spread or no soft ratings, and then ``why``
        says which and why (``None`` when every value is there).

    Raises:
        ValueError: ``shift`` not > 0, or a bad column or arm.
    """


    if not (math.isfinite(shift) and shift > 0):
        raise ValueError(f"shift must be a finite number > 0 (points), got {shift}")
    score = score or primary_metric(df)
    if pairs is None:
        pairs = default_pairs(sorted(pd.unique(df["arm"])))
    soft = has_soft_ratings(df, score)

    def differences(column: str) -> dict[str, list[npt.NDArray[np.float64]]]:
        """Per reviewer, the paper-level differences of each compared pair."""
        w = wide_scores(paper_scores(df, column), column)
        out: dict[str, list[npt.NDArray[np.float64]]] = {r: [] for r in w.reviewers}
        for first, second in pairs:
            d = w.column(first) - w.column(second)
            for code, reviewer in enumerate(w.reviewers):
                out[reviewer].append(d[(w.codes == code) & ~np.isnan(d)])
        return out

    integer = differences(score)
    expected = differences(expected_metric(score)) if soft else {}
    rows = []
    for reviewer, groups in integer.items():
        sd_int, df_int = pooled_sd(groups)
        sd_soft, df_soft = pooled_sd(expected[reviewer]) if reviewer in expected else (float("nan"), 0)
        n_int = n_soft = None
        if math.isfinite(sd_int) and sd_int > 0:
            win, loss, tie = integer_pair_probabilities(shift, sd_int / math.sqrt(2))
            n_int = papers_needed(win / loss, power=power, alpha=alpha, tie_prob=tie, max_papers=max_papers)
        if math.isfinite(sd_soft) and sd_soft > 0:
            n_t = TTestPower().solve_power(effect_size=shift / sd_soft, alpha=alpha, power=power,
                                           alternative="two-sided")
            n_soft = int(math.ceil(float(n_t) / WILCOXON_ARE))
            n_soft = n_soft if n_soft <= max_papers else None
        n_pairs = sum(len(g) for g in groups)
        why = ([] if n_pairs else ["no paper has scores in both arms of a compared pair"]) or [
            *_not_planned("sign test (integer scores)", df_int, sd_int, n_int, max_papers),
            *(_not_planned("Wilcoxon (soft scores)", df_soft, sd_soft, n_soft, max_papers) if reviewer in expected
              else ["Wilcoxon (soft scores): the pilot has no soft ratings (expected scores) of this score"])]
        rows.append({"reviewer": reviewer, "n_pairs": n_pairs, "df_integer": df_int,
                     "sd_integer": sd_int, "df_soft": df_soft, "sd_soft": sd_soft,
                     "papers_integer": n_int, "papers_soft": n_soft,
                     "ratio": n_int / n_soft if n_int and n_soft else float("nan"), "why": "; ".join(why) or None})
    return pd.DataFrame(rows, columns=["reviewer", "n_pairs", "df_integer", "sd_integer", "df_soft", "sd_soft",
                                       "papers_integer", "papers_soft", "ratio", "why"])


def _not_planned(test: str, dof: int, sd: float, papers: int | None, max_papers: int) -> list[str]:
    """Why ``test`` has no paper count from a pilot (empty when it has one): no degree of freedom
    (SD not estimable), no spread of the differences (SD 0: the shift has nothing to be measured
    against), or more than ``max_papers`` papers."""
    if papers is not None:
        return []
    if not dof or not math.isfinite(sd):
        return [f"{test}: the SD of paired differences is not estimable (no degree of freedom: each compared "
                "pair has one paper)"]
    if sd == 0:
        return [f"{test}: every paired difference equals its pair's mean (SD 0), so no sample size follows"]
    return [f"{test}: more than {max_papers} papers needed"]


#: Columns :func:`largest_soft_shift` adds to a per-reviewer table.
SHIFT_COLUMNS = ["soft_pair", "soft_mean_diff", "soft_ci_low", "soft_ci_high", "wilcoxon_p"]


def largest_soft_shift(card: pd.DataFrame, comparison: pd.DataFrame) -> pd.DataFrame:
    """``card`` (one row per ``reviewer``) with each reviewer's largest soft shift: the pair of
    ``comparison`` (with :data:`SOFT_COLUMNS`, :func:`with_soft_ratings`) whose mean difference of
    expected scores is largest in absolute value, its interval and Wilcoxon p (:data:`SHIFT_COLUMNS`;
    ``""``/NaN for a reviewer without soft ratings). ``card`` is returned unchanged when
    ``comparison`` has no soft ratings (scorecards of studies without them stay as they were)."""
    if "soft_mean_diff" not in comparison.columns or comparison["soft_mean_diff"].isna().all():
        return card
    found = comparison.dropna(subset=["soft_mean_diff"])
    found = found.assign(_size=found["soft_mean_diff"].abs()).sort_values("_size", ascending=False, kind="stable")
    best = found.drop_duplicates("reviewer").set_index("reviewer")
    out = card.copy()
    labels = best["first"].astype(str) + " vs " + best["second"].astype(str)
    out["soft_pair"] = out["reviewer"].map(labels).fillna("")
    for column in SHIFT_COLUMNS[1:]:
        out[column] = out["reviewer"].map(best[column]).astype(float)
    return out
