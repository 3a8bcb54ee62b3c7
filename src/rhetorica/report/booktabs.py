"""LaTeX booktabs primitives: cell escaping and number formatting, a column, a table environment.

Every table is declared once in :mod:`rhetorica.report.tables`; :mod:`rhetorica.report.latex`
renders the declarations with these.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pandas as pd
from rhetorica.report.data import fmt_p

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
