"""Every study table from one tidy assessment table (what a report shows).

A convenience for reports and the CLI: it only calls the analysis functions, each of which is
documented and tested in its own module.
"""

from __future__ import annotations

import pandas as pd

from rhetorica.analysis.arms import conditional_pairs, default_pairs
from rhetorica.analysis.change import movement_by_initial_score, paired_change
from rhetorica.analysis.paired import (
    COMPARISON_COLUMNS,
    comparison_table,
    criterion_table,
    difference_magnitude,
)
from rhetorica.analysis.mixed import MIXED_COLUMNS, mixed_effects_table
from rhetorica.analysis.robustness import robustness_table
from rhetorica.analysis.soft import with_soft_ratings
from rhetorica.analysis.tidy import CRITERIA
from rhetorica.analysis.variance import pooled_sd
from rhetorica.labels import ORIGINAL

TABLES = (
    "comparison",
    "conditional",
    "criteria",
    "magnitude",
    "change",
    "movement",
    "pooled_sd",
    "robustness",
)


def with_mixed_effects(comparison: pd.DataFrame, df: pd.DataFrame, pairs: list[tuple[str, str]]) -> pd.DataFrame:
    """The comparison table with the mixed-effects estimate (:mod:`rhetorica.analysis.mixed`) of each
    reviewer and pair beside the sign test."""
    if comparison.empty:
        return comparison.reindex(columns=[*comparison.columns, *MIXED_COLUMNS[3:]])
    mixed = mixed_effects_table(df, pairs)
    return comparison.merge(mixed, on=["reviewer", "first", "second"], how="left")


def study_tables(
    df: pd.DataFrame,
    *,
    pairs: list[tuple[str, str]] | None = None,
    threshold: float = 4.5,
    n_resamples: int = 5000,
    seed: int = 0,
) -> dict[str, pd.DataFrame]:
    """Compute the study tables that apply to ``df``.

    Args:
        df: tidy assessments.
        pairs: compared arms; default :func:`~rhetorica.analysis.arms.default_pairs`.
        threshold: acceptance threshold of the overall score for decision flips.
        n_resamples: bootstrap resamples of the change table.
        seed: bootstrap seed.

    Returns:
        Dict keyed by :data:`TABLES`: ``comparison`` (Table 4, with the mixed-effects estimate
        beside the sign test, and where the reviews carry soft ratings the Wilcoxon test and
        bootstrap interval on expected scores: :mod:`rhetorica.analysis.soft`), ``conditional`` (Table 5, for
        2x2 compound arms; empty otherwise), ``criteria`` (per-criterion ratios, for the
        criteria present), ``magnitude``, ``change`` and ``movement`` (need the original arm;
        empty otherwise), ``pooled_sd`` (original arm), ``robustness``.

    Raises:
        ValueError: as the underlying functions (bad columns, out-of-range scores, unknown arms).
    """
    arms = sorted(pd.unique(df["arm"]))
    if pairs is None:
        pairs = default_pairs(arms)
    has_original = ORIGINAL in arms
    frames = [
        comparison_table(df, [(a, b)], threshold=threshold, given=g)
        for a, b, g in conditional_pairs(arms)
    ]
    criteria = [c for c in CRITERIA if c in df.columns and df[c].notna().any()]
    vs_original = [(a, b) for a, b in pairs if b == ORIGINAL]
    empty = pd.DataFrame()
    return {
        "comparison": with_soft_ratings(with_mixed_effects(comparison_table(df, pairs, threshold=threshold), df, pairs),
                                        df, seed=seed),
        "conditional": pd.concat(frames, ignore_index=True)
        if frames
        else pd.DataFrame(columns=COMPARISON_COLUMNS),
        "criteria": criterion_table(df, pairs, criteria=criteria) if criteria else empty,
        "magnitude": difference_magnitude(df, pairs),
        "change": paired_change(df, vs_original, n_resamples=n_resamples, seed=seed)
        if has_original and vs_original
        else empty,
        "movement": movement_by_initial_score(df) if has_original else empty,
        "pooled_sd": pooled_sd(df, arm=ORIGINAL if has_original else None),
        "robustness": robustness_table(df),
    }
