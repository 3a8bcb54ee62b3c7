"""The six-dimension study's conditions and workflows (STUDIES.md §2), as declarations and prompts.

Twelve conditions, ``<dimension>:+`` and ``<dimension>:-`` for each of

- ``novelty``: claim and novelty stance;
- ``scope``: scope and generalisation;
- ``evidence``: quantitative evidence framing;
- ``contribution``: contribution structure;
- ``register``: technical register and formalisation;
- ``complexity``: lexical and syntactic complexity,

each with a shift check in :mod:`rhetorica.validation.rhetoric` (registered in
:data:`rhetorica.validation.shift.SHIFT_MEASURES`), and three workflows: ``joint`` (all six
``+`` targets in one instruction, applied paragraph by paragraph), ``recursive:<n>`` (the joint instruction applied again to its own output, ``n`` ≥ 2
applications in all; the text of every application is the joint text, so R2 and R3 differ from
``joint`` only in iteration) and ``guided`` (a second-stage instruction that receives a review of
the joint rewrite: keep its strengths, answer its weaknesses and questions through the manuscript,
tone down what it called overstated).

The instruction texts are package data under ``instructions/v2/`` (own words; their sources are in
``instructions/v2/README.md`` and ``docs/six-dimensions.md``). Every prompt opens with
``integrity.md``: the project-level content rules and the LaTeX rules the anchor checker enforces.
The v1 texts of the 'Style over Substance' study are untouched, so their prompt versions stay.

How it plugs into the condition registry: :data:`CONDITIONS` holds one mapping per condition whose
keys are exactly the fields of :class:`rhetorica.rewriting.conditions.Condition` (``name``,
``dimension``, ``direction``, ``description``, ``instruction_file``), so the registry adds them with
``Condition(**fields)`` and reads their texts from version :data:`INSTRUCTIONS_VERSION`. This module
imports nothing from ``conditions`` and so can be imported by it.
"""

from __future__ import annotations

from importlib import resources
from typing import TypedDict

from rhetorica.hashing import content_hash

INSTRUCTIONS_VERSION = "v2"
"""Folder under ``rewriting/instructions/`` holding the six-dimension texts."""

REVIEW_PLACEHOLDER = "{review}"
"""Where :func:`guided_prompt` inserts the review in ``guided.md`` (exactly once)."""

_REVIEW_FENCE = ("<<<REVIEW", "REVIEW>>>")


class ConditionFields(TypedDict):
    """Keyword arguments of :class:`rhetorica.rewriting.conditions.Condition` for one condition."""

    name: str
    dimension: str
    direction: str
    description: str
    instruction_file: str


DIMENSIONS: dict[str, tuple[str, str]] = {
    "novelty": ("claim and novelty stance (stronger)", "claim and novelty stance (more reserved)"),
    "scope": ("scope and generalisation (wider)", "scope and generalisation (narrower)"),
    "evidence": ("quantitative evidence foregrounded", "quantitative evidence backgrounded"),
    "contribution": ("contribution structure explicit and enumerated", "contribution structure implicit"),
    "register": ("technical register and formalisation (more)", "technical register and formalisation (less)"),
    "complexity": ("lexical and syntactic complexity (higher)", "lexical and syntactic complexity (lower)"),
}
"""dimension -> (description of ``+``, description of ``-``), in the study's order."""

CONDITIONS: tuple[ConditionFields, ...] = tuple(
    ConditionFields(name=f"{dim}:{sign}", dimension=dim, direction=sign, description=text,
                    instruction_file=f"{dim}_{'plus' if sign == '+' else 'minus'}.md")
    for dim, (plus, minus) in DIMENSIONS.items()
    for sign, text in (("+", plus), ("-", minus))
)
"""The twelve conditions, as ``Condition`` keyword arguments."""

JOINT_PARTS: tuple[str, ...] = tuple(f"{dim}:+" for dim in DIMENSIONS)
"""The conditions the joint instruction combines, in the order they are listed in it."""

WORKFLOWS: dict[str, str] = {
    "joint": "all six + targets in one instruction, paragraph by paragraph",
    "recursive": "the joint instruction applied again to its own output (recursive:2, recursive:3)",
    "guided": "joint rewrite, a review of it, then a rewrite that answers that review",
}
"""Workflow name -> one line for reports."""


def _read(filename: str) -> str:
    path = resources.files("rhetorica.rewriting") / "instructions" / INSTRUCTIONS_VERSION / filename
    return path.read_text("utf-8").strip()


def _condition(name: str) -> ConditionFields:
    for fields in CONDITIONS:
        if fields["name"] == name:
            return fields
    known = ", ".join(c["name"] for c in CONDITIONS)
    raise ValueError(f"unknown six-dimension condition {name!r}; known: {known}")


def condition_prompt(name: str) -> str:
    """System prompt for one of the twelve conditions: the rules, then its style target.

    Args:
        name: e.g. ``"novelty:+"``.

    Returns:
        ``integrity.md`` and the condition's text, separated by a blank line.

    Raises:
        ValueError: for a name that is not one of :data:`CONDITIONS`.
    """
    return "\n\n".join((_read("integrity.md"), _read(_condition(name)["instruction_file"])))


def joint_prompt() -> str:
    """System prompt of ``joint`` (and of every application of ``recursive:<n>``).

    Returns:
        ``integrity.md``, ``joint.md``, then the six ``+`` targets in :data:`JOINT_PARTS` order.
    """
    parts = [_read("integrity.md"), _read("joint.md")]
    parts += [_read(_condition(name)["instruction_file"]) for name in JOINT_PARTS]
    return "\n\n".join(parts)


def guided_prompt(review: str) -> str:
    """System prompt of the second stage of ``guided``, with ``review`` inserted.

    The review is untrusted model output: it sits between fence lines, and any copy of a fence
    inside it is defused (``<<<``/``>>>`` become ``<<``/``>>``) so it cannot close the quotation.

    Args:
        review: the review of the compiled joint rewrite (its text fields, joined).

    Returns:
        ``integrity.md`` then ``guided.md`` with the review in place of :data:`REVIEW_PLACEHOLDER`.

    Raises:
        ValueError: if ``review`` is empty or blank (a guided stage needs a review).
    """
    if not review.strip():
        raise ValueError("guided rewrite: the review of the first rewrite is empty")
    safe = review.strip().replace("<<<", "<<").replace(">>>", ">>")
    template = _read("guided.md")
    return "\n\n".join((_read("integrity.md"), template.replace(REVIEW_PLACEHOLDER, safe)))


def task_prompt() -> str:
    """User-message preamble placed before one LaTeX unit (it names the ``Section text:`` marker)."""
    return _read("task.md")


def agent_task_prompt() -> str:
    """Closing instruction for an external agent that edits a project copy in place.

    Appended by the project rewriter after the system prompt of the condition or workflow, in
    place of :func:`task_prompt`: which files are manuscript text, what must not be touched, and
    that the folder must hold the complete revised project.
    """
    return _read("agent_task.md")


def prompt_version(name: str, *, agent: bool = False) -> str:
    """``v2:<8-hex hash>`` of the exact texts used for ``name``.

    Args:
        name: one of :data:`CONDITIONS`, ``joint``, ``recursive:<n>`` or ``guided``; for
            ``guided`` the hash covers the template, not a particular review.
        agent: hash the agent closing text (:func:`agent_task_prompt`) instead of :func:`task_prompt`.

    Raises:
        ValueError: for any other name.
    """
    if name == "joint" or name.startswith("recursive:"):
        system = joint_prompt()
    elif name == "guided":
        system = "\n\n".join((_read("integrity.md"), _read("guided.md")))
    else:
        system = condition_prompt(name)
    closing = agent_task_prompt() if agent else task_prompt()
    return f"{INSTRUCTIONS_VERSION}:{content_hash(system, closing, length=8)}"
