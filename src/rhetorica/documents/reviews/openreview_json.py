"""OpenReview review notes (API v2 JSON, values wrapped as ``{"value": ...}``; API v1 plain values).

Accepts a JSON list of notes, ``{"notes": [...]}``, or a forum note with ``details.replies`` /
``details.directReplies``. A note is a review when one of its invitations ends in
``/-/Official_Review``; ``rating`` and ``confidence`` strings such as ``"6: marginally above the
acceptance threshold"`` are read by :func:`rhetorica.documents.ratings.parse_rating`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rhetorica.documents.options import DocumentReadError
from rhetorica.documents.reviews.model import blind_reviewer_ids, review_document, review_sections, source_id
from rhetorica.documents.ratings import RatingError, parse_rating

#: Scales checked on reading (inclusive): ICLR/NeurIPS overall rating 1-10 and confidence 1-5.
SCORE_SCALES: dict[str, tuple[float, float]] = {"rating": (1.0, 10.0), "confidence": (1.0, 5.0)}
SCORE_FIELDS = ("rating", "confidence", "soundness", "presentation", "contribution", "correctness",
                "technical_novelty_and_significance", "empirical_novelty_and_significance")


@dataclass
class ParsedReview:
    """A review note's text fields, its scores and the problems met reading them."""

    note_id: str | None
    signature: str
    fields: dict[str, str]
    scores: dict[str, float]
    problems: list[str]


def value(content: dict[str, Any], name: str) -> Any:
    """A content field, unwrapped from API v2's ``{"value": ...}``."""
    raw = content.get(name)
    return raw.get("value") if isinstance(raw, dict) else raw


def invitations(note: dict[str, Any]) -> list[str]:
    """Every invitation of a note (``invitations`` in API v2, ``invitation`` in API v1)."""
    found = note.get("invitations") or ([note["invitation"]] if note.get("invitation") else [])
    return [str(i) for i in found]


def is_kind(note: dict[str, Any], kind: str) -> bool:
    """True when one of the note's invitations ends in ``/-/<kind>`` (``Official_Review``, ``Decision``)."""
    return any(inv.endswith(f"/-/{kind}") for inv in invitations(note))


def parse_review(note: dict[str, Any],
                 scales: dict[str, tuple[float, float]] = SCORE_SCALES) -> ParsedReview:
    """Text fields and scores of a review note; an unreadable score, or one outside its scale in
    ``scales`` (field -> inclusive (low, high); default :data:`SCORE_SCALES`), is a problem and
    left out of ``scores``, never clipped."""
    content = note.get("content") or {}
    fields = review_sections(content)
    scores: dict[str, float] = {}
    problems: list[str] = []
    for name in SCORE_FIELDS:
        low, high = scales.get(name, (None, None))
        try:
            score = parse_rating(value(content, name), scale_max=high)
        except RatingError as exc:
            problems.append(f"review {note.get('id')}: {name}: {exc}")
            continue
        if score is not None and low is not None and high is not None and not low <= score <= high:
            problems.append(f"review {note.get('id')}: {name}: {score:g} is outside the scale "
                            f"{low:g}-{high:g} (left missing)")
            continue
        if score is not None:
            scores[name] = score
    signatures = note.get("signatures") or [""]
    signer = str(signatures[0]).rsplit("/", 1)[-1].removeprefix("Reviewer_")
    return ParsedReview(source_id(note.get("id")), signer, fields, scores, problems)


def read_openreview_json(path: Path, paper_id: str) -> tuple[list[Any], list[str]]:
    """Review documents of ``paper_id`` from an OpenReview JSON export, and the problems met.

    Raises:
        DocumentReadError: not JSON, or no review note in it.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeError, json.JSONDecodeError) as exc:
        raise DocumentReadError(path, f"not readable OpenReview JSON ({exc})") from exc
    notes = data.get("notes", [data]) if isinstance(data, dict) else data
    flat: list[dict[str, Any]] = []
    for note in notes if isinstance(notes, list) else []:
        if isinstance(note, dict):
            details = note.get("details") or {}
            flat += [note, *(details.get("replies") or details.get("directReplies") or [])]
    parsed = [parse_review(n) for n in flat if is_kind(n, "Official_Review")]
    if not parsed:
        raise DocumentReadError(path, "no review note (no invitation ending in /-/Official_Review)")
    reviews = [review_document(paper_id, i, r.fields, rating=r.scores.get("rating"),
                               confidence=r.scores.get("confidence"), scores=dict(r.scores),
                               source=f"{path}#{r.note_id}", parser="openreview-json", parser_version="2",
                               review_id=source_id(r.note_id))
               for i, r in enumerate(parsed, start=1)]
    return blind_reviewer_ids(reviews, [r.signature for r in parsed]), [p for r in parsed for p in r.problems]
