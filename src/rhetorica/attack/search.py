"""The worst-case search loop: propose, validate, review, keep the best (issue 27 §1).

Hill climbing over rewrites of one document against one target reviewer, in the spirit of black-box
text attacks (TextAttack's search/constraint split: Morris et al., 2020, "TextAttack", EMNLP demos —
candidates that break a constraint are never kept):

1. round 0 reviews the original ``r`` times (its in-search score: the mean of the ``ok`` reviews);
2. each round ``t = 1..T`` proposes ``k`` candidates from the current best text, candidate ``j``
   applying move ``moves[((t-1)·k + j) mod len(moves)]`` with sampling seed ``(t-1)·k + j`` (so
   no two proposals of a search share a request); each candidate is validated against the original
   (a failing one is recorded with its reasons and neither reviewed nor kept), then reviewed ``r``
   times; the round's best-scoring candidate (highest for ``+``, lowest for ``-``) becomes the
   current best when it beats the current best's score strictly (``kept``);
3. stops after ``T`` rounds (``rounds``), or before a candidate whose ``r`` reviews would take the
   review calls past ``max_queries`` (``budget``; the proposal is not made either).

The winner is the current best when some candidate beat the original, else the best-scoring valid
candidate of the whole search (its held-out reviews then measure a failed attack honestly; the
record's ``outcome`` says :data:`NO_IMPROVEMENT` instead of :data:`IMPROVED`); with no valid scored
candidate there is no winner (``no-valid``), and with no ``ok`` review of the original the search
stops at once (``original-failed``).

Everything model-facing is passed in, so the loop runs the same under the study runner
(:mod:`rhetorica.attack.kind`) and in a unit test.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from rhetorica.documents.models import Document


#: A search's ``outcome`` when its winner beat the original's in-search score.
IMPROVED = "improved on the original"
#: A search's ``outcome`` when no valid candidate beat the original's in-search score (in the
#: search's direction; a tie is no improvement): the winner is the best of them all the same.
NO_IMPROVEMENT = "no candidate improved on the original"


@dataclass(frozen=True)
class Review:
    """One search review: its score on the metric (``None`` unless ``ok``) and its text fields."""

    score: float | None
    payload: dict[str, Any] | None = None


#: ``(current best, move, seed, weaknesses or None) -> (candidate, None)`` or ``(None, reason)``.
Propose = Callable[[Document, str, int, str | None], Awaitable[tuple[Document | None, str | None]]]
#: ``candidate -> (passed, reasons)``: the study's integrity checks against the original.
Check = Callable[[Document], Awaitable[tuple[bool, list[str]]]]
#: ``(document, search replicate index 0..r-1) -> Review``.
Reviewer = Callable[[Document, int], Awaitable[Review]]
#: ``reviews -> the weaknesses text shown to the next proposals (None: none)``.
Weaknesses = Callable[[list[Review]], str | None]


@dataclass
class SearchSettings:
    """k, T, r, the review budget, the moves cycled through and the direction (``+``/``-``)."""

    candidates: int
    rounds: int
    replicates: int
    max_queries: int
    moves: list[str]
    direction: str
    show_weaknesses: bool = True


@dataclass
class SearchOutcome:
    """The winner (``None``: no valid candidate was scored) and the trajectory record fields."""

    winner: Document | None
    record: dict[str, Any] = field(default_factory=dict)


def _mean(reviews: list[Review]) -> float | None:
    scores = [r.score for r in reviews if r.score is not None]
    return sum(scores) / len(scores) if scores else None


def _better(a: float | None, b: float | None, direction: str) -> bool:
    """``a`` strictly better than ``b`` for the direction (a missing score never is)."""
    if a is None:
        return False
    if b is None:
        return True
    return a > b if direction == "+" else a < b


async def run_search(original: Document, settings: SearchSettings, *, propose: Propose, check: Check,
                     review: Reviewer, weaknesses: Weaknesses) -> SearchOutcome:
    """Run one search (module docstring).

    Returns:
        The winner and the record: ``original_score``, ``original_scores``, ``rounds`` (round 0 =
        the original; each candidate ``candidate, move, valid, reason, score, scores, kept,
        text_hash``; the winner also ``winner: true``), ``best_in_search_score``, ``queries``
        (review calls asked for, cache hits included), ``stopped`` and, with a winner,
        ``outcome`` (:data:`IMPROVED` or :data:`NO_IMPROVEMENT`).
    """
    s = settings
    reviews = [await review(original, i) for i in range(s.replicates)]
    queries = s.replicates
    original_score = _mean(reviews)
    start = {"candidate": 0, "move": None, "valid": True, "reason": None, "score": original_score,
             "scores": [r.score for r in reviews], "kept": True, "text_hash": original.content_hash}
    rounds: list[dict[str, Any]] = [{"round": 0, "candidates": [start]}]
    record: dict[str, Any] = {"original_score": original_score, "original_scores": start["scores"], "rounds": rounds}
    if original_score is None:
        return SearchOutcome(None, record | {"best_in_search_score": None, "queries": queries,
                                             "stopped": "original-failed"})
    current, current_score = original, original_score
    shown = weaknesses(reviews) if s.show_weaknesses else None
    best: tuple[Document, float, dict[str, Any]] | None = None  # best valid scored candidate so far
    improved: dict[str, Any] | None = None  # entry of the current best when it is a candidate
    stopped = "rounds"
    for t in range(1, s.rounds + 1):
        entries: list[tuple[dict[str, Any], Document | None, list[Review]]] = []
        for j in range(s.candidates):
            if queries + s.replicates > s.max_queries:
                stopped = "budget"
                break
            seed = (t - 1) * s.candidates + j
            move = s.moves[seed % len(s.moves)]
            entry: dict[str, Any] = {"candidate": j, "move": move, "valid": False, "reason": None, "score": None,
                                     "scores": [], "kept": False, "text_hash": None}
            candidate, failure = await propose(current, move, seed, shown)
            got: list[Review] = []
            if candidate is None:
                entry["reason"] = f"rewrite failed: {failure}"
            else:
                entry["text_hash"] = candidate.content_hash
                passed, reasons = await check(candidate)
                entry["valid"] = passed
                if not passed:
                    entry["reason"] = "; ".join(reasons) or "failed the integrity checks"
                else:
                    got = [await review(candidate, i) for i in range(s.replicates)]
                    queries += s.replicates
                    entry["scores"] = [r.score for r in got]
                    entry["score"] = _mean(got)
            entries.append((entry, candidate, got))
        if entries:
            rounds.append({"round": t, "candidates": [e for e, _, _ in entries]})
        scored = [(e, c, g) for e, c, g in entries if e["valid"] and e["score"] is not None and c is not None]
        if scored:
            top = max(scored, key=lambda x: x[0]["score"] if s.direction == "+" else -x[0]["score"])
            if best is None or _better(top[0]["score"], best[1], s.direction):
                best = (top[1], top[0]["score"], top[0])
            if _better(top[0]["score"], current_score, s.direction):
                top[0]["kept"] = True
                current, current_score, improved = top[1], top[0]["score"], top[0]
                if s.show_weaknesses:
                    shown = weaknesses(top[2])
        if stopped == "budget":
            break
    if best is None:
        return SearchOutcome(None, record | {"best_in_search_score": None, "queries": queries, "stopped": "no-valid"})
    winner, winner_score, winner_entry = ((current, current_score, improved) if improved is not None else best)
    winner_entry["winner"] = True
    return SearchOutcome(winner, record | {"best_in_search_score": winner_score, "queries": queries,
                                           "stopped": stopped,
                                           "outcome": IMPROVED if improved is not None else NO_IMPROVEMENT})
