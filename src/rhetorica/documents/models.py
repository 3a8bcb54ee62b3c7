"""Document and Section: the unit every stage reads and writes.

A Document is a manuscript (a paper) or a review, with a stable id, ordered sections, a content hash,
the typed facts the code reads (paper id, venue, human scores, decision), further metadata and its
source (file, parser name + version).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, PrivateAttr, field_validator, model_validator

from rhetorica.hashing import content_hash

DocumentKind = Literal["manuscript", "review"]

TYPED_METADATA = ("paper_id", "venue", "human_scores", "decision")
"""Keys that were once :attr:`Document.metadata` entries and are now typed fields: a document
given them inside ``metadata`` (stores, exports and ``reviews.json`` files written before, readers
that build ``metadata``) gets them as fields, an explicit field winning."""


def lift_typed_metadata(data: Any) -> Any:
    """A document's JSON object with the :data:`TYPED_METADATA` keys moved out of ``metadata`` to
    the top level (an explicit top-level value wins): how a document written before they were
    fields is read, also by readers of stored JSON that do not build a :class:`Document`
    (``data`` that is not such an object is returned as it is)."""
    if not isinstance(data, dict) or not isinstance(data.get("metadata"), dict):
        return data
    meta = data["metadata"]
    if not any(key in meta for key in TYPED_METADATA):
        return data
    data = {**data, "metadata": {k: v for k, v in meta.items() if k not in TYPED_METADATA}}
    for key in TYPED_METADATA:
        if key in meta and data.get(key) is None:
            data[key] = meta[key]
    return data


class Memo(tuple):  # type: ignore[type-arg]
    """A value a model remembers in a private attribute (a hash, a blinding): equal to any other
    memo and to ``None``, so that remembering something never changes whether two models are equal
    (pydantic compares private attributes)."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return other is None or isinstance(other, Memo)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = None  # type: ignore[assignment]


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
        paper_id: the source's id of the paper a review belongs to (verbatim; ``None`` for a
            manuscript and a review without one).
        venue: the venue a reader found (``"ICLR 2025"``); ``None`` when none was found.
        human_scores: human ratings of the paper (a review: its own rating), in the source's scale
            (ICLR 1-10); empty when unknown.
        decision: the paper's decision as the source states it (``"Accept (poster)"``); ``None``
            when unknown.
        metadata: anything else a reader or rewriter found (``confidence``, ``scores``,
            ``review_id``, ...); never the keys of :data:`TYPED_METADATA`.
        source: provenance.
        removed: blinding audit.
        warnings: non-fatal problems met while reading (e.g. a missing ``\\input`` file).
    """

    id: str
    kind: DocumentKind = "manuscript"
    title: str = ""
    sections: list[Section]
    paper_id: str | None = None
    venue: str | None = None
    human_scores: list[float] = Field(default_factory=list)
    decision: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    source: DocumentSource
    removed: list[RemovedItem] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)

    _hash_memo: tuple[list[Any], str] | None = PrivateAttr(default=None)
    #: the last blinding and the last reviewer input made of this document, each with the key of
    #: what it depends on (kept by :mod:`rhetorica.documents.inputs`: every replicate of a review
    #: reads the same document, and blinding it once per unit was most of a mock unit's CPU)
    _blind_memo: tuple[Any, list[Any], list[Any]] | None = PrivateAttr(default=None)
    _input_memo: tuple[Any, list[Any], Any, int] | None = PrivateAttr(default=None)

    @model_validator(mode="before")
    @classmethod
    def _typed_metadata(cls, data: Any) -> Any:
        return lift_typed_metadata(data)

    @field_validator("paper_id", mode="before")
    @classmethod
    def _id_text(cls, value: Any) -> Any:
        """A numeric paper id (a JSONL source's ``"paper_id": 17``) is kept as its text."""
        return str(value) if isinstance(value, int) and not isinstance(value, bool) else value

    @field_validator("human_scores", mode="before")
    @classmethod
    def _no_scores(cls, value: Any) -> Any:
        return [] if value is None else value

    @property
    def content_hash(self) -> str:
        """Hash of what a reviewer sees: kind, title and the ordered (title, level, text) sections.

        Remembered with the values it was computed from (strings are immutable, and a list
        comparison takes the same object as equal without reading it): a document whose kind,
        title or sections were changed or replaced is hashed again.
        """
        parts = [self.kind, self.title, *((s.title, s.level, s.text) for s in self.sections)]
        memo = self._hash_memo
        if memo is not None and memo[0] == parts:
            return memo[1]
        digest = content_hash(self.kind, self.title, [list(p) for p in parts[2:]])
        self._hash_memo = Memo((parts, digest))
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
