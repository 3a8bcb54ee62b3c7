"""Paper-clustered analysis of the review-metric study (STUDIES.md §3; issue 13 part 4).

The data are nested: several rewrites of one review, several reviews of one paper. The pair-level
analysis of :mod:`rhetorica.analysis.equivalence` treats every d as independent; this module offers
the clustered versions, built on the same tests (no second implementation):

- **aggregate first** (:func:`clustered_reliability`): average d to one value per review or per
  paper, then run :func:`~rhetorica.analysis.equivalence.judge_reliability` (Wilcoxon signed-rank,
  TOST with δ_m, Bonferroni over the judge's metrics, four-way class) on those means;
- **cluster bootstrap** (:func:`cluster_bootstrap`): resample papers with replacement (all of a
  paper's pairs go together; :func:`rhetorica.analysis.bootstrap.stratified_bootstrap` with one
  stratum) and take percentile intervals of the pair-weighted mean d. Decisions by interval
  inclusion at the Bonferroni level α' = α / M: *sensitive* when the (1 − α') interval excludes 0,
  *robust* when the (1 − 2α') interval lies inside (−δ_m, δ_m) — the interval form of TOST
  (Schuirmann 1987; Berger & Hsu 1996, "Bioequivalence trials, intersection-union tests and
  equivalence confidence sets", Statistical Science 11(4)). Where every paper's pair-weighted mean d
  is the same value (one paper included) every resample gives that value: the interval is a point
  that shows nothing, so the metric is ``not_informative`` with its reason and no interval.

:func:`level_differences` lists the metrics whose class differs between two analyses, so a report
can show both when they differ.

Input: a *pair table*, one row per judgement, with the judge table's columns (``document_id`` =
the original review, ``arm``, ``judge``, ``metric``, ``score``, optional ``status``) plus
``paper_id`` and ``variant`` (the rewrite's id; empty for originals). For each rewrite,
``d = S(rewrite) − mean S(original)`` (repeated judgements of the same text averaged first).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

import numpy as np
import pandas as pd

from rhetorica.analysis.bootstrap import percentile_ci, stratified_bootstrap
from rhetorica.analysis.equivalence import (NOT_INFORMATIVE, all_equal, classify, judge_metric_tests, judge_reliability,
                                            no_variation_reason)
from rhetorica.analysis.tidy import require_columns
from rhetorica.labels import ORIGINAL

Level = Literal["pair", "review", "paper"]
PAIR_COLUMNS = ["paper_id", "document_id", "variant", "arm", "judge", "metric", "score"]
_UNIT = {"pair": "variant", "review": "document_id", "paper": "paper_id"}
BOOTSTRAP_COLUMNS = ["judge", "metric", "n_clusters", "n_pairs", "mean_diff", "sensitive_low", "sensitive_high",
                     "robust_low", "robust_high", "bound", "alpha_bonferroni", "classification", "reason"]


def pair_differences(table: pd.DataFrame) -> pd.DataFrame:
    """``d = S(rewrite) − mean S(original)`` per judge, metric and rewrite.

    Returns:
        DataFrame ``judge, metric, paper_id, document_id, variant, d`` (rewrites whose original
        has no usable score on that metric are left out).

    Raises:
        ValueError: a missing column, an arm other than ``original``/``rewrite``, or a rewrite row
            without a ``variant``.
    """
    require_columns(table, PAIR_COLUMNS, "pair table")
    bad = set(pd.unique(table["arm"])) - {ORIGINAL, "rewrite"}
    if bad:
        raise ValueError(f"pair table: arm must be 'original' or 'rewrite', found {sorted(bad)}")
    t = table[table["status"] == "ok"] if "status" in table.columns else table
    t = t.assign(score=pd.to_numeric(t["score"], errors="coerce")).dropna(subset=["score"])
    rewrites = t[t["arm"] == "rewrite"]
    if rewrites["variant"].isna().any() or (rewrites["variant"].astype(str) == "").any():
        raise ValueError("pair table: every rewrite row needs its 'variant' id")
    keys = ["judge", "metric", "paper_id", "document_id"]
    base = t[t["arm"] == ORIGINAL].groupby(keys)["score"].mean().rename(ORIGINAL)
    new = rewrites.groupby([*keys, "variant"])["score"].mean().rename("rewrite").reset_index()
    merged = new.join(base, on=keys, how="inner")
    merged["d"] = merged["rewrite"] - merged[ORIGINAL]
    return merged[[*keys, "variant", "d"]].reset_index(drop=True)


def aggregate_differences(diffs: pd.DataFrame, level: Level) -> pd.DataFrame:
    """Mean d per unit of ``level`` (``pair`` keeps every rewrite; ``review`` and ``paper`` average
    all the unit's rewrites), per judge and metric.

    Returns:
        DataFrame ``judge, metric, unit, d``.
    """
    if level not in _UNIT:
        raise ValueError(f"level must be one of {', '.join(_UNIT)}, got {level!r}")
    column = _UNIT[level]
    keys = ["judge", "metric", "paper_id"] + (["document_id"] if level != "paper" else []) + (
        ["variant"] if level == "pair" else [])
    out = diffs.groupby(keys, sort=True)["d"].mean().reset_index()
    return out.rename(columns={column: "unit"})[["judge", "metric", "unit", "d"]]


def clustered_reliability(table: pd.DataFrame, bounds: Mapping[str, float] | float, *, level: Level = "paper",
                          alpha: float = 0.05, n_tests: Mapping[str, int] | None = None) -> pd.DataFrame:
    """The four-way classification with d averaged to one value per ``level`` unit first.

    Runs :func:`~rhetorica.analysis.equivalence.judge_reliability` on the unit means (each unit
    enters as an original scored 0 and a rewrite scored its mean d, so that its d is exactly the
    mean). ``level="pair"`` reproduces the pair-level analysis of all rewrites. ``n_tests``: judge
    -> Bonferroni M (:func:`~rhetorica.analysis.equivalence.judge_metric_tests`). Whether a metric
    varies at all (the ``not_informative`` rule 1) is read from the raw ok scores of ``table``
    (:func:`~rhetorica.analysis.equivalence.no_variation_reason`), not from the unit means.

    Returns:
        :data:`~rhetorica.analysis.equivalence.RELIABILITY_COLUMNS` plus ``level``; ``n_pairs``
        counts units.
    """
    means = aggregate_differences(pair_differences(table), level)
    rows = pd.concat([means.assign(arm=ORIGINAL, score=0.0), means.assign(arm="rewrite", score=means["d"])])
    judged = rows.rename(columns={"unit": "document_id"})[["document_id", "arm", "judge", "metric", "score"]]
    t = table[table["status"] == "ok"] if "status" in table.columns else table
    t = t.assign(score=pd.to_numeric(t["score"], errors="coerce"))
    variations = {key: no_variation_reason(part.loc[part["arm"] == ORIGINAL, "score"],
                                           part.loc[part["arm"] == "rewrite", "score"])
                  for key, part in t.groupby(["judge", "metric"])}
    return judge_reliability(judged, bounds, alpha=alpha, n_tests=n_tests,
                             variations=variations).assign(level=level)


def cluster_bootstrap(table: pd.DataFrame, bounds: Mapping[str, float] | float, *, alpha: float = 0.05,
                      n_resamples: int = 20000, seed: int = 0) -> pd.DataFrame:
    """Paper-cluster bootstrap of the mean d, and the interval-inclusion classes (module docstring).

    Args:
        table: pair table.
        bounds: δ_m per metric, or one value for all.
        alpha: family-wise level before Bonferroni over each judge's metrics.
        n_resamples: bootstrap resamples B (the Bonferroni tails need many: with M = 29,
            α' ≈ 0.0017 and B = 20,000 leaves about 17 resamples in each tail).
        seed: seed of the resampling (same seed and input, same output).

    Returns:
        DataFrame with :data:`BOOTSTRAP_COLUMNS`: ``mean_diff`` the pair-weighted mean d;
        ``sensitive_low/high`` the (1 − α') interval, ``robust_low/high`` the (1 − 2α') interval;
        NaN intervals, class ``not_informative`` and ``reason`` where every paper's mean d is equal
        (module docstring; ``reason`` missing elsewhere).

    Raises:
        ValueError: on a bad table or a metric without a bound > 0.
    """
    diffs = pair_differences(table)
    rows = []
    for judge, metric, m, bound, level in judge_metric_tests(diffs, bounds, alpha):
        per_paper = m.groupby("paper_id")["d"].agg(["sum", "size"])
        values = per_paper.to_numpy(dtype=float)
        row = {"judge": judge, "metric": metric, "n_clusters": len(values), "n_pairs": int(len(m)),
               "mean_diff": float(m["d"].mean()), "bound": float(bound), "alpha_bonferroni": level}
        if all_equal(values[:, 0] / values[:, 1]):
            nan = float("nan")
            rows.append(row | dict.fromkeys(("sensitive_low", "sensitive_high", "robust_low", "robust_high"), nan)
                        | {"classification": NOT_INFORMATIVE,
                           "reason": (f"each of the {len(values)} paper(s) has mean difference "
                                      f"{values[0, 0] / values[0, 1]:g}: every resample gives it, no interval")})
            continue
        samples = stratified_bootstrap(values, np.zeros(len(values)), n_resamples=n_resamples, seed=seed)
        ratio = samples[:, :1] / samples[:, 1:]  # resampled pair-weighted mean d
        s_low, s_high = percentile_ci(ratio, 1 - level)
        r_low, r_high = percentile_ci(ratio, 1 - 2 * level)
        sensitive = not (s_low[0] <= 0 <= s_high[0])
        robust = bool(-bound < r_low[0] and r_high[0] < bound)
        rows.append(row | {"sensitive_low": float(s_low[0]), "sensitive_high": float(s_high[0]),
                           "robust_low": float(r_low[0]), "robust_high": float(r_high[0]),
                           "classification": classify(sensitive, robust), "reason": None})
    return pd.DataFrame(rows, columns=BOOTSTRAP_COLUMNS)


def level_differences(a: pd.DataFrame, b: pd.DataFrame,
                      labels: tuple[str, str] = ("pair", "clustered")) -> pd.DataFrame:
    """Metrics whose class differs between two analyses (e.g. pair-level vs paper-clustered).

    Returns:
        DataFrame ``judge, metric, class_<label a>, class_<label b>`` for the (judge, metric)
        present in both with different classes.
    """
    left = a.set_index(["judge", "metric"])["classification"].rename(f"class_{labels[0]}")
    right = b.set_index(["judge", "metric"])["classification"].rename(f"class_{labels[1]}")
    both = pd.concat([left, right], axis=1, join="inner")
    return both[both.iloc[:, 0] != both.iloc[:, 1]].reset_index()
