"""The six-dimension study's analysis tables (STUDIES.md §2), built on :mod:`rhetorica.analysis.change`.

- :func:`main_table`: each rewrite against its original (same paper, reviewer, protocol) for
  every rewriter separately and pooled over rewriters (the variants of one paper and condition by
  different rewriters averaged with the replicates): signed and absolute change and weak-accept
  change (OA ≥ 6) with stratified bootstrap intervals — :func:`~rhetorica.analysis.change.paired_change`.
- :func:`direction_contrast`: ``<dimension>:+`` against ``<dimension>:-`` of the same paper.
- :func:`strict_minus_standard`: the same model's Strict review minus its Standard review of the
  same paper and arm (reviewers told apart by their ``protocol``), same statistics.

Every table has a ``rewriter`` column (a rewriter's name or ``pooled``); changes are in the
primary score's points; missing papers stay missing.
"""

from __future__ import annotations

import pandas as pd

from rhetorica.analysis.change import CHANGE_COLUMNS, paired_change
from rhetorica.labels import ORIGINAL
from rhetorica.rewriting.conditions import parse_condition

POOLED = "pooled"
STRICT_PROTOCOLS = ("strict", "strict-iclr")


def _per_rewriter(df: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    """(rewriter, its variants with the originals, arm = condition), then ``pooled``."""
    df = df.assign(arm=df["condition"])
    rewriters = sorted(r for r in pd.unique(df.loc[df["condition"] != ORIGINAL, "rewriter"]))
    parts = [(rw, df[(df["condition"] == ORIGINAL) | (df["rewriter"] == rw)]) for rw in rewriters]
    return parts + ([(POOLED, df)] if len(rewriters) > 1 else [])


def _labelled(table: pd.DataFrame, rewriter: str) -> pd.DataFrame:
    conditions = [parse_condition(c, check=False) for c in table["first"]]
    return table.assign(rewriter=rewriter, dimension=[c.dimension for c in conditions],
                        direction=[c.direction if c.signed else c.name for c in conditions])


def main_table(df: pd.DataFrame, *, n_resamples: int = 5000, seed: int = 0) -> pd.DataFrame:
    """Dimension × direction × reviewer × rewriter: every condition against ``original``.

    Args:
        df: tidy assessments (``condition``, ``rewriter`` and the columns of ``paired_change``).
        n_resamples / seed: the bootstrap's (the study used 5,000).

    Returns:
        :data:`~rhetorica.analysis.change.CHANGE_COLUMNS` plus ``rewriter``, ``dimension`` and
        ``direction`` (``+``/``-``, or the workflow's name); empty without the original arm.
    """
    frames = []
    for rewriter, part in _per_rewriter(df):
        arms = [a for a in sorted(pd.unique(part["arm"])) if a != ORIGINAL]
        if ORIGINAL not in set(part["arm"]) or not arms:
            continue
        table = paired_change(part, [(a, ORIGINAL) for a in arms], n_resamples=n_resamples, seed=seed)
        frames.append(_labelled(table, rewriter))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=[*CHANGE_COLUMNS, "rewriter"])


def direction_contrast(df: pd.DataFrame, *, n_resamples: int = 5000, seed: int = 0) -> pd.DataFrame:
    """``<dimension>:+`` minus ``<dimension>:-`` (same paper, reviewer), per rewriter and pooled;
    columns as :func:`main_table`. Dimensions with only one direction are left out."""
    frames = []
    for rewriter, part in _per_rewriter(df):
        arms = set(pd.unique(part["arm"]))
        plus = [parse_condition(a, check=False) for a in sorted(arms - {ORIGINAL})]
        pairs = [(c.name, f"{c.dimension}:-") for c in plus
                 if c.signed and c.direction == "+" and f"{c.dimension}:-" in arms]
        if pairs:
            frames.append(_labelled(paired_change(part, pairs, n_resamples=n_resamples, seed=seed), rewriter))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=[*CHANGE_COLUMNS, "rewriter"])


def strict_minus_standard(df: pd.DataFrame, *, n_resamples: int = 5000, seed: int = 0) -> pd.DataFrame:
    """Strict − Standard of one model on the same paper and arm.

    Returns:
        ``paired_change`` columns with ``reviewer`` = ``<model> / <arm>`` and ``first``/``second``
        the two protocols; empty when no model was run under both.
    """
    if "protocol" not in df.columns or "model" not in df.columns:
        return pd.DataFrame(columns=CHANGE_COLUMNS)
    strict = df["protocol"].isin(STRICT_PROTOCOLS)
    both = df[strict | (df["protocol"] == "standard")]
    if both.empty or not strict.any() or not (df["protocol"] == "standard").any():
        return pd.DataFrame(columns=CHANGE_COLUMNS)
    recoded = both.assign(reviewer=both["model"].astype(str) + " / " + both["condition"].astype(str),
                          arm=both["protocol"].where(~both["protocol"].isin(STRICT_PROTOCOLS), "strict"))
    return paired_change(recoded, [("strict", "standard")], n_resamples=n_resamples, seed=seed)
