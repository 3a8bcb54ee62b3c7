"""Is the intended linguistic shift present? One directional check per rewrite dimension.

A rewrite is evidence only if it moved the style it was asked to move ('Style over Substance',
Table 2: high-confidence rewrites carry more boosters and fewer hedges than low-confidence ones;
native-associated rewrites score higher on lexical sophistication than non-native-associated ones).
Each dimension maps to one measure of :class:`~rhetorica.validation.validate.TextMeasures`:

- ``confidence``: stance = boosters per 1,000 words − hedges per 1,000 words (Hyland 2005);
  ``+`` needs the variant's stance above the original's, ``-`` below.
- ``proficiency``: Advanced Guiraud (Daller, van Hout & Treffers-Daller 2003); ``+`` needs it to
  rise, ``-`` to fall.

Dimensions without a rule here are not checked (no check is invented for them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from pydantic import BaseModel

from rhetorica.validation import rhetoric

if TYPE_CHECKING:
    from rhetorica.validation.validate import TextMeasures


def _stance(m: TextMeasures) -> float | None:
    if m.boosters_per_1k is None or m.hedges_per_1k is None:
        return None
    return m.boosters_per_1k - m.hedges_per_1k


def _sophistication(m: TextMeasures) -> float | None:
    return m.advanced_guiraud


#: dimension -> (measure name for messages, measure function)
SHIFT_MEASURES: dict[str, tuple[str, Callable[[TextMeasures], float | None]]] = {
    "confidence": ("boosters/1k - hedges/1k", _stance),
    "proficiency": ("Advanced Guiraud", _sophistication),
    # six-dimension study (STUDIES.md §2); definitions and sources in rhetorica.validation.rhetoric
    "novelty": ("(novelty markers + boosters - hedges)/1k", rhetoric.shift_novelty),
    "scope": ("(generalisation - limiting qualifiers)/1k", rhetoric.shift_scope),
    "evidence": ("foregrounded quantitative expressions/1k", rhetoric.shift_evidence),
    "contribution": ("(contribution signposts + enumerated items)/1k", rhetoric.shift_contribution),
    "register": ("(technical words + formal markers + math)/1k", rhetoric.shift_register),
    "complexity": ("sqrt(mean sentence length x Advanced Guiraud)", rhetoric.shift_complexity),
}


class ShiftCheck(BaseModel):
    """One directional check: the condition part, its measure on both texts, and the verdict."""

    condition: str
    measure: str
    original: float | None
    variant: float | None
    present: bool


def shift_checks(condition: str, original: TextMeasures, variant: TextMeasures) -> list[ShiftCheck]:
    """Directional checks for every part of a (possibly compound) condition.

    Args:
        condition: e.g. ``"confidence:+"`` or ``"confidence:+|proficiency:-"``.
        original: measures of the original.
        variant: measures of the variant.

    Returns:
        One :class:`ShiftCheck` per part whose dimension has a rule; a measure that is undefined
        on either side counts as not present.

    Raises:
        rhetorica.rewriting.conditions.UnknownConditionError: for an unregistered condition.
    """
    from rhetorica.rewriting.conditions import parse_condition

    checks = []
    for part in parse_condition(condition):
        if part.dimension not in SHIFT_MEASURES:
            continue
        name, measure = SHIFT_MEASURES[part.dimension]
        before, after = measure(original), measure(variant)
        moved = before is not None and after is not None and (
            after > before if part.direction == "+" else after < before)
        checks.append(ShiftCheck(condition=part.name, measure=name, original=before, variant=after, present=moved))
    return checks
