"""The registered paper-review tables: what each computes on a study, and why it is not computable."""

from __future__ import annotations

import pandas as pd
import pytest

from rhetorica.analysis.arms import default_pairs
from rhetorica.analysis.controls import ControlReviewer, simulate_assessments
from rhetorica.analysis.robustness import robustness_table
from rhetorica.registry import list_components, tables
from rhetorica.report.paper_tables import NO_ORIGINAL, NO_PAIR, registered_tables
from rhetorica.report.tables import AnalysisTable, TableContext, Unavailable


def _context(df: pd.DataFrame, pairs: list[tuple[str, str]] | None = None) -> TableContext:
    return TableContext(default_pairs(sorted(pd.unique(df["arm"]))) if pairs is None else pairs, 4.5,
                        n_resamples=200, seed=0)


def test_the_builtin_tables_are_registered_in_report_order() -> None:
    assert [t.key for t in registered_tables()][:5] == ["criteria", "magnitude", "change", "movement", "robustness"]
    listed = {e.name: e.source for e in list_components("analysis-tables")}
    assert {k: listed[k] for k in ("criteria", "change", "robustness")} == dict.fromkeys(
        ("criteria", "change", "robustness"), "rhetorica")


def test_the_tables_of_a_2x2_study() -> None:
    arms = ["original", "confidence:+", "confidence:-"] + [
        f"confidence:{c}|proficiency:{p}" for c in "+-" for p in "+-"]
    df = simulate_assessments(30, arms, [ControlReviewer(name="r1"), ControlReviewer(name="r2")], seed=0)
    ctx = _context(df)
    criteria = tables.get("criteria").compute(df, ctx)
    assert set(criteria["score"]) == {"soundness", "significance", "evidence", "clarity"}
    change = tables.get("change").compute(df, ctx)
    assert len(change) == 2 * 6 and change["n_papers"].eq(30).all()  # 6 rewrite arms vs original, 2 reviewers
    robustness = tables.get("robustness").compute(df, ctx)
    assert list(robustness["reviewer"]) == ["r1", "r2"]
    pd.testing.assert_frame_equal(robustness, robustness_table(df))


def test_without_the_original_change_and_movement_say_why() -> None:
    df = simulate_assessments(10, ["confidence:+", "confidence:-"], [ControlReviewer(name="r")])
    ctx = _context(df)
    assert tables.get("change").compute(df, ctx) == Unavailable(NO_ORIGINAL)
    assert tables.get("movement").compute(df, ctx) == Unavailable(NO_ORIGINAL)
    assert len(tables.get("magnitude").compute(df, ctx)) == 1


def test_without_a_pair_the_paired_tables_say_why() -> None:
    df = simulate_assessments(10, ["original", "confidence:+"], [ControlReviewer(name="r")])
    ctx = _context(df, pairs=[])
    assert tables.get("criteria").compute(df, ctx) == Unavailable(NO_PAIR)
    assert tables.get("magnitude").compute(df, ctx) == Unavailable(NO_PAIR)


def test_a_table_without_latex_columns_writes_no_tex() -> None:
    record = tables.get("movement")
    assert isinstance(record, AnalysisTable)
    assert record.latex(pd.DataFrame({"reviewer": ["r"]})) is None


def test_a_table_registered_twice_under_one_key_is_refused() -> None:
    from rhetorica.registry import DuplicateComponentError

    other = AnalysisTable("criteria", "x", "", tables.get("criteria").spec, lambda df, ctx: Unavailable("no"))
    with pytest.raises(DuplicateComponentError, match="criteria"):
        tables.add("criteria", other)
