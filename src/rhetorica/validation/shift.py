"""Is the intended linguistic shift present? One directional check per rewrite dimension.

A rewrite is evidence only if it moved the style it was asked to move ('Style over Substance',
Table 2: high-confidence rewrites carry more boosters and fewer hedges than low-confidence ones;
native-associated rewrites score higher on lexical sophistication than non-native-associated ones).
Each dimension maps to one measure of :class:`~rhetorica.validation.measures.TextMeasures`:

- ``confidence``: stance = boosters per 1,000 words − hedges per 1,000 words (Hyland 2005);
  ``+`` needs the variant's stance above the original's, ``-`` below.
- ``proficiency``: Advanced Guiraud (Daller, van Hout & Treffers-Daller 2003); ``+`` needs it to
  rise, ``-`` to fall.

Each dimension is registered in :data:`rhetorica.registry.dimensions` as a :class:`Dimension` with
its :class:`ShiftRule` beside it: the entries of :data:`SHIFT_MEASURES` get a measured rule, those of
:data:`NO_SHIFT_EXPECTED` the explicit rule that no stylistic shift is expected (``injection``: the
planted paragraph is the whole change, the manuscript's own prose stays byte for byte). A condition
on a dimension registered neither way is refused when the study is loaded
(:func:`rhetorica.rewriting.conditions.check_condition`); no check is invented for it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantic import BaseModel

from rhetorica.registry import dimensions

if TYPE_CHECKING:
    from rhetorica.validation.measures import TextMeasures


def _stance(m: TextMeasures) -> float | None:
    if m.boosters_per_1k is None or m.hedges_per_1k is None:
        return None
    return m.boosters_per_1k - m.hedges_per_1k


def _sophistication(m: TextMeasures) -> float | None:
    return m.advanced_guiraud


def _rhetoric(name: str) -> Callable[[TextMeasures], float | None]:
    """The measure ``name`` of :class:`~rhetorica.validation.rhetoric.RhetoricMeasures` of a text."""

    def measure(m: TextMeasures) -> float | None:
        return None if m.rhetoric is None else getattr(m.rhetoric, name)

    measure.__name__ = f"shift_{name}"
    return measure


def _complexity(m: TextMeasures) -> float | None:
    """``sqrt(words / sentences * Advanced Guiraud)`` from the measures (Lu 2010; Daller et al. 2003)."""
    if not m.sentences or m.advanced_guiraud is None:
        return None
    return math.sqrt(m.words / m.sentences * m.advanced_guiraud)


def _joint(m: TextMeasures) -> float | None:
    """Composite of the ``joint``/``recursive:<n>``/``guided`` workflows: the sum of the six
    six-dimension measures (each oriented so that its ``+`` direction raises it), undefined when
    any of them is. A composite of mixed units (per-1k rates and a complexity index): it says
    whether the six moved up *on balance*, not that each did."""
    values = [SHIFT_MEASURES[name][1](m) for name in JOINT_DIMENSIONS]
    return None if any(v is None for v in values) else float(sum(values))  # type: ignore[arg-type]


#: The six dimensions the joint composite adds up (STUDIES.md §2).
JOINT_DIMENSIONS = ("novelty", "scope", "evidence", "contribution", "register", "complexity")

#: dimension -> (measure name for messages, measure function)
SHIFT_MEASURES: dict[str, tuple[str, Callable[[TextMeasures], float | None]]] = {
    "confidence": ("boosters/1k - hedges/1k", _stance),
    "proficiency": ("Advanced Guiraud", _sophistication),
    # six-dimension study (STUDIES.md §2); definitions and sources in rhetorica.validation.rhetoric
    "novelty": ("(novelty markers + boosters - hedges)/1k", _rhetoric("novelty_stance")),
    "scope": ("(generalisation - limiting qualifiers)/1k", _rhetoric("scope_generality")),
    "evidence": ("foregrounded quantitative expressions/1k", _rhetoric("evidence_foregrounding")),
    "contribution": ("(contribution signposts + enumerated items)/1k", _rhetoric("contribution_signposting")),
    "register": ("(technical words + formal markers + math)/1k", _rhetoric("register_technicality")),
    "complexity": ("sqrt(mean sentence length x Advanced Guiraud)", _complexity),
    # joint, recursive:<n>, guided: all six + targets at once
    "joint": ("sum of the six six-dimension measures", _joint),
}

#: dimension -> why no stylistic shift is expected (its conditions get no directional check).
NO_SHIFT_EXPECTED: dict[str, str] = {
    "injection": "an instruction planted as its own paragraph; the manuscript's prose is unchanged",
}


@dataclass(frozen=True)
class ShiftRule:
    """How a dimension's intended shift is checked.

    Attributes:
        measure: the measure's name in messages (``"Advanced Guiraud"``), or why no shift is
            expected when ``function`` is ``None``.
        function: the measure of one text (``None``/undefined → the shift counts as absent);
            ``None`` for a dimension whose rewrites are not meant to move any style measure.
    """

    measure: str
    function: Callable[[TextMeasures], float | None] | None


@dataclass(frozen=True)
class Dimension:
    """A rewrite dimension with its shift rule (the value registered in ``registry.dimensions``).

    Attributes:
        name: e.g. ``confidence``.
        shift: the rule :func:`shift_checks` applies to its conditions.
    """

    name: str
    shift: ShiftRule


for _name, (_measure, _function) in SHIFT_MEASURES.items():
    dimensions.add(_name, Dimension(_name, ShiftRule(_measure, _function)), description=f"shift measure: {_measure}")
for _name, _reason in NO_SHIFT_EXPECTED.items():
    dimensions.add(_name, Dimension(_name, ShiftRule(_reason, None)), description=f"no shift expected: {_reason}")


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
        One :class:`ShiftCheck` per part whose dimension's rule has a measure (none for a
        dimension registered with no shift expected); a measure that is undefined on either side
        counts as not present.

    Raises:
        rhetorica.rewriting.conditions.UnknownConditionError: for an unregistered condition.
    """
    from rhetorica.rewriting.conditions import parse_condition

    checks = []
    for part in parse_condition(condition).parts:
        rule = dimensions.get(part.dimension).shift
        if rule.function is None:
            continue
        name, measure = rule.measure, rule.function
        before, after = measure(original), measure(variant)
        moved = before is not None and after is not None and (
            after > before if part.direction == "+" else after < before)
        checks.append(ShiftCheck(condition=part.name, measure=name, original=before, variant=after, present=moved))
    return checks
