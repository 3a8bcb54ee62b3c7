"""p-values in report tables: the column's decimals, ``<0.001`` / ``<0.01`` below the smallest value
those decimals show, never a false ``0.000``."""

from __future__ import annotations

import math

import pandas as pd

from rhetorica.report.data import display_table, fmt_p


def test_a_tiny_sign_test_p_is_not_shown_as_zero() -> None:
    p = 2 * 0.5 ** 12  # two-sided sign test, 12 papers for A, 0 for B: 2/4096 = 0.00048828125
    assert math.isclose(p, 0.00048828125)
    df = pd.DataFrame({"reviewer": ["r"], "sign_test_p": [p], "mixed_p": [0.004], "tost_p": [0.0386],
                       "wilcoxon_p": [float("nan")], "mean_first": [0.0004]})
    _, (row,) = display_table(df)
    assert row == ["r", "<0.001", "<0.01", "0.04", "–", "0.00"]


def test_fmt_p_keeps_normal_values_and_marks_tiny_ones() -> None:
    assert [fmt_p(x) for x in (0.001, 0.0386, 0.625, 1.0, None)] == ["0.001", "0.039", "0.625", "1.000", "–"]
    assert [fmt_p(0.000999), fmt_p(0.0), fmt_p(0.317, 2), fmt_p(0.0099, 2)] == ["<0.001", "<0.001", "0.32", "<0.01"]
