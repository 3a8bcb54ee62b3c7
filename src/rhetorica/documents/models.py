"""Document and Section: the unit every stage reads and writes.

A Document is a manuscript (a paper) or a review, with a stable id, ordered sections, a content hash,
metadata (venue, human scores, decision) and its source (file, parser name + version).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, PrivateAttr

from rhetorica.hashing import content_hash

DocumentKind = Literal["manuscript", "review"]


class Section(BaseModel):
    """One ordered section of a document.

    Attributes:
        title: heading text as written (``""`` for untitled leading text).
        text: body in Markdown; math kept as LaTeX, captions kept as text.
        level: 1 for a top-level section, 2 for a subsection, and so on.
    """

    title: str
    text: str
    level: int = Field(default=1, ge=1, le=6)

    @property
    def word_count(self) -> int:
        return len(self.text.split())


class RemovedItem(BaseModel):
    """One blinding removal, for the audit a user can check: item kind, where, exact text, and the
    rule that removed it when the kind alone does not say (``"github.com account of an author"``)."""

    item: str
    location: str
    text: str
    reason: str | None = None


class DocumentSource(BaseModel):
    """Where a document came from: path, parser name and version, hash of the extracted text."""

    path: str
    parser: str
    parser_version: str
    text_hash: str | None = None


class Document(BaseModel):
    """A manuscript or review with ordered sections.

    Attributes:
        id: stable identifier, unique within a study (e.g. the paper folder name).
        kind: ``"manuscript"`` or ``"review"``.
        title: document title (kept; it identifies the work, not its authors).
        sections: ordered sections; an original and its variants have the same section count.
        metadata: venue, ``human_scores`` (list of floats), ``decision`` and anything a reader found.
        source: provenance.
        removed: blinding audit.
        warnings: non-fatal problems met while reading (e.g. a missing ``\\input`` file).
    """

    id: str
    kind: DocumentKind = "manuscript"
    title: str = ""
    sections: list[Section]
    metadata: dict[str, Any] = Field(default_factory=dict)
    source: DocumentSource
    removed: list[RemovedItem] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)

    _hash_memo: tuple[list[Any], str] | None = PrivateAttr(default=None)

    @property
    def content_hash(self) -> str:
        """Hash of what a reviewer sees: kind, title and the ordered (title, level, text) sections.

        Remembered with the very objects it was computed from (strings are immutable): a document
        whose kind, title or sections were changed or replaced is hashed again.
        """
        parts = [self.kind, self.title, *((s.title, s.level, s.text) for s in self.sections)]
        memo = self._hash_memo
        if memo is not None and len(memo[0]) == len(parts) and all(
                a is b or (type(a) is tuple and all(x is y for x, y in zip(a, b)))  # noqa: E721
                for a, b in zip(memo[0], parts)):
            return memo[1]
        digest = content_hash(self.kind, self.title, [list(p) for p in parts[2:]])
        self._hash_memo = (parts, digest)
        return digest

    @property
    def word_count(self) -> int:
        return sum(s.word_count for s in self.sections)

    def to_markdown(self) -> str:
        """Render as Markdown: ``# title`` then one ``#``-prefixed heading per section by level."""
        parts: list[str] = []
        if self.title:
            parts.append(f"# {self.title}")
        for section in self.sections:
            if section.title:
                parts.append(f"{'#' * (section.level + 1)} {section.title}")
            if section.text.strip():
                parts.append(section.text.strip())
        return "\n\n".join(parts) + "\n"
