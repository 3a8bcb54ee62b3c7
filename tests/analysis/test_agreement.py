"""Annotator agreement: hand computations and library oracles (statsmodels/sklearn; krippendorff, GPL, test-only)."""

from __future__ import annotations

import numpy as np
import pytest

from rhetorica.analysis.agreement import cohen_kappa, exact_agreement, krippendorff_alpha, within_agreement

A = [5, 4, 4, 3, 5, 2, 4, np.nan]
B = [5, 5, 3, 3, 4, 4, 4, 5]


def test_shares_by_hand() -> None:
    # 7 items rated by both; equal: items 1, 4, 7 -> 3/7; |diff| <= 1: all but item 6 (2 vs 4) -> 6/7
    assert exact_agreement(A, B) == pytest.approx(3 / 7)
    assert within_agreement(A, B) == pytest.approx(6 / 7)
    with pytest.raises(ValueError, match="no item was rated by both"):
        exact_agreement([np.nan], [1])


def test_cohen_kappa_by_hand_and_oracle() -> None:
    # binary item: a = yes yes no yes no yes, b = yes no no yes no yes -> observed 5/6;
    # p_yes(a) = 4/6, p_yes(b) = 3/6 -> expected 4/6*3/6 + 2/6*3/6 = 1/2; kappa = (5/6 - 1/2) / (1/2) = 2/3
    a, b = [1, 1, 0, 1, 0, 1], [1, 0, 0, 1, 0, 1]
    assert cohen_kappa(a, b) == pytest.approx(2 / 3)
    from sklearn.metrics import cohen_kappa_score

    x, y = [5, 4, 4, 3, 5, 2, 4], [5, 5, 3, 3, 4, 4, 4]
    assert cohen_kappa(x, y) == pytest.approx(cohen_kappa_score(x, y))
    assert cohen_kappa(x, y, weights="linear") == pytest.approx(cohen_kappa_score(x, y, weights="linear"))
    with pytest.raises(ValueError, match="not among the categories"):
        cohen_kappa([1, 7], [1, 2], categories=[1, 2, 3])


def test_krippendorff_alpha_by_hand() -> None:
    # Krippendorff (2011) §A example shape, small: 2 coders, items (1,1) (2,2) (1,2):
    # coincidences o_11 = 2, o_22 = 2, o_12 = o_21 = 1; n = 6, n_1 = n_2 = 3;
    # D_o = (1 + 1) / 6 = 1/3; D_e = (3*3 + 3*3) / (6*5) = 0.6; alpha = 1 - (1/3)/0.6 = 4/9
    assert krippendorff_alpha([[1, 2, 1], [1, 2, 2]]) == pytest.approx(4 / 9)
    assert np.isnan(krippendorff_alpha([[3, 3], [3, 3]]))


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval"])
def test_krippendorff_alpha_oracle(level: str) -> None:
    import krippendorff  # GPL-3.0: test oracle only (test extra), never imported by src/
    rng = np.random.default_rng(4)
    data = rng.integers(1, 6, size=(3, 40)).astype(float)
    data[1, :25] = data[0, :25]
    data[rng.random(data.shape) < 0.1] = np.nan
    assert krippendorff_alpha(data, level) == pytest.approx(krippendorff.alpha(data, level_of_measurement=level))
