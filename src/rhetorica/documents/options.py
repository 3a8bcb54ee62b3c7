"""Options and the error type shared by every document reader."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class DocumentReadError(Exception):
    """A document could not be read; the message names the path and the problem.

    Attributes:
        path: the input path that failed.
        problem: one sentence a user can act on.
    """

    def __init__(self, path: str | Path, problem: str) -> None:
        self.path = str(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")


class ReadOptions(BaseModel):
    """How a paper is read into a :class:`~rhetorica.documents.models.Document`.

    Attributes:
        cut_after_references: drop the bibliography and everything after it (appendices), and
            everything after ``\\appendix`` in LaTeX.
        blind: remove authors, affiliations, emails, acknowledgements, identity URLs and venue
            notes, with an audit in ``Document.removed``.
        parse_timeout_s: wall-clock limit (seconds, > 0) for reading one PDF (extraction and
            layout pass together); on expiry reading fails with "parsing timed out".
        parse_memory_mb: address-space limit (MiB, >= 256) of the process that reads a PDF; a
            PDF needing more fails with "ran out of memory".
        max_words: keep the leading text up to this many words, cut at a paragraph boundary
            (whole sections, then the leading paragraphs of the next one; never empty);
            ``None`` keeps everything.
        hidden_text: what to do with text a human reader of the source does not see (white,
            invisible, off-page, covered or microscopic PDF text; LaTeX text typeset so, or
            never typeset, judged from the compiled project): ``drop`` (default) removes it from the text a reviewer reads, ``keep``
            leaves it (to measure its effect, e.g. in a prompt-injection study). Either way each
            span is named in ``Document.warnings`` (see :mod:`rhetorica.documents.scan.hidden_text`).
            The default is ``drop`` because a review should judge the paper its human readers see;
            hidden text is an attack on the reviewer, not content.
    """

    model_config = ConfigDict(extra="forbid")

    cut_after_references: bool = True
    blind: bool = True
    parse_timeout_s: float = Field(default=120.0, gt=0)
    parse_memory_mb: int = Field(default=4096, ge=256)
    max_words: int | None = Field(default=None, ge=1)
    hidden_text: Literal["keep", "drop"] = "drop"
