"""Cell formatting of :mod:`rhetorica.report.data`: intervals."""

from __future__ import annotations

import math

from rhetorica.report.data import fmt_ci


def test_interval_cell_says_when_there_is_no_interval() -> None:
    assert fmt_ci(2.0, 1.5, 2.25) == "2.00 [1.50, 2.25]"
    assert fmt_ci(2.0, math.nan, math.nan) == "2.00 [no interval]"  # one paper: a point without interval
    assert fmt_ci(2.0, None, 3.0) == "2.00 [no interval]"
    assert fmt_ci(math.nan, 1.0, 2.0) == "–"
