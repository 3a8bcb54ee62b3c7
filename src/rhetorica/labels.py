"""The labels every layer shares: the unmodified document's, and an arm's (``condition@rewriter``).

An *arm* of a study is what a score is compared across: :data:`ORIGINAL`, a condition
(``"confidence:+"``, ``"confidence:+|proficiency:-"``), or ``"<condition>@<rewriter>"`` when
several rewriters produced that condition in one study (``"confidence:+@gpt-5"``).
:func:`arm_label` is the one place an arm label is made and :func:`split_arm` the one place it is
read; the condition part is parsed by :func:`rhetorica.rewriting.conditions.parse_condition`.
"""

from __future__ import annotations

ORIGINAL = "original"
"""Condition and arm label of the unmodified document; never a registered condition."""

NO_REWRITER = "none"
"""The rewriter name of an original (in review cells, assessments, scans and exports)."""

ARM_SEPARATOR = "@"
"""Joins an arm's condition and rewriter (a condition name never holds it)."""


def arm_label(condition: str, rewriter: str | None = None) -> str:
    """The arm label of a condition, qualified by its rewriter when one is given.

    Args:
        condition: :data:`ORIGINAL` or a condition name (a :class:`~rhetorica.rewriting.conditions.Condition`
            is one).
        rewriter: the rewriter's name, given only where several rewriters produced ``condition``
            in the study; ignored for the original.

    Returns:
        ``"original"``, ``"confidence:+"`` or ``"confidence:+@gpt-5"`` (a plain ``str``).

    A condition name never holds ``"@"``, so :func:`split_arm` reads the label back even when a
    rewriter's name holds one.
    """
    condition = str(condition)
    if condition == ORIGINAL or not rewriter:
        return condition
    return f"{condition}{ARM_SEPARATOR}{rewriter}"


def split_arm(label: str) -> tuple[str, str | None]:
    """The condition and rewriter of an arm label (the inverse of :func:`arm_label`).

    Returns:
        ``("confidence:+", "gpt-5")`` for ``"confidence:+@gpt-5"``; ``(label, None)`` for a label
        without a rewriter (``"original"``, ``"confidence:+"``).
    """
    condition, _, rewriter = str(label).partition(ARM_SEPARATOR)  # the first "@": conditions hold none
    return condition, rewriter or None


ATTACK_TARGET_SEPARATOR = ">"
"""Joins an attack rewriter's name and the reviewer configuration its search targeted in the
variant's rewriter label (``"attacker>reviewer-a"``); a configuration name never holds it."""


def attack_rewriter(rewriter: str, target: str) -> str:
    """The rewriter label of a worst-case search's winning variant: ``"<rewriter>><target>"``
    (``"attacker>reviewer-a"``), so each target's variants are their own arm
    (``"attack:+@attacker>reviewer-a"``)."""
    return f"{rewriter}{ATTACK_TARGET_SEPARATOR}{target}"


def split_attack_rewriter(label: str) -> tuple[str, str | None]:
    """The rewriter and target of an attack variant's rewriter label (the inverse of
    :func:`attack_rewriter`); ``(label, None)`` for any other rewriter label."""
    rewriter, _, target = str(label).partition(ATTACK_TARGET_SEPARATOR)
    return rewriter, target or None
