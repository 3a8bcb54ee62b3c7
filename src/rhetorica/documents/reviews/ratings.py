"""Human scores written as OpenReview-style strings: ``"8: accept, good paper"`` → 8.

The leading number is taken only when it is unambiguous: the whole value is a number, or a number
followed by ``:`` (the OpenReview rating/confidence convention, two-digit safe: ``"10: top 5%"``
→ 10). Anything else is a problem for the caller to list, never a silent gap.
"""

from __future__ import annotations

import math
import re

_LEADING = re.compile(r"^\s*(?:score\s*[:=]\s*)?([+-]?\d+(?:\.\d+)?)\s*(?::|$)", re.IGNORECASE)


class RatingParseError(ValueError):
    """A rating value whose score cannot be read unambiguously."""


def leading_score(value: object) -> float:
    """The score of a rating value (number, numeric string, or ``"N: description"``).

    Raises:
        RatingParseError: ``value`` is empty, boolean, not finite, or not of those shapes.
    """
    if isinstance(value, dict) and "value" in value:  # OpenReview API v2 wraps every field
        value = value["value"]
    if isinstance(value, bool) or value is None:
        raise RatingParseError(f"not a rating: {value!r}")
    if isinstance(value, (int, float)):
        if not math.isfinite(value):
            raise RatingParseError(f"not a finite rating: {value!r}")
        return float(value)
    if isinstance(value, str):
        match = _LEADING.match(value)
        if match:
            return float(match.group(1))
    raise RatingParseError(f"rating {value!r} does not start with a score ('N' or 'N: ...')")
