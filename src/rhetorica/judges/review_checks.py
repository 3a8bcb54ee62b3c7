"""Validation of review variants (issue 13 part 2): a paraphrased or polished review must keep
every point, the recommendation and every score of the original, at about the same length.

- **Points.** :func:`review_points` splits a review into points: each list item (``-``, ``*``,
  ``1.``, ``(1).``, ``(a)``) is one point, and every other paragraph is split into sentences
  (:func:`rhetorica.validation.tokenizer.sentence_bounds`); Markdown headings inside a field start a new block. A point's kind
  comes from its section title (or the heading above it): ``strength``,
  ``weakness``, ``question``, or ``other`` (summary, main review, comments …).
- **Counterparts.** Every original point must have a counterpart in the rewrite: the best cosine
  similarity between the point and any point or sentence of the rewrite (a rewrite may reorganise,
  merge or split points, so the whole rewrite is searched, not the same section). Similarities come
  from the sentence embedder of :mod:`rhetorica.validation.embeddings` (default all-MiniLM-L6-v2)
  or, without one, TF-IDF cosine on unigrams and bigrams fitted on the points of both texts
  (scikit-learn ``TfidfVectorizer``, sublinear tf).
  Thresholds (our documented choice, :data:`EMBEDDING_THRESHOLD`, :data:`TFIDF_THRESHOLD`):
  measured with all-MiniLM-L6-v2 on hand-written review points (tests/judges/test_review_checks.py),
  rewordings of a point scored 0.61-0.86 while the best match among *different* points of a review
  scored 0.23-0.29, hence 0.50, midway; TF-IDF rewards shared words only, so a rewording scores
  lower and the bar is 0.30. A point below the threshold is reported as missing.
- **Scores and recommendation.** The reviewer's scores in ``metadata["scores"]`` must be equal,
  and every score written in the text (``Rating: 6``, ``Soundness: 3 good``, ``Overall: 4/5``) must
  appear with the same value in the rewrite; the recommendation phrases (``strong accept``, ``weak
  reject``, ``borderline`` …) must be the same set.
- **Length.** The rewrite's word count over the original's must lie within ``length_bounds``
  (default 0.8-1.25 for a paraphrase; 0.8-1.5 for polish, which makes implicit points explicit).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from rhetorica.documents.models import Document
from rhetorica.validation.embeddings import Embedder
from rhetorica.validation.integrity import best_match_cosines
from rhetorica.validation.tokenizer import sentence_bounds

PointKind = Literal["strength", "weakness", "question", "other"]
EMBEDDING_THRESHOLD = 0.50
TFIDF_THRESHOLD = 0.30
LENGTH_BOUNDS: dict[str, tuple[float, float]] = {"paraphrase": (0.8, 1.25), "polish": (0.8, 1.5)}

_ITEM = re.compile(r"^\s*(?:[-*\u2022]|\(?\d{1,2}[.)]\.?|\(?[a-z][.)]|\(?[ivx]{1,4}[.)])\s+", re.IGNORECASE)
_HEADING = re.compile(r"^\s*#{1,6}\s+(?P<title>.+?)\s*#*\s*$")
MIN_POINT_WORDS = 3
"""A unit with fewer words (a stray "(5)." or an initial) is not a point."""
_KINDS: tuple[tuple[PointKind, re.Pattern[str]], ...] = (
    ("question", re.compile(r"question", re.IGNORECASE)),
    ("weakness", re.compile(r"weakness|concern|\bcons\b|negative|criticism", re.IGNORECASE)),
    ("strength", re.compile(r"strength|pros\b|positive", re.IGNORECASE)),
)
_SCORE_LINE = re.compile(
    r"\b(?P<label>rating|score|overall|recommendation|confidence|soundness|presentation|contribution|"
    r"correctness|novelty|significance|originality|clarity|quality)\b[^\d\n.;,]{0,12}?(?P<value>\d+(?:\.\d+)?)"
    r"(?:\s*/\s*(?P<of>\d+))?", re.IGNORECASE)
_RECOMMENDATION = re.compile(
    r"\b(?:strong(?:ly)?\s+accept|weak(?:ly)?\s+accept|accept|strong(?:ly)?\s+reject|weak(?:ly)?\s+reject|"
    r"reject|borderline|marginally\s+(?:above|below)(?:\s+the)?\s+acceptance\s+threshold|major\s+revision|"
    r"minor\s+revision)\b", re.IGNORECASE)


@dataclass(frozen=True)
class ReviewPoint:
    """One point of a review: its kind, the section it came from, and its text."""

    kind: PointKind
    section: str
    text: str


def point_kind(section_title: str) -> PointKind:
    """Kind of the points under a section titled ``section_title`` (see the module docstring)."""
    for kind, pattern in _KINDS:
        if pattern.search(section_title):
            return kind
    return "other"


def _sentences(text: str) -> list[str]:
    """Sentences of ``text`` by the project's one sentence splitter
    (:func:`rhetorica.validation.tokenizer.sentence_bounds`)."""
    return [text[start:end].strip() for start, end in sentence_bounds(text) if text[start:end].strip()]


def _units(text: str) -> list[str]:
    """Points of one block of text: each list item (its continuation lines joined, up to a blank
    line or the next item) is one point; every other paragraph is split into sentences."""
    units: list[str] = []
    item: list[str] | None = None
    prose: list[str] = []

    def flush_prose() -> None:
        if prose:
            units.extend(_sentences(" ".join(prose)))
            prose.clear()

    for line in text.splitlines():
        if _ITEM.match(line):
            flush_prose()
            if item:
                units.append(" ".join(item))
            item = [_ITEM.sub("", line, count=1).strip()]
        elif not line.strip():
            if item:
                units.append(" ".join(item))
            item = None
            flush_prose()
        elif item is not None:
            item.append(line.strip())
        else:
            prose.append(line.strip())
    if item:
        units.append(" ".join(item))
    flush_prose()
    return units


def _blocks(title: str, text: str) -> list[tuple[str, str]]:
    """``text`` cut at its Markdown headings: (heading or section title, body) in order."""
    blocks: list[tuple[str, list[str]]] = [(title, [])]
    for line in text.splitlines():
        heading = _HEADING.match(line)
        if heading:
            blocks.append((heading.group("title"), []))
        else:
            blocks[-1][1].append(line)
    return [(t, "\n".join(lines)) for t, lines in blocks if "".join(lines).strip()]


def review_points(review: Document) -> list[ReviewPoint]:
    """The points of ``review`` in order: per section (and per Markdown heading inside one), its
    list items and the sentences of its other paragraphs; units of fewer than :data:`MIN_POINT_WORDS` words are dropped.
    A heading inside a section sets the kind of the points under it when it names one."""
    points = []
    for section in review.sections:
        outer = point_kind(section.title)
        for title, body in _blocks(section.title, section.text):
            kind = point_kind(title) if point_kind(title) != "other" else outer
            units = _units(body)
            points += [ReviewPoint(kind, title, " ".join(u.split())) for u in units
                       if len(re.findall(r"[^\W\d_]{2,}", u)) >= MIN_POINT_WORDS]
    return points


def weakness_points(review: Document) -> list[ReviewPoint]:
    """The points of the review's weakness sections; for a review without any (a single "Review",
    "Main review" or "Comments" field), every point that is not a strength, a question or in a
    summary. A "Limitations" field is not a weakness section: venue forms ask there whether the
    authors discussed their limitations."""
    points = review_points(review)
    weak = [p for p in points if p.kind == "weakness"]
    if weak:
        return weak
    return [p for p in points if p.kind == "other" and not re.match(r"summary", p.section, re.IGNORECASE)]


def _tfidf_best_match(original: Sequence[str], rewrite: Sequence[str]) -> np.ndarray:
    from sklearn.feature_extraction.text import TfidfVectorizer

    vectorizer = TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True)
    matrix = vectorizer.fit_transform([*original, *rewrite])
    a, b = matrix[: len(original)], matrix[len(original):]
    return np.asarray((a @ b.T).toarray().max(axis=1))


def counterpart_similarities(original: Sequence[str], rewrite: Sequence[str],
                             embedder: Embedder | None = None) -> np.ndarray:
    """For each original point, the best cosine similarity to any of the rewrite's units.

    Args:
        original: the original's points (n >= 1).
        rewrite: the rewrite's points and sentences (m >= 1).
        embedder: sentence embedder; ``None`` = TF-IDF cosine (see the module docstring).

    Returns:
        ``(n,)`` array of cosines in [-1, 1] (TF-IDF: [0, 1]).

    Raises:
        ValueError: either side is empty.
    """
    if not original or not rewrite:
        raise ValueError("counterparts need at least one point on each side")
    if embedder is None:
        return _tfidf_best_match(original, rewrite)
    return best_match_cosines(embedder.embed(list(original)), embedder.embed(list(rewrite)))


def _written_scores(text: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for m in _SCORE_LINE.finditer(text):
        value = m.group("value") + (f"/{m.group('of')}" if m.group("of") else "")
        found.setdefault(m.group("label").lower(), []).append(value)
    return found


def _recommendations(text: str) -> set[str]:
    return {" ".join(m.group(0).lower().split()) for m in _RECOMMENDATION.finditer(text)}


@dataclass
class ReviewVariantCheck:
    """Outcome of :func:`check_review_variant`.

    Attributes:
        ok: every check passed.
        similarities: best counterpart cosine per original point (same order as ``points``).
        points: the original's points.
        missing: original points without a counterpart above ``threshold``.
        threshold: the counterpart threshold used.
        method: ``embedding:<model>`` or ``tfidf``.
        length_ratio: rewrite words / original words.
        problems: one line per failed check, naming the point, score or bound.
    """

    ok: bool
    similarities: list[float]
    points: list[ReviewPoint]
    missing: list[ReviewPoint]
    threshold: float
    method: str
    length_ratio: float
    problems: list[str] = field(default_factory=list)


def check_review_variant(original: Document, rewrite: Document, *, condition: str = "paraphrase",
                         embedder: Embedder | None = None, threshold: float | None = None,
                         length_bounds: tuple[float, float] | None = None) -> ReviewVariantCheck:
    """Check that ``rewrite`` keeps the points, scores, recommendation and length of ``original``.

    Args:
        original, rewrite: review documents (``kind="review"``).
        condition: ``paraphrase`` or ``polish`` (selects the default length bounds).
        embedder: sentence embedder; ``None`` uses TF-IDF.
        threshold: counterpart threshold (default :data:`EMBEDDING_THRESHOLD` with an embedder,
            :data:`TFIDF_THRESHOLD` without).
        length_bounds: (low, high) bounds on the word-count ratio (default :data:`LENGTH_BOUNDS`).

    Raises:
        ValueError: an unknown condition without ``length_bounds``, or an original with no text.
    """
    if length_bounds is None:
        if condition not in LENGTH_BOUNDS:
            raise ValueError(f"no default length bounds for condition {condition!r}; known: "
                             f"{', '.join(LENGTH_BOUNDS)} (pass length_bounds)")
        length_bounds = LENGTH_BOUNDS[condition]
    points = review_points(original)
    if not points or original.word_count == 0:
        raise ValueError(f"review {original.id}: no text to check")
    threshold = threshold if threshold is not None else (EMBEDDING_THRESHOLD if embedder else TFIDF_THRESHOLD)
    problems: list[str] = []
    rewrite_units = list(dict.fromkeys([p.text for p in review_points(rewrite)] +
                                       [s for sec in rewrite.sections for s in _sentences(sec.text)]))
    if rewrite_units:
        sims = counterpart_similarities([p.text for p in points], rewrite_units, embedder)
    else:
        sims = np.zeros(len(points))
    missing = [p for p, s in zip(points, sims) if s < threshold]
    for p, s in zip(points, sims):
        if s < threshold:
            problems.append(f"{p.kind} point without a counterpart (best cosine {s:.2f} < {threshold:.2f}): "
                            f"{p.text[:80]!r}")
    before, after = original.metadata.get("scores") or {}, rewrite.metadata.get("scores") or {}
    for name in sorted(set(before) | set(after)):
        if before.get(name) != after.get(name):
            problems.append(f"score {name!r} changed: {before.get(name)!r} -> {after.get(name)!r}")
    text_a, text_b = original.to_markdown(), rewrite.to_markdown()
    written_a, written_b = _written_scores(text_a), _written_scores(text_b)
    for label, values in written_a.items():
        kept = written_b.get(label, [])
        lost = [v for v in values if v not in kept]
        if lost:
            problems.append(f"written score {label!r} {', '.join(lost)} not found in the rewrite "
                            f"(it has {', '.join(kept) or 'none'})")
    rec_a, rec_b = _recommendations(text_a), _recommendations(text_b)
    if rec_a != rec_b:
        problems.append(f"recommendation changed: {sorted(rec_a)} -> {sorted(rec_b)}")
    ratio = rewrite.word_count / original.word_count
    low, high = length_bounds
    if not low <= ratio <= high:
        problems.append(f"length ratio {ratio:.2f} outside {low:g}-{high:g}")
    method = f"embedding:{embedder.name}" if embedder is not None else "tfidf"
    return ReviewVariantCheck(not problems, [float(s) for s in sims], points, missing, threshold, method, ratio,
                              problems)
