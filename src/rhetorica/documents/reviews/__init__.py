"""Reviews as documents: readers for the formats peer reviews come in.

Each reader turns a file into review documents (``Document(kind="review")``, see
:func:`rhetorica.documents.reviews.model.review_document`) linked to their paper, with the
reviewer's own scores as the human reference. Reviewer identities (names, masked ids such as
"Reviewer 9mff" or "Assigned_Reviewer_3") are replaced by the review's number in the file.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rhetorica.documents.ids import review_id
from rhetorica.documents.options import DocumentReadError
from rhetorica.documents.reviews.cmt_html import read_cmt_html
from rhetorica.documents.reviews.ismir_text import read_ismir_text
from rhetorica.documents.reviews.jsonl import read_reviews_jsonl
from rhetorica.documents.reviews.openreview_json import read_openreview_json
from rhetorica.documents.reviews.openreview_markdown import read_openreview_markdown
from rhetorica.documents.models import Document
from rhetorica.problems import WARNING_PREFIX


__all__ = ["read_reviews"]


def read_reviews(paths: Sequence[Path], paper_id: str) -> tuple[list[Document], list[str]]:
    """Every review in ``paths`` (read in sorted order), and the problems met (unreadable scores,
    bad JSONL lines; each names the file and review or line). A problem that only warns (the
    review was read: a score left missing, a JSONL file of rewrites read for its originals) starts
    with :data:`rhetorica.problems.WARNING_PREFIX`; a JSONL line or review left out does not.

    Reviews belong to ``paper_id``, except those of a JSONL file that name their own paper; the
    reviews of each paper are numbered 1..n (title ``Review <n>``). A review keeps its source's
    id verbatim (a JSONL ``review_id``, an OpenReview note id); one whose source has none gets the
    generated id ``<paper>.review<n>``.

    Formats by suffix: ``.htm``/``.html`` CMT reviews page; ``.md`` OpenReview forum in Markdown;
    ``.json`` OpenReview notes; ``.txt`` ISMIR review file (one review per file); ``.jsonl`` one
    paper per line with its reviews, or one review per line
    (:func:`rhetorica.documents.reviews.jsonl.read_reviews_jsonl`).

    Raises:
        DocumentReadError: a file of an unknown kind, or one its reader cannot use.
    """

    found: list[Document] = []
    problems: list[str] = []
    for path in sorted(paths):
        suffix = path.suffix.lower()
        if suffix == ".jsonl":
            docs, more = read_reviews_jsonl(path, paper_id)
        elif suffix in (".htm", ".html"):
            docs, more = read_cmt_html(path, paper_id)
        elif suffix == ".md":
            docs, more = read_openreview_markdown(path, paper_id)
        elif suffix == ".json":
            docs, more = read_openreview_json(path, paper_id)
        elif suffix == ".txt":
            docs, more = read_ismir_text(path, paper_id, len(found) + 1)
        else:
            raise DocumentReadError(path, "unknown review format (expected .htm/.html, .md, .json, .jsonl or .txt)")
        found.extend(docs)
        problems.extend(more if suffix == ".jsonl" else [f"{WARNING_PREFIX}{p}" for p in more])
    counts: dict[str, int] = {}
    numbered = []
    for doc in found:
        paper = doc.paper_id
        paper = paper_id if paper is None else str(paper)
        counts[paper] = counts.get(paper, 0) + 1
        generated = doc.metadata.get("review_id") is None
        numbered.append(doc.model_copy(update={"id": review_id(paper, counts[paper], None if generated else doc.id),
                                               "title": f"Review {counts[paper]}"}))
    return numbered, problems
