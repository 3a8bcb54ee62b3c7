"""Arm labels: parsing, combining with a third factor, and the default comparisons.

An arm is ``"original"`` or a condition label. Grammar used by the tidy table:

- single condition: ``"confidence:+"``, ``"joint"``, ``"recursive:3"``;
- compound (2x2 combined rewrite): components joined by ``"|"``, e.g.
  ``"confidence:+|proficiency:-"`` (component order does not matter);
- a condition produced by several rewriters: ``"<condition>@<rewriter>"``, e.g.
  ``"confidence:+@gpt-5"``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from rhetorica.labels import ORIGINAL, split_arm
from rhetorica.rewriting.conditions import Condition, UnknownConditionError, parse_condition


class ArmKey(NamedTuple):
    """Order-free identity of an arm: its condition components and its rewriter (or None)."""

    components: frozenset[str]
    rewriter: str | None


def parse_arm(arm: str) -> ArmKey:
    """Split an arm label into its components and rewriter.

    Args:
        arm: label such as ``"confidence:+|proficiency:-@gpt-5"``.

    Returns:
        ``ArmKey(frozenset({"confidence:+", "proficiency:-"}), "gpt-5")``.

    Raises:
        ValueError: if the label is empty or has an empty component.
    """
    label, rewriter = split_arm(arm)
    try:
        condition = parse_condition(label, check=False)
    except UnknownConditionError as exc:
        raise ValueError(f"arm label {arm!r} is empty or has an empty component ({exc})") from None
    return ArmKey(frozenset(p.name for p in condition.parts), rewriter)


def combine_arm(arm: str, given: str, available: Iterable[str]) -> str:
    """Find the arm in ``available`` that applies both ``arm`` and ``given``.

    Used for 2x2 combined rewrites ('Style over Substance' study, Table 5): proficiency ``+`` given
    confidence ``+`` is the arm whose components are ``{"proficiency:+", "confidence:+"}``.

    Args:
        arm: condition label (may carry ``@rewriter``).
        given: the third-factor condition, e.g. ``"confidence:+"``.
        available: arm labels present in the data.

    Returns:
        The matching label exactly as it appears in ``available``.

    Raises:
        ValueError: if no available arm, or more than one, has that combination.
    """
    key = parse_arm(arm)
    given_key = parse_arm(given)
    if given_key.rewriter not in (None, key.rewriter):
        raise ValueError(f"given {given!r} names a different rewriter than arm {arm!r}")
    target = ArmKey(key.components | given_key.components, key.rewriter)
    labels = sorted(set(available))
    matches = [a for a in labels if a != ORIGINAL and parse_arm(a) == target]
    if len(matches) != 1:
        problem = "no arm" if not matches else f"several arms {matches}"
        raise ValueError(f"{problem} combines {arm!r} with {given!r}; arms present: {labels}")
    return matches[0]


def _direction(component: str) -> tuple[str, str] | None:
    condition: Condition = parse_condition(component, check=False)
    return (str(condition.dimension), str(condition.direction)) if condition.signed else None


def default_pairs(arms: Iterable[str]) -> list[tuple[str, str]]:
    """The comparisons a study reports by default.

    Every non-original arm against ``"original"`` (when the original is among ``arms``), then the
    two directions of each single-dimension condition against each other (``"confidence:+"`` vs
    ``"confidence:-"``, per rewriter), as in the 'Style over Substance' study's Table 4 and the
    six-dimension study's positive-vs-negative comparison.

    Args:
        arms: arm labels present in the data (any order, duplicates allowed).

    Returns:
        ``(first, second)`` pairs, rewrite first; vs-original pairs first, each block sorted.
    """
    unique = sorted(set(arms))
    pairs: list[tuple[str, str]] = []
    if ORIGINAL in unique:
        pairs.extend((a, ORIGINAL) for a in unique if a != ORIGINAL)
    present = set(unique)
    for a in unique:
        if a == ORIGINAL:
            continue
        key = parse_arm(a)
        if len(key.components) != 1:
            continue
        direction = _direction(next(iter(key.components)))
        if direction is None or direction[1] != "+":
            continue
        suffix = f"@{key.rewriter}" if key.rewriter else ""
        negative = f"{direction[0]}:-{suffix}"
        if negative in present:
            pairs.append((a, negative))
    return pairs


def conditional_pairs(arms: Iterable[str]) -> list[tuple[str, str, str]]:
    """Comparisons of one dimension given the other, for 2x2 combined rewrites (Table 5).

    For every compound arm of two directional components, e.g. ``"confidence:+|proficiency:-"``,
    and each of its components taken as the given factor, the other dimension's ``+`` and ``-``
    are compared when both compound arms exist.

    Args:
        arms: arm labels present in the data.

    Returns:
        Sorted unique ``(first, second, given)`` triples such as
        ``("proficiency:+", "proficiency:-", "confidence:+")``, usable as
        ``compare_arms(df, first, second, given=given)``.
    """
    keys = {parse_arm(a) for a in set(arms) if a != ORIGINAL}
    out: set[tuple[str, str, str]] = set()
    for key in keys:
        parts = sorted(key.components)
        directions = [_direction(p) for p in parts]
        if len(parts) != 2 or any(d is None for d in directions):
            continue
        suffix = f"@{key.rewriter}" if key.rewriter else ""
        for given, other in ((parts[0], directions[1]), (parts[1], directions[0])):
            assert other is not None
            plus, minus = f"{other[0]}:+", f"{other[0]}:-"
            if {
                ArmKey(frozenset({given, plus}), key.rewriter),
                ArmKey(frozenset({given, minus}), key.rewriter),
            } <= keys:
                out.add((plus + suffix, minus + suffix, given + suffix))
    return sorted(out)
