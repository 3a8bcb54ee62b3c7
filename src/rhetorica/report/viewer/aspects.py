"""Aspect mentions highlighted in a review's shown text (the annotate stage's verified phrases,
:mod:`rhetorica.study.annotation`; the 16 aspects of Lu, Kuznetsov & Gurevych, Findings of EMNLP
2025, :func:`rhetorica.reviewers.aspects.load_taxonomy`).

The highlighting never builds markup from the review or the annotation: a text is split into
plain-text :class:`Piece` objects, each carrying the mentions that cover it, and the template
writes each piece as escaped text, inside ``<mark>`` when it is covered (the aspect names and
phrases reach the ``data-aspect`` and ``title`` attributes escaped too).

How a phrase is placed, deterministically:

- **Located by words.** A stored phrase is whitespace-normalised (the annotator's phrase was
  verified against the review after :func:`~rhetorica.reviewers.aspects.normalise_whitespace`),
  so it is looked for as its words with any run of whitespace between them; case and punctuation
  must match, as in the verification.
- **Every occurrence.** The annotator names a phrase, not a position, so each non-overlapping
  occurrence (left to right) of a phrase in a shown text is highlighted with its mention.
- **Repeated mentions.** Mentions with the same aspect, polarity and phrase are one mark (the
  legend counts each mention).
- **Overlaps.** The text is cut at every start and end of every located span; a piece covered by
  several mentions lists all of them (in the annotation's stored order) in one mark, with both
  polarities shown as ``mixed`` when they differ. Nothing is nested and no span is dropped.
- **Not located.** The annotator read the review with field headings and list items joined
  (:func:`~rhetorica.reviewers.aspects.review_text`), so a verified phrase can run across two
  shown texts (a heading and its text, two list items); such a mention is listed under the
  review, not highlighted.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from rhetorica.reviewers.aspects import load_taxonomy


@dataclass(frozen=True)
class Mention:
    """One verified mention as stored: ``aspect`` (a taxonomy name), ``polarity`` (positive |
    negative), ``phrase`` (whitespace-normalised span of the review)."""

    aspect: str
    polarity: str
    phrase: str


@dataclass(frozen=True)
class Piece:
    """A stretch of a shown text and the mentions covering it (none: plain text)."""

    text: str
    mentions: tuple[Mention, ...] = ()

    @property
    def aspects(self) -> str:
        """The covering aspects, space separated, in stored order (the ``data-aspect`` value)."""
        return " ".join(dict.fromkeys(m.aspect for m in self.mentions))

    @property
    def polarity(self) -> str:
        """``positive``, ``negative``, or ``mixed`` when the covering mentions disagree."""
        found = {m.polarity for m in self.mentions}
        return found.pop() if len(found) == 1 else "mixed"

    @property
    def title(self) -> str:
        """Tooltip: ``label (polarity)`` of each covering mention, ``; `` separated."""
        labels = aspect_labels()
        return "; ".join(f"{labels.get(m.aspect, m.aspect)} ({m.polarity})" for m in self.mentions)


def aspect_labels() -> dict[str, str]:
    """Aspect name -> the source's label (``presentation`` -> ``Presentation``), from the shipped taxonomy."""
    return {a.name: a.label for a in load_taxonomy().aspects}


def _pattern(phrase: str) -> re.Pattern[str] | None:
    words = phrase.split()
    return re.compile(r"\s+".join(re.escape(w) for w in words)) if words else None


def spans(text: str, mention: Mention) -> list[tuple[int, int]]:
    """``(start, end)`` character offsets of each non-overlapping occurrence of the mention's
    phrase in ``text`` (words matched exactly, any whitespace between them), left to right."""
    pattern = _pattern(mention.phrase)
    return [m.span() for m in pattern.finditer(text)] if pattern else []


def highlight(text: str, mentions: list[Mention]) -> tuple[list[Piece], set[Mention]]:
    """Split ``text`` into pieces by the mentions covering them (see the module docstring).

    Args:
        text: one shown text of a review (a field, or one item of a list field), as stored.
        mentions: the annotation's verified mentions, in stored order (duplicates allowed).

    Returns:
        The pieces, whose texts join to ``text`` exactly, and the distinct mentions located in it.
    """
    distinct = list(dict.fromkeys(mentions))
    located: dict[Mention, list[tuple[int, int]]] = {}
    for mention in distinct:
        found = spans(text, mention)
        if found:
            located[mention] = found
    cuts = sorted({0, len(text), *(x for found in located.values() for span in found for x in span)})
    pieces: list[Piece] = []
    for start, end in zip(cuts, cuts[1:]):
        covering = tuple(m for m in distinct if any(a <= start and end <= b for a, b in located.get(m, ())))
        if pieces and pieces[-1].mentions == covering:
            pieces[-1] = Piece(pieces[-1].text + text[start:end], covering)
        else:
            pieces.append(Piece(text[start:end], covering))
    return pieces or [Piece(text)], set(located)


def highlighted_fields(fields: list[tuple[str, list[str]]], annotations: list[dict[str, Any]]) -> dict[str, Any]:
    """A review's shown fields with the mentions of its annotations highlighted.

    Args:
        fields: ``(field, texts)`` as the paper page shows them.
        annotations: :func:`rhetorica.store.viewer_queries.annotations_of` rows of the review.

    Returns:
        ``fields``: ``(field, [pieces per text])``; ``legend``: one row per aspect found —
        ``aspect``, ``label``, ``positive`` and ``negative`` (mention counts, repeats included),
        ``shown`` (whether a phrase of it is highlighted) — sorted by label; ``unlocated``: the
        distinct mentions highlighted nowhere, in stored order; ``annotations``: the annotation
        rows without their mentions (annotator, status, counts of dropped mentions).
    """
    mentions = [Mention(str(m["aspect"]), str(m["polarity"]), str(m["phrase"]))
                for a in annotations for m in a["mentions"]]
    located: set[Mention] = set()
    shown = []
    for name, texts in fields:
        pieces = []
        for text in texts:
            split, found = highlight(text, mentions)
            pieces.append(split)
            located |= found
        shown.append((name, pieces))
    labels = aspect_labels()
    counts = Counter((m.aspect, m.polarity) for m in mentions)
    legend = [{"aspect": aspect, "label": labels.get(aspect, aspect), "positive": counts[(aspect, "positive")],
               "negative": counts[(aspect, "negative")], "shown": any(m.aspect == aspect for m in located)}
              for aspect in dict.fromkeys(m.aspect for m in mentions)]
    return {"fields": shown, "legend": sorted(legend, key=lambda r: (r["label"], r["aspect"])),
            "unlocated": [m for m in dict.fromkeys(mentions) if m not in located],
            "annotations": [{k: v for k, v in a.items() if k != "mentions"} for a in annotations]}
