"""Rewrite conditions for reviews (issue 13 part 2): ``paraphrase`` (same content, different
wording and organisation) and ``polish`` (more fluent, better organised, more explicit), the two
directions of the review-metric study (STUDIES.md §3).

This module only declares them; :mod:`rhetorica.rewriting.conditions` registers them with the
paper conditions. Instruction texts are package data under ``instructions/<version>/``; the prompt
version stored with a variant is ``<version>:<hash of the text>`` so an edited text is never
mistaken for the old one. Variants are checked by
:func:`rhetorica.validation.review_checks.check_review_variant` with the condition's length bounds.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

from rhetorica.hashing import content_hash
from rhetorica.validation.review_checks import LENGTH_BOUNDS

INSTRUCTIONS_VERSION = "v1"


@dataclass(frozen=True)
class ReviewCondition:
    """One review rewrite condition.

    Attributes:
        name: ``paraphrase`` or ``polish``.
        description: one line for reports.
        instruction_file: file name under ``instructions/<version>/``.
        length_bounds: allowed (low, high) ratio of rewrite to original words.
    """

    name: str
    description: str
    instruction_file: str
    length_bounds: tuple[float, float]

    def instructions(self) -> str:
        """The instruction text (the comment header removed)."""
        text = resources.files("rhetorica.judges").joinpath(
            "instructions", INSTRUCTIONS_VERSION, self.instruction_file).read_text(encoding="utf-8")
        if text.startswith("<!--"):
            text = text[text.index("-->") + 3:]
        return text.strip()

    @property
    def prompt_version(self) -> str:
        """``<version>:<12 hex digits of the text's hash>``."""
        return f"{INSTRUCTIONS_VERSION}:{content_hash(self.instructions())[:12]}"


REVIEW_CONDITIONS: dict[str, ReviewCondition] = {c.name: c for c in (
    ReviewCondition("paraphrase", "same judgments, arguments, points and recommendation; different wording and "
                    "organisation", "review_paraphrase.md", LENGTH_BOUNDS["paraphrase"]),
    ReviewCondition("polish", "more fluent, better organised and more explicit; same content",
                    "review_polish.md", LENGTH_BOUNDS["polish"]),
)}
