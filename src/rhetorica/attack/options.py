"""The options of an ``attack`` rewriter (``options:`` of a rewriter of ``kind: attack``), its moves'
instructions and the scope of its rewrites.

A *move* is what one candidate rewrite applies: a registered condition with an LLM instruction text
(``confidence:+``; a dimension's name, ``confidence``, stands for each of its directions), or
:data:`PRESENTATION`, a free instruction written for this search: improve (``attack:+``) or weaken
(``attack:-``) the presentation, changing no content. Every move's system prompt starts with the
content-integrity rules every rewrite obeys (:func:`rhetorica.rewriting.conditions.integrity_prompt`);
with ``show_weaknesses`` it ends with the weaknesses the target reviewer gave the current best text
(the guided workflow's idea, STUDIES.md §2), blinded like every input.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rhetorica.documents.models import Document
from rhetorica.hashing import content_hash
from rhetorica.registry import UnknownComponentError, dimensions
from rhetorica.rewriting.conditions import (
    INSTRUCTIONS_VERSION,
    UnknownConditionError,
    definition,
    integrity_prompt,
    parse_condition,
    system_prompt,
)

#: The free move: a presentation change in the attack's direction, no content change.
PRESENTATION = "presentation"

#: Version of the texts below (part of every search unit's key through the prompt version).
SEARCH_TEXTS_VERSION = "attack/v1"

_PRESENTATION = {
    "+": ("Style target: improve the presentation. Make the section read as clearly, fluently and "
          "convincingly as a careful author would write it: a sharp statement of the problem and of "
          "what the work contributes, well-ordered sentences, precise wording. Change no content."),
    "-": ("Style target: weaken the presentation. Make the section read as a hurried draft would: a "
          "vaguer statement of the problem and of what the work contributes, looser sentences, less "
          "precise wording, while staying grammatical. Change no content."),
}

_WEAKNESSES = {
    "+": ("A reviewer who read the current version listed the weaknesses below. Through wording and "
          "presentation only (no new claim, result or content), present the section so that these "
          "concerns weigh less for a reader.\n\nReviewer's weaknesses:\n{weaknesses}"),
    "-": ("A reviewer who read the current version listed the weaknesses below. Through wording and "
          "presentation only (no new claim, result or content), present the section so that these "
          "concerns stand out more for a reader.\n\nReviewer's weaknesses:\n{weaknesses}"),
}

#: Where the weaknesses go in a move's prompt when it is counted for the estimate.
WEAKNESS_STAND_IN = "(the target reviewer's weaknesses of the current best text)"


class AttackOptions(BaseModel):
    """Options of a worst-case search (``options:`` of a ``kind: attack`` rewriter).

    Attributes:
        targets: reviewer configurations attacked, by name (``None``: every reviewer of the study).
        candidates: k, candidate rewrites proposed per round (1-64).
        rounds: T, rounds of proposals (1-100).
        search_replicates: r, reviews of each candidate by the target during the search (1-50).
        max_queries: most review calls per (paper, target, direction), the original's included
            (>= ``search_replicates``).
        scope: ``abstract`` (the section titled "Abstract", else the first non-empty section),
            ``all`` (every non-empty section) or a list of section titles (case-insensitive); on a
            LaTeX project the editable paragraphs of the ``abstract`` environment, of every
            heading, or under the named headings (:func:`rhetorica.attack.project.scope_paragraphs`).
        moves: registered condition names, dimension names (each direction) and/or ``presentation``.
        show_weaknesses: each proposal is shown the target's weaknesses of the current best text.
        metric: the target's score the search moves (default: its form's primary metric).
    """

    model_config = ConfigDict(extra="forbid")

    targets: list[str] | None = Field(default=None, min_length=1,
                                      description="reviewer names searched against (default: every reviewer)")
    candidates: int = Field(default=4, ge=1, le=64, description="k: candidate rewrites per round")
    rounds: int = Field(default=3, ge=1, le=100, description="T: rounds of proposals")
    search_replicates: int = Field(default=2, ge=1, le=50, description="r: target reviews per candidate")
    max_queries: int = Field(default=40, ge=1, description="most review calls per (paper, target, direction)")
    scope: Literal["abstract", "all"] | list[str] = Field(
        default="abstract", description="abstract | all | a list of section titles")
    moves: list[str] = Field(default_factory=lambda: [PRESENTATION], min_length=1,
                             description="presentation, condition names and/or dimension names")
    show_weaknesses: bool = Field(default=True, description="show proposals the target's weaknesses of the best text")
    metric: str | None = Field(default=None, description="the score moved (default: the target form's primary)")

    @model_validator(mode="after")
    def _check(self) -> AttackOptions:
        if self.max_queries < self.search_replicates:
            raise ValueError(f"max_queries ({self.max_queries}) must be at least search_replicates "
                             f"({self.search_replicates}): the original alone takes that many reviews")
        if isinstance(self.scope, list) and not self.scope:
            raise ValueError("scope: name at least one section, or use 'abstract' or 'all'")
        move_conditions(self.moves)
        return self

    def upper_bound_reviews(self) -> int:
        """Most review calls of one search: ``min(k*T*r + r, max_queries)``."""
        r = self.search_replicates
        return min(self.candidates * self.rounds * r + r, self.max_queries)


def move_conditions(moves: list[str]) -> list[str]:
    """The moves a search cycles through: each named condition, each direction of a named dimension,
    and :data:`PRESENTATION`; in the order given, without repeats.

    Raises:
        ValueError: a move that is neither ``presentation`` nor a registered condition or dimension
            with an LLM instruction text (the message names it).
    """
    out: list[str] = []
    for move in moves:
        if move == PRESENTATION:
            found = [PRESENTATION]
        elif ":" in move:
            try:
                found = _condition_move(move)
            except UnknownConditionError as exc:
                raise ValueError(f"moves: {move!r}: {exc}") from None
        else:
            try:
                dimension = dimensions.get(move)
            except UnknownComponentError:
                try:  # a condition named without a direction, such as 'guided'
                    found = _condition_move(move)
                except UnknownConditionError:
                    raise ValueError(f"moves: {move!r} is neither 'presentation' nor a registered condition or "
                                     f"dimension (known dimensions: {', '.join(dimensions.names())})") from None
            else:
                found = [f"{move}:{d}" for d in dimension.directions
                         if definition(parse_condition(f"{move}:{d}")).has_instruction]
                if not found:
                    raise ValueError(f"moves: dimension {move!r} has no instruction text for an LLM rewriter")
        out += [f for f in found if f not in out]
    return out


def _condition_move(move: str) -> list[str]:
    """``[move]`` for a registered condition with an LLM instruction text.

    Raises:
        UnknownConditionError: not a registered condition.
        ValueError: a composition or a condition without an instruction text (the message names it).
    """
    condition = parse_condition(move)
    if condition.composition or not definition(condition).has_instruction:
        raise ValueError(f"moves: {move!r} has no instruction text for an LLM rewriter")
    return [move]


def move_prompt(move: str, direction: str, weaknesses: str | None = None) -> str:
    """The system prompt of one candidate rewrite: the move's instruction (``presentation``: the
    integrity rules and this module's text for ``direction``; a condition: its
    :func:`~rhetorica.rewriting.conditions.system_prompt`), then the weaknesses when given.

    Raises:
        UnknownConditionError: a move that is not a registered condition with an instruction.
    """
    base = (integrity_prompt(INSTRUCTIONS_VERSION) + "\n\n" + _PRESENTATION[direction] if move == PRESENTATION
            else system_prompt(move))
    return base + "\n\n" + _WEAKNESSES[direction].format(weaknesses=weaknesses) if weaknesses else base


def texts_version(moves: list[str]) -> str:
    """``attack/v1:<hash>`` of every text a search with ``moves`` may send (both directions, with
    and without weaknesses): part of its units' keys, so an edited text is never mistaken for the old."""
    texts = [move_prompt(m, d, w) for m in move_conditions(moves) for d in "+-" for w in (None, WEAKNESS_STAND_IN)]
    return f"{SEARCH_TEXTS_VERSION}:{content_hash(texts, length=8)}"


def scope_sections(document: Document, scope: str | list[str]) -> list[int]:
    """Indices of the sections a search rewrites (see :class:`AttackOptions` ``scope``).

    Raises:
        ValueError: no section in scope (an empty document, or a named section it lacks; the
            message names what is missing and the sections it has).
    """
    filled = [i for i, s in enumerate(document.sections) if s.text.strip()]
    if scope == "all":
        chosen = filled
    elif scope == "abstract":
        named = [i for i in filled if document.sections[i].title.strip().lower() == "abstract"]
        chosen = named or filled[:1]
    else:
        wanted = {t.strip().lower() for t in scope}
        chosen = [i for i in filled if document.sections[i].title.strip().lower() in wanted]
        found = {document.sections[i].title.strip().lower() for i in chosen}
        if wanted - found:
            titles = ", ".join(repr(s.title) for s in document.sections if s.title) or "none"
            raise ValueError(f"document {document.id!r} has no non-empty section titled "
                             f"{', '.join(map(repr, sorted(wanted - found)))} (its sections: {titles})")
    if not chosen:
        raise ValueError(f"document {document.id!r} has no non-empty section to rewrite")
    return chosen
