"""study_tables runs every applicable analysis on one tidy table."""

from __future__ import annotations

import pandas as pd
import pytest

from rhetorica.analysis.controls import ControlReviewer, simulate_assessments
from rhetorica.analysis.paired import compare_arms
from rhetorica.analysis.summary import TABLES, study_tables


def test_study_tables_on_a_2x2_study() -> None:
    arms = ["original", "confidence:+", "confidence:-"] + [
        f"confidence:{c}|proficiency:{p}" for c in "+-" for p in "+-"
    ]
    df = simulate_assessments(
        30, arms, [ControlReviewer(name="r1"), ControlReviewer(name="r2")], seed=0
    )
    tables = study_tables(df)
    assert tuple(tables) == TABLES
    assert len(tables["comparison"]) == 2 * (6 + 1)  # 6 arms vs original + confidence +/- ; x2
    conditional = tables["conditional"]
    assert len(conditional) == 2 * 4  # 4 (first, second, given) triples x 2 reviewers
    row = conditional[
        (conditional["reviewer"] == "r1")
        & (conditional["first"] == "proficiency:+")
        & (conditional["given"] == "confidence:-")
    ].iloc[0]
    direct = compare_arms(df, "proficiency:+", "proficiency:-", given="confidence:-").iloc[0]
    assert row["preference_ratio"] == pytest.approx(direct["preference_ratio"])


def test_study_tables_without_original() -> None:
    df = simulate_assessments(10, ["confidence:+", "confidence:-"], [ControlReviewer(name="r")])
    tables = study_tables(df)
    assert len(tables["comparison"]) == 1
    assert isinstance(tables["pooled_sd"], pd.DataFrame)
