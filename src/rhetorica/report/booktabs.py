"""LaTeX booktabs primitives: cell escaping and number formatting, a column, a table environment.

Every table is declared once in :mod:`rhetorica.report.tables`; :mod:`rhetorica.report.latex`
renders the declarations with these.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pandas as pd
from rhetorica.report.coverage import why_sentence
from rhetorica.report.data import fmt_p
from rhetorica.wording import fixed

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


_SYMBOLS = {
    "−": r"\ensuremath{-}", "≥": r"\ensuremath{\geq}", "≤": r"\ensuremath{\leq}", "≈": r"\ensuremath{\approx}",
    "≠": r"\ensuremath{\neq}", "∞": r"\ensuremath{\infty}", "«": "``", "»": "''",
}
"""Symbols of rhetorica's tables that pdfLaTeX's default input encoding (UTF-8, OT1 fonts) does not define,
as the commands that print them (measured by compiling each alone; the dashes, arrows, ×, ±, · and §
print as written, :data:`PRINTED_PUNCTUATION`); Greek letters go through :func:`_greek`."""


def _greek(ch: str) -> str | None:
    """A Greek letter as its math command (``α`` -> ``\\ensuremath{\\alpha}``, ``Δ`` -> ``\\ensuremath{\\Delta}``),
    or ``None`` for any other character. Capitals that look Latin (Α, Β ...) are printed as those letters."""
    name = unicodedata.name(ch, "")
    if not name.startswith(("GREEK SMALL LETTER ", "GREEK CAPITAL LETTER ")) or " WITH " in name:
        return None
    letter = name.rsplit(" ", 1)[1].lower().replace("lamda", "lambda")
    if "CAPITAL" in name:
        return LATIN_LOOKING_GREEK.get(letter) or rf"\ensuremath{{\{letter.capitalize()}}}"
    return "o" if letter == "omicron" else rf"\ensuremath{{\{letter}}}"


LATIN_LOOKING_GREEK = {"alpha": "A", "beta": "B", "epsilon": "E", "zeta": "Z", "eta": "H", "iota": "I", "kappa": "K",
                       "mu": "M", "nu": "N", "omicron": "O", "rho": "P", "tau": "T", "chi": "X"}
"""Greek capitals LaTeX has no command for, because they look like these Latin letters."""


OT1_UNPRINTABLE = frozenset("«»ÐÞðþĄąĐđĘęĦħĮįĸĿŀŉŊŋŦŧŲųſ")
"""Letters of Latin-1 and Latin Extended-A (U+00A0-U+017F) that pdfLaTeX cannot print in its default
OT1 font encoding ("Command \\k unavailable in encoding OT1"): measured by compiling each character of
the two blocks alone (TeX Live 2022); every other one of them prints."""


PRINTED_PUNCTUATION = frozenset("–—…‘’“”←↑→↓")
"""Characters beyond Latin-1 and Latin Extended-A that pdfLaTeX's default encoding prints (measured
as :data:`OT1_UNPRINTABLE`: each compiled alone)."""


def _printable(ch: str) -> bool:
    return (ch.isascii() or ("\u00a0" <= ch <= "\u017f" and ch not in OT1_UNPRINTABLE)
            or ch in PRINTED_PUNCTUATION)


def _cell_char(ch: str) -> str:
    if ch in _ESCAPES:
        return _ESCAPES[ch]
    if ch in _SYMBOLS:
        return _SYMBOLS[ch]
    if _printable(ch):
        return ch
    if unicodedata.category(ch) == "Cf":  # zero-width and bidi controls: invisible, and undefined in LaTeX
        return ""
    if greek := _greek(ch):
        return greek
    base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
    if base and base != ch and all(_printable(c) for c in base):  # ą -> a: the letter without its mark
        return "".join(_ESCAPES.get(c, c) for c in base)
    return f"[U+{ord(ch):04X}]"


def escape(text: object) -> str:
    """Escape a text cell so pdfLaTeX prints it literally: the ten special characters (``\\ & % $ # _
    { } ~ ^``), ``< > |`` (which OT1-encoded fonts print as other glyphs) as text commands, line
    breaks as spaces (a blank line would end the table row), an opening square bracket braced (a row's
    first cell right after ``\\\\`` would be read as that command's optional length), the symbols of :data:`_SYMBOLS` and
    Greek letters as the commands that print them (the default UTF-8 input encoding does not define
    them: "Unicode character ≥ (U+2265) not set up for use with LaTeX"), invisible format
    characters (zero-width, bidi controls) dropped; Latin letters stay as written where pdfLaTeX's
    default encoding prints them, lose the mark it cannot print (``ą`` -> ``a``), and any other
    character (Cyrillic, CJK, ...) is its code point, ``[U+0416]``, so the table always compiles."""
    cell = "".join(_cell_char(ch) for ch in str(text))
    return "{[}" + cell[1:] if cell.startswith("[") else cell


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
    return fixed(x, digits)


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
        caption: caption text (escaped); the configurations of ``df`` without data are named
            after it with why (:func:`rhetorica.report.coverage.why_sentence`).
        label: ``\\label`` key.
        group_by: column of ``df``; a ``\\midrule`` separates runs of equal values.

    Returns:
        LaTeX source of a ``table`` environment.
    """
    lines = [
        r"\begin{table}[t]",
        r"\centering",
        rf"\caption{{{escape(caption + why_sentence(df))}}}",
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
