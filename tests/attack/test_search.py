"""The search loop on hand-scripted proposals, checks and reviews (no model, no store)."""

from __future__ import annotations

import asyncio

import pytest

from rhetorica.attack.search import Review, SearchSettings, run_search
from rhetorica.documents.models import Document, DocumentSource, Section


def doc(text: str) -> Document:
    return Document(id="p1", sections=[Section(title="Abstract", text=text)],
                    source=DocumentSource(path="p1", parser="test", parser_version="1"))


ORIGINAL = doc("base")


def run(settings: SearchSettings, score_of, *, invalid=frozenset(), failing_proposals=frozenset(), log=None):
    """Proposal = current text + '+<seed>'; a candidate whose seed is in ``invalid`` fails the
    checks; its score is ``score_of(text, replicate)``."""
    reviewed: list[str] = [] if log is None else log

    async def propose(base, move, seed, weaknesses):
        if seed in failing_proposals:
            return None, "timeout: no answer"
        return doc(f"{base.sections[0].text}+{seed}"), None

    async def check(candidate):
        seed = int(candidate.sections[0].text.rsplit("+", 1)[1])
        return (False, ["TF-IDF cosine 0.100 < 0.600"]) if seed in invalid else (True, [])

    async def review(document, replicate):
        reviewed.append(document.sections[0].text)
        return Review(score_of(document.sections[0].text, replicate), {"weaknesses": ["vague"]})

    return asyncio.run(run_search(ORIGINAL, settings, propose=propose, check=check, review=review,
                                  weaknesses=lambda reviews: "- vague"))


def last_seed(text: str) -> int:
    return int(text.rsplit("+", 1)[1]) if "+" in text else -1


def test_failing_candidates_are_never_reviewed_kept_or_chosen_even_when_they_would_score_highest():
    # seeds 1 and 4 fail the checks; had they been reviewed they would score 10
    def score(text, replicate):
        return 10.0 if last_seed(text) in (1, 4) else 4.0 + 0.1 * last_seed(text)

    log: list[str] = []
    out = run(SearchSettings(3, 2, 2, 100, ["presentation"], "+"), score, invalid=frozenset({1, 4}), log=log)
    assert all(last_seed(t) not in (1, 4) for t in log)
    entries = [c for r in out.record["rounds"][1:] for c in r["candidates"]]
    bad = [c for c in entries if c["candidate"] == 1]
    assert [c["valid"] for c in bad] == [False, False] and all(c["score"] is None and not c["kept"] for c in bad)
    assert bad[0]["reason"] == "TF-IDF cosine 0.100 < 0.600"
    assert all(c["valid"] for c in entries if c.get("kept") or c.get("winner"))
    # the original scores 3.9; round 1 keeps seed 2 (4.2 > 4.0 of seed 0); round 2 builds on it: seeds 3 and 5
    assert out.winner.sections[0].text == "base+2+5"
    assert out.record["best_in_search_score"] == pytest.approx(4.5)
    assert out.record["queries"] == 2 + 4 * 2 and out.record["stopped"] == "rounds"
    assert out.record["outcome"] == "improved on the original"


def test_budget_stops_before_a_candidate_whose_reviews_would_pass_max_queries():
    out = run(SearchSettings(3, 3, 2, 10, ["presentation"], "+"), lambda t, r: 5.0 + last_seed(t))
    # 2 (original) + 2 + 2 + 2 (round 1) + 2 (round 2, candidate 0) = 10; the next would make 12
    assert out.record["queries"] == 10 and out.record["stopped"] == "budget"
    assert [len(r["candidates"]) for r in out.record["rounds"]] == [1, 3, 1]


def test_down_direction_keeps_the_lowest_and_a_failed_search_returns_its_best_candidate():
    out = run(SearchSettings(2, 1, 1, 10, ["presentation"], "-"), lambda t, r: {0: 6.0, 1: 5.5}.get(last_seed(t), 5.0))
    # nothing beats the original's 5.0 downwards: the winner is the best candidate (5.5), not kept
    assert out.winner.sections[0].text == "base+1"
    cands = out.record["rounds"][1]["candidates"]
    assert [c["kept"] for c in cands] == [False, False] and cands[1]["winner"] is True
    assert out.record["best_in_search_score"] == 5.5 and out.record["original_score"] == 5.0
    assert out.record["outcome"] == "no candidate improved on the original"


def test_a_tie_with_the_original_is_no_improvement():
    out = run(SearchSettings(2, 2, 1, 10, ["presentation"], "+"), lambda t, r: 5.0)
    assert out.winner.sections[0].text == "base+0"  # the first of the equal best
    assert not any(c["kept"] for r in out.record["rounds"][1:] for c in r["candidates"])
    assert (out.record["best_in_search_score"], out.record["outcome"]) == (5.0, "no candidate improved on the original")


def test_no_valid_candidate_and_failed_original():
    out = run(SearchSettings(2, 2, 1, 10, ["presentation"], "+"), lambda t, r: 5.0,
              invalid=frozenset({0, 1}), failing_proposals=frozenset({2, 3}))
    assert out.winner is None and out.record["stopped"] == "no-valid" and "outcome" not in out.record
    assert out.record["rounds"][2]["candidates"][0]["reason"] == "rewrite failed: timeout: no answer"
    failed = run(SearchSettings(2, 2, 1, 10, ["presentation"], "+"), lambda t, r: None)
    assert failed.winner is None and failed.record["stopped"] == "original-failed"
    assert failed.record["queries"] == 1 and len(failed.record["rounds"]) == 1


def test_moves_cycle_with_the_seed():
    out = run(SearchSettings(3, 2, 1, 100, ["a", "b"], "+"), lambda t, r: 1.0)
    moves = [c["move"] for r in out.record["rounds"][1:] for c in r["candidates"]]
    assert moves == ["a", "b", "a", "b", "a", "b"]
