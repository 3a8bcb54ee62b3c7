"""joint: every registered dimension marked joint, in order; its composite sums their measures."""

from __future__ import annotations

import math

from rhetorica.dimensions.joint import DIMENSION, composite
from rhetorica.rewriting.six_dimensions import joint_dimensions
from rhetorica.validation.measures import TextMeasures


def measures(**dimensions: float | None) -> TextMeasures:
    # words 8, sentences 2, Advanced Guiraud 1: complexity sqrt(8 / 2 * 1) = 2
    return TextMeasures(words=8, sentences=2, mtld=None, advanced_guiraud=1.0, gunning_fog=None, hedges=0,
                        boosters=0, hedges_per_1k=0.0, boosters_per_1k=0.0, dimensions=dimensions)


def test_joint_is_the_dimensions_marked_joint_in_their_order() -> None:
    assert [(d.name, d.joint) for d in joint_dimensions()] == [
        ("novelty", 1), ("scope", 2), ("evidence", 3), ("contribution", 4), ("register", 5), ("complexity", 6)]


def test_the_composite_sums_the_joint_measures_and_is_undefined_when_one_is() -> None:
    five = {"novelty": 1.0, "scope": 2.0, "evidence": 3.0, "contribution": 4.0, "register": 5.0}
    assert math.isclose(composite(measures(**five)), 1 + 2 + 3 + 4 + 5 + 2)
    assert composite(measures(**{**five, "scope": None})) is None
    assert DIMENSION.shift.label() == "sum of the six six-dimension measures"  # the label earlier runs stored
