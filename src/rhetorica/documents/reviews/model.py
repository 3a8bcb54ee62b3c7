"""A review as a document (``Document(kind="review")``), and review lists stored as JSON.

Each review becomes one document with one section per text field (summary, strengths, weaknesses,
questions, ...), ``paper_id`` linking it to its paper and the reviewer's own scores as the
human reference (``human_scores`` = [overall rating], ``confidence``). Reviewer identities are never
stored: reviews are numbered per paper ("Review 1", ...), as a double-blind venue shows them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rhetorica.documents import ids as id_rule
from rhetorica.documents.models import Document, DocumentSource, RemovedItem, Section
from rhetorica.documents.options import DocumentReadError
from rhetorica.files import write_atomic
import re

REVIEWS_FILE = "reviews.json"

#: Review sections of the forms public review data comes in (OpenReview ICLR/NeurIPS 2019-2026,
#: PeerRead, PeerPrism; NeurIPS 2021's ``limitations_and_societal_impact``), by :func:`section_key`,
#: in display order. Spellings are folded by
#: :func:`section_key`: ``clarity,_quality,_novelty_and_reproducibility`` (OpenReview's key),
#: ``clarity_quality_novelty_and_reproducibility`` and ``Clarity Quality Novelty And
#: Reproducibility`` are one section.
SECTION_NAMES = ("summary", "summary_of_the_paper", "paper_summary", "summary_and_contributions", "main_review",
                 "review", "comments", "strengths", "strength_and_weaknesses", "strengths_and_weaknesses",
                 "weaknesses", "questions", "questions_for_authors", "limitations", "limitations_and_societal_impact",
                 "clarity_quality_novelty_and_reproducibility", "correctness_comments", "summary_of_the_review",
                 "additional_feedback")


def section_key(name: str) -> str:
    """A field name folded for matching: lower case, every run of other characters than letters
    and digits as one ``_`` (``"Strength And Weaknesses"`` -> ``strength_and_weaknesses``)."""

    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


_SECTION_ORDER = {name: i for i, name in enumerate(SECTION_NAMES)}


def review_sections(content: dict[str, Any]) -> dict[str, str]:
    """The review sections of a review object: each field whose :func:`section_key` is one of
    :data:`SECTION_NAMES` and whose value (plain, or API v2's ``{"value": ...}``) is non-blank
    text, keyed by its folded name, in :data:`SECTION_NAMES` order."""
    found: dict[str, str] = {}
    for key, raw in content.items():
        text = raw.get("value") if isinstance(raw, dict) else raw
        folded = section_key(str(key))
        if folded in _SECTION_ORDER and isinstance(text, str) and text.strip() and folded not in found:
            found[folded] = text
    return dict(sorted(found.items(), key=lambda kv: _SECTION_ORDER[kv[0]]))


def read_review_text(path: Path) -> str:
    """The text of a UTF-8 review file.

    Raises:
        DocumentReadError: the file cannot be read or is not UTF-8 (``"cannot read (<reason>)"``).
    """
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeError) as exc:
        raise DocumentReadError(path, f"cannot read ({exc})") from exc


def source_id(raw: Any) -> str | None:
    """A source's paper or review id kept verbatim: a string as written, any other JSON scalar as
    its JSON text (``0`` -> ``"0"``, ``12.5`` -> ``"12.5"``); ``None`` for a missing or blank id,
    a boolean, or a list or object (an id is never invented from those)."""
    if isinstance(raw, bool) or raw is None:
        return None
    if isinstance(raw, str):
        return raw if raw.strip() else None
    if isinstance(raw, (int, float)):
        return json.dumps(raw)
    return None


def review_document(paper_id: str, index: int, fields: dict[str, str], *, rating: float | None,
                    confidence: float | None, source: str, parser: str, parser_version: str,
                    scores: dict[str, float | str] | None = None, removed: list[RemovedItem] | None = None,
                    extra: dict[str, Any] | None = None, review_id: str | None = None) -> Document:
    """One review as a document.

    Its id is the source's ``review_id``, verbatim, when the source has one; otherwise the
    generated ``<paper>.review<index>`` (``metadata.id_generated`` says which).

    Args:
        paper_id: id of the reviewed paper (the source's, verbatim).
        index: 1-based number of the review within its paper.
        review_id: the source's id of the review (:func:`source_id`), ``None`` when it has none.
        fields: field name -> text, in display order (empty fields are skipped).
        rating / confidence: the reviewer's scores on the venue's scale (``None`` when missing).
        scores: every score the form has (criterion -> number, or the category as written).
        removed: blinding audit (reviewer identities replaced).
        source: where the review came from (e.g. ``openreview:<note id>``).
        parser / parser_version: the reader that produced it.
        extra: further metadata (kept as is).
    """
    sections = [Section(title=name.replace("_", " ").capitalize(), text=text.strip())
                for name, text in fields.items() if text and text.strip()]
    metadata: dict[str, Any] = {"paper_id": paper_id, "human_scores": [rating] if rating is not None else [],
                                "confidence": confidence, "scores": scores or {}, **(extra or {}),
                                "review_id": review_id, "id_generated": review_id is None}
    return Document(id=id_rule.review_id(paper_id, index, review_id), kind="review",
                    title=f"Review {index}",
                    sections=sections or [Section(title="", text="")], metadata=metadata, removed=removed or [],
                    source=DocumentSource(path=source, parser=parser, parser_version=parser_version))


def save_reviews(path: Path, reviews: list[Document]) -> None:
    """Write review documents as one JSON list, atomically."""
    write_atomic(path, json.dumps([r.model_dump(mode="json") for r in reviews], indent=1).encode())


def load_reviews(path: Path) -> list[Document]:
    """Read a ``reviews.json`` written by :func:`save_reviews`."""
    return [Document.model_validate(item) for item in json.loads(path.read_text())]


def blind_reviewer_ids(reviews: list[Document], ids: list[str]) -> list[Document]:
    """Replace each reviewer identity ``ids[k]`` (a name or masked id such as ``9mff``) in every
    review text by ``Reviewer k+1``; each replacement is recorded in the review's ``removed``."""

    patterns = [(re.compile(rf"(?:\bReviewer[ _])?\b{re.escape(rid)}\b"), f"Reviewer {k + 1}")
                for k, rid in enumerate(ids) if rid]
    blinded = []
    for doc in reviews:
        removed = list(doc.removed)
        sections = []
        for section in doc.sections:
            text = section.text
            for pattern, label in patterns:
                for match in pattern.finditer(text):
                    removed.append(RemovedItem(item="reviewer id", location=section.title or "text", text=match.group(0)))
                text = pattern.sub(label, text)
            sections.append(section.model_copy(update={"text": text}))
        blinded.append(doc.model_copy(update={"sections": sections, "removed": removed}))
    return blinded


def is_review(document: Document) -> bool:
    """True for a review document (the review stages apply)."""
    return document.kind == "review"


def reference_review(document: Document, documents: list[Document]) -> Document | None:
    """The reference review of a reference-anchored family (ScholarPeer) for ``document``: the next
    review of the same paper in study order, cyclically (review 1 -> 2, ..., last -> 1), so an
    original and its rewrites are compared with the same human review (our documented choice).
    ``None`` when the paper has no other review."""
    paper = document.paper_id
    same = [d for d in documents if is_review(d) and d.paper_id == paper]
    ids = [d.id for d in same]
    if document.id not in ids or len(same) < 2:
        return None
    return same[(ids.index(document.id) + 1) % len(same)]
