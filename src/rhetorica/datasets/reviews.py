"""Reviews stored in a dataset as review documents (``Document(kind="review")``).

Each review becomes one document with one section per text field (summary, strengths, weaknesses,
questions, ...), ``metadata.paper_id`` linking it to its paper and the reviewer's own scores as the
human reference (``human_scores`` = [overall rating], ``confidence``). Reviewer identities are never
stored: reviews are numbered per paper ("Review 1", ...), as a double-blind venue shows them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rhetorica.datasets.manifest import write_atomic
from rhetorica.documents.models import Document, DocumentSource, Section

REVIEWS_FILE = "reviews.json"


def review_document(paper_id: str, index: int, fields: dict[str, str], *, rating: float | None,
                    confidence: float | None, source: str, parser: str, parser_version: str,
                    extra: dict[str, Any] | None = None) -> Document:
    """One review as a document.

    Args:
        paper_id: id of the reviewed paper.
        index: 1-based number of the review within its paper.
        fields: field name -> text, in display order (empty fields are skipped).
        rating / confidence: the reviewer's scores on the venue's scale (``None`` when missing).
        source: where the review came from (e.g. ``openreview:<note id>``).
        parser / parser_version: the reader that produced it.
        extra: further metadata (kept as is).
    """
    sections = [Section(title=name.replace("_", " ").capitalize(), text=text.strip())
                for name, text in fields.items() if text and text.strip()]
    metadata: dict[str, Any] = {"paper_id": paper_id, "human_scores": [rating] if rating is not None else [],
                                "confidence": confidence, **(extra or {})}
    return Document(id=f"{paper_id}.review{index}", kind="review", title=f"Review {index}",
                    sections=sections or [Section(title="", text="")], metadata=metadata,
                    source=DocumentSource(path=source, parser=parser, parser_version=parser_version))


def save_reviews(path: Path, reviews: list[Document]) -> None:
    """Write review documents as one JSON list, atomically."""
    write_atomic(path, json.dumps([r.model_dump(mode="json") for r in reviews], indent=1).encode())


def load_reviews(path: Path) -> list[Document]:
    """Read a ``reviews.json`` written by :func:`save_reviews`."""
    return [Document.model_validate(item) for item in json.loads(path.read_text())]
