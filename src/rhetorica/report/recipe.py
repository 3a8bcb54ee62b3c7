"""The report section of a run made from a recipe: the paper's headline numbers beside this run's.

The values and their agreement come from :mod:`rhetorica.recipes.comparison` (the report computes
nothing); this module formats them: the design lines (where this run differs from the paper), the
agreement sentence and one row per published value with this run's value, interval, n and verdict.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rhetorica.recipes.comparison import agreement_summary
from rhetorica.report.data import ReportData, fmt
from rhetorica.report.views import Section, table_view

DESIGN_HEADERS = {"aspect": "Aspect", "published": "The paper", "run": "This run"}
SIDE_HEADERS = {"table": "Table", "label": "Published row", "design": "The paper's set-up", "statistic": "Statistic",
                "published_cell": "Published", "run_cell": "This run", "n": "n", "configuration": "Run configuration",
                "agree_cell": "Agrees", "note": "Note"}


def recipe_applies(data: ReportData) -> bool:
    """Whether the run was made from a recipe (its study names one)."""
    return data.study.recipe is not None


def _value(value: object) -> str:
    """A published or run value as written: text as is, an integer (a count) without decimals."""
    if isinstance(value, str):
        return value
    if isinstance(value, int | np.integer):
        return str(int(value))
    return fmt(float(value), 3)  # type: ignore[arg-type]


def _run_cell(row: pd.Series) -> str:
    if row["run"] is None or (isinstance(row["run"], float) and pd.isna(row["run"])):
        return "not measured"
    cell = _value(row["run"])
    if pd.notna(row["low"]) and pd.notna(row["high"]):
        cell += f" [{fmt(float(row['low']), 3)}, {fmt(float(row['high']), 3)}]"
    return cell


def recipe_section(data: ReportData) -> Section:
    """The published-vs-run section (see the module docstring)."""
    assert data.study.recipe is not None
    name = data.study.recipe.name
    section = Section("published_vs_run", f"Published vs this run (recipe {name})",
                      "Each headline number of the paper beside this run's value measured the same way (Published: "
                      "the paper's table as stated in its text; This run: the value with its 95% interval where the "
                      "analysis gives one). Agrees: yes / no by the row's rule (a classification equal; a direction on "
                      "the same side of no effect; a sign test significant at 0.05 or not alike); – where the row is "
                      "not compared (another model's value, shown for reference) or this run did not measure it. "
                      "Where this run's design differs from the paper's, the first table says so line by line.")
    if "published_vs_run" not in data.analysis:
        section.unavailable = data.unavailable.get("published_vs_run", "not computable")
        return section
    side = data.analysis["published_vs_run"]
    section.note += " " + agreement_summary(side)
    section.tables.append(table_view(data.analysis["published_design"], DESIGN_HEADERS, "The paper's design and this run's"))
    shown = side.assign(
        published_cell=[_value(v) for v in side["published"]],
        run_cell=[_run_cell(r) for _, r in side.iterrows()],
        agree_cell=["–" if a is None or (isinstance(a, float) and pd.isna(a)) else ("yes" if a else "no")
                    for a in side["agree"]],
        n=["–" if pd.isna(n) else str(int(n)) for n in side["n"]])
    section.tables.append(table_view(shown, SIDE_HEADERS, "Published headline numbers and this run's"))
    return section
