"""Is the intended linguistic shift present? One directional check per part of a condition.

A rewrite is evidence only if it moved the style it was asked to move ('Style over Substance',
Table 2: high-confidence rewrites carry more boosters and fewer hedges than low-confidence ones;
native-associated rewrites score higher on lexical sophistication than non-native-associated ones).

Every rewrite dimension is one :class:`Dimension` registered in :data:`rhetorica.registry.dimensions`
by its own module (the built-ins under :mod:`rhetorica.dimensions`, or a plug-in's). Its
:class:`ShiftRule` says how the shift is checked:

- a dimension with its own text measure (:attr:`Dimension.measure`, ``measure(text or Tokens) ->
  float | None``) is measured on every original and variant by
  :func:`rhetorica.validation.measures.measure_text`, which keeps the values in the mapping
  ``TextMeasures.dimensions`` (name -> value); its rule reads its value from there
  (:func:`measured_dimension`), so a new dimension's measure reaches the checks, the stored
  results, the tables and the viewer without any change to them;
- a dimension whose measure is one of the lexical measures every text gets (``confidence``:
  boosters/1k − hedges/1k; ``proficiency``: Advanced Guiraud) has a rule that reads those fields;
- a dimension whose rewrites are not meant to move any style has the explicit rule that no shift is
  expected (``function`` ``None``; ``injection``).

``+`` needs the variant's measure above the original's, ``-`` below. A condition on a dimension
without a rule is refused when the study is loaded
(:func:`rhetorica.rewriting.conditions.check_condition`); no check is invented for it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from pydantic import BaseModel

from rhetorica.registry import dimensions
from rhetorica.rewriting.conditions import parse_condition
from rhetorica.tokenizer import Tokens
from rhetorica.validation.measures import TextMeasures


TextMeasure = Callable[["str | Tokens"], "float | None"]
"""A dimension's measure of one text: LaTeX/Markdown or its tokens -> a real number, ``None`` when undefined."""


@dataclass(frozen=True)
class ShiftRule:
    """How a dimension's intended shift is checked.

    Attributes:
        measure: the measure's name in messages (``"Advanced Guiraud"``), or why no shift is
            expected when ``function`` is ``None``.
        function: the measure of one text from its :class:`TextMeasures` (``None``/undefined → the
            shift counts as absent); ``None`` for a dimension whose rewrites are not meant to move
            any style measure.
    """

    measure: str
    function: Callable[[TextMeasures], float | None] | None

    def label(self) -> str:
        """The measure's name as a check reports it."""
        return self.measure


@dataclass(frozen=True)
class Instructions:
    """A dimension's LLM instruction texts, per direction: files ``<package>/instructions/<version>/<file>``
    (package data) or the texts themselves (a plug-in may keep them in its module).

    Attributes:
        version: the texts' version (it opens every prompt version ``<version>:<hash>``, and the
            integrity rules and task text of that version of ``rhetorica/rewriting/instructions``
            frame them).
        files: direction (``"+"``/``"-"``) -> file name.
        texts: direction -> the instruction text itself (for a direction without a file).
        package: the package holding the ``instructions`` folder of ``files``.
    """

    version: str
    files: Mapping[str, str] = field(default_factory=dict)
    texts: Mapping[str, str] = field(default_factory=dict)
    package: str = "rhetorica.rewriting"


@dataclass(frozen=True)
class Dimension:
    """A rewrite dimension: the value registered in ``registry.dimensions``.

    Attributes:
        name: e.g. ``confidence``.
        shift: the rule :func:`shift_checks` applies to its conditions.
        measure: its own text measure (see the module docstring), or ``None``.
        directions: direction (``"+"``/``"-"``) -> one line describing that condition; each is
            registered as the condition ``<name>:<direction>`` (:func:`rhetorica.dimensions.register_dimension`).
        instructions: its LLM instruction texts (``None``: only deterministic rewriters produce it).
        joint: position of its ``+`` target in the ``joint`` workflow's instruction and composite
            (:func:`rhetorica.rewriting.six_dimensions.joint_dimensions`); ``None``: not part of ``joint``.
        lexicons: ``() -> {lexicon name: version}`` of the word lists its measure reads (recorded
            with every measurement), or ``None``.
    """

    name: str
    shift: ShiftRule
    measure: TextMeasure | None = None
    directions: Mapping[str, str] = field(default_factory=dict)
    instructions: Instructions | None = None
    joint: int | None = None
    lexicons: Callable[[], dict[str, str]] | None = None


def measured_dimension(name: str, label: str, measure: TextMeasure, **fields: object) -> Dimension:
    """A :class:`Dimension` whose shift rule reads ``measure``'s value from ``TextMeasures.dimensions``.

    Args:
        name: the dimension's name.
        label: the measure's name in messages, e.g. ``"(novelty markers + boosters - hedges)/1k"``.
        measure: its text measure.
        **fields: the other :class:`Dimension` attributes (``directions``, ``instructions`` ...).
    """

    def from_measures(m: TextMeasures) -> float | None:
        return m.dimensions.get(name)

    from_measures.__name__ = f"shift_{name}"
    return Dimension(name, ShiftRule(label, from_measures), measure=measure, **fields)  # type: ignore[arg-type]


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

    checks = []
    for part in parse_condition(condition).parts:
        rule = dimensions.get(part.dimension).shift
        if rule.function is None:
            continue
        before, after = rule.function(original), rule.function(variant)
        moved = before is not None and after is not None and (
            after > before if part.direction == "+" else after < before)
        checks.append(ShiftCheck(condition=part.name, measure=rule.label(), original=before, variant=after,
                                 present=moved))
    return checks
