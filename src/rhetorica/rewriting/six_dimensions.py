"""The six-dimension study's prompts (STUDIES.md §2): its conditions' and its workflows' instructions.

The study's dimensions — ``novelty`` (claim and novelty stance), ``scope`` (scope and
generalisation), ``evidence`` (quantitative evidence framing), ``contribution`` (contribution
structure), ``register`` (technical register and formalisation), ``complexity`` (lexical and
syntactic complexity) — are each one module of :mod:`rhetorica.dimensions`, registered with its
directions, instruction texts, lexicon and shift measure and marked ``joint``. This module reads
them from :data:`rhetorica.registry.dimensions` only: the six-dimension conditions are the
``<dimension>:+``/``-`` of every dimension marked ``joint`` (:func:`joint_dimensions`), and the three
workflows are ``joint`` (the ``+`` targets of all of them in one instruction, applied paragraph by
paragraph), ``recursive:<n>`` (the joint instruction applied again to its own output, ``n`` ≥ 2
applications in all; the text of every application is the joint text, so R2 and R3 differ from
``joint`` only in iteration) and ``guided`` (a second-stage instruction that receives a review of
the joint rewrite: keep its strengths, answer its weaknesses and questions through the manuscript,
tone down what it called overstated).

The instruction texts are package data under ``instructions/v2/`` (own words; their sources are in
``instructions/v2/README.md`` and ``docs/six-dimensions.md``). Every prompt opens with
``integrity.md``: the project-level content rules and the LaTeX rules the anchor checker enforces.
The v1 texts of the 'Style over Substance' study are untouched, so their prompt versions stay.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from rhetorica.hashing import content_hash
from rhetorica.registry import dimensions
from rhetorica.rewriting.conditions import definition, parse_condition

INSTRUCTIONS_VERSION = "v2"
"""Folder under ``rewriting/instructions/`` holding the six-dimension texts."""

REVIEW_PLACEHOLDER = "{review}"
"""Where :func:`guided_prompt` inserts the review in ``guided.md`` (exactly once)."""

_REVIEW_FENCE = ("<<<REVIEW", "REVIEW>>>")


def joint_dimensions() -> list[Any]:
    """The registered dimensions marked ``joint`` (:class:`rhetorica.validation.shift.Dimension`),
    in their joint order (then by name): the dimensions ``joint`` combines."""
    found = [e.value for e in dimensions.entries() if getattr(e.value, "joint", None) is not None]
    return sorted(found, key=lambda d: (d.joint, d.name))


def condition_names() -> list[str]:
    """The six-dimension conditions: ``<dimension>:<direction>`` of every joint dimension, in joint
    order, ``+`` before ``-``."""
    return [f"{d.name}:{sign}" for d in joint_dimensions() for sign in ("+", "-") if sign in d.directions]


def _read(filename: str) -> str:
    path = resources.files("rhetorica.rewriting") / "instructions" / INSTRUCTIONS_VERSION / filename
    return path.read_text("utf-8").strip()


def _target(name: str) -> str:
    """The instruction text of one six-dimension condition (its dimension's, :meth:`ConditionDefinition.instruction`)."""
    if name not in condition_names():
        raise ValueError(f"unknown six-dimension condition {name!r}; known: {', '.join(condition_names())}")
    return definition(parse_condition(name, check=False)).instruction(INSTRUCTIONS_VERSION)


def condition_prompt(name: str) -> str:
    """System prompt for one of the twelve conditions: the rules, then its style target.

    Args:
        name: e.g. ``"novelty:+"``.

    Returns:
        ``integrity.md`` and the condition's text, separated by a blank line.

    Raises:
        ValueError: for a name that is not one of :func:`condition_names`.
    """
    return "\n\n".join((_read("integrity.md"), _target(name)))


def joint_prompt() -> str:
    """System prompt of ``joint`` (and of every application of ``recursive:<n>``).

    Returns:
        ``integrity.md``, ``joint.md``, then the ``+`` target of every joint dimension, in joint
        order (:func:`joint_dimensions`).
    """
    parts = [_read("integrity.md"), _read("joint.md")]
    parts += [_target(f"{d.name}:+") for d in joint_dimensions()]
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
        name: one of :func:`condition_names`, ``joint``, ``recursive:<n>`` or ``guided``; for
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
