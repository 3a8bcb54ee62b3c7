"""Review records in JSON Lines: the one reader of every line layout public review data comes in.

Layouts, told apart line by line:

- **paper line**: ``{"paper_id" | "id" | "forum_id" | "forum": ..., "title"?, "decision"?,
  "abstract"?, "text"?, "reviews": [<review>, ...]}`` (OpenReview exports, PeerPrism's human and
  rewritten partitions);
- **review line**: one ``<review>`` with its paper id (``paper_id``, ``paper``, ``forum``,
  ``forum_id`` or ``paper_metadata.paper_id``; none: the caller's default paper); PeerPrism's
  flattened files (``text`` with ``paper_metadata`` / ``review_metadata``) are review lines;
- **pair line**: ``{"review_id", "original", "rewrite", "paper_id"?, "rewriter"?, "condition"?,
  "rewrite_id"?}`` (rhetorica's documented pairs layout).

A ``<review>`` holds the human text as, in this order of preference: ``original_text`` (a
rewrite record, whose ``text`` is then the rewrite), its sections under any spelling
(:func:`rhetorica.documents.reviews.model.review_sections`: ``summary_of_the_paper``,
``strength_and_weaknesses``, ``clarity,_quality,_novelty_and_reproducibility`` ...), ``full_review_text``,
or one of ``text``, ``review``, ``comments``, ``content``; fields may sit in a ``content`` object
and be wrapped as ``{"value": ...}``. Its human rating is ``original_rating`` in a rewrite record,
else ``rating``, else a ``recommendation`` that reads as a score (ICLR 2022); a rewrite record's
``rating`` is the rewrite's (``rewrite_rating`` too). Ids (``review_id``, ``id``,
``review_metadata.review_id``; the paper ids above) are kept verbatim
(:func:`rhetorica.documents.reviews.model.source_id`: ``0`` stays ``"0"``).

Each bad line is one problem naming ``<file>:<line>`` (review ``k`` of a paper line): not UTF-8,
not JSON, not an object, a line repeated exactly (``duplicate of line M``), no review text, an
empty text, a review id given twice with different texts, a paper id given at an earlier line to
another paper (a different ``forum_id``/``forum`` or ``title``: PeerPrism's flattened files number
the papers of each venue 0-19, so one ``paper_id`` names eight papers). Every other line is read.
A review line whose only clue to its paper is a top-level ``title`` (no ``forum_id``/``forum``, no
``paper_metadata.title``) is read, since that title may be the review's own ("Official review"),
but never silently: when it differs from the title the paper id was first given, a warning
(:data:`rhetorica.problems.WARNING_PREFIX`) names both lines. Each record carries its paper's
identity as the line tells it (``identity``), so a study can refuse a paper id another file gave
to another paper (:func:`rhetorica.study.inputs.review_clash`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rhetorica.documents.ratings import RatingError, parse_rating
from rhetorica.documents.reviews.model import SECTION_NAMES, review_sections, section_key, source_id
from rhetorica.problems import WARNING_PREFIX

PAPER_KEYS = ("paper_id", "id", "forum_id", "forum")
"""Keys of a paper line's paper id, in order of preference."""
REVIEW_PAPER_KEYS = ("paper_id", "paper", "forum", "forum_id")
"""Keys of a review line's paper id, in order of preference."""
REVIEW_ID_KEYS = ("review_id", "id")
REVIEWER_KEYS = ("reviewer", "reviewer_id", "signature")
IDENTITY_KEYS = ("forum_id", "forum", "title")
"""Fields of a paper line or ``paper_metadata`` that tell two papers given one paper id apart (a
review line's own ``forum_id``/``forum`` too; its ``title`` is the review's, not the paper's)."""
PLAIN_TEXT_KEYS = ("full_review_text", "text", "review", "comments", "content")
"""Keys of a review's whole text when it has no sections (``content`` only when it is text)."""


@dataclass
class ReviewRecord:
    """One review read from a line (or from a paper line's ``reviews`` list).

    Attributes:
        where: ``<file>:<line>`` (``... review <k>`` inside a paper line): how problems name it.
        line: the 1-based line number.
        paper_id: the source's paper id, verbatim (``None``: the line names none).
        review_id: the source's review id, verbatim (``None``: none given).
        fields: section name -> the human review's text (non-empty).
        rating, confidence: the human review's scores as written (parse with
            :func:`rhetorica.documents.ratings.parse_rating`).
        scores: every other score field as written.
        rewrite: a rewrite of the review as written (``None``: none, or not text; may be empty).
        rewrite_key: the key a rewrite record holds its rewrite under (``text`` next to
            ``original_text``, ``rewrite`` on a pair line); ``None`` for a human review.
        rewrite_rating: the rewrite's rating as written (``None`` when not given).
        rewriter, condition, rewrite_id: the rewrite's producer, condition and id (as written).
        reviewer: the reviewer's id or name (blinded by the readers).
        paper: the paper line's ``title``, ``decision``, ``abstract``, ``text`` (what it has).
        identity: what tells its paper apart, as the line gives it: ``forum_id``, ``forum``,
            ``title`` (a paper line's, or ``paper_metadata``'s; never a review line's own title).
        title_claim: a review line's top-level ``title`` when nothing else tells its paper
            (``None`` otherwise): the paper's title or the review's own, nobody can tell.
    """

    where: str
    line: int
    paper_id: str | None
    review_id: str | None
    fields: dict[str, str]
    rating: Any = None
    confidence: Any = None
    scores: dict[str, Any] = field(default_factory=dict)
    rewrite: str | None = None
    rewrite_key: str | None = None
    rewrite_rating: Any = None
    rewriter: str | None = None
    condition: str | None = None
    rewrite_id: str | None = None
    reviewer: str | None = None
    paper: dict[str, Any] = field(default_factory=dict)
    identity: dict[str, str] = field(default_factory=dict)
    title_claim: str | None = None


def _unwrap(raw: Any) -> Any:
    return raw.get("value") if isinstance(raw, dict) and "value" in raw else raw


def _first_id(obj: dict[str, Any], keys: tuple[str, ...]) -> str | None:
    for key in keys:
        found = source_id(_unwrap(obj.get(key)))
        if found is not None:
            return found
    return None


def _text(raw: Any) -> str | None:
    value = _unwrap(raw)
    return value if isinstance(value, str) else None


SCORE_KEYS = ("soundness", "presentation", "contribution", "correctness", "technical_novelty_and_significance",
              "empirical_novelty_and_significance", "recommendation")


def _human_rating(content: dict[str, Any], rewritten: bool) -> Any:
    """The human rating as written: a rewrite record's ``original_rating``, else ``rating``, else a
    ``recommendation`` that reads as a score (ICLR 2022's form names its overall score so;
    ``"6: marginally above the acceptance threshold"``); a categorical recommendation stays a score
    field only."""
    if rewritten and "original_rating" in content:
        return _unwrap(content["original_rating"])
    if _unwrap(content.get("rating")) is not None or "recommendation" not in content:
        return _unwrap(content.get("rating"))
    recommendation = _unwrap(content["recommendation"])
    try:
        return recommendation if parse_rating(recommendation) is not None else None
    except RatingError:
        return None


def _review(raw: Any, paper_id: str | None, where: str, number: int, problems: list[str],
            paper: dict[str, Any]) -> ReviewRecord | None:
    if not isinstance(raw, dict):
        problems.append(f"{where}: a review must be a JSON object, got {type(raw).__name__}")
        return None
    content = {**raw, **raw["content"]} if isinstance(raw.get("content"), dict) else raw
    meta = raw.get("review_metadata") if isinstance(raw.get("review_metadata"), dict) else {}
    review_id = _first_id(content, REVIEW_ID_KEYS) or _first_id(meta, REVIEW_ID_KEYS)
    rewrite: str | None = None
    rewrite_key: str | None = None
    if "original_text" in content or "original" in content:  # a rewrite record or a pair line
        human = _text(content.get("original_text", content.get("original")))
        rewrite_key = "text" if "original_text" in content else "rewrite"
        rewrite = _text(content.get(rewrite_key))
        fields = {"review": human} if human is not None else {}
    else:
        fields = review_sections(content)
        if not fields:
            plain = next(((k, t) for k in PLAIN_TEXT_KEYS if (t := _text(content.get(k))) is not None), None)
            fields = {"review": plain[1]} if plain else {}
    if not fields and any(isinstance(_unwrap(v), str) and (section_key(str(k)) in SECTION_NAMES or k in PLAIN_TEXT_KEYS)
                          for k, v in content.items()):
        problems.append(f"{where}: empty review text")
        return None
    if not fields:
        problems.append(f"{where}: no review text (expected original_text, a review section such as summary or "
                        f"main_review, or one of {', '.join(PLAIN_TEXT_KEYS)})")
        return None
    if not any(t.strip() for t in fields.values()):
        problems.append(f"{where}: empty review text")
        return None
    rewritten = rewrite_key is not None
    return ReviewRecord(
        where=where, line=number, paper_id=paper_id, review_id=review_id, fields=fields,
        rating=_human_rating(content, rewritten),
        confidence=_unwrap(content.get("confidence")),
        scores={k: _unwrap(content[k]) for k in SCORE_KEYS if k in content and _unwrap(content[k]) is not None},
        rewrite=rewrite, rewrite_key=rewrite_key,
        rewrite_rating=_unwrap(content.get("rewrite_rating", content.get("rating") if "original_rating" in content
                                           else None)) if rewritten else None,
        rewriter=next((str(content[k]) for k in ("rewriter", "rewrite_model", "model") if content.get(k)), None),
        condition=_text(content.get("condition")) or None,
        rewrite_id=source_id(content.get("rewrite_id")),
        reviewer=_first_id(content, REVIEWER_KEYS), paper=paper)


def _identity(*sources: tuple[dict[str, Any], tuple[str, ...]]) -> dict[str, str]:
    """The fields that tell a paper apart (``(object, keys)`` pairs, first first), as written."""
    found: dict[str, str] = {}
    for source, keys in sources:
        for key in keys:
            value = source_id(_unwrap(source.get(key)))
            if value is not None and key not in found:
                found[key] = value
    return found


def _other_paper(paper_id: str, identity: dict[str, str], number: int,
                 seen: dict[str, tuple[dict[str, str], int]]) -> str | None:
    """Why ``paper_id`` at line ``number`` names another paper than at its first line (``None``:
    the same paper, or nothing tells); the first line's identity is kept in ``seen``."""
    if paper_id not in seen:
        seen[paper_id] = (identity, number)
        return None
    first, line = seen[paper_id]
    for key, value in identity.items():
        if key in first and first[key] != value:
            return (f"paper id {paper_id!r} was given at line {line} to another paper ({key} {first[key]!r} there, "
                    f"{value!r} here); left out (give each paper its own paper_id)")
    seen[paper_id] = ({**identity, **first}, line)
    return None


def title_claim(obj: dict[str, Any], identity: dict[str, str]) -> str | None:
    """A review line's top-level ``title`` when nothing else in ``identity`` tells its paper."""
    return None if identity else source_id(_unwrap(obj.get("title")))


def title_only_warning(paper_id: str, claim: str | None, first_title: str | None, first_where: str) -> str | None:
    """The warning for a review line that tells its paper only by a top-level title (``claim``)
    other than the title ``paper_id`` was first given (at ``first_where``); ``None`` when it has no
    such title, or the paper had none, or the same."""
    if claim is None or first_title is None or claim == first_title:
        return None
    return (f"paper id {paper_id!r} comes with only a top-level title {claim!r}, not the title {first_title!r} "
            f"it was given at {first_where}: read as the review's own title and joined to that paper; if it is "
            "another paper, give it its own paper_id (or a forum_id, or paper_metadata.title)")


def _decoded_lines(path: Path) -> list[tuple[int, str | None, str | None]]:
    """``(number, text, None)`` of each non-blank line, ``(number, None, why)`` of a line that is
    not UTF-8 (a leading byte-order mark is dropped)."""
    data = path.read_bytes()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    lines: list[tuple[int, str | None, str | None]] = []
    for number, raw in enumerate(data.split(b"\n"), start=1):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            lines.append((number, None, f"not UTF-8 (byte {exc.start + 1} of the line: {exc.reason}); line left out"))
            continue
        if text.strip():
            lines.append((number, text, None))
    return lines


def read_review_records(path: Path, default_paper: str | None = None,
                        papers: dict[str, dict[str, Any]] | None = None) -> tuple[list[ReviewRecord], list[str]]:
    """Every usable review record of a JSONL file in any layout of the module docstring, in file
    order, and the problems met (each naming ``<file>:<line>``).

    Args:
        path: the JSONL file.
        default_paper: the paper of review lines that name none (``None``: left ``None``).
        papers: receives paper id -> the paper line's ``title``, ``decision``, ``abstract`` and
            ``text`` for every paper line, those without a usable review included.

    Raises:
        OSError: the file cannot be read at all.
    """
    problems: list[str] = []
    records: list[ReviewRecord] = []
    seen_lines: dict[str, int] = {}
    texts: dict[str, tuple[str, int]] = {}
    identities: dict[str, tuple[dict[str, str], int]] = {}
    for number, line, undecodable in _decoded_lines(path):
        where = f"{path}:{number}"
        if line is None:
            problems.append(f"{where}: {undecodable}")
            continue
        if line.strip() in seen_lines:
            problems.append(f"{where}: duplicate of line {seen_lines[line.strip()]}; left out")
            continue
        seen_lines[line.strip()] = number
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append(f"{where}: not JSON ({exc.msg} at column {exc.colno})")
            continue
        if not isinstance(obj, dict):
            problems.append(f"{where}: not a JSON object")
            continue
        found: list[ReviewRecord | None]
        if "reviews" in obj:
            paper_id = _first_id(obj, PAPER_KEYS)
            if paper_id is None:
                problems.append(f"{where}: a paper line needs a paper id ({' or '.join(PAPER_KEYS)})")
                continue
            if not isinstance(obj["reviews"], list):
                problems.append(f"{where}: 'reviews' must be a list, got {type(obj['reviews']).__name__}")
                continue
            identity = _identity((obj, IDENTITY_KEYS))
            other = _other_paper(paper_id, identity, number, identities)
            if other:
                problems.append(f"{where}: {other}")
                continue
            paper = {k: obj[k] for k in ("title", "decision", "abstract", "text") if isinstance(obj.get(k), str)}
            if papers is not None:
                papers.setdefault(paper_id, {}).update(paper)
            found = [_review(raw, paper_id, f"{where} review {k}", number, problems, paper)
                     for k, raw in enumerate(obj["reviews"], start=1)]
            claim = None
        else:
            meta = obj.get("paper_metadata") if isinstance(obj.get("paper_metadata"), dict) else {}
            paper_id = _first_id(obj, REVIEW_PAPER_KEYS) or _first_id(meta, ("paper_id", "forum_id")) or default_paper
            identity = _identity((meta, IDENTITY_KEYS), (obj, IDENTITY_KEYS[:2]))
            claim = title_claim(obj, identity)
            if paper_id is not None:
                first = identities.get(paper_id, ({}, 0))
                warning = title_only_warning(paper_id, claim, first[0].get("title"), f"line {first[1]}")
                other = _other_paper(paper_id, identity, number, identities)
                if other:
                    problems.append(f"{where}: {other}")
                    continue
                if warning:
                    problems.append(f"{WARNING_PREFIX}{where}: {warning}")
            found = [_review(obj, paper_id, where, number, problems, {})]
        for record in found:
            if record is None:
                continue
            record.identity, record.title_claim = identity, claim
            if record.review_id is not None:
                text = json.dumps(record.fields, sort_keys=True)
                if record.review_id in texts and texts[record.review_id][0] != text:
                    problems.append(f"{record.where}: review id {record.review_id!r} was given at line "
                                    f"{texts[record.review_id][1]} with a different text; left out")
                    continue
                texts.setdefault(record.review_id, (text, number))
            records.append(record)
    return records, problems
