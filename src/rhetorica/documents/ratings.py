"""Reading a score written as text: ``"6: marginally above the acceptance threshold"`` -> 6.

Review data holds scores as numbers and as OpenReview-style rating strings: a leading number, a
separator and the scale's label (``"8: accept, good paper"``, ``"3 good"``, ``"Rating: 6"``,
``"10: top 5% of accepted papers"``). Only the *leading* score of an unambiguous string is read;
everything else is refused with the reason, never guessed and never silently dropped:

===========================================  ===========================================
read                                         refused (a :class:`RatingError` says why)
===========================================  ===========================================
``7``, ``7.0``, ``"7"``, ``" 6.5 "``         ``True`` / ``False``, NaN, infinity, lists
``"6: marginally above the threshold"``      ``"weak accept (6)"`` (no leading score)
``"10: top 5% of accepted papers"`` -> 10    ``"6-8"``, ``"6 or 7"``, ``"6, 7"``, ``"6.5.1"``
``"Score: 7"``, ``"Overall rating = 8"``     ``"3D shapes"`` (the number is part of a word)
``"3 good"``, ``"6 (weak accept)"``          ``"60%"`` (a percentage)
``"7/10"``, ``"7 out of 10"`` (scale 10)     ``"4/5"`` for a field whose scale ends at 10
===========================================  ===========================================

A missing value (``None``, an empty string) is not an error: :func:`parse_rating` returns
``None`` and the caller reports it as missing.

The rule that ``"10: ..."`` reads 10 and not 1 matches the review form's own parser
(:mod:`rhetorica.reviewers.form`); the ai-reviewer-diagnostics tool (PyPI, MIT) reads the first
number anywhere in the string, which agrees on every string in the left column.
"""

from __future__ import annotations

import math
import re
from typing import Any

_LABEL = r"(?:[A-Za-z][A-Za-z _-]{0,40}?\s*[:=]\s*)"
_RATING = re.compile(
    rf"^\s*(?P<label>{_LABEL})?(?P<number>[-+]?\d+(?:\.\d+)?)"
    r"(?:\s*(?:/|\bout\s+of\b)\s*(?P<scale>\d+(?:\.\d+)?)(?![\d.]))?"
    r"(?P<rest>.*)$",
    re.DOTALL | re.IGNORECASE,
)
_SECOND_NUMBER = re.compile(r"^\s*(?:-|\u2013|\u2014|~|,|;|\.|/|\bto\b|\bor\b|\band\b)?\s*[-+]?\d", re.IGNORECASE)
_LABEL_AFTER = re.compile(r"^(?:\s*[:.,;)\]\u2013\u2014-]|\s+\S|\s*\()", re.DOTALL)


class RatingError(ValueError):
    """A score value that cannot be read unambiguously; the message says why."""


def parse_rating(value: Any, *, scale_max: float | None = None) -> float | None:
    """The score a value holds, read from a number or from a rating string.

    Args:
        value: a JSON value: number, string, ``None``.
        scale_max: the top of the field's scale (e.g. 10 for a 1-10 overall score). A string that
            states its own scale (``"7/10"``, ``"7 out of 10"``) is refused when the scales differ;
            without ``scale_max`` any stated scale is accepted. The range itself is the caller's
            check.

    Returns:
        The score as a float, or ``None`` for a missing value (``None`` or a blank string).

    Raises:
        RatingError: for every value that is present but not an unambiguous score (see the table in
            the module docstring); the message quotes the value.
    """
    if value is None:
        return None
    if isinstance(value, bool):
        raise RatingError(f"{value!r} is true/false, not a score")
    if isinstance(value, int | float):
        number = float(value)
        if not math.isfinite(number):
            raise RatingError(f"{value!r} is not a finite number")
        return number
    if not isinstance(value, str):
        raise RatingError(f"a {type(value).__name__} is not a score")
    if not value.strip():
        return None
    match = _RATING.match(value)
    if match is None:
        raise RatingError(f"{value!r} does not start with a score")
    rest = match.group("rest").rstrip()
    if rest.lstrip().startswith("%"):
        raise RatingError(f"{value!r} is a percentage, not a score")
    if _SECOND_NUMBER.match(rest):
        raise RatingError(f"{value!r} holds more than one number where the score is (a range or a list?)")
    if rest and not _LABEL_AFTER.match(rest):
        raise RatingError(f"{value!r} does not start with a score (the number is part of a word)")
    scale = match.group("scale")
    if scale is not None and scale_max is not None and float(scale) != float(scale_max):
        raise RatingError(f"{value!r} is on a scale up to {scale}, not up to {scale_max:g}")
    return float(match.group("number"))
