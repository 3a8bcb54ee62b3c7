"""One way to write a count (the noun agrees with it) and a fixed-decimal number (no sign on a zero),
and the report's formatters that use them (report.md/HTML cells, LaTeX cells, scorecard reasons)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from rhetorica.report.booktabs import number
from rhetorica.report.data import fmt, fmt_ci
from rhetorica.report.views import table_view
from rhetorica.wording import counted, fixed


@pytest.mark.parametrize(("n", "noun", "plural", "text"), [
    (1, "paper", None, "1 paper"), (0, "paper", None, "0 papers"), (2, "paper", None, "2 papers"),
    (1200, "call", None, "1200 calls"), (1, "stratum", "strata", "1 stratum"), (3, "stratum", "strata", "3 strata"),
    (1, "rewrite call", None, "1 rewrite call")])
def test_counted(n: int, noun: str, plural: str | None, text: str) -> None:
    assert counted(n, noun, plural) == text
    assert counted(1200, "call", grouped=True) == "1,200 calls" and counted(1, "call", grouped=True) == "1 call"


@pytest.mark.parametrize(("value", "digits", "signed", "text"), [
    (-0.004, 2, False, "0.00"), (-0.0049999, 2, False, "0.00"), (-0.005001, 2, False, "-0.01"),
    (-0.0, 2, False, "0.00"), (-1e-12, 3, False, "0.000"), (-0.4, 0, False, "0"), (-0.6, 0, False, "-1"),
    (0.004, 2, True, "0.00"), (-0.004, 2, True, "0.00"), (0.006, 2, True, "+0.01"), (-10.0, 1, False, "-10.0"),
    (1.005, 1, False, "1.0"), (-0.05, 1, False, "-0.1")])
def test_fixed_drops_the_sign_of_zero(value: float, digits: int, signed: bool, text: str) -> None:
    assert fixed(value, digits, signed=signed) == text
    assert f"{value:.{digits}f}".lstrip("-+") == text.lstrip("-+")  # only the sign differs from Python's


def test_report_cells_print_no_negative_zero() -> None:
    """An ICC of -0.0003 (markdown/HTML cell, LaTeX cell, an interval) prints 0.00."""
    assert fmt(-0.0003) == "0.00" and fmt(np.float64(-0.0003)) == "0.00" and fmt(-0.0003, 3) == "0.000"
    assert fmt(-0.0006, 3) == "-0.001"
    assert number(-0.0003) == "0.00" and number(np.float32(-0.001), 2) == "0.00" and number(-0.02) == "-0.02"
    assert fmt_ci(-0.001, -0.004, 0.2) == "0.00 [0.00, 0.20]"
    view = table_view(pd.DataFrame({"reviewer": ["R"], "icc1": [-0.0004]}), {"reviewer": "Reviewer", "icc1": "ICC(1)"})
    assert view.rows == [["R", "0.00"]] and view.numeric == [False, True]
