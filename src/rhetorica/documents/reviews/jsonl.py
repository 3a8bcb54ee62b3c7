"""Human reviews from JSON Lines: one paper per line with its list of reviews, or one review per
line, in any layout :mod:`rhetorica.documents.reviews.lines` reads (issue 13 part 1, issue 23.5).

Each record becomes one review document (:func:`rhetorica.documents.reviews.model.review_document`)
with its sections (``summary``, ``strength_and_weaknesses``, ``clarity_quality_novelty_and_reproducibility``
... under any spelling, or ``full_review_text``), ``paper_id`` from its line (else the
file's paper: the ``paper`` of the study's document entry, else the folder's name) and the
source's review id kept verbatim as the document id (``<paper>.review<n>`` only when the source
has none). ``rating`` and ``confidence`` are read by
:func:`rhetorica.documents.ratings.parse_rating` (``"10: top 5%"`` is 10); a JSONL file does not
declare its venue's scale, so no range is imposed. A reviewer id (``reviewer``, ``reviewer_id``,
``signature``) is blinded in every review of the same paper.

A file of review *rewrites* (records with ``original_text`` and ``text``, or ``original`` and
``rewrite``) is read for its human originals, with one warning saying so (judge the rewrites with
a ``pairs`` entry). Every bad line or review is one problem naming ``<file>:<line>``; the rest is read.
Problems that only warn (a score left missing, a file of rewrites) start with
:data:`rhetorica.problems.WARNING_PREFIX`; a line or review left out does not.
"""

from __future__ import annotations

from pathlib import Path

from rhetorica.documents.models import Document
from rhetorica.documents.options import DocumentReadError
from rhetorica.documents.ratings import RatingError, parse_rating
from rhetorica.documents.reviews.lines import ReviewRecord, read_review_records
from rhetorica.documents.reviews.model import blind_reviewer_ids, review_document
from rhetorica.problems import WARNING_PREFIX


PAIRS_REMEDY = "to judge the rewrites, name the file in a 'pairs' entry"
"""What a study does to use the rewrites of a file its ``reviews`` entry names."""


def rewrites_warning(path: Path, records: list[ReviewRecord], remedy: str = PAIRS_REMEDY) -> str | None:
    """The warning for a file whose records are review rewrites (``None`` when none is), ending
    with ``remedy`` (how to use the rewrites where the warning is given)."""
    rewritten = sum(r.rewrite_key is not None for r in records)
    if not rewritten:
        return None
    return (f"{path}: {rewritten} of {len(records)} review(s) are rewrites (original_text/text or "
            f"original/rewrite): only the human originals are read as reviews; {remedy}")


def _document(record: ReviewRecord, paper_id: str, problems: list[str]) -> Document:
    scores: dict[str, float | str] = {}
    for key, raw in (("rating", record.rating), ("confidence", record.confidence)):
        try:
            score = parse_rating(raw)
        except RatingError as exc:
            problems.append(f"{WARNING_PREFIX}{record.where}: {key}: {exc} (left missing)")
            continue
        if score is not None:
            scores[key] = score
    extra: dict[str, object] = {"paper_title": record.paper["title"]} if record.paper.get("title") else {}
    if record.identity:
        extra["paper_identity"] = dict(record.identity)
    if record.title_claim:
        extra["paper_title_claim"] = record.title_claim
    rating, confidence = scores.get("rating"), scores.get("confidence")
    return review_document(paper_id, 1, record.fields, rating=rating if isinstance(rating, float) else None,
                           confidence=confidence if isinstance(confidence, float) else None, scores=scores,
                           source=record.where, parser="reviews-jsonl", parser_version="2", extra=extra,
                           review_id=record.review_id)


def read_reviews_jsonl(path: Path, paper_id: str) -> tuple[list[Document], list[str]]:
    """Review documents of a JSONL file (module docstring), grouped by paper in order of first
    appearance (file order within a paper), and the problems met (one per bad line or review,
    each naming ``<file>:<line>``; a score left missing and a file of rewrites are warnings,
    prefixed by :data:`rhetorica.problems.WARNING_PREFIX`).

    Titles and generated ids are provisional (:func:`rhetorica.documents.reviews.read_reviews`
    numbers the reviews of each paper 1..n).

    Raises:
        DocumentReadError: the file cannot be read, or holds no usable review at all.
    """
    try:
        records, problems = read_review_records(path, paper_id)
    except OSError as exc:
        raise DocumentReadError(path, f"cannot read ({exc.strerror or exc})") from exc
    warning = rewrites_warning(path, records)
    if warning:
        problems.append(f"{WARNING_PREFIX}{warning}")
    found: list[tuple[str, Document]] = []
    first_line: dict[str, int] = {}
    for record in records:
        if record.review_id is not None and record.review_id in first_line:
            if record.rewrite_key is None:  # the rewrites of one review share its id: only a human review repeats
                problems.append(f"{record.where}: review id {record.review_id!r} was read at line "
                                f"{first_line[record.review_id]}; left out")
            continue
        if record.review_id is not None:
            first_line[record.review_id] = record.line
        found.append((record.reviewer or "", _document(record, record.paper_id or paper_id, problems)))
    if not found:
        raise DocumentReadError(path, "no usable review in this JSONL file" + (f" ({problems[0]}; ...)"
                                                                             if problems else ""))
    blinded: list[Document] = []
    for paper in dict.fromkeys(d.paper_id for _, d in found):
        mine = [(r, d) for r, d in found if d.paper_id == paper]
        blinded += blind_reviewer_ids([d for _, d in mine], [r for r, _ in mine])
    return blinded, problems
