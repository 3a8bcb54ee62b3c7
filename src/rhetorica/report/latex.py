"""LaTeX (booktabs) tables mirroring the studies' tables, from the analysis DataFrames.

Every function returns a complete ``table`` environment as a string; the document needs
``\\usepackage{booktabs}``. Text cells are escaped; missing values print as ``--``; an infinite
preference ratio prints as ``$\\infty$``. The columns of each table are declared once, with its
Markdown headers, in :mod:`rhetorica.report.tables`; a registered analysis table
(:class:`rhetorica.report.tables.AnalysisTable`) writes its own (:meth:`~rhetorica.report.tables.AnalysisTable.latex`).
"""

from __future__ import annotations

import pandas as pd

from rhetorica.report import tables
from rhetorica.report.booktabs import Column, booktabs, escape, number, pvalue

__all__ = ["Column", "booktabs", "escape", "number", "pvalue", "comparison_latex", "pooled_sd_latex",
           "reliability_latex", "scorecard_latex", "validation_latex"]


def comparison_latex(
    comparisons: pd.DataFrame,
    *,
    caption: str = "Paired comparison of conditions (papers as units; ties excluded from the sign test).",
    label: str = "tab:comparison",
) -> str:
    """The 'Style over Substance' Table-4 layout from :func:`~rhetorica.analysis.paired.comparison_table`.

    Args:
        comparisons: comparison table (columns of ``COMPARISON_COLUMNS``).
        caption: table caption.
        label: LaTeX label.

    Returns:
        LaTeX source; one row per reviewer and pair, pairs separated by rules.
    """
    df = comparisons.assign(
        _pair=comparisons["first"].astype(str)
        + " vs "
        + comparisons["second"].astype(str)
        + comparisons["given"].map(lambda g: "" if g is None or g != g else f" | {g}")
    )
    return booktabs(df, tables.COMPARISON.latex_columns(df.columns), caption=caption, label=label, group_by="_pair")


def reliability_latex(
    reliability: pd.DataFrame,
    *,
    caption: str = (
        "Judge reliability per metric: Wilcoxon signed-rank (zeros discarded) and TOST, "
        "Bonferroni-corrected."
    ),
    label: str = "tab:judges",
) -> str:
    """The review-metric study's classification table from
    :func:`~rhetorica.analysis.equivalence.judge_reliability`.

    Args:
        reliability: reliability table (columns of ``RELIABILITY_COLUMNS``).
        caption: table caption.
        label: LaTeX label.

    Returns:
        LaTeX source; one row per judge and metric, judges separated by rules.
    """
    return booktabs(reliability, tables.RELIABILITY.latex_columns(), caption=caption, label=label,
                    group_by="judge")


def pooled_sd_latex(
    pooled: pd.DataFrame,
    *,
    caption: str = "Reviewer variance: pooled SD of repeated reviews of identical input.",
    label: str = "tab:pooled-sd",
) -> str:
    """Pooled SD per reviewer from :func:`~rhetorica.analysis.variance.pooled_sd`.

    Args:
        pooled: pooled-SD table (columns of ``POOLED_SD_COLUMNS``).
        caption: table caption.
        label: LaTeX label.

    Returns:
        LaTeX source.
    """
    return booktabs(pooled, tables.POOLED_SD.latex_columns(), caption=caption, label=label)


def scorecard_latex(
    card: pd.DataFrame,
    *,
    caption: str = "Scorecard per reviewer configuration (pass/fail against the study's thresholds).",
    label: str = "tab:scorecard",
) -> str:
    """The scorecard from :func:`rhetorica.analysis.scorecard.scorecard`: each check's value and verdict.

    Args:
        card: scorecard table (columns of ``SCORECARD_COLUMNS``).
        caption: table caption.
        label: LaTeX label.

    Returns:
        LaTeX source; one row per reviewer.
    """
    return booktabs(card, tables.SCORECARD.latex_columns(card.columns), caption=caption, label=label)


def validation_latex(
    summary: pd.DataFrame,
    *,
    caption: str = (
        "Validation of the rewrites per condition: lexical measures, metadiscourse per 1,000 words "
        "and integrity (means over variants)."
    ),
    label: str = "tab:validation",
) -> str:
    """The 'Style over Substance' Table-2 layout from
    :func:`rhetorica.validation.summary.summarise_by_condition`.

    Args:
        summary: per-condition summary (``condition``, optional ``rewriter``, ``n``, ``n_passed``
            and the ``SUMMARY_COLUMNS``).
        caption: table caption.
        label: LaTeX label.

    Returns:
        LaTeX source; one row per condition (and rewriter), the originals first.
    """
    return booktabs(summary, tables.VALIDATION.latex_columns(summary.columns), caption=caption, label=label)


def shift_latex(summary: pd.DataFrame) -> str:
    """The intended-shift checks per condition (:func:`rhetorica.validation.summary.summarise_shifts`)."""
    return booktabs(summary, tables.SHIFTS.latex_columns(summary.columns), label="tab:shift-checks",
                    caption="Intended shifts per condition: variants whose dimension measure moved in the intended "
                            "direction, and the measure's mean on the originals and the rewrites.")
