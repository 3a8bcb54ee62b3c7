"""The rewrite dimensions, one module each, and the one call that registers a dimension.

A dimension module holds everything rhetorica knows about one dimension: its directions (one line
per ``+``/``-`` condition), where its versioned instruction texts are (package data), the lexicon
its measure reads, and its shift measure ``measure(text or Tokens) -> float | None``. It registers
itself with :func:`register_dimension`, which adds the :class:`~rhetorica.validation.shift.Dimension`
to :data:`rhetorica.registry.dimensions` and one condition ``<name>:<direction>`` per direction to
:data:`rhetorica.registry.conditions`. Nothing else names the dimension: the validation measures
are a mapping filled from the registry (``TextMeasures.dimensions``), the shift checks look the
rule up by name, and ``joint`` is every registered dimension marked ``joint``.

A plug-in adds a dimension the same way, from its own package (one module, one call; see
``examples/plugins/rhetorica-example-plugin``).

Built-ins: ``confidence`` and ``proficiency`` ('Style over Substance', STUDIES.md §1), the six
dimensions of STUDIES.md §2 (``novelty``, ``scope``, ``evidence``, ``contribution``, ``register``,
``complexity``), the ``joint`` workflows' composite (:mod:`rhetorica.dimensions.joint`) and
``injection`` (no stylistic shift expected); :func:`rhetorica.registry.load_plugins` imports
their modules (listed in :mod:`rhetorica.registry`).

This package sits above :mod:`rhetorica.rewriting` and :mod:`rhetorica.validation`: it imports
them, and they reach the dimensions only through the registry.
"""

from __future__ import annotations

from rhetorica.registry import conditions, dimensions
from rhetorica.rewriting.conditions import ConditionDefinition
from rhetorica.validation.shift import Dimension


def register_dimension(dimension: Dimension, *, description: str = "") -> Dimension:
    """Register ``dimension`` and one condition per direction; returns it unchanged.

    The conditions are ``<name>:<direction>`` for each entry of ``dimension.directions``, described
    by that entry, with the instruction file or text of that direction (``dimension.instructions``,
    if any).

    Args:
        dimension: the dimension.
        description: its line in ``rhetorica list`` (default: ``shift measure: <label>``, or
            ``no shift expected: <reason>``).

    Raises:
        rhetorica.registry.DuplicateComponentError: the dimension or one of its conditions is
            already registered by another component.
        ValueError: a direction other than ``+``/``-``, or instructions without a file or text for a
            direction.
    """
    texts = dimension.instructions
    definitions = {}
    for direction, line in dimension.directions.items():
        if direction not in ("+", "-"):
            raise ValueError(f"dimension {dimension.name!r}: direction {direction!r} must be '+' or '-'")
        if texts is None:
            definitions[direction] = ConditionDefinition(dimension.name, line)
        elif direction in texts.files or direction in texts.texts:
            definitions[direction] = ConditionDefinition(
                dimension.name, line, texts.files.get(direction), instruction_package=texts.package,
                instruction_version=texts.version, instruction_text=texts.texts.get(direction))
        else:
            raise ValueError(f"dimension {dimension.name!r}: no instruction text for direction {direction!r}")
    rule = dimension.shift
    prefix = "shift measure" if rule.function is not None else "no shift expected"
    dimensions.add(dimension.name, dimension, description=description or f"{prefix}: {rule.measure}")
    for direction, definition in definitions.items():
        conditions.add(f"{dimension.name}:{direction}", definition, description=definition.description)
    return dimension
