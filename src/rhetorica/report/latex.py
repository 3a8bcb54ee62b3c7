"""LaTeX (booktabs) tables mirroring the studies' tables, from the analysis DataFrames.

Every function returns a complete ``table`` environment as a string; the document needs
``\\usepackage{booktabs}``. Text cells are escaped; missing values print as ``--``; an infinite
preference ratio prints as ``$\\infty$``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pandas as pd

_ESCAPES = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    "\n": " ",
    "\r": " ",
}


def escape(text: object) -> str:
    """Escape a text cell so LaTeX prints it literally: the ten special characters (``\\ & % $ # _
    { } ~ ^``), ``< > |`` (which OT1-encoded fonts print as other glyphs) as text commands, line
    breaks as spaces (a blank line would end the table row)."""
    return "".join(_ESCAPES.get(ch, ch) for ch in str(text))


def number(value: object, digits: int = 2) -> str:
    """Format a number for a table cell: fixed digits, ``--`` for missing, ``$\\infty$`` for inf."""
    if value is None or value is pd.NA:
        return "--"
    try:
        x = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return escape(value)
    if math.isnan(x):
        return "--"
    if math.isinf(x):
        return r"$\infty$" if x > 0 else r"$-\infty$"
    return f"{x:.{digits}f}"


def pvalue(value: object) -> str:
    """p-value cell: :func:`rhetorica.report.build.fmt_p`'s rule (three decimals, ``<0.001`` below
    that) in LaTeX, ``--`` when missing."""
    from rhetorica.report.build import fmt_p

    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "--"
    return fmt_p(float(value), 3).replace("<", "$<$")  # type: ignore[arg-type]


@dataclass(frozen=True)
class Column:
    """One output column: header text (LaTeX, not escaped), cell formatter, alignment."""

    header: str
    cell: Callable[[pd.Series], str]
    align: str = "r"


def booktabs(
    df: pd.DataFrame,
    columns: Sequence[Column],
    *,
    caption: str,
    label: str,
    group_by: str | None = None,
) -> str:
    """Render rows of ``df`` as a booktabs table.

    Args:
        df: one row per table row.
        columns: output columns.
        caption: caption text (escaped).
        label: ``\\label`` key.
        group_by: column of ``df``; a ``\\midrule`` separates runs of equal values.

    Returns:
        LaTeX source of a ``table`` environment.
    """
    lines = [
        r"\begin{table}[t]",
        r"\centering",
        rf"\caption{{{escape(caption)}}}",
        rf"\label{{{label}}}",
        r"\begin{tabular}{" + "".join(c.align for c in columns) + "}",
        r"\toprule",
        " & ".join(c.header for c in columns) + r" \\",
        r"\midrule",
    ]
    previous: object = None
    for i, (_, row) in enumerate(df.iterrows()):
        if group_by is not None:
            if i > 0 and row[group_by] != previous:
                lines.append(r"\midrule")
            previous = row[group_by]
        lines.append(" & ".join(c.cell(row) for c in columns) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}"]
    return "\n".join(lines) + "\n"


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
    cols = [
        Column("Comparison (A vs B)", lambda r: escape(r["_pair"]), "l"),
        Column("Reviewer", lambda r: escape(r["reviewer"]), "l"),
        Column("$n$", lambda r: str(int(r["n_pairs"]))),
        Column(r"A $>$ B (\%)", lambda r: number(r["pct_first_higher"], 1)),
        Column(r"B $>$ A (\%)", lambda r: number(r["pct_second_higher"], 1)),
        Column(r"Tie (\%)", lambda r: number(r["pct_tie"], 1)),
        Column("Ratio", lambda r: number(r["preference_ratio"], 2)),
        Column("$p$", lambda r: pvalue(r["sign_test_p"])),
        Column(r"Flip A (\%)", lambda r: number(r["flips_first_accept_pct"], 1)),
        Column(r"Flip B (\%)", lambda r: number(r["flips_second_accept_pct"], 1)),
        Column("Mean A", lambda r: number(r["mean_first"], 2)),
        Column("Mean B", lambda r: number(r["mean_second"], 2)),
    ]
    return booktabs(df, cols, caption=caption, label=label, group_by="_pair")


def _ci(point: object, low: object, high: object) -> str:
    if point is None or (isinstance(point, float) and math.isnan(point)):
        return "--"
    return f"{number(point)} [{number(low)}, {number(high)}]"


def change_latex(
    change: pd.DataFrame,
    *,
    caption: str = (
        "Change versus the original: stratum-weighted means with 95% stratified bootstrap "
        "intervals; weak accept = overall >= 6."
    ),
    label: str = "tab:change",
) -> str:
    """The six-dimension study's change table from :func:`~rhetorica.analysis.change.paired_change`.

    Args:
        change: change table (columns of ``CHANGE_COLUMNS``).
        caption: table caption.
        label: LaTeX label.

    Returns:
        LaTeX source; one row per reviewer and condition.
    """
    cols = [
        Column("Reviewer", lambda r: escape(r["reviewer"]), "l"),
        Column("Condition", lambda r: escape(f"{r['first']} vs {r['second']}"), "l"),
        Column("$n$", lambda r: str(int(r["n_papers"]))),
        Column(
            r"$\Delta$ [95\% CI]",
            lambda r: _ci(r["mean_change"], r["mean_change_low"], r["mean_change_high"]),
        ),
        Column(
            r"$|\Delta|$ [95\% CI]",
            lambda r: _ci(
                r["mean_abs_change"], r["mean_abs_change_low"], r["mean_abs_change_high"]
            ),
        ),
        Column("WA A", lambda r: number(r["weak_accept_first"], 2)),
        Column("WA B", lambda r: number(r["weak_accept_second"], 2)),
        Column(
            r"$\Delta$WA [95\% CI]",
            lambda r: _ci(
                r["weak_accept_change"], r["weak_accept_change_low"], r["weak_accept_change_high"]
            ),
        ),
    ]
    return booktabs(change, cols, caption=caption, label=label, group_by="reviewer")


def robustness_latex(
    robustness: pd.DataFrame,
    *,
    caption: str = "Rhetorical robustness per reviewer configuration.",
    label: str = "tab:robustness",
) -> str:
    """The RobustReview metrics table from :func:`~rhetorica.analysis.robustness.robustness_table`.

    Args:
        robustness: robustness table (columns of ``ROBUSTNESS_COLUMNS``).
        caption: table caption.
        label: LaTeX label.

    Returns:
        LaTeX source; a dagger marks false robustness (low drift, chance discriminability).
    """
    cols = [
        Column(
            "Reviewer",
            lambda r: escape(r["reviewer"]) + (r"$^\dagger$" if r["false_robustness"] else ""),
            "l",
        ),
        Column(r"MAD $\downarrow$", lambda r: number(r["mad"])),
        Column(r"Drift SD $\downarrow$", lambda r: number(r["drift_sd"])),
        Column(r"ICC(1) $\uparrow$", lambda r: number(r["icc1"])),
        Column(r"ICC(A,1) $\uparrow$", lambda r: number(r["icc_a1"])),
        Column(r"SPR $\uparrow$", lambda r: number(r["spr"])),
        Column(r"Disc. $\uparrow$", lambda r: number(r["discriminability"])),
        Column(r"Human MAE $\downarrow$", lambda r: number(r["human_mae"])),
        Column(r"Spearman $\uparrow$", lambda r: number(r["human_spearman"])),
    ]
    return booktabs(robustness, cols, caption=caption, label=label)


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
    cols = [
        Column("Judge", lambda r: escape(r["judge"]), "l"),
        Column("Metric", lambda r: escape(r["metric"]), "l"),
        Column("$n$", lambda r: str(int(r["n_pairs"]))),
        Column(r"Mean $d$", lambda r: number(r["mean_diff"])),
        Column(r"$p_{\mathrm{W}}$", lambda r: pvalue(r["wilcoxon_p"])),
        Column(r"$\delta$", lambda r: number(r["bound"])),
        Column(r"$p_{\mathrm{TOST}}$", lambda r: pvalue(r["tost_p"])),
        Column("Class", lambda r: escape(str(r["classification"]).replace("_", " ")), "l"),
    ]
    return booktabs(reliability, cols, caption=caption, label=label, group_by="judge")


def criteria_latex(
    criteria: pd.DataFrame,
    *,
    caption: str = "Per-criterion paired comparison (1-4 scores; papers as units).",
    label: str = "tab:criteria",
) -> str:
    """Per-criterion preference ratios from :func:`~rhetorica.analysis.paired.criterion_table`.

    Args:
        criteria: criterion table (columns of ``COMPARISON_COLUMNS``; ``score`` names the criterion).
        caption: table caption.
        label: LaTeX label.

    Returns:
        LaTeX source; one row per reviewer, pair and criterion, criteria separated by rules.
    """
    cols = [
        Column("Criterion", lambda r: escape(r["score"]), "l"),
        Column("Reviewer", lambda r: escape(r["reviewer"]), "l"),
        Column("Comparison (A vs B)", lambda r: escape(f"{r['first']} vs {r['second']}"), "l"),
        Column("$n$", lambda r: str(int(r["n_pairs"]))),
        Column(r"A $>$ B (\%)", lambda r: number(r["pct_first_higher"], 1)),
        Column(r"B $>$ A (\%)", lambda r: number(r["pct_second_higher"], 1)),
        Column(r"Tie (\%)", lambda r: number(r["pct_tie"], 1)),
        Column("Ratio", lambda r: number(r["preference_ratio"], 2)),
        Column("$p$", lambda r: pvalue(r["sign_test_p"])),
    ]
    return booktabs(criteria, cols, caption=caption, label=label, group_by="score")


def magnitude_latex(
    magnitude: pd.DataFrame,
    *,
    caption: str = "Magnitude of paired differences d = A - B in the overall score (papers as units).",
    label: str = "tab:magnitude",
) -> str:
    """Magnitude of paired differences from :func:`~rhetorica.analysis.paired.difference_magnitude`.

    Args:
        magnitude: magnitude table (columns of ``MAGNITUDE_COLUMNS``).
        caption: table caption (escaped).
        label: LaTeX label.

    Returns:
        LaTeX source; shares printed as percentages.
    """
    cols = [
        Column("Reviewer", lambda r: escape(r["reviewer"]), "l"),
        Column("Comparison (A vs B)", lambda r: escape(f"{r['first']} vs {r['second']}"), "l"),
        Column("$n$", lambda r: str(int(r["n_pairs"]))),
        Column(r"Mean $d$", lambda r: number(r["mean_diff"])),
        Column(r"Mean $|d|$", lambda r: number(r["mean_abs_diff"])),
        Column(r"$|d| \le 1$ (\%)", lambda r: number(100 * float(r["share_within_1"]), 1)),
        Column(r"$|d| \ge 2$ (\%)", lambda r: number(100 * float(r["share_ge_2"]), 1)),
    ]
    return booktabs(magnitude, cols, caption=caption, label=label, group_by="reviewer")


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
    cols = [
        Column("Reviewer", lambda r: escape(r["reviewer"]), "l"),
        Column("Inputs", lambda r: str(int(r["n_groups"]))),
        Column("Reviews", lambda r: str(int(r["n_reviews"]))),
        Column("Pooled SD", lambda r: number(r["pooled_sd"])),
    ]
    return booktabs(pooled, cols, caption=caption, label=label)


def _verdict(verdict: object) -> str:
    return {"pass": "pass", "fail": r"\textbf{fail}"}.get(str(verdict), "not enough data")


def scorecard_latex(
    card: pd.DataFrame,
    *,
    caption: str = "Scorecard per reviewer configuration (pass/fail against the study's thresholds).",
    label: str = "tab:scorecard",
) -> str:
    """The scorecard from :func:`rhetorica.report.scorecard.scorecard`: each check's value and verdict.

    Args:
        card: scorecard table (columns of ``SCORECARD_COLUMNS``).
        caption: table caption.
        label: LaTeX label.

    Returns:
        LaTeX source; one row per reviewer.
    """
    cols = [
        Column("Reviewer", lambda r: escape(r["reviewer"]), "l"),
        Column(r"$|\ln R|$", lambda r: f"{number(r['abs_log_ratio'])} ({_verdict(r['verdict_preference'])})"),
        Column(r"Flips (\%)", lambda r: f"{number(r['flip_pct'], 1)} ({_verdict(r['verdict_flips'])})"),
        Column("Disc.", lambda r: f"{number(r['discriminability'])} ({_verdict(r['verdict_discriminability'])})"),
        Column("Fail gap", lambda r: f"{number(r['failure_gap_pct'], 1)} ({_verdict(r['verdict_failures'])})"),
        Column("Verdict", lambda r: _verdict(r["verdict"]), "l"),
    ]
    return booktabs(card, cols, caption=caption, label=label)


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
    cols = [Column("Condition", lambda r: escape(r["condition"]), "l")]
    if "rewriter" in summary.columns:
        cols.append(Column("Rewriter", lambda r: escape(r["rewriter"]), "l"))
    cols += [
        Column("$n$", lambda r: str(int(r["n"]))),
        Column("Passed", lambda r: number(r["n_passed"], 0)),
        Column("MTLD", lambda r: number(r["mtld"], 1)),
        Column("AG", lambda r: number(r["advanced_guiraud"])),
        Column("GF", lambda r: number(r["gunning_fog"], 1)),
        Column("Boost./1k", lambda r: number(r["boosters_per_1k"])),
        Column("Hedge/1k", lambda r: number(r["hedges_per_1k"])),
        Column("Sem. sim.", lambda r: number(r["semantic_similarity"], 3)),
        Column("TF-IDF", lambda r: number(r["tfidf_cosine"], 3)),
        Column("Spans kept", lambda r: number(r["protected_spans_kept"], 3)),
    ]
    return booktabs(summary, cols, caption=caption, label=label)
