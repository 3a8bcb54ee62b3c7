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

Results (``benchmarks/results/review_checks_calibration_*.txt``; 2 shared CPU cores, so 3 pairs per
venue-year and model for calibration): ``--per-file 3 --acceptance-model openai_gpt-5
--length-bounds 0.45 2.0`` with main's code (before) and this branch's (after); the length bounds
are the quantiles of all 3,494 calibration rewrites (:data:`rhetorica.validation.review_checks.LENGTH_BOUNDS`);
``--tfidf --per-file 5 --acceptance-per-file 5`` for the TF-IDF fallback.
"""

from __future__ import annotations

import argparse
import inspect
import json
import random
import re
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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


@dataclass
class Outcome:
    """One check run: which checks failed, and the threshold-free similarities when available."""

    failed: set[str]
    point_sims: list[tuple[int, float]] | None = None
    added_sims: list[tuple[int, float]] | None = None
    length_ratio: float | None = None
    _lowest: dict[tuple[bool, int], float | None] = field(default_factory=dict)

    def lowest(self, added: bool, min_words: int) -> float | None:
        """The lowest similarity of the original's (``added``: the rewrite's) points of at least
        ``min_words`` words (``None``: none)."""
        if (added, min_words) not in self._lowest:
            kept = [s for words, s in (self.added_sims if added else self.point_sims) or [] if words >= min_words]
            self._lowest[added, min_words] = min(kept) if kept else None
        return self._lowest[added, min_words]


@dataclass
class Results:
    """Outcomes per set (``faithful`` and each plant), and plants skipped for want of a target."""

    outcomes: dict[str, list[Outcome]] = field(default_factory=lambda: {k: [] for k in ("faithful", *PLANTS)})
    skipped: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PLANTS, 0))


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


def make_checker(embedder: Any) -> Callable[[Document, Document], Outcome]:
    """A function running the importable code's checks with thresholds open (new code) or as is."""
    parameters = inspect.signature(rc.check_review_variant).parameters
    settings = None
    if "settings" in parameters:  # new code: thresholds swept afterwards from the similarities
        settings = rc.ReviewCheckSettings(min_point_words=rc.MIN_POINT_WORDS, min_point_similarity=-1.0,
                                          min_added_similarity=-1.0,
                                          tfidf_min_point_similarity=0.0, tfidf_min_added_similarity=0.0)
    open_length = (0.0, float("inf"))

    def run(original: Document, rewrite: Document) -> Outcome:
        kwargs: dict[str, Any] = {"embedder": embedder}
        if settings is not None:
            kwargs |= {"settings": settings, "length_bounds": open_length}
        try:
            result = rc.check_review_variant(original, rewrite, **kwargs)
        except ValueError:
            return Outcome({"error"})
        failed = set(getattr(result, "failed", None) or {_classify(p) for p in result.problems})
        if settings is None:
            return Outcome(failed)
        words = rc.point_words
        return Outcome(failed, [(words(p.text), s) for p, s in zip(result.points, result.similarities)],
                       [(words(p.text), s) for p, s in zip(result.rewrite_points, result.added_similarities)],
                       result.length_ratio)

    return run


def evaluate(pairs: Iterable[Pair], check: Callable[[Document, Document], Outcome], seed: int) -> Results:
    """Check every pair as published and with each planted change."""
    results = Results()
    rng = random.Random(seed)
    for n, pair in enumerate(pairs, 1):
        original = as_review(pair.original, pair.key)
        results.outcomes["faithful"].append(check(original, as_review(pair.rewrite, pair.key)))
        for kind in PLANTS:
            changed = plant(kind, pair, rng)
            if changed is None:
                results.skipped[kind] += 1
                continue
            results.outcomes[kind].append(check(original, as_review(changed, pair.key)))
        if n % 100 == 0:
            print(f"  ... {n} pairs", file=sys.stderr)
    return results


def rejected(outcome: Outcome, point: float | None, added: float | None,
             length: tuple[float, float] | None = None, min_words: int = rc.MIN_POINT_WORDS) -> set[str]:
    """The checks ``outcome`` fails at thresholds ``point`` / ``added``, length bounds ``length``
    and points of at least ``min_words`` words (``None``: as run)."""
    failed = set(outcome.failed)
    if length is not None and outcome.length_ratio is not None and not (
            length[0] <= outcome.length_ratio <= length[1]):
        failed.add("length")
    lowest_point, lowest_added = outcome.lowest(False, min_words), outcome.lowest(True, min_words)
    if point is not None and lowest_point is not None and lowest_point < point:
        failed.add("points")
    if added is not None and lowest_added is not None and lowest_added < added:
        failed.add("added")
    return failed


def rates(results: Results, point: float | None, added: float | None,
          length: tuple[float, float] | None = None, min_words: int = rc.MIN_POINT_WORDS) -> dict[str, dict[str, float]]:
    """Per set: the share of pairs rejected (``any``) and rejected by each check."""
    table: dict[str, dict[str, float]] = {}
    for name, outcomes in results.outcomes.items():
        if not outcomes:
            continue
        fails = [rejected(o, point, added, length, min_words) for o in outcomes]
        row = {"n": float(len(outcomes)), "any": sum(bool(f) for f in fails) / len(outcomes)}
        row |= {c: sum(c in f for f in fails) / len(outcomes) for c in CHECKS}
        table[name] = row
    return table


def length_bounds(results: Results) -> tuple[float, float]:
    """Length-ratio bounds keeping 99% of the faithful rewrites: their 0.5% and 99.5% quantiles,
    rounded outwards to 0.05 (the plants barely change length, so the bounds only guard against
    broken rewrites)."""
    import numpy as np

    ratios = [o.length_ratio for o in results.outcomes["faithful"] if o.length_ratio is not None]
    low, high = np.quantile(ratios, [0.005, 0.995])
    return float(np.floor(low * 20) / 20), float(np.ceil(high * 20) / 20)


MIN_WORDS_GRID = (3, 5, 8, 12)


def choose(results: Results, grid_point: list[float], grid_added: list[float | None],
           length: tuple[float, float]) -> tuple[float, float | None, int]:
    """Thresholds and minimum point length that maximise the lowest detection rate over the plants
    while the false-rejection rate stays within :data:`TARGET_FALSE_REJECTION` (ties: the higher
    mean detection rate, then the lower false-rejection rate)."""
    best: tuple[float, float, float, float | None, int] | None = None
    for min_words in MIN_WORDS_GRID:
        for point in grid_point:
            for added in grid_added:
                table = rates(results, point, added, length, min_words)
                fr = table["faithful"]["any"]
                if fr > TARGET_FALSE_REJECTION:
                    continue
                detections = [table[k]["any"] for k in PLANTS if k in table]
                key = (min(detections), sum(detections) / len(detections), -fr, point, added, min_words)
                if best is None or key[:3] > best[:3]:
                    best = key
    if best is None:
        sys.exit("no threshold pair keeps the false-rejection rate within the target")
    return best[3], best[4], best[5]


def tradeoff(results: Results, length: tuple[float, float], min_words: int) -> None:
    """False rejection against detection of the two similarity plants, threshold by threshold."""
    print(f"\ntrade-off (calibration part, length {length[0]}-{length[1]}, points of >= {min_words} words): "
          "missing-point threshold -> FR / weakness detected; added-point threshold -> FR / claim detected")
    for t in [round(0.05 * i, 2) for i in range(2, 15)]:
        miss = rates(results, t, None, length, min_words)
        add = rates(results, None, t, length, min_words)
        print(f"  {t:.2f}: {miss['faithful']['any']:6.1%} / {miss['weakness']['any']:6.1%}      "
              f"{add['faithful']['any']:6.1%} / {add['claim']['any']:6.1%}")


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
        if embedder is None:
            grid_point = [round(0.02 * i, 2) for i in range(0, 31)]
        else:
            grid_point = [round(0.02 * i, 2) for i in range(5, 41)]
        grid_added: list[float | None] = [None, *grid_point]
        bounds = tuple(args.length_bounds) if args.length_bounds else length_bounds(cal)
        point, added, min_words = choose(cal, grid_point, grid_added, bounds)
        current = rc.ReviewCheckSettings()
        defaults = current.thresholds(embedder is not None)
        default_bounds = rc.LENGTH_BOUNDS["paraphrase"]
        print(f"chosen on the calibration part: length bounds {bounds}, points of >= {min_words} words, missing-point "
              f"threshold {point}, added-point threshold {added} (current defaults {default_bounds}, "
              f"{current.min_point_words} words, {defaults[0]}, {defaults[1]})")
        tradeoff(cal, bounds, min_words)
        for name, (p, a, b, w) in {"chosen": (point, added, bounds, min_words),
                                   "defaults": (*defaults, default_bounds, current.min_point_words)}.items():
            for part, res in (("calibration", cal), ("acceptance ICLR 2023", acc)):
                table = rates(res, p, a, b, w)
                show(f"{part}, {name} (points {p}, added {a}, length {b[0]}-{b[1]}, >= {w} words)", table)
                report[f"{part}/{name}"] = {"thresholds": [p, a, *b, w], "rates": table}
    else:
        for part, res in (("calibration", cal), ("acceptance ICLR 2023", acc)):
            table = rates(res, None, None)
            show(f"{part}, the checks as they are", table)
            report[part] = {"rates": table}
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
