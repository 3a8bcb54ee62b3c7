"""Imported (original, rewrite) review pairs as documents and variants, so that a published rewrite
set (PeerPrism-like: 4,044 rewrites of 674 reviews, STUDIES.md "Facts added … Study 3") can be
judged without any rewrite call (issue 13 part 2).

Input: JSONL, one pair per line: ``review_id`` (text), ``original`` and ``rewrite`` (texts),
optional ``paper_id`` (defaults to the review id), ``rewriter`` (the rewriting model, default
``imported``), ``condition`` (default ``paraphrase``) and ``rewrite_id`` (default: numbered per
review). A line that cannot be used is a listed problem naming file and line; the rest is read.
Originals become review documents ``<paper>.review<i>`` (numbered per paper in order of first
appearance), each rewrite a variant document ``<original>.rewrite<k>`` with
``metadata.original_id``, ``rewriter``, ``condition``, ``rewrite_id`` and ``imported = true``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rhetorica.documents.models import Document
from rhetorica.documents.reviews.model import review_document
from rhetorica.files import json_objects


class PairsError(ValueError):
    """A pairs file that cannot be read at all, or holds no usable pair."""


@dataclass
class ImportedPairs:
    """Originals, their variants, and the problems met.

    Attributes:
        originals: one review document per distinct ``review_id``.
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


def read_review_pairs(path: Path) -> ImportedPairs:
    """Read a JSONL file of (original, rewrite) review pairs (see the module docstring).

    Raises:
        PairsError: the file cannot be read or is not UTF-8 (a byte-order mark is accepted), or no
            line holds a usable pair.
    """
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except UnicodeDecodeError as exc:
        raise PairsError(f"{path}: not UTF-8 text (byte {exc.start}: {exc.reason}); "
                         "convert it to UTF-8 and import again") from exc
    except OSError as exc:
        raise PairsError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    problems: list[str] = []
    originals: dict[str, Document] = {}
    texts: dict[str, str] = {}
    per_paper: dict[str, int] = {}
    variants: list[Document] = []
    counts: dict[str, int] = {}
    for number, row in json_objects(lines, path, problems):
        where = f"{path}:{number}"
        missing = [k for k in ("review_id", "original", "rewrite") if not isinstance(row.get(k), str)]
        if missing:
            problems.append(f"{where}: missing or non-text {', '.join(missing)}")
            continue
        empty = [k for k in ("review_id", "original", "rewrite") if not row[k].strip()]
        if empty:
            problems.append(f"{where}: empty {', '.join(empty)}")
            continue
        review_id = row["review_id"]
        if review_id in texts and texts[review_id] != row["original"]:
            problems.append(f"{where}: review {review_id!r} has two different originals")
            continue
        paper_id = str(row.get("paper_id") or review_id)
        if review_id not in originals:
            per_paper[paper_id] = per_paper.get(paper_id, 0) + 1
            originals[review_id] = review_document(
                paper_id, per_paper[paper_id], {"review": row["original"]}, rating=None, confidence=None,
                source=f"{path}:{number}", parser="jsonl-pairs", parser_version="1", extra={"review_id": review_id})
            texts[review_id] = row["original"]
        original = originals[review_id]
        counts[review_id] = counts.get(review_id, 0) + 1
        k = counts[review_id]
        variant = review_document(
            paper_id, per_paper[paper_id], {"review": row["rewrite"]}, rating=None, confidence=None,
            source=f"{path}:{number}", parser="jsonl-pairs", parser_version="1",
            extra={"review_id": review_id, "original_id": original.id,
                   "rewriter": str(row.get("rewriter") or "imported"),
                   "condition": str(row.get("condition") or "paraphrase"),
                   "rewrite_id": str(row.get("rewrite_id") or f"{review_id}.rewrite{k}"), "imported": True})
        variants.append(variant.model_copy(update={"id": f"{original.id}.rewrite{k}"}))
    if not variants:
        first = f": {problems[0]}" if problems else ""
        raise PairsError(f"{path}: no usable pair ({len(problems)} problem(s){first})")
    return ImportedPairs(list(originals.values()), variants, problems)
