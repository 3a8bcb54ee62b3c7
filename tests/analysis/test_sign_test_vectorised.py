"""The vectorised sign test equals scipy's binomtest on every count pair up to n = 60."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import binomtest

from rhetorica.analysis.paired import sign_test_pvalues


def test_equals_binomtest_everywhere() -> None:
    a, b = np.meshgrid(np.arange(61), np.arange(61))
    keep = (a + b) <= 60
    a, b = a[keep], b[keep]
    got = sign_test_pvalues(a, b)
    ref = np.array([np.nan if x + y == 0 else binomtest(int(x), int(x + y), 0.5).pvalue for x, y in zip(a, b)])
    assert got == pytest.approx(ref, rel=1e-12, nan_ok=True)
    assert int(np.isnan(got).sum()) == 1  # only (0, 0): no untied pair, not computable
