"""Table-2 summary per condition from a tidy per-variant table."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from rhetorica.validation.summary import (
    SHIFT_SUMMARY_COLUMNS,
    SUMMARY_COLUMNS,
    summarise_by_condition,
    summarise_shifts,
)


def _row(
    doc: str, condition: str, value: float, passed: bool, **extra: object
) -> dict[str, object]:
    row: dict[str, object] = {"document_id": doc, "condition": condition, "rewriter": "r1"}
    row.update({c: value for c in SUMMARY_COLUMNS})
    row.update({f"original_{c}": 10.0 * (1 if doc == "a" else 2) for c in SUMMARY_COLUMNS[:5]})
    row["passed"] = passed
    row.update(extra)
    return row


def test_means_counts_and_original_row() -> None:
    df = pd.DataFrame(
        [
            _row("a", "confidence:+", 1.0, True),
            _row("b", "confidence:+", 3.0, False),
            _row("a", "confidence:-", 5.0, True),
            _row("b", "confidence:-", 7.0, True, mtld=None),
        ]
    )
    table = summarise_by_condition(df)
    assert list(table.columns) == ["condition", "n", "n_passed", *SUMMARY_COLUMNS]
    assert list(table["condition"]) == ["original", "confidence:+", "confidence:-"]
    original = table.iloc[0]
    assert original["n"] == 2 and original["mtld"] == pytest.approx(15.0)  # docs a=10, b=20
    assert math.isnan(original["semantic_similarity"])
    plus = table.iloc[1]
    assert (plus["n"], plus["n_passed"], plus["hedges_per_1k"]) == (2, 1, pytest.approx(2.0))
    minus = table.iloc[2]
    assert minus["mtld"] == pytest.approx(5.0)  # the missing MTLD is skipped, not imputed
    assert minus["tfidf_cosine"] == pytest.approx(6.0) and minus["n_passed"] == 2


def test_group_by_condition_and_rewriter_without_original_row() -> None:
    df = pd.DataFrame(
        [_row("a", "c", 1.0, True, rewriter="r1"), _row("a", "c", 2.0, True, rewriter="r2")]
    )
    table = summarise_by_condition(df, by=("condition", "rewriter"), include_original=False)
    assert list(table["rewriter"]) == ["r1", "r2"]
    assert list(table["mtld"]) == [1.0, 2.0]


def test_missing_columns_are_named() -> None:
    with pytest.raises(KeyError, match="tfidf_cosine"):
        summarise_by_condition(
            pd.DataFrame([{"document_id": "a", "condition": "c", "passed": True}])
        )


def test_summarise_shifts_counts_present_shifts_and_averages_each_measure_by_name() -> None:
    shifts = pd.DataFrame([
        # a plug-in dimension's measure, three rewrites of one condition; one measure undefined
        {"condition": "formality:+", "rewriter": "w", "part": "formality:+", "measure": "formality/1k",
         "original": -150.0, "variant": 55.5, "present": True},
        {"condition": "formality:+", "rewriter": "w", "part": "formality:+", "measure": "formality/1k",
         "original": -178.5, "variant": 0.0, "present": True},
        {"condition": "formality:+", "rewriter": "w", "part": "formality:+", "measure": "formality/1k",
         "original": None, "variant": 0.0, "present": False},
        # a joint condition: one row per part
        {"condition": "a:+|b:-", "rewriter": "w", "part": "b:-", "measure": "mb", "original": 2.0, "variant": 1.0,
         "present": True},
        {"condition": "a:+|b:-", "rewriter": "w", "part": "a:+", "measure": "ma", "original": 1.0, "variant": 3.0,
         "present": True},
    ])
    table = summarise_shifts(shifts)
    assert list(table.columns) == SHIFT_SUMMARY_COLUMNS
    rows = [tuple(r) for r in table.itertuples(index=False)]
    # means skip the undefined original: (-150 - 178.5) / 2 = -164.25; rewrites (55.5 + 0 + 0) / 3 = 18.5
    assert rows == [("a:+|b:-", "w", "a:+", "ma", 1, 1, 1.0, 3.0), ("a:+|b:-", "w", "b:-", "mb", 1, 1, 2.0, 1.0),
                    ("formality:+", "w", "formality:+", "formality/1k", 3, 2, -164.25, 18.5)]


def test_summarise_shifts_names_missing_columns() -> None:
    with pytest.raises(KeyError, match=r"summarise_shifts: table lacks columns \['measure', 'present'\]"):
        summarise_shifts(pd.DataFrame(columns=["condition", "rewriter", "part", "original", "variant"]))
