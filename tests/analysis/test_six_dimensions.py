"""The six-dimension tables on a hand-built table: values computed by hand.

Three papers in two human strata (A: p1, p2; B: p3); one reviewer model under Standard and
Strict; rewriters ``a`` and ``b``. Overall scores (Standard):

=====  ========  ============  ============  ============
paper  original  novelty:+ a   novelty:+ b   novelty:- a
=====  ========  ============  ============  ============
p1     4         6             5             3
p2     5         5             8             5
p3     3         7             6             2
=====  ========  ============  ============  ============

Strict is Standard minus 1 on every cell except p3's original (minus 2).
"""

from __future__ import annotations

import pandas as pd
import pytest

from rhetorica.analysis.six_dimensions import direction_contrast, main_table, strict_minus_standard

SCORES = {"p1": {"original": 4, ("novelty:+", "a"): 6, ("novelty:+", "b"): 5, ("novelty:-", "a"): 3},
          "p2": {"original": 5, ("novelty:+", "a"): 5, ("novelty:+", "b"): 8, ("novelty:-", "a"): 5},
          "p3": {"original": 3, ("novelty:+", "a"): 7, ("novelty:+", "b"): 6, ("novelty:-", "a"): 2}}
STRATUM = {"p1": "A", "p2": "A", "p3": "B"}


def _table() -> pd.DataFrame:
    rows = []
    for protocol in ("standard", "strict-iclr"):
        for paper, cells in SCORES.items():
            for cell, value in cells.items():
                condition, rewriter = ("original", "none") if cell == "original" else cell
                drop = 2 if (protocol != "standard" and paper == "p3" and cell == "original") else (protocol != "standard")
                rows.append({"unit_key": f"{protocol}-{paper}-{condition}-{rewriter}", "document_id": paper,
                             "arm": condition if condition == "original" else f"{condition}@{rewriter}",
                             "condition": condition, "rewriter": rewriter, "reviewer": f"m-{protocol}",
                             "model": "m", "protocol": protocol, "status": "ok", "overall": float(value - drop),
                             "human_stratum": STRATUM[paper]})
    return pd.DataFrame(rows)


def _cell(table: pd.DataFrame, **where: str) -> pd.Series:
    found = table
    for column, value in where.items():
        found = found[found[column] == value]
    assert len(found) == 1, where
    return found.iloc[0]


def test_main_table_per_rewriter_and_pooled_with_equal_strata() -> None:
    table = main_table(_table(), n_resamples=500)
    # rewriter a, novelty:+, Standard: d = 2, 0, 4; stratum A mean 1, B 4 -> (1 + 4) / 2
    a = _cell(table, rewriter="a", first="novelty:+", reviewer="m-standard")
    assert a["mean_change"] == pytest.approx(2.5) and a["mean_abs_change"] == pytest.approx(2.5)
    assert (a["dimension"], a["direction"], a["n_papers"], a["n_strata"]) == ("novelty", "+", 3, 2)
    # weak accept (>= 6): original 0,0,0; variant 1,0,1 -> A 0.5, B 1 -> 0.75
    assert a["weak_accept_change"] == pytest.approx(0.75)
    # novelty:- by a: d = -1, 0, -1 -> A -0.5, B -1 -> -0.75; |d| the same magnitude
    minus = _cell(table, rewriter="a", first="novelty:-", reviewer="m-standard")
    assert minus["mean_change"] == pytest.approx(-0.75) and minus["mean_abs_change"] == pytest.approx(0.75)
    # b: d = 1, 3, 3 -> A 2, B 3 -> 2.5
    assert _cell(table, rewriter="b", first="novelty:+", reviewer="m-standard")["mean_change"] == pytest.approx(2.5)
    # pooled: a and b averaged per paper: 5.5, 6.5, 6.5 -> d = 1.5, 1.5, 3.5 -> A 1.5, B 3.5 -> 2.5
    pooled = _cell(table, rewriter="pooled", first="novelty:+", reviewer="m-standard")
    assert pooled["mean_change"] == pytest.approx(2.5)
    assert pooled["mean_change_low"] <= 2.5 <= pooled["mean_change_high"]


def test_plus_against_minus_and_strict_minus_standard() -> None:
    contrast = direction_contrast(_table(), n_resamples=200)
    # a: + minus -: 6-3, 5-5, 7-2 -> 3, 0, 5 -> A 1.5, B 5 -> 3.25
    assert _cell(contrast, rewriter="a", first="novelty:+", reviewer="m-standard")["mean_change"] == pytest.approx(3.25)
    assert "b" not in set(contrast["rewriter"])  # b has no novelty:-
    strict = strict_minus_standard(_table(), n_resamples=200)
    original = _cell(strict, reviewer="m / original")
    # -1, -1, -2 -> A -1, B -2 -> -1.5
    assert original["mean_change"] == pytest.approx(-1.5) and original["n_papers"] == 3
    assert _cell(strict, reviewer="m / novelty:+")["mean_change"] == pytest.approx(-1.0)
