"""Rating strings read by their leading score; everything ambiguous refused with the reason."""

from __future__ import annotations

import math
import re

import pytest

from rhetorica.documents.ratings import RatingError, parse_rating


@pytest.mark.parametrize(("value", "expected"), [
    (7, 7.0),
    (6.5, 6.5),
    ("7", 7.0),
    (" 6.5 \n", 6.5),
    ("6: marginally above the acceptance threshold", 6.0),
    ("Score: 7", 7.0),
    ("10: top 5% of accepted papers", 10.0),  # two digits, and the 5 of the label is not read
    ("1: strong reject", 1.0),
    ("8: accept, good paper", 8.0),
    ("Rating: 6: marginally above the acceptance threshold", 6.0),
    ("Overall rating = 8", 8.0),
    ("3 good", 3.0),
    ("2 fair", 2.0),
    ("6 (weak accept)", 6.0),
    ("6 - weak accept", 6.0),
    ("6, weak accept", 6.0),
    ("7/10", 7.0),
    ("7 out of 10", 7.0),
    ("-1", -1.0),  # read; the range is the caller's check
])
def test_read(value: object, expected: float) -> None:
    assert parse_rating(value, scale_max=10) == expected


@pytest.mark.parametrize("value", [None, "", "   "])
def test_missing_is_none(value: object) -> None:
    assert parse_rating(value) is None


@pytest.mark.parametrize(("value", "problem"), [
    ("weak accept (6)", "'weak accept (6)' does not start with a score"),
    ("Score 7", "'Score 7' does not start with a score"),
    ("6-8", "'6-8' holds more than one number where the score is"),
    ("6 or 7", "'6 or 7' holds more than one number"),
    ("6, 7", "'6, 7' holds more than one number"),
    ("6.5.1", "'6.5.1' holds more than one number"),
    ("6 7", "'6 7' holds more than one number"),
    ("3D shapes", "'3D shapes' does not start with a score (the number is part of a word)"),
    ("1e3", "'1e3' does not start with a score (the number is part of a word)"),
    ("60%", "'60%' is a percentage, not a score"),
    ("4/5", "'4/5' is on a scale up to 5, not up to 10"),
    ("4 out of 5", "is on a scale up to 5, not up to 10"),
    (True, "True is true/false, not a score"),
    (math.nan, "nan is not a finite number"),
    (math.inf, "inf is not a finite number"),
    ([6], "a list is not a score"),
    ({"score": 6}, "a dict is not a score"),
])
def test_refused_with_reason(value: object, problem: str) -> None:
    with pytest.raises(RatingError, match=re.escape(problem)):
        parse_rating(value, scale_max=10)


def test_stated_scale_accepted_without_a_known_scale() -> None:
    assert parse_rating("4/5") == 4.0
    assert parse_rating("3/4", scale_max=4) == 3.0
