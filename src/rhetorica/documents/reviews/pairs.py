"""Imported (original, rewrite) review pairs as documents and variants, so that a published rewrite
set (PeerPrism-like: 4,044 rewrites of 674 reviews, STUDIES.md "Facts added … Study 3") can be
judged without any rewrite call (issue 13 part 2; layouts of issue 23.5).

Input: JSONL read by :func:`rhetorica.documents.reviews.lines.read_review_records`, in any of its
layouts that carry rewrites:

- one pair per line: ``review_id``, ``original`` and ``rewrite`` (texts), optional ``paper_id``,
  ``rewriter`` (the rewriting model, default ``imported``), ``condition`` (default
  ``paraphrase``) and ``rewrite_id``;
- the public paper-per-line rewrite layout (PeerPrism's ``transformations/rewritten``): a paper
  line whose ``reviews`` hold ``review_id``, ``original_text`` / ``text`` (the rewrite),
  ``original_rating`` / ``rating`` (the rewrite's) and ``rewrite_model``; or one such review per line.

Ids are the source's, verbatim (``paper_id: 0`` stays paper ``"0"``): an original is the document
``<review_id>``, a rewrite the variant ``<rewrite_id>`` (generated: ``<review_id>.rewrite<k>``,
numbered per review). A review without a ``review_id`` gets the generated id
``<paper>.review<i>``; a pair without ``paper_id`` belongs to a paper named after its review.
An original carries its paper's ``forum_id``/``forum``/title as its line gives them
(``metadata.paper_identity``: a study refuses a paper id another file gave to another paper).
Variants carry ``metadata.original_id``, ``rewriter``, ``condition``, ``rewrite_id``,
``rating`` (the rewrite's, as written) and ``imported = true``.

Every line that cannot be used is one problem naming ``<file>:<line>`` (not UTF-8, not JSON, a
duplicate line, a missing field, an empty text, a review id with two different originals), listed
in line order; the rest of the file is read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from rhetorica.documents import ids as id_rule
from rhetorica.documents.models import Document
from rhetorica.documents.ratings import RatingError, parse_rating
from rhetorica.documents.reviews.lines import ReviewRecord, read_review_records
from rhetorica.documents.reviews.model import review_document


class PairsError(ValueError):
    """A pairs file that cannot be read at all, or holds no usable pair."""


@dataclass
class ImportedPairs:
    """Originals, their variants, and the problems met.

    Attributes:
        originals: one review document per distinct review.
        variants: one document per rewrite, linked by ``metadata.original_id``.
        problems: one line per unusable input line (``<file>:<line>: <why>``).
    """

    originals: list[Document]
    variants: list[Document]
    problems: list[str] = field(default_factory=list)

    def pairs(self) -> list[tuple[Document, Document]]:
        """(original, variant) for every variant, in input order."""
        by_id = {d.id: d for d in self.originals}
        return [(by_id[v.metadata["original_id"]], v) for v in self.variants]


def _rating(record: ReviewRecord, raw: object, what: str, problems: list[str]) -> float | None:
    try:
        return parse_rating(raw)
    except RatingError as exc:
        problems.append(f"{record.where}: {what}: {exc} (left missing)")
        return None


def read_review_pairs(path: Path) -> ImportedPairs:
    """Read a JSONL file of (original, rewrite) review pairs (see the module docstring).

    Raises:
        PairsError: the file cannot be read, or no line holds a usable pair.
    """
    try:
        records, problems = read_review_records(path)
    except OSError as exc:
        raise PairsError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    originals: dict[str, Document] = {}
    per_paper: dict[str, int] = {}
    variants: list[Document] = []
    counts: dict[str, int] = {}
    keys: dict[str, str] = {}  # review id or line -> document id
    for record in records:
        if record.rewrite_key is None:
            problems.append(f"{record.where}: no rewrite (a pair needs original and rewrite, or original_text "
                            "and text)")
            continue
        if record.rewrite is None:
            problems.append(f"{record.where}: a rewrite record needs its rewrite as text ({record.rewrite_key})")
            continue
        if not record.rewrite.strip():
            problems.append(f"{record.where}: empty rewrite")
            continue
        key = record.review_id if record.review_id is not None else record.where
        paper_id = record.paper_id if record.paper_id is not None else (record.review_id or record.where)
        if key not in keys:
            per_paper[paper_id] = per_paper.get(paper_id, 0) + 1
            rating = _rating(record, record.rating, "original rating", problems)
            doc = review_document(paper_id, per_paper[paper_id], record.fields, rating=rating, confidence=None,
                                  source=record.where, parser="jsonl-pairs", parser_version="2",
                                  review_id=record.review_id,
                                  extra={"paper_identity": dict(record.identity),
                                         "paper_title_claim": record.title_claim})
            if doc.id in originals:
                problems.append(f"{record.where}: review id {doc.id!r} is also a generated id; left out")
                continue
            originals[doc.id] = doc
            keys[key] = doc.id
        original = originals[keys[key]]
        counts[original.id] = counts.get(original.id, 0) + 1
        rewrite_id = id_rule.rewrite_id(original.id, counts[original.id], record.rewrite_id)
        variant = review_document(
            paper_id, per_paper[paper_id], {"review": record.rewrite}, rating=None, confidence=None,
            source=record.where, parser="jsonl-pairs", parser_version="2", review_id=record.review_id,
            extra={"original_id": original.id, "rewriter": record.rewriter or "imported",
                   "condition": record.condition or "paraphrase", "rewrite_id": rewrite_id, "imported": True,
                   "rating": _rating(record, record.rewrite_rating, "rewrite rating", problems)})
        variants.append(variant.model_copy(update={"id": rewrite_id, "metadata": {
            **variant.metadata, "id_generated": record.rewrite_id is None}}))
    if not variants:
        why = f"{len(problems)} problem(s): {problems[0]}" if problems else "the file holds no line"
        raise PairsError(f"{path}: no usable pair ({why})")
    return ImportedPairs(list(originals.values()), variants, _in_line_order(problems, path))


def _in_line_order(problems: list[str], path: Path) -> list[str]:
    """``problems`` sorted by the line each names (``<path>:<line>…``; the reader's and the pairs'
    own, merged in file order); a problem naming no line first."""
    prefix = f"{path}:"

    def line(problem: str) -> int:
        found = re.match(r"\d+", problem.removeprefix(prefix)) if problem.startswith(prefix) else None
        return int(found[0]) if found else 0

    return sorted(problems, key=line)
