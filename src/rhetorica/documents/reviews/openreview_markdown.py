"""An OpenReview forum saved as Markdown (headings per note, ``Field: value`` lines).

Each review is a level-2 heading ``## N - Official Review of PaperX by Reviewer ID`` followed by a
date line and a readers line, then the form's fields; it ends at the next heading. Only the
form's own field labels (:data:`FIELDS`) start a field, so a review's paragraphs that begin with
"Quality:" or "Clarity:" stay inside the field they belong to. A level-2 "Paper Decision" note gives
the decision.
"""

from __future__ import annotations

import re
from pathlib import Path

from rhetorica.documents.models import Document
from rhetorica.documents.options import DocumentReadError
from rhetorica.documents.ratings import RatingError, parse_rating
from rhetorica.documents.reviews.model import blind_reviewer_ids, read_review_text, review_document

#: Field labels of OpenReview review forms (NeurIPS 2021-2024, ICLR 2022-2026).
FIELDS = ("Summary", "Main Review", "Strengths And Weaknesses", "Strengths", "Weaknesses", "Questions",
          "Limitations", "Limitations And Societal Impact", "Ethical Concerns", "Needs Ethics Review",
          "Ethics Review Area", "Time Spent Reviewing", "Soundness", "Presentation", "Contribution",
          "Rating", "Confidence", "Code Of Conduct", "Flag For Ethics Review")
SCORES = {"Rating": "rating", "Confidence": "confidence", "Soundness": "soundness",
          "Presentation": "presentation", "Contribution": "contribution"}
_SKIPPED = {"Code Of Conduct", "Needs Ethics Review", "Time Spent Reviewing", "Flag For Ethics Review"}
_REVIEW = re.compile(r"^## \d+ - Official Review of \S+ by Reviewer (?P<id>\S+)\s*$")
_FIELD = re.compile(rf"^(?P<label>{'|'.join(re.escape(f) for f in sorted(FIELDS, key=len, reverse=True))}):\s*(?P<rest>.*)$")


def read_openreview_markdown(path: Path, paper_id: str) -> tuple[list[Document], list[str]]:
    """Review documents of ``paper_id`` from an OpenReview forum in Markdown, and the problems met.

    Raises:
        DocumentReadError: unreadable, or no "Official Review" heading.
    """
    lines = read_review_text(path).splitlines()
    decision = next((m.group(1).strip() for line in lines if (m := re.match(r"^Decision:\s*(.+)$", line))), None)
    blocks: list[tuple[str, list[str]]] = []
    current: list[str] | None = None
    for line in lines:
        match = _REVIEW.match(line)
        if match:
            current = []
            blocks.append((match.group("id"), current))
        elif line.startswith("#"):
            current = None
        elif current is not None:
            current.append(line)
    if not blocks:
        raise DocumentReadError(path, "no '## N - Official Review of ... by Reviewer ...' heading")
    docs, problems = [], []
    for i, (_, body) in enumerate(blocks, start=1):
        fields: dict[str, list[str]] = {}
        label = None
        for line in body[2:]:  # date line, readers line
            match = _FIELD.match(line)
            if match:
                label = match.group("label")
                fields[label] = [match.group("rest")]
            elif label is not None:
                fields[label].append(line)
        texts = {k: "\n".join(v).strip() for k, v in fields.items()}
        scores: dict[str, float] = {}
        for label, key in SCORES.items():
            try:
                score = parse_rating(texts.get(label))
            except RatingError as exc:
                problems.append(f"{path} review {i} {label}: {exc}")
                continue
            if score is not None:
                scores[key] = score
        text_fields = {k: v for k, v in texts.items() if k not in SCORES and k not in _SKIPPED and v}
        docs.append(review_document(paper_id, i, text_fields, rating=scores.get("rating"),
                                    confidence=scores.get("confidence"), scores=scores, source=str(path),
                                    parser="openreview-markdown", parser_version="1", extra={"decision": decision}))
    return blind_reviewer_ids(docs, [rid for rid, _ in blocks]), problems
