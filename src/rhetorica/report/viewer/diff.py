"""Word-level differences between an original text and its rewrite (``difflib.SequenceMatcher``).

A text is split into words and the whitespace between them; the matcher aligns the word tokens
(``autojunk`` off, so frequent words such as "the" still align in long sections). The result is a
list of :class:`Segment` runs that the viewer and the report's appendix render side by side: the
original shows ``equal`` and ``delete`` runs, the rewrite ``equal`` and ``insert`` runs.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from typing import Literal

_TOKEN = re.compile(r"\s+|\S+")

Op = Literal["equal", "delete", "insert"]


@dataclass(frozen=True)
class Segment:
    """One run of a diff: ``op`` and its text (words with their whitespace, exactly as written)."""

    op: Op
    text: str


@dataclass(frozen=True)
class SectionDiff:
    """The diff of one section pair: its heading (the original's, or the rewrite's when the
    original has fewer sections), the runs, and how many words were deleted and inserted."""

    title: str
    segments: list[Segment]
    deleted_words: int
    inserted_words: int

    @property
    def changed(self) -> bool:
        return bool(self.deleted_words or self.inserted_words)


def word_diff(original: str, rewrite: str) -> list[Segment]:
    """The word-level runs turning ``original`` into ``rewrite``.

    A replaced stretch becomes a ``delete`` run followed by an ``insert`` run. Whitespace between
    two changed words stays inside the changed run; concatenating the ``equal`` + ``delete`` texts
    gives back ``original`` and the ``equal`` + ``insert`` texts give back ``rewrite``.
    """
    a, b = _TOKEN.findall(original), _TOKEN.findall(rewrite)
    out: list[Segment] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            _append(out, "equal", "".join(a[i1:i2]))
            continue
        if tag in ("delete", "replace"):
            _append(out, "delete", "".join(a[i1:i2]))
        if tag in ("insert", "replace"):
            _append(out, "insert", "".join(b[j1:j2]))
    return out


def _append(out: list[Segment], op: Op, text: str) -> None:
    if not text:
        return
    if out and out[-1].op == op:
        out[-1] = Segment(op, out[-1].text + text)
    else:
        out.append(Segment(op, text))


def _words(segments: list[Segment], op: Op) -> int:
    return sum(len(s.text.split()) for s in segments if s.op == op)


def document_sections(document_json: str | None) -> list[tuple[str, str]]:
    """``(title, text)`` of each section of a stored document (``documents.document_json`` or
    ``variants.document_json``); empty for a missing document (a failed rewrite).

    Raises:
        ValueError: the JSON is not a stored document (no ``sections`` list).
    """
    if not document_json:
        return []
    document = json.loads(document_json)
    sections = document.get("sections") if isinstance(document, dict) else None
    if not isinstance(sections, list):
        raise ValueError("stored document JSON has no sections list")
    return [(str(s.get("title", "")), str(s.get("text", ""))) for s in sections]


def document_diff(original_json: str | None, rewrite_json: str | None) -> list[SectionDiff]:
    """Section-by-section word diff of two stored documents (sections paired by position; a
    section only one side has is diffed against empty text)."""
    left, right = document_sections(original_json), document_sections(rewrite_json)
    out = []
    for i in range(max(len(left), len(right))):
        title_a, text_a = left[i] if i < len(left) else ("", "")
        title_b, text_b = right[i] if i < len(right) else ("", "")
        segments = word_diff(text_a, text_b)
        out.append(SectionDiff(title_a or title_b, segments, _words(segments, "delete"), _words(segments, "insert")))
    return out
