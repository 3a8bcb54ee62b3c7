"""Reviewer variance over repeated reviews of identical input ('Style over Substance', Sec. 4).

The pooled standard deviation combines the within-input variances of groups of repeated reviews
(same reviewer, paper and arm): ``s_p = sqrt(sum_g (n_g - 1) s_g^2 / sum_g (n_g - 1))`` with
``s_g^2`` the unbiased sample variance of group g (Cohen 1988, "Statistical Power Analysis for
the Behavioral Sciences", eq. 2.3.2, generalised to G groups). Groups with fewer than two ``ok``
scores carry no variance information and are skipped.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rhetorica.analysis.paired import KEYS, key_groups
from rhetorica.analysis.tidy import ok_scores, primary_metric, require_columns

POOLED_SD_COLUMNS = ["reviewer", "n_groups", "n_reviews", "pooled_sd"]


def pooled_sd(df: pd.DataFrame, *, score: str | None = None, arm: str | None = None) -> pd.DataFrame:
    """Pooled SD of repeated reviews, one row per reviewer.

    Args:
        df: tidy assessments; replicates of the same (reviewer, document_id, arm) are repeats of
            identical input.
        score: score column.
        arm: restrict to one arm (e.g. ``"original"``); ``None`` pools every arm.

    Returns:
        DataFrame with :data:`POOLED_SD_COLUMNS`: ``n_groups`` groups with >= 2 ``ok`` scores,
        ``n_reviews`` scores in them, ``pooled_sd`` in score points (NaN when no group qualifies).

    Raises:
        ValueError: on a missing column or an out-of-range score.
    """
    score = score or primary_metric(df)
    require_columns(df, ["reviewer", "document_id", "arm", "status", score])
    reviewers = sorted(pd.unique(df["reviewer"]))
    v = ok_scores(df, score).to_numpy()
    keep = ~np.isnan(v)
    if arm is not None:
        keep &= df["arm"].eq(arm).to_numpy(dtype=bool, na_value=False)
    keyed = np.logical_and.reduce([df[k].notna().to_numpy() for k in KEYS])
    if not keyed.all():  # rows with a null key belong to no group
        df, v, keep = df[keyed], v[keyed], keep[keyed]
    # groups by integer codes in (reviewer, document_id, arm) order: pandas' variance and sums
    # run over the same rows in the same order as a groupby on the three columns
    g = key_groups(df)
    rows = pd.DataFrame({"group": g.inverse[keep], "v": v[keep]}).groupby("group")["v"]
    groups = pd.DataFrame({"n": rows.size(), "var": rows.var(ddof=1)})
    per_reviewer = len(g.uniques[1]) * len(g.uniques[2])  # groups of one reviewer's code
    groups["reviewer"] = g.uniques[0].take(g.groups[groups.index.to_numpy()] // per_reviewer)
    groups = groups[groups["n"] >= 2]
    groups["ss"] = (groups["n"] - 1) * groups["var"]
    groups["dof"] = groups["n"] - 1
    per = groups.groupby("reviewer").agg(
        n_groups=("n", "size"), n_reviews=("n", "sum"), ss=("ss", "sum"), dof=("dof", "sum")
    )
    per = per.reindex(reviewers)
    out = pd.DataFrame(
        {
            "reviewer": reviewers,
            "n_groups": per["n_groups"].fillna(0).astype(int).to_numpy(),
            "n_reviews": per["n_reviews"].fillna(0).astype(int).to_numpy(),
            "pooled_sd": np.sqrt((per["ss"] / per["dof"]).to_numpy(dtype=float)),
        }
    )
    return out[POOLED_SD_COLUMNS]


POOLED_SD_METRIC_COLUMNS = ["reviewer", "metric", "n_groups", "n_reviews", "pooled_sd"]


def pooled_sd_by_metric(scores: pd.DataFrame, *, arm: str | None = None) -> pd.DataFrame:
    """Pooled SD of repeated reviews (the module's formula) for every metric, one row per reviewer
    and metric.

    Args:
        scores: long scores (:func:`rhetorica.store.export.scores_long`): ``reviewer``,
            ``document_id``, ``arm``, ``status``, ``metric``, ``value``; replicates of the same
            (reviewer, document_id, arm) are repeats of identical input; only ``ok`` rows with a
            value count (never imputed).
        arm: restrict to one arm (e.g. ``"original"``); ``None`` pools every arm.

    Returns:
        DataFrame with :data:`POOLED_SD_METRIC_COLUMNS`, sorted by reviewer, then the metrics in
        their order of first appearance; ``pooled_sd`` in the metric's units (NaN when no group
        has two scores). Empty when ``scores`` is.
    """
    require_columns(scores, ["reviewer", "document_id", "arm", "status", "metric", "value"], "scores table")
    frame = scores[(scores["status"] == "ok") & scores["value"].notna()]
    if arm is not None:
        frame = frame[frame["arm"] == arm]
    keys = scores[["reviewer", "metric"]].drop_duplicates()
    g = frame.groupby(["reviewer", "metric", "document_id", "arm"], sort=False)["value"]
    groups = pd.DataFrame({"n": g.size(), "var": g.var(ddof=1)}).reset_index()
    groups = groups[groups["n"] >= 2].assign(ss=lambda x: (x["n"] - 1) * x["var"], dof=lambda x: x["n"] - 1)
    per = groups.groupby(["reviewer", "metric"], sort=False).agg(
        n_groups=("n", "size"), n_reviews=("n", "sum"), ss=("ss", "sum"), dof=("dof", "sum")).reset_index()
    out = keys.merge(per, on=["reviewer", "metric"], how="left")
    out["n_groups"] = out["n_groups"].fillna(0).astype(int)
    out["n_reviews"] = out["n_reviews"].fillna(0).astype(int)
    out["pooled_sd"] = np.sqrt((out["ss"] / out["dof"]).astype(float))
    out = out.sort_values("reviewer", kind="stable").reset_index(drop=True)
    return out[POOLED_SD_METRIC_COLUMNS]
