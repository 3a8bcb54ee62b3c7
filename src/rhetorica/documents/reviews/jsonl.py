"""Reviews in JSON Lines: one paper per line with its list of reviews, or one review per line.

The two layouts public peer-review benchmarks ship (issue 13 part 1), told apart line by line:

- a **paper line** holds a ``reviews`` list: ``{"paper_id" (or "id"): ..., "title": ...,
  "reviews": [{<text fields>, "rating": ..., "confidence": ..., "reviewer": ...}, ...]}``;
- a **review line** is one review: ``{"paper_id" (or "paper", "forum"): ..., <text fields>,
  "rating": ..., "confidence": ...}``; without a paper id it belongs to the file's paper (the
  ``paper`` of the study's document entry, else the folder's name).

Text fields are those of OpenReview's review forms
(:data:`rhetorica.documents.reviews.openreview_json.TEXT_FIELDS`: ``summary``, ``strengths``,
``weaknesses``, ``questions``, ``review`` ...), read from the review itself or from its
``content`` object, plain or wrapped as ``{"value": ...}``. ``rating`` and ``confidence`` are read
by :func:`rhetorica.documents.ratings.parse_rating` (``"10: top 5%"`` is 10); a JSONL file does
not declare its venue's scale, so no range is imposed. A reviewer id (``reviewer``,
``reviewer_id``, ``signature``) is blinded in every review of the same paper.

A bad line (not JSON, not an object, no paper id on a paper line, a ``reviews`` that is not a
list) or a bad review (no text; an unreadable score, which is left missing) is one problem naming
the line (and the review's place on it); every other line is read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rhetorica.documents.models import Document
from rhetorica.documents.options import DocumentReadError
from rhetorica.documents.ratings import RatingError, parse_rating
from rhetorica.documents.reviews.model import blind_reviewer_ids, read_review_text, review_document
from rhetorica.documents.reviews.openreview_json import TEXT_FIELDS, value

PAPER_KEYS = ("paper_id", "id")
"""Keys of a paper line's paper id, in order of preference."""
REVIEW_PAPER_KEYS = ("paper_id", "paper", "forum")
"""Keys of a review line's paper id, in order of preference."""
REVIEWER_KEYS = ("reviewer", "reviewer_id", "signature")
SCORE_KEYS = ("rating", "confidence")


def _first(obj: dict[str, Any], keys: tuple[str, ...]) -> str | None:
    for key in keys:
        found = value(obj, key)
        if found is not None and str(found).strip():
            return str(found).strip()
    return None


def _review(raw: Any, paper_id: str, where: str, path: Path, problems: list[str]
            ) -> tuple[str, Document] | None:
    """``(reviewer id, review document)`` of one review object (index fixed later), or ``None``
    after recording why it cannot be used."""
    if not isinstance(raw, dict):
        problems.append(f"{where}: a review must be a JSON object, got {type(raw).__name__}")
        return None
    content = raw.get("content") if isinstance(raw.get("content"), dict) else raw
    fields = {k: str(value(content, k)) for k in TEXT_FIELDS if value(content, k) and str(value(content, k)).strip()}
    if not fields:
        problems.append(f"{where}: no review text (expected one of: {', '.join(TEXT_FIELDS)})")
        return None
    scores: dict[str, float] = {}
    for key in SCORE_KEYS:
        try:
            score = parse_rating(value(content, key))
        except RatingError as exc:
            problems.append(f"{where}: {key}: {exc} (left missing)")
            continue
        if score is not None:
            scores[key] = score
    doc = review_document(paper_id, 1, fields, rating=scores.get("rating"), confidence=scores.get("confidence"),
                          scores=dict(scores), source=f"{path}#{where}", parser="reviews-jsonl",
                          parser_version="1")
    return _first(raw, REVIEWER_KEYS) or "", doc


def read_reviews_jsonl(path: Path, paper_id: str) -> tuple[list[Document], list[str]]:
    """Review documents of a JSONL file in either layout (module docstring), grouped by paper in
    order of first appearance (file order within a paper), with
    ``metadata.paper_id`` from each line (``paper_id`` for review lines without one), and the
    problems met (one per bad line or review, each naming ``<file> line <n>``).

    Ids and titles are provisional (:func:`rhetorica.documents.reviews.read_reviews` numbers the
    reviews of each paper 1..n).

    Raises:
        DocumentReadError: the file cannot be read, or holds no usable review at all.
    """
    text = read_review_text(path)
    problems: list[str] = []
    found: list[tuple[str, Document]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path.name} line {number}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append(f"{where}: not JSON ({exc.msg} at column {exc.colno})")
            continue
        if not isinstance(obj, dict):
            problems.append(f"{where}: expected a JSON object, got {type(obj).__name__}")
            continue
        if "reviews" in obj:
            paper = _first(obj, PAPER_KEYS)
            if paper is None:
                problems.append(f"{where}: a paper line needs a paper id ({' or '.join(PAPER_KEYS)})")
                continue
            if not isinstance(obj["reviews"], list):
                problems.append(f"{where}: 'reviews' must be a list, got {type(obj['reviews']).__name__}")
                continue
            title = _first(obj, ("title",))
            for k, raw in enumerate(obj["reviews"], start=1):
                got = _review(raw, paper, f"{where} review {k}", path, problems)
                if got is not None:
                    reviewer, doc = got
                    if title:
                        doc = doc.model_copy(update={"metadata": {**doc.metadata, "paper_title": title}})
                    found.append((reviewer, doc))
        else:
            got = _review(obj, _first(obj, REVIEW_PAPER_KEYS) or paper_id, where, path, problems)
            if got is not None:
                found.append(got)
    if not found:
        raise DocumentReadError(path, "no usable review in this JSONL file" + (f" ({problems[0]}; ...)"
                                                                             if problems else ""))
    blinded: list[Document] = []
    for paper in dict.fromkeys(d.metadata["paper_id"] for _, d in found):
        mine = [(r, d) for r, d in found if d.metadata["paper_id"] == paper]
        blinded += blind_reviewer_ids([d for _, d in mine], [r for r, _ in mine])
    return blinded, problems
