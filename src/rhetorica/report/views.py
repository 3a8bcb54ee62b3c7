"""The report's building blocks: formatted tables and sections (shared by every section module)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from rhetorica.report.coverage import WHY, WHY_HEADER
from rhetorica.report.data import display_table


@dataclass(frozen=True)
class FigureResult:
    """One report figure.

    Attributes:
        name: file stem (``plots/<name>.png``) and HTML id.
        section: key of the report section that shows it.
        title: alt text and caption.
        png: PNG bytes, or ``None`` when it could not be drawn.
        reason: why it could not be drawn (``None`` when drawn).
    """

    name: str
    section: str
    title: str
    png: bytes | None
    reason: str | None = None


@dataclass
class TableView:
    """A formatted table: caption (may be empty), header texts, rows of cell texts, and whether
    each column holds numbers (right-aligned in HTML)."""

    caption: str
    headers: list[str]
    rows: list[list[str]]
    numeric: list[bool] = field(default_factory=list)


@dataclass
class Section:
    """One report section.

    Attributes:
        key: HTML id and figure owner key.
        title: heading.
        note: how to read it (definitions, units, sources).
        tables: formatted tables (may be empty).
        figures: figures drawn for it (a figure without bytes carries its reason).
        unavailable: reason the whole section is not computable, or ``None``.
        diffs: word diffs of rewrites shown after the tables (the per-paper appendix,
            :mod:`rhetorica.report.appendix`; empty elsewhere).
    """

    key: str
    title: str
    note: str = ""
    tables: list[TableView] = field(default_factory=list)
    figures: list[FigureResult] = field(default_factory=list)
    unavailable: str | None = None
    diffs: list[Any] = field(default_factory=list)


_NUMBER = re.compile(r"^(–|∞|−∞|<?-?\d+(\.\d+)?)$")


def is_number(cell: str) -> bool:
    """Whether a formatted cell is a number as :func:`rhetorica.report.data.fmt` / ``fmt_p`` write
    it: digits with an optional sign and decimals, an optional leading ``<`` (``<0.001``), ``–``
    (missing) or an infinity."""
    return bool(_NUMBER.match(cell))


def table_view(df: pd.DataFrame, headers: dict[str, str], caption: str = "",
               digits: dict[str, int] | None = None) -> TableView:
    """The :class:`TableView` of ``df``: columns kept and renamed by ``headers``, cells formatted by
    :func:`rhetorica.report.build.display_table` (``digits``: column -> decimals); a column is numeric
    when every cell is a number, ``–`` or an infinity. A :data:`~rhetorica.report.coverage.WHY` column
    with a reason in it is shown last (a configuration without data says why), whatever ``headers`` say."""
    if WHY in df.columns and WHY not in headers and df[WHY].notna().any():
        headers = {**headers, WHY: WHY_HEADER}
    names, rows = display_table(df, headers, digits)
    numeric = [bool(rows) and all(is_number(row[i]) for row in rows) for i in range(len(names))]
    return TableView(caption, names, rows, numeric)
