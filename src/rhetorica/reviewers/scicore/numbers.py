"""Numbers written in a text, normalised so that one quantity written two ways compares equal.

Used by the science-core check "every number in the core appears in the manuscript"
(:mod:`rhetorica.reviewers.scicore.validate`).

A *number* is a run of digits with an optional decimal part (``12``, ``0.5``, ``.5``, ``3.50``)
or with comma thousands separators (``1,000``, ``12,345.6``). Normalisation:

- thousands separators are dropped: ``1,000`` = ``1000``;
- the value is written in plain decimal without superfluous zeros: ``.5`` = ``0.5`` = ``0.50``,
  ``7.0`` = ``7``;
- a percentage (``45%``, ``45 %``, ``45\\%`` as in LaTeX, ``45 percent``) is the number ``45``
  flagged as a percentage, and it also stands for the fraction ``0.45`` (:func:`appears`): a core
  that writes a manuscript's 45% as 0.45, or its 0.45 as 45%, states the same quantity. A plain
  ``45`` never matches a plain ``0.45``.

Known limits (documented, not guessed around): signs are not compared (a hyphen before a digit is
as often a range or a name, ``GPT-4``, ``3-5``, as a minus); numbers written in words (``three``)
are not numbers; digits inside names (``ResNet-50``, ``L2``) count as numbers, which is harmless
because the same name in the manuscript carries the same digits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

_NUMBER = re.compile(
    r"(?<![\d.])"                      # not the tail of a longer number
    r"(?P<value>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"(?![\d])"
    r"(?P<percent>\s?\\?%|\s+per\s?cent\b)?",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Number:
    """One number found in a text.

    Attributes:
        text: as written (``"1,000"``, ``".5"``, ``"45%"``).
        value: normalised plain decimal (``"1000"``, ``"0.5"``, ``"45"``).
        percent: written as a percentage.
        start: character offset of ``text`` in the searched string.
    """

    text: str
    value: str
    percent: bool
    start: int


def normalise(digits: str) -> str:
    """Plain-decimal form of a digit string: ``"1,000"`` → ``"1000"``, ``".50"`` → ``"0.5"``."""
    value = Decimal(digits.replace(",", ""))
    text = format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text or "0"


def find_numbers(text: str) -> list[Number]:
    """Every number in ``text``, in order (see the module docstring for what counts)."""
    found: list[Number] = []
    for match in _NUMBER.finditer(text):
        # a sentence's final period is not a decimal point ("in 2020." is 2020): a point needs digits after it
        found.append(Number(match.group(0), normalise(match.group("value")), match.group("percent") is not None,
                            match.start()))
    return found


def _fraction(number: Number) -> str:
    return normalise(str(Decimal(number.value) / 100))


def manuscript_values(text: str) -> frozenset[str]:
    """The normalised values a manuscript states: every number, and each percentage also as a fraction."""
    values: set[str] = set()
    for number in find_numbers(text):
        values.add(number.value)
        if number.percent:
            values.add(_fraction(number))
    return frozenset(values)


def appears(number: Number, values: frozenset[str]) -> bool:
    """Whether ``number`` (from the core) is one of the manuscript's ``values``
    (:func:`manuscript_values`); a percentage also matches its fraction."""
    return number.value in values or (number.percent and _fraction(number) in values)
