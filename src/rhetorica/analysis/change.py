"""Change of a reviewer's score under a rewrite, relative to the original (six-dimension study).

Definitions (the six-dimension study's analysis section, restated in STUDIES.md §2): for each
reviewer and paper, replicates are averaged first; the change of a paper is
``d = score(first arm) - score(second arm)`` (by default ``second = "original"``). The signed mean
change and the mean absolute change average ``d`` (or ``|d|``) within each human-rating stratum,
then give every stratum equal weight. 95% percentile intervals come from 5,000 stratified
paper-level bootstrap resamples (:mod:`rhetorica.analysis.bootstrap`), drawn once per stratum for
every reviewer and pair: each (reviewer, pair) averages over the drawn papers it has paired (a
resample that draws none of its papers in one of its strata is left out of its interval). Weak-accept probability is
the share of ``ok`` reviews with overall >= 6 (per paper first, then stratum-weighted). A paper
missing in either arm is left out (never imputed); papers without a human stratum form one
stratum labelled ``"unknown"``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from rhetorica.analysis.bootstrap import percentile_ci, stratified_bootstrap_columns
from rhetorica.analysis.paired import KEYS, grouped_wide_scores, key_groups, wide_paper_scores
from rhetorica.analysis.tidy import document_info, ok_scores, primary_metric, require_columns
from rhetorica.labels import ORIGINAL

UNKNOWN_STRATUM = "unknown"

CHANGE_COLUMNS = [
    "reviewer",
    "first",
    "second",
    "score",
    "n_papers",
    "n_strata",
    "mean_change",
    "mean_change_low",
    "mean_change_high",
    "mean_abs_change",
    "mean_abs_change_low",
    "mean_abs_change_high",
    "weak_accept_first",
    "weak_accept_second",
    "weak_accept_change",
    "weak_accept_change_low",
    "weak_accept_change_high",
]

INITIAL_BINS: tuple[float, ...] = (1.0, 3.0, 4.0, 5.0, 6.0, 7.0, 10.0)
"""Edges of the initial-score bins: [1,3), [3,4), [4,5), [5,6), [6,7), [7,10] (the six-dimension
study's human-rating bins, with the top bin widened to the 1-10 scale)."""


def _strata(df: pd.DataFrame) -> pd.Series:
    info = document_info(df)["human_stratum"]
    return info.where(info.notna(), UNKNOWN_STRATUM).astype(str)


def paired_change(
    df: pd.DataFrame,
    pairs: Sequence[tuple[str, str]] | None = None,
    *,
    score: str | None = None,
    n_resamples: int = 5000,
    seed: int = 0,
    level: float = 0.95,
    weak_accept: float = 6.0,
) -> pd.DataFrame:
    """Signed and absolute change, weak-accept probability, with stratified bootstrap CIs.

    Args:
        df: tidy assessments (``human_stratum`` optional).
        pairs: ``(first, second)`` arms; default every non-original arm vs ``"original"``.
        score: score column.
        n_resamples: bootstrap resamples (the study used 5,000).
        seed: bootstrap seed (``numpy.random.default_rng``); results are reproducible.
        level: CI coverage.
        weak_accept: a review counts as weak accept when ``score >= weak_accept``.

    Returns:
        DataFrame with :data:`CHANGE_COLUMNS`, one row per reviewer and pair; changes in score
        points, weak-accept values as probabilities 0-1; NaN where no paper is paired.

    Raises:
        ValueError: on a missing column, out-of-range score or unknown arm.
    """
    score = score or primary_metric(df)
    require_columns(df, [*KEYS, "status", score])
    values = ok_scores(df, score).to_numpy()
    groups = key_groups(df)  # one grouping for the scores and the weak-accept shares
    wide = grouped_wide_scores(groups, values)
    arms = set(wide.table.columns)
    if pairs is None:
        pairs = [(a, ORIGINAL) for a in sorted(arms) if a != ORIGINAL]
    for arm in {a for pair in pairs for a in pair}:
        if arm not in arms:
            raise ValueError(f"arm {arm!r} is not in the data; arms present: {sorted(arms)}")
    hits = np.where(np.isnan(values), np.nan, (values >= weak_accept).astype(float))
    strata = _strata(df)
    docs = strata.index
    reviewers = wide.reviewers
    arm_names = sorted(arms)
    # (reviewer, document, arm) cubes of paper scores and weak-accept shares, NaN where missing
    cube_index = pd.MultiIndex.from_product([reviewers, docs], names=["reviewer", "document_id"])
    score_c, wa_c = (
        w.table.reindex(index=cube_index, columns=arm_names).to_numpy(dtype=float)
        .reshape(len(reviewers), len(docs), len(arm_names))
        for w in (wide, grouped_wide_scores(groups, hits))
    )
    first = [arm_names.index(a) for a, _ in pairs]
    second = [arm_names.index(b) for _, b in pairs]
    # (document, pair, reviewer) statistics over the papers scored in both arms
    d = (score_c[:, :, first] - score_c[:, :, second]).transpose(1, 2, 0)
    ok = ~np.isnan(d)
    wa_first = np.where(ok, wa_c[:, :, first].transpose(1, 2, 0), np.nan)
    wa_second = np.where(ok, wa_c[:, :, second].transpose(1, 2, 0), np.nan)
    stats = np.stack([d, np.abs(d), wa_first, wa_second, wa_first - wa_second], axis=-1)
    stats = stats.reshape(len(docs), -1)  # columns: (pair, reviewer, statistic)
    labels = strata.to_numpy()
    point = _stratum_means(stats, labels)
    n_strata = _strata_present(ok.reshape(len(docs), -1), labels)
    # intervals of the signed change, the absolute change and the weak-accept change
    interval_cols = stats.reshape(len(docs), -1, 5)[:, :, [0, 1, 4]].reshape(len(docs), -1)
    has = ok.reshape(len(docs), -1).any(axis=0)
    low = high = np.full(interval_cols.shape[1], np.nan)
    if has.any():
        keep = np.repeat(has, 3)
        samples = stratified_bootstrap_columns(interval_cols[:, keep], labels, n_resamples=n_resamples, seed=seed)
        low, high = np.full_like(low, np.nan), np.full_like(high, np.nan)
        low[keep], high[keep] = percentile_ci(samples, level)
    point, low, high = point.reshape(-1, 5), low.reshape(-1, 3), high.reshape(-1, 3)
    rows = []
    for k, (pair, reviewer) in enumerate((pair, r) for pair in pairs for r in reviewers):
        row: dict[str, object] = {"reviewer": reviewer, "first": pair[0], "second": pair[1], "score": score,
                                  "n_papers": int(ok.reshape(len(docs), -1)[:, k].sum())}
        if has[k]:
            row.update(
                n_strata=int(n_strata[k]),
                mean_change=point[k, 0], mean_change_low=low[k, 0], mean_change_high=high[k, 0],
                mean_abs_change=point[k, 1], mean_abs_change_low=low[k, 1], mean_abs_change_high=high[k, 1],
                weak_accept_first=point[k, 2], weak_accept_second=point[k, 3], weak_accept_change=point[k, 4],
                weak_accept_change_low=low[k, 2], weak_accept_change_high=high[k, 2],
            )
        rows.append(row)
    return pd.DataFrame(rows, columns=CHANGE_COLUMNS)


def _strata_present(present: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Per column, the number of strata holding at least one present row."""
    return sum((present[labels == g].any(axis=0) for g in pd.unique(labels)), np.zeros(present.shape[1]))


def _stratum_means(values: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Per column, :func:`rhetorica.analysis.bootstrap.stratum_weighted_mean` over its non-NaN rows
    (NaN for an empty column)."""
    total = np.zeros(values.shape[1])
    count = np.zeros(values.shape[1])
    for group in pd.unique(labels):
        part = values[labels == group]
        n = (~np.isnan(part)).sum(axis=0)
        with np.errstate(invalid="ignore"):
            total += np.where(n > 0, np.nansum(part, axis=0) / np.where(n > 0, n, 1), 0.0)
        count += n > 0
    with np.errstate(invalid="ignore"):
        return total / np.where(count > 0, count, np.nan)


def _bin_labels(edges: Sequence[float]) -> list[str]:
    labels = [f"[{a:g},{b:g})" for a, b in zip(edges[:-1], edges[1:])]
    labels[-1] = labels[-1][:-1] + "]"
    return labels


def movement_by_initial_score(
    df: pd.DataFrame,
    *,
    score: str | None = None,
    bins: Sequence[float] = INITIAL_BINS,
) -> pd.DataFrame:
    """Score movement of each rewrite, grouped by the reviewer's own score of the original.

    The six-dimension study reports how rewrites move papers depending on where the AI reviewer
    first placed them. Bins are left-closed, the last one closed on both sides.

    Args:
        df: tidy assessments.
        score: score column.
        bins: increasing bin edges covering the scale (default :data:`INITIAL_BINS`).

    Returns:
        DataFrame with columns ``reviewer, arm, initial_bin, n_papers, mean_change,
        mean_abs_change, share_up, share_down, share_same`` (shares 0-1), one row per reviewer,
        non-original arm and non-empty bin (bins in scale order). Papers outside the edges or
        missing in either arm are left out.

    Raises:
        ValueError: if the edges are not increasing or there is no original arm.
    """
    score = score or primary_metric(df)
    edges = np.asarray(bins, dtype=float)
    if len(edges) < 2 or np.any(np.diff(edges) <= 0):
        raise ValueError(f"bins must be at least two increasing edges, got {list(bins)}")
    wide = wide_paper_scores(df, score).table
    if ORIGINAL not in set(wide.columns):
        raise ValueError("movement by initial score needs the 'original' arm in the data")
    labels = _bin_labels(list(edges))
    frames = []
    for arm in [a for a in wide.columns if a != ORIGINAL]:
        base, new = wide[ORIGINAL], wide[arm]
        ok = base.notna() & new.notna() & (base >= edges[0]) & (base <= edges[-1])
        idx = np.clip(np.searchsorted(edges, base[ok], side="right") - 1, 0, len(labels) - 1)
        d = (new - base)[ok]
        part = pd.DataFrame(
            {
                "reviewer": d.index.get_level_values("reviewer"),
                "arm": arm,
                "initial_bin": pd.Categorical.from_codes(
                    idx, categories=pd.Index(labels), ordered=True
                ),
                "d": d.to_numpy(),
            }
        )
        frames.append(part)
    if not frames:
        return pd.DataFrame(
            columns=[
                "reviewer",
                "arm",
                "initial_bin",
                "n_papers",
                "mean_change",
                "mean_abs_change",
                "share_up",
                "share_down",
                "share_same",
            ]
        )
    allp = pd.concat(frames, ignore_index=True)
    allp["absd"] = allp["d"].abs()
    allp["up"] = allp["d"] > 0
    allp["down"] = allp["d"] < 0
    allp["same"] = allp["d"] == 0
    g = allp.groupby(["reviewer", "arm", "initial_bin"], observed=True, sort=True)
    out = g.agg(
        n_papers=("d", "size"),
        mean_change=("d", "mean"),
        mean_abs_change=("absd", "mean"),
        share_up=("up", "mean"),
        share_down=("down", "mean"),
        share_same=("same", "mean"),
    ).reset_index()
    out["initial_bin"] = out["initial_bin"].astype(str)
    return out
