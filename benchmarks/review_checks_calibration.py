"""Calibration of the review-variant checks (:mod:`rhetorica.validation.review_checks`; issue 23).

Measures, per check, the false-rejection rate on published meaning-preserving review rewrites and
the detection rate of changes planted into those rewrites, and chooses the similarity thresholds.

Data: PeerPrism (https://github.com/Reviewerly-Inc/PeerPrism, ``data/transformations/rewritten``):
human ICLR/NeurIPS 2021-2024 reviews, each rewritten by six LLMs (GPT-5, o4-mini, Gemini 2.5
Flash, Claude Haiku 4.5, DeepSeek-R1, Llama 4 Scout) under a prompt that tells them to keep every
critique point and the rating. The repository carries no licence: it is read from where it was
fetched, used for evaluation only, and nothing of it is copied into this repository. Its ICLR 2023
part is kept for acceptance testing; thresholds are chosen on every other venue-year.

Each pair becomes two review documents the way a ``pairs`` file does (one ``review`` field holding
the text, :func:`rhetorica.documents.reviews.model.review_document`). Planted changes, each made
on a published rewrite (so that detection is measured on real paraphrases; seeded):

- ``rating``: the rating field's number moved by 3 (``5: marginally below …`` -> ``8: marginally
  below …``: the label is kept, as in the issue's case);
- ``weakness``: one weakness point of the rewrite deleted (a list item, else a sentence, under a
  header naming weaknesses, cons or concerns; in a review without one, a sentence of 8+ words after
  the summary paragraph; found by this script's own patterns, so that the plants do not depend on
  the code measured);
- ``claim``: one new strength or claim (a fixed list below) inserted after a random point;
- ``recommendation``: the rating field reversed: the number mirrored on the 1-10 scale (``11 -
  x``) and accept/reject, above/below swapped in its label.

A rewrite without a rating field (or without a weakness point) gets no such plant; the counts are
printed. Before/after: run the script with ``PYTHONPATH`` pointing at a checkout of the code to
measure (main's checks have no thresholds to sweep and no ``failed`` list: their problems are
classified by their wording).

Run:
    PYTHONPATH=src python benchmarks/review_checks_calibration.py PEERPRISM_DIR [--per-file N]
        [--acceptance-model M] [--acceptance-per-file N] [--length-bounds LOW HIGH] [--tfidf]
        [--cache-dir DIR] [--json OUT]
    python benchmarks/review_checks_calibration.py --smoke     # hand-written pairs, TF-IDF, seconds

Decision rules swept (:class:`Rule`): the cosine alone (a unit is missing or added below a
threshold, the rule before issue 23's second round) and cosine plus ownership margin
(:func:`rhetorica.validation.review_checks.ownership_margins`: a unit below the threshold still
has a counterpart when it owns a candidate by the margin), each with its minimum unit lengths
(points for the missing check, sentences for the added one); the script prints both chosen rules
and the current defaults on the same pairs, the trade-off of each check threshold by threshold,
and how many deleted weaknesses no similarity rule can see (restated elsewhere in the rewrite, or
too short to be checked).

Results (``benchmarks/results/review_checks_calibration_*.txt``; 2 shared CPU cores, so 5 pairs per
venue-year and model for calibration): ``--per-file 5 --acceptance-model openai_gpt-5
--length-bounds 0.45 2.0`` with main's code before this change (``round1``) and this branch's
(``after``); ``before`` is the code before issue 23 (3 pairs per venue-year and model); the length
bounds are the quantiles of all 3,494 calibration rewrites
(:data:`rhetorica.validation.review_checks.LENGTH_BOUNDS`); ``--tfidf --per-file 5
--acceptance-per-file 5`` for the TF-IDF fallback.
"""

from __future__ import annotations

import argparse
import inspect
import itertools
import json
import random
import re
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from rhetorica.documents.models import Document
from rhetorica.documents.reviews.model import review_document
from rhetorica.validation import review_checks as rc

ACCEPTANCE_PART = "ICLR2023"
PLANTS = ("rating", "weakness", "claim", "recommendation")
CHECKS = ("points", "added", "scores", "recommendation", "length", "error")
TARGET_FALSE_REJECTION = 0.05
NEW_CLAIMS = (
    "A further strength is that the method comes with a convergence guarantee that holds for every choice of "
    "hyperparameters.",
    "The authors also show that their approach beats all baselines by more than ten points on every benchmark.",
    "I also appreciate the user study with over 500 participants, which strongly supports the main claims.",
    "The theoretical analysis is, to my knowledge, the first to prove a matching lower bound for this setting.",
    "Moreover, the paper demonstrates that the model transfers to medical imaging without any fine-tuning.",
    "The released code reproduces every experiment on a single GPU in under an hour, which I verified myself.",
)

SMOKE_PAIRS = (  # hand-written for this benchmark: (original, faithful rewrite)
    ("Summary Of The Paper:\nThe paper proposes a graph network for traffic forecasting with a learned "
     "adjacency matrix.\n\nStrength And Weaknesses:\nStrengths:\n- The method is simple and fast to train.\n"
     "- Results on two public traffic datasets are strong.\n\nWeaknesses:\n- The ablation of the adjacency "
     "learning is missing.\n- Baselines from 2022 are not compared.\n\nIt is hard for me to accept the "
     "motivation of the second experiment.\n\nRating:\n5: marginally below the acceptance threshold",
     "Summary of the Paper:\nThis work introduces a graph network that learns its adjacency matrix for traffic "
     "forecasting.\n\nStrengths and Weaknesses:\nStrengths:\n- The approach is straightforward and trains "
     "quickly.\n- On two public traffic benchmarks the results are strong.\n\nWeaknesses:\n- There is no "
     "ablation of the learned adjacency.\n- The comparison omits baselines published in 2022.\n\nI find it "
     "difficult to accept the rationale behind the second experiment.\n\nRating:\n5: marginally below the "
     "acceptance threshold"),
    ("Review:\nThe authors study label noise in contrastive learning and propose a robust loss.\n\nPros:\n"
     "1. The loss has a clean theoretical justification.\n2. Experiments cover CIFAR-10 and ImageNet.\n\n"
     "Cons:\n1. The noise model assumes symmetric flips only.\n2. The runtime overhead is not reported.\n\n"
     "Rating:\n6: Marginally above acceptance threshold",
     "Review:\nThis paper examines label noise in contrastive learning and introduces a noise-robust loss.\n\n"
     "Pros:\n1. The proposed loss is backed by a clean theoretical argument.\n2. The experiments span CIFAR-10 "
     "and ImageNet.\n\nCons:\n1. Only symmetric label flips are assumed in the noise model.\n2. The added "
     "runtime cost is never reported.\n\nRating:\n6: Marginally above acceptance threshold"),
)


@dataclass
class Pair:
    """One published (original, rewrite) pair; ``part`` is the venue-year, ``model`` the rewriter."""

    part: str
    model: str
    key: str
    original: str
    rewrite: str


Unit = tuple[int, float, float | None]
"""A checked unit: (words, best counterpart cosine, ownership margin or ``None`` when the code has none)."""


@dataclass
class Outcome:
    """One check run: which checks failed, and the threshold-free similarities when available."""

    failed: set[str]
    key: str = ""
    point_sims: list[Unit] | None = None
    added_sims: list[Unit] | None = None
    length_ratio: float | None = None


@dataclass
class Results:
    """Outcomes per set (``faithful`` and each plant), and plants skipped for want of a target."""

    outcomes: dict[str, list[Outcome]] = field(default_factory=lambda: {k: [] for k in ("faithful", *PLANTS)})
    skipped: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PLANTS, 0))
    deleted: list[tuple[str, Document]] = field(default_factory=list)
    """Each weakness plant's deleted text and the rewrite it was deleted from."""


def deleted_text(before: str, after: str) -> str:
    """The text ``after`` lacks, ``before`` being ``after`` with one span more (list marker stripped)."""
    start = next((i for i, (a, b) in enumerate(zip(before, after)) if a != b), len(after))
    end = 0
    while end < len(after) - start and before[-1 - end] == after[-1 - end]:
        end += 1
    return before[start:len(before) - end].strip(" -*\n")


def read_peerprism(root: Path) -> Iterator[Pair]:
    """Every rewrite of ``data/transformations/rewritten`` under ``root`` (or ``root`` itself)."""
    folder = root / "data" / "transformations" / "rewritten" if (root / "data").is_dir() else root
    files = sorted(folder.glob("*.jsonl"))
    if not files:
        sys.exit(f"{folder}: no PeerPrism rewrite files (*.jsonl)")
    for path in files:
        part, _, model = path.stem.partition("_")
        for line in filter(str.strip, path.read_text(encoding="utf-8").split("\n")):
            paper = json.loads(line)
            for review in paper.get("reviews") or []:
                if review.get("original_text", "").strip() and review.get("text", "").strip():
                    yield Pair(part, model, f"{part}/{model}/{review.get('review_id')}", review["original_text"],
                               review["text"])


def as_review(text: str, key: str) -> Document:
    """A review document holding ``text`` as one field, as a ``pairs`` file's line is read."""
    return review_document(key, 1, {"review": text}, rating=None, confidence=None, source=key,
                           parser="jsonl-pairs", parser_version="1")


_RATING_FIELD = re.compile(
    r"^[ \t#*]*(?:rating|recommendation|decision)[ \t*]*(?::[ \t*]*\n?|\n)\s*\**(?P<value>\d+\b[^\n]*)",
    re.IGNORECASE | re.MULTILINE)
_WEAKNESS_HEADER = re.compile(r"^[ \t#*=\-\u2014\u2013]*[^\n]{0,40}\b(?:weakness(?:es)?|cons|concerns?)\b[^\n]{0,20}$",
                              re.IGNORECASE | re.MULTILINE)
_HEADER_LINE = re.compile(r"^[ \t]*(?:#+[^\n]*|\*\*[^\n]*\*\*:?|[A-Z][^\n.]{0,50}:)[ \t]*$", re.MULTILINE)
_ITEM_START = re.compile(r"^[ \t]*(?:[-*\u2022]|\(?\d{1,2}[.)])[ \t]+", re.MULTILINE)


def _rating_value(text: str) -> re.Match[str] | None:
    """The first rating field's value in ``text``, found by this script's own pattern (so that the
    plants do not depend on the code being measured)."""
    return _RATING_FIELD.search(text)


def _swap(label: str) -> str:
    pairs = {"accept": "reject", "reject": "accept", "above": "below", "below": "above",
             "Accept": "Reject", "Reject": "Accept", "Above": "Below", "Below": "Above"}
    return re.sub(r"\b(?:accept|reject|above|below|Accept|Reject|Above|Below)\b", lambda m: pairs[m.group(0)], label)


def _weakness_spans(text: str) -> list[tuple[int, int]]:
    """Spans of the weakness points of ``text``: the list items (else the sentences) between a
    weakness header and the next header."""
    headers = list(_WEAKNESS_HEADER.finditer(text))
    if not headers:
        return []
    header = next((h for h in headers if "strength" not in h.group(0).lower()), headers[0])
    following = _HEADER_LINE.search(text, header.end() + 1)
    rating = _rating_value(text)
    end = min(following.start() if following else len(text), rating.start() if rating else len(text))
    block = text[header.end():end]
    starts = [m.start() for m in _ITEM_START.finditer(block)]
    if starts:
        ends = []
        for a, b in zip(starts, [*starts[1:], len(block)]):
            blank = re.search(r"\n[ \t]*\n", block[a:b])
            ends.append(a + blank.start() if blank else b)
        spans = [(header.end() + a, header.end() + b) for a, b in zip(starts, ends)]
    else:
        spans = [(header.end() + m.start(), header.end() + m.end())
                 for m in re.finditer(r"[A-Z][^.!?\n]*(?:[.!?](?=\s|$)|$)", block)]
    return [(a, b) for a, b in spans if len(text[a:b].split()) >= 5]


def _body_sentences(text: str) -> list[tuple[int, int]]:
    """Spans of the sentences of at least 8 words after the first paragraph (the summary) and
    before the rating field: the deletion target of a review without a weakness section."""
    first = re.search(r"\n[ \t]*\n", text)
    rating = _rating_value(text)
    start, end = first.end() if first else 0, rating.start() if rating else len(text)
    return [(start + m.start(), start + m.end()) for m in re.finditer(r"[A-Z][^.!?\n]*[.!?](?=\s|$)", text[start:end])
            if len(m.group(0).split()) >= 8]


def plant(kind: str, pair: Pair, rng: random.Random) -> str | None:
    """The rewrite with one planted change of ``kind`` (module docstring), or ``None``."""
    text = pair.rewrite
    if kind in ("rating", "recommendation"):
        value = _rating_value(text)
        if value is None:
            return None
        number = re.match(r"\d+", value.group("value"))
        assert number is not None
        old = int(number.group(0))
        new = (old + 3 if old <= 5 else old - 3) if kind == "rating" else 11 - old
        rest = value.group("value")[number.end():]
        changed = f"{new}{rest if kind == 'rating' else _swap(rest)}"
        return text.replace(value.group("value"), changed)
    if kind == "weakness":
        spans = _weakness_spans(text) or _body_sentences(text)
        if not spans:
            return None
        a, b = rng.choice(spans)
        return text[:a] + text[b:]
    rating = _rating_value(text)
    body_end = rating.start() if rating else len(text)
    ends = [m.end() for m in re.finditer(r"[.!?](?=\s)", text[:body_end])]
    if not ends:
        return None
    at = rng.choice(ends)
    return f"{text[:at]} {rng.choice(NEW_CLAIMS)}{text[at:]}"


def _classify(problem: str) -> str:
    """Check name of a problem line (main's checks have no ``failed`` list)."""
    if "without a counterpart" in problem:
        return "points"
    if "point added" in problem:
        return "added"
    if problem.startswith("recommendation changed"):
        return "recommendation"
    if problem.startswith("length ratio"):
        return "length"
    return "scores"


def make_checker(embedder: Any) -> Callable[[Document, Document, str], Outcome]:
    """A function running the importable code's checks with thresholds open (new code) or as is."""
    parameters = inspect.signature(rc.check_review_variant).parameters
    settings = None
    if "settings" in parameters:  # new code: thresholds swept afterwards from the similarities
        every_unit = {name: rc.MIN_POINT_WORDS for name in ("min_point_words", "min_added_words")
                      if name in rc.ReviewCheckSettings.model_fields}
        settings = rc.ReviewCheckSettings(**every_unit, min_point_similarity=-1.0, min_added_similarity=-1.0,
                                          tfidf_min_point_similarity=0.0, tfidf_min_added_similarity=0.0)
    open_length = (0.0, float("inf"))

    def run(original: Document, rewrite: Document, key: str) -> Outcome:
        kwargs: dict[str, Any] = {"embedder": embedder}
        if settings is not None:
            kwargs |= {"settings": settings, "length_bounds": open_length}
        try:
            result = rc.check_review_variant(original, rewrite, **kwargs)
        except ValueError:
            return Outcome({"error"}, key)
        failed = set(getattr(result, "failed", None) or {_classify(p) for p in result.problems})
        if settings is None:
            return Outcome(failed, key)
        words = rc.point_words

        def units(points: list[Any], sims: list[float], margins: list[float] | None) -> list[Unit]:
            return [(words(p.text), s, None if margins is None else m)
                    for p, s, m in zip(points, sims, margins or [None] * len(sims))]

        return Outcome(failed - {"points", "added"}, key,
                       units(result.points, result.similarities, getattr(result, "margins", None)),
                       units(result.rewrite_points, result.added_similarities, getattr(result, "added_margins", None)),
                       result.length_ratio)

    return run


def evaluate(pairs: Iterable[Pair], check: Callable[[Document, Document, str], Outcome], seed: int) -> Results:
    """Check every pair as published and with each planted change."""
    results = Results()
    rng = random.Random(seed)
    for n, pair in enumerate(pairs, 1):
        original = as_review(pair.original, pair.key)
        results.outcomes["faithful"].append(check(original, as_review(pair.rewrite, pair.key), pair.key))
        for kind in PLANTS:
            changed = plant(kind, pair, rng)
            if changed is None:
                results.skipped[kind] += 1
                continue
            results.outcomes[kind].append(check(original, as_review(changed, pair.key), pair.key))
            if kind == "weakness":
                results.deleted.append((deleted_text(pair.rewrite, changed), as_review(changed, pair.key)))
        if n % 100 == 0:
            print(f"  ... {n} pairs", file=sys.stderr)
    return results


@dataclass(frozen=True)
class Rule:
    """Similarity decision: an original point is missing when its best counterpart cosine is below
    ``point`` and its ownership margin below ``point_own`` (``None``: not considered); a rewrite
    sentence is added likewise with ``added`` / ``added_own`` (``added`` ``None``: not checked);
    only points of at least ``min_words`` and sentences of at least ``added_min_words`` words count."""

    point: float
    point_own: float | None
    added: float | None
    added_own: float | None
    min_words: int
    added_min_words: int

    def __str__(self) -> str:
        own = lambda m: "" if m is None else f" & margin < {m:g}"  # noqa: E731
        added = "off" if self.added is None else (f"cos < {self.added:g}{own(self.added_own)}, sentences of >= "
                                                  f"{self.added_min_words} words")
        return f"missing: cos < {self.point:g}{own(self.point_own)}, points of >= {self.min_words} words; added: {added}"


def _fails(units: list[Unit] | None, threshold: float | None, own: float | None, min_words: int) -> bool:
    return threshold is not None and any(
        w >= min_words and s < threshold and (own is None or m is None or m < own) for w, s, m in units or [])


def rejected(outcome: Outcome, rule: Rule | None, length: tuple[float, float] | None = None) -> set[str]:
    """The checks ``outcome`` fails under ``rule`` (``None``: as run) and length bounds ``length``."""
    failed = set(outcome.failed)
    if length is not None and outcome.length_ratio is not None and not (
            length[0] <= outcome.length_ratio <= length[1]):
        failed.add("length")
    if rule is not None and _fails(outcome.point_sims, rule.point, rule.point_own, rule.min_words):
        failed.add("points")
    if rule is not None and _fails(outcome.added_sims, rule.added, rule.added_own, rule.added_min_words):
        failed.add("added")
    return failed


def rates(results: Results, rule: Rule | None, length: tuple[float, float] | None = None
          ) -> dict[str, dict[str, float]]:
    """Per set: the share of pairs rejected (``any``) and rejected by each check."""
    table: dict[str, dict[str, float]] = {}
    for name, outcomes in results.outcomes.items():
        if not outcomes:
            continue
        fails = [rejected(o, rule, length) for o in outcomes]
        row = {"n": float(len(outcomes)), "any": sum(bool(f) for f in fails) / len(outcomes)}
        row |= {c: sum(c in f for f in fails) / len(outcomes) for c in CHECKS}
        table[name] = row
    return table


def length_bounds(results: Results) -> tuple[float, float]:
    """Length-ratio bounds keeping 99% of the faithful rewrites: their 0.5% and 99.5% quantiles,
    rounded outwards to 0.05 (the plants barely change length, so the bounds only guard against
    broken rewrites)."""
    ratios = [o.length_ratio for o in results.outcomes["faithful"] if o.length_ratio is not None]
    low, high = np.quantile(ratios, [0.005, 0.995])
    return float(np.floor(low * 20) / 20), float(np.ceil(high * 20) / 20)


MIN_WORDS_GRID = (3, 5, 8, 12, 16, 20, 24)
OWN_GRID: tuple[float | None, ...] = (None, -0.2, -0.15, -0.1, -0.05, 0.0, 0.05, 0.1)
"""Ownership margins swept (``None``: cosine only, the rule before issue 23's second round)."""


def _fail_grid(units: list[Unit] | None, thresholds: np.ndarray, owns: tuple[float | None, ...],
               min_words: int) -> np.ndarray:
    """``(thresholds, owns)`` booleans: the outcome fails at that cosine threshold and margin."""
    kept = [(s, -np.inf if m is None else m) for w, s, m in units or [] if w >= min_words]
    if not kept:
        return np.zeros((len(thresholds), len(owns)), dtype=bool)
    sims, margins = np.array(kept).T
    low = sims[:, None] < thresholds[None, :]  # (units, thresholds)
    owned = np.array([np.ones_like(margins, dtype=bool) if o is None else margins < o for o in owns]).T
    return np.asarray((low[:, :, None] & owned[:, None, :]).any(axis=0))


def choose(results: Results, grid: list[float], length: tuple[float, float], owns: tuple[float | None, ...] = OWN_GRID,
           check_added: bool = True) -> Rule:
    """The rule (thresholds, margins in ``owns``, minimum unit lengths) that maximises the lowest
    detection rate over the plants while the false-rejection rate stays within
    :data:`TARGET_FALSE_REJECTION` (ties: the higher mean detection rate, then the lower
    false-rejection rate). Every pair of a missing-point and an added-sentence setting is tried
    (the added check also off)."""
    thresholds = np.array(grid)
    point_combos = [(t, o) for t in grid for o in owns]
    added_combos: list[tuple[float | None, float | None]] = [(None, None)]
    if check_added:
        added_combos += point_combos
    best: tuple[tuple[float, float, float], Rule] | None = None
    bases = {name: np.array([bool(rejected(o, None, length)) for o in outcomes])
             for name, outcomes in results.outcomes.items() if outcomes}
    for min_words, added_words in itertools.product(MIN_WORDS_GRID, MIN_WORDS_GRID if check_added else (3,)):
        rejected_rate: dict[str, np.ndarray] = {}
        for name, base in bases.items():
            outcomes = results.outcomes[name]
            points = np.array([_fail_grid(o.point_sims, thresholds, owns, min_words).ravel() for o in outcomes])
            added = np.array([np.concatenate([[False], _fail_grid(o.added_sims, thresholds, owns, added_words).ravel()])
                              if check_added else [False] for o in outcomes])
            passing = ((~base)[:, None] & ~points).astype(np.int64).T @ (~added).astype(np.int64)
            rejected_rate[name] = 1.0 - passing / len(outcomes)
        fr = rejected_rate["faithful"]
        detections = np.array([rejected_rate[k] for k in PLANTS if k in rejected_rate])
        lowest, mean = detections.min(axis=0), detections.mean(axis=0)
        for i, j in zip(*np.nonzero(fr <= TARGET_FALSE_REJECTION + 1e-12)):
            key = (float(lowest[i, j]), float(mean[i, j]), -float(fr[i, j]))
            if best is None or key > best[0]:
                (point, point_own), (added_t, added_own) = point_combos[i], added_combos[j]
                best = key, Rule(point, point_own, added_t, added_own, min_words, added_words)
    if best is None:
        sys.exit("no threshold pair keeps the false-rejection rate within the target")
    return best[1]


def tradeoff(results: Results, length: tuple[float, float], rule: Rule, margins: bool = True) -> None:
    """False rejection against detection of the two similarity plants, threshold by threshold, with
    the cosine alone and, when the code computes ``margins``, with the ownership margins of ``rule``
    (at its minimum unit lengths; -0.1 where it has none)."""
    own_p = rule.point_own if rule.point_own is not None else -0.1
    own_a = rule.added_own if rule.added_own is not None else -0.1
    print(f"\ntrade-off (calibration part, length {length[0]}-{length[1]}, points of >= {rule.min_words} words, "
          f"sentences of >= {rule.added_min_words}): false rejection / detection, by cosine threshold")
    columns = [("missing, cos only", None, None), (f"missing, margin < {own_p:g}", None, own_p),
               ("added, cos only", 0.0, None), (f"added, margin < {own_a:g}", 0.0, own_a)]
    columns = [c for c in columns if margins or c[2] is None]
    print(f"{'cos':>6}" + "".join(f"  {name:>22}" for name, _, _ in columns))
    for t in [round(0.05 * i, 2) for i in range(2, 17)]:
        cells = []
        for _, added_, own in columns:
            point, added = (t, None) if added_ is None else (-2.0, t)
            table = rates(results, Rule(point, own if added is None else None, added,
                                        own if added is not None else None, rule.min_words, rule.added_min_words), length)
            plant = "weakness" if added is None else "claim"
            cells.append(f"{table['faithful']['any']:6.1%} / {table[plant]['any']:6.1%}")
        print(f"{t:>6.2f}" + "".join(f"  {cell:>22}" for cell in cells))


def restated(results: Results, min_words: int, drop: float = 0.05) -> tuple[int, int]:
    """Weakness plants after which every checked original point keeps its best cosine within
    ``drop`` of the published rewrite's (the deleted weakness is restated elsewhere in the rewrite,
    or was no checked point: no similarity rule can see it), and all weakness plants compared."""
    faithful = {o.key: o for o in results.outcomes["faithful"]}
    unseen = compared = 0
    for plant_outcome in results.outcomes["weakness"]:
        before = faithful.get(plant_outcome.key)
        if before is None or before.point_sims is None or plant_outcome.point_sims is None:
            continue
        drops = [a[1] - b[1] for a, b in zip(before.point_sims, plant_outcome.point_sims) if a[0] >= min_words]
        compared += 1
        unseen += not drops or max(drops) < drop
    return unseen, compared


def restatement(results: Results, embedder: Any) -> None:
    """How far the similarity checks can see a deleted weakness at all: the share of deleted texts
    that the rest of the rewrite restates (best cosine to its points and sentences), and the share
    too short to be checked."""
    rest = []
    for text, rewrite in results.deleted:
        points = rc.review_points(rewrite)
        rest.append(float(rc.similarity_matrix([text], rc._candidates(points), embedder).max()) if points else -1.0)
    words = np.array([rc.point_words(t) for t, _ in results.deleted])
    minimum = rc.ReviewCheckSettings().min_point_words
    shares = ", ".join(f">= {t}: {np.mean(np.array(rest) >= t):.1%}" for t in (0.6, 0.7, 0.8))
    print(f"deleted weaknesses ({len(rest)}) whose text the rest of the rewrite restates (best cosine {shares}); "
          f"deleted weaknesses of fewer than {minimum} words (not checked by default): {np.mean(words < minimum):.1%}")


def show(title: str, table: dict[str, dict[str, float]]) -> None:
    print(f"\n{title}")
    print(f"{'set':<16}{'n':>6}{'rejected':>10}" + "".join(f"{c:>16}" for c in CHECKS))
    for name, row in table.items():
        label = "faithful (FR)" if name == "faithful" else f"plant {name}"
        print(f"{label:<16}{int(row['n']):>6}{row['any']:>10.1%}" + "".join(f"{row[c]:>16.1%}" for c in CHECKS))


def _sample(pairs: list[Pair], per_file: int | None, seed: int) -> list[Pair]:
    if per_file is None:
        return pairs
    groups: dict[tuple[str, str], list[Pair]] = {}
    for p in pairs:
        groups.setdefault((p.part, p.model), []).append(p)
    rng = random.Random(seed)
    return [p for key in sorted(groups) for p in rng.sample(groups[key], min(per_file, len(groups[key])))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", nargs="?", type=Path, help="PeerPrism checkout (or its rewritten/ folder)")
    parser.add_argument("--smoke", action="store_true", help="hand-written pairs, TF-IDF only (seconds)")
    parser.add_argument("--tfidf", action="store_true", help="TF-IDF counterparts (no embedding model)")
    parser.add_argument("--per-file", type=int, default=None,
                        help="calibration pairs sampled per venue-year and model (default: all)")
    parser.add_argument("--acceptance-per-file", type=int, default=None,
                        help="acceptance (ICLR 2023) pairs sampled per rewriting model (default: all)")
    parser.add_argument("--acceptance-model", default=None,
                        help="only this rewriting model's ICLR 2023 rewrites (e.g. openai_gpt-5)")
    parser.add_argument("--cache-dir", default=None, help="on-disk embedding cache folder")
    parser.add_argument("--length-bounds", type=float, nargs=2, default=None, metavar=("LOW", "HIGH"),
                        help="length-ratio bounds to use (default: from the calibration sample's quantiles)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, default=None, help="write the rates here")
    args = parser.parse_args(argv)
    if args.smoke:
        pairs = [Pair("smoke", "hand", f"smoke{i}", a, b) for i, (a, b) in enumerate(SMOKE_PAIRS)]
        calibration, acceptance, embedder = pairs, pairs, None
    else:
        if args.data is None:
            parser.error("give the PeerPrism folder, or --smoke")
        everything = list(read_peerprism(args.data))
        calibration = _sample([p for p in everything if p.part != ACCEPTANCE_PART], args.per_file, args.seed)
        acceptance = _sample([p for p in everything if p.part == ACCEPTANCE_PART
                              and args.acceptance_model in (None, p.model)], args.acceptance_per_file, args.seed)
        embedder = None
        if not args.tfidf:
            from rhetorica.validation.embeddings import load_embedder

            embedder = load_embedder(cache_dir=args.cache_dir)
    method = "tfidf" if embedder is None else f"embedding:{embedder.name}"
    print(f"rhetorica from {Path(rc.__file__).parents[2]}; counterparts: {method}; "
          f"calibration pairs {len(calibration)}, acceptance pairs {len(acceptance)}")
    check = make_checker(embedder)
    start = time.perf_counter()
    cal = evaluate(calibration, check, args.seed)
    acc = evaluate(acceptance, check, args.seed + 1)
    print(f"checked in {time.perf_counter() - start:.1f} s; plants skipped (no target) calibration "
          f"{cal.skipped}, acceptance {acc.skipped}")
    report: dict[str, Any] = {"method": method, "calibration_pairs": len(calibration),
                              "acceptance_pairs": len(acceptance)}
    sweepable = any(o.point_sims is not None for o in cal.outcomes["faithful"])
    if sweepable:
        grid = [round(0.02 * i, 2) for i in (range(0, 31) if embedder is None else range(5, 41))]
        bounds = tuple(args.length_bounds) if args.length_bounds else length_bounds(cal)
        owns = OWN_GRID if any(u[2] is not None for o in cal.outcomes["faithful"] for u in o.point_sims or []) \
            else (None,)
        rules = {"cosine only": choose(cal, grid, bounds, (None,))}
        if owns != (None,):
            rules["cosine + ownership"] = choose(cal, grid, bounds, owns)
        current = rc.ReviewCheckSettings()
        point, added = current.thresholds(embedder is not None)
        rules["defaults"] = Rule(point, getattr(current, "min_point_ownership", None), added,
                                 getattr(current, "min_added_ownership", None), current.min_point_words,
                                 getattr(current, "min_added_words", current.min_point_words))
        for name, rule in rules.items():
            print(f"chosen on the calibration part ({name}): {rule}" if name != "defaults" else f"defaults: {rule}")
        final = rules.get("cosine + ownership", rules["cosine only"])
        tradeoff(cal, bounds, final, owns != (None,))
        print()
        for min_words in sorted({rc.MIN_POINT_WORDS, final.min_words}):
            unseen, compared = restated(cal, min_words)
            print(f"weakness deletions that leave every original point of >= {min_words} words within 0.05 of its "
                  f"best cosine to the published rewrite (restated elsewhere in the rewrite, or no such point): "
                  f"{unseen} of {compared} ({unseen / max(compared, 1):.1%})")
        if embedder is not None and hasattr(rc, "similarity_matrix"):
            restatement(cal, embedder)
        for name, rule in rules.items():
            b = bounds if name != "defaults" else rc.LENGTH_BOUNDS["paraphrase"]
            for part, res in (("calibration", cal), ("acceptance ICLR 2023", acc)):
                table = rates(res, rule, b)
                show(f"{part}, {name} ({rule}; length {b[0]}-{b[1]})", table)
                report[f"{part}/{name}"] = {"rule": str(rule), "length": list(b), "rates": table}
    else:
        for part, res in (("calibration", cal), ("acceptance ICLR 2023", acc)):
            table = rates(res, None)
            show(f"{part}, the checks as they are", table)
            report[part] = {"rates": table}
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
