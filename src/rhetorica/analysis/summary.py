"""Every study table from one tidy assessment table (what a report shows).

A convenience for reports and the CLI: it only calls the analysis functions, each of which is
documented and tested in its own module.
"""

from __future__ import annotations

import pandas as pd

from rhetorica.analysis.arms import conditional_pairs, default_pairs
from rhetorica.analysis.mixed import MIXED_COLUMNS, mixed_effects_table
from rhetorica.analysis.paired import COMPARISON_COLUMNS, comparison_table
from rhetorica.analysis.soft import with_soft_ratings
from rhetorica.analysis.variance import pooled_sd
from rhetorica.labels import ORIGINAL
from rhetorica.scorecard_thresholds import DECISION_THRESHOLD

TABLES = ("comparison", "conditional", "pooled_sd")
"""The tables :func:`study_tables` computes; the report's other analysis tables are registered
(:data:`rhetorica.registry.tables`, :mod:`rhetorica.report.paper_tables`)."""


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
    threshold: float = DECISION_THRESHOLD,
    seed: int = 0,
) -> dict[str, pd.DataFrame]:
    """Compute the comparison tables and the pooled SD of ``df``.

    Args:
        df: tidy assessments.
        pairs: compared arms; default :func:`~rhetorica.analysis.arms.default_pairs`.
        threshold: acceptance threshold of the overall score for decision flips.
        seed: seed of the soft ratings' paired bootstrap interval.

    Returns:
        Dict keyed by :data:`TABLES`: ``comparison`` (Table 4, with the mixed-effects estimate
        beside the sign test, and where the reviews carry soft ratings the Wilcoxon test and
        bootstrap interval on expected scores: :mod:`rhetorica.analysis.soft`), ``conditional``
        (Table 5, for 2x2 compound arms; empty otherwise),
        ``pooled_sd`` (original arm when present).

    Raises:
        ValueError: as the underlying functions (bad columns, out-of-range scores, unknown arms).
    """
    arms = sorted(pd.unique(df["arm"]))
    if pairs is None:
        pairs = default_pairs(arms)
    frames = [
        comparison_table(df, [(a, b)], threshold=threshold, given=g)
        for a, b, g in conditional_pairs(arms)
    ]
    return {
        "comparison": with_soft_ratings(with_mixed_effects(comparison_table(df, pairs, threshold=threshold), df, pairs),
                                        df, seed=seed),
        "conditional": pd.concat(frames, ignore_index=True)
        if frames
        else pd.DataFrame(columns=COMPARISON_COLUMNS),
        "pooled_sd": pooled_sd(df, arm=ORIGINAL if ORIGINAL in arms else None),
    }
