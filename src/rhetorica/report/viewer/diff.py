"""Word-level differences between an original text and its rewrite (``difflib.SequenceMatcher``).

Two passes keep the cost bounded however long a text is. First the lines (each with the newlines
that end it) are aligned; only the stretches of lines that differ are then split into words and
the whitespace between them, and their word tokens aligned (``autojunk`` off in both passes, so
frequent words such as "the" still align). A changed stretch longer than :data:`WORD_DIFF_CAP`
words on either side is not word-diffed (the matcher's cost grows with the square of the words):
it is shown deleted and inserted whole, with a note saying so. Texts whose line counts would make
the line pass itself slow (:data:`LINE_PAIR_CAP`, many repeated lines) are one such stretch.

The result is a list of :class:`Segment` runs that the viewer and the report's appendix render
side by side: the original shows ``equal`` and ``delete`` runs, the rewrite ``equal`` and
``insert`` runs.
"""

from __future__ import annotations

import difflib
import json
import re
from collections import Counter
from dataclasses import dataclass
from typing import Literal

_TOKEN = re.compile(r"\s+|\S+")
_LINE = re.compile(r"[^\n]+\n*|\n+")

WORD_DIFF_CAP = 1000
"""Most words (per side) of a changed stretch that is word-diffed; a longer one is shown deleted
and inserted whole. At the cap, matching takes about 0.3 s for prose and up to about 2 s for text
of a 20-word vocabulary on one core (``benchmarks/bench_viewer.py``)."""

LINE_PAIR_CAP = 1_000_000
"""Most pairs of equal lines (sum over distinct lines of its count in the original times its count
in the rewrite: the work of one matching pass) for which lines are aligned; above it the texts are
one changed stretch."""

Op = Literal["equal", "delete", "insert"]


@dataclass(frozen=True)
class Segment:
    """One run of a diff: ``op``, its text (words with their whitespace, exactly as written) and a
    ``note`` on a run that was not word-diffed (why; empty otherwise)."""

    op: Op
    text: str
    note: str = ""


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

    @property
    def notes(self) -> list[str]:
        """The notes of the runs that were not word-diffed, once each, in order."""
        return list(dict.fromkeys(s.note for s in self.segments if s.note))


def word_diff(original: str, rewrite: str) -> list[Segment]:
    """The word-level runs turning ``original`` into ``rewrite``.

    A replaced stretch becomes a ``delete`` run followed by an ``insert`` run. Whitespace between
    two changed words stays inside the changed run; concatenating the ``equal`` + ``delete`` texts
    gives back ``original`` and the ``equal`` + ``insert`` texts give back ``rewrite``. A changed
    stretch of lines longer than :data:`WORD_DIFF_CAP` words on a side is one ``delete`` and one
    ``insert`` run carrying a ``note`` ("paragraph too long for a word diff: N words").
    """
    a, b = _LINE.findall(original), _LINE.findall(rewrite)
    out: list[Segment] = []
    if _line_pairs(a, b) > LINE_PAIR_CAP:
        _changed(out, original, rewrite)
        return out
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            _append(out, "equal", "".join(a[i1:i2]))
        else:
            _changed(out, "".join(a[i1:i2]), "".join(b[j1:j2]))
    return out


def _line_pairs(a: list[str], b: list[str]) -> int:
    counts = Counter(b)
    return sum(n * counts[line] for line, n in Counter(a).items())


def _changed(out: list[Segment], original: str, rewrite: str) -> None:
    """Append the runs of a changed stretch: word-diffed, or whole when over :data:`WORD_DIFF_CAP`."""
    words = max(len(original.split()), len(rewrite.split()))
    if original and rewrite and words > WORD_DIFF_CAP:
        note = (f"paragraph too long for a word diff: {words} words (over {WORD_DIFF_CAP}); "
                "shown deleted and inserted whole")
        out.append(Segment("delete", original, note))
        out.append(Segment("insert", rewrite, note))
        return
    a, b = _TOKEN.findall(original), _TOKEN.findall(rewrite)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            _append(out, "equal", "".join(a[i1:i2]))
            continue
        if tag in ("delete", "replace"):
            _append(out, "delete", "".join(a[i1:i2]))
        if tag in ("insert", "replace"):
            _append(out, "insert", "".join(b[j1:j2]))


def _append(out: list[Segment], op: Op, text: str) -> None:
    if not text:
        return
    if out and out[-1].op == op and not out[-1].note:
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
