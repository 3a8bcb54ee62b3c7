"""The one definition of the human-rating strata (STUDIES.md §2: [1,3), [3,4), ..., [7,8.5])."""

from __future__ import annotations

import math

import pytest

from rhetorica.datasets.manifest import default_bins
from rhetorica.strata import HUMAN_STRATA, STRATA_SPAN, human_stratum


@pytest.mark.parametrize(("score", "label"), [
    (1.0, "[1,3)"), (2.999, "[1,3)"), (3.0, "[3,4)"), (6.5, "[6,7)"), (6.999, "[6,7)"), (7.0, "[7,8.5]"),
    (8.5, "[7,8.5]"),  # the top bin is closed
    (8.51, None), (10.0, None), (0.99, None), (None, None), (math.nan, None),
])
def test_stratum_of_a_mean_rating(score: float | None, label: str | None) -> None:
    assert human_stratum(score) == label


def test_dataset_bins_are_the_same_strata() -> None:
    assert [b.label for b in default_bins()] == [label for _, _, label in HUMAN_STRATA] == [
        "[1,3)", "[3,4)", "[4,5)", "[5,6)", "[6,7)", "[7,8.5]"]
    assert [b.closed for b in default_bins()] == [False] * 5 + [True]
    assert STRATA_SPAN == (1.0, 8.5)


def test_simulated_human_scores_fall_inside_a_stratum() -> None:
    from rhetorica.analysis.controls import simulate_assessments
    from rhetorica.reviewers.control_settings import ControlReviewer

    # quality ~ N(7, 1.5): many draws beyond 8.5 before clipping to the strata's span.
    df = simulate_assessments(200, ["original"], [ControlReviewer(name="null")], quality_mean=7.0, seed=1)
    assert df["human_score"].max() == 8.5 and df["human_stratum"].notna().all()
    assert (df.loc[df["human_score"] == 8.5, "human_stratum"] == "[7,8.5]").all()
