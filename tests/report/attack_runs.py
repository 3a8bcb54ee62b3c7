"""A run directory holding a finished worst-case attack search (issue 27 §1), written by hand in the
shape of /work/notes/attack_contract.md: two papers, each searched against reviewer ``rev-a``
(direction ``+``); the winners are ordinary variants (condition ``attack:+``, rewriter
``attacker>rev-a``) carrying an ``attack_trajectory`` artefact, and both reviewers reviewed the
originals and the winners twice (the held-out replicates).

Held-out overall scores (mean of two replicates), by reviewer, paper and arm::

    rev-a  p1: original 4.0 (4, 4)  winner 6.0 (6, 6)   shift +2.0
    rev-a  p2: original 5.0 (5, 5)  winner 5.5 (5, 6)   shift +0.5
    rev-b  p1: original 4.0 (4, 4)  winner 5.0 (5, 5)   shift +1.0
    rev-b  p2: original 6.0 (6, 6)  winner 6.0 (6, 6)   shift  0.0

so the mean held-out shift of rev-a's winners is 1.25 for rev-a and 0.5 for rev-b (the transfer
matrix), and at the threshold 4.5 rev-a's decision flips on p1 only (1 of 2). The trajectories'
in-search scores: p1 4.5 → 7.0 (best 7.0, in-search shift 2.5), p2 5.0 → 6.5 (1.5). After each
search rev-a re-reviewed the original twice: p1 4 and 5 (mean 4.5, not accepted: no flip), p2 5
and 6. Only p1 is eligible for ``attack:+`` (p2's original 5.0 is accepted): 1 winner flip, 0
re-review flips of 1 paper, success 1 with the exact interval [2·0.025 − 1, 1] = [−0.95, 1] and
McNemar's p = 1.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rhetorica.labels import attack_rewriter
from rhetorica.store.db import Store
from rhetorica.store.runs import STUDY_FILE
from rhetorica.study.config import parse_study

TARGET = "rev-a"
REWRITER = attack_rewriter("attacker", TARGET)
CONDITION = "attack:+"
HOSTILE = "<script>alert('x')</script>"
"""Text planted in a trajectory's failure reason (must show escaped everywhere)."""

ORIGINAL_TEXT = {"p1": "We propose a graph model. It improves accuracy on two benchmarks.",
                 "p2": "We study neural arithmetic units and report results."}
WINNER_TEXT = {"p1": "We propose a principled graph model. It clearly improves accuracy on two benchmarks.",
               "p2": "We carefully study neural arithmetic units and report strong results."}

HELD_OUT: dict[tuple[str, str, str], tuple[float, float]] = {
    ("rev-a", "p1", "original"): (4, 4), ("rev-a", "p1", CONDITION): (6, 6),
    ("rev-a", "p2", "original"): (5, 5), ("rev-a", "p2", CONDITION): (5, 6),
    ("rev-b", "p1", "original"): (4, 4), ("rev-b", "p1", CONDITION): (5, 5),
    ("rev-b", "p2", "original"): (6, 6), ("rev-b", "p2", CONDITION): (6, 6),
}

ATTACK_STUDY: dict[str, Any] = {
    "name": "attack-study", "documents": ["papers/*"], "decision_threshold": 4.5, "replicates": 2, "validation": {"enabled": False},
    "rewriters": [{"name": "attacker", "kind": "attack", "model": "mock/attacker", "conditions": [CONDITION],
                   "options": {"targets": [TARGET], "candidates": 2, "rounds": 2, "search_replicates": 2,
                               "max_queries": 12, "scope": "abstract"}}],
    "reviewers": [{"name": "rev-a", "model": "mock/a", "protocol": "default"},
                  {"name": "rev-b", "model": "mock/b", "protocol": "default"}],
}


def _candidate(i: int, score: float | None, kept: bool, reason: str | None = None) -> dict[str, Any]:
    valid = reason is None
    scores = [score, score] if score is not None else []
    return {"candidate": i, "valid": valid, "reason": reason, "score": score, "scores": scores, "kept": kept,
            "text_hash": f"h{i}"}


TRAJECTORIES: dict[str, dict[str, Any]] = {
    "p1": {"document": "p1", "target": TARGET, "direction": "+", "metric": "overall", "original_score": 4.5,
           "rounds": [{"round": 0, "candidates": [_candidate(0, 4.5, True)]},
                      {"round": 1, "candidates": [_candidate(0, 5.5, True), _candidate(1, None, False, HOSTILE)]},
                      {"round": 2, "candidates": [_candidate(0, 7.0, True), _candidate(1, 6.0, False)]}],
           "best_in_search_score": 7.0, "queries": 10, "rereview_scores": [4, 5], "cost_usd": 0.25,
           "stopped": "rounds",
           "outcome": "improved on the original"},
    "p2": {"document": "p2", "target": TARGET, "direction": "+", "metric": "overall", "original_score": 5.0,
           "rounds": [{"round": 0, "candidates": [_candidate(0, 5.0, True)]},
                      {"round": 1, "candidates": [_candidate(0, 6.5, True), _candidate(1, 4.0, False)]},
                      {"round": 2, "candidates": [_candidate(0, 6.0, False), _candidate(1, 5.0, False)]}],
           "best_in_search_score": 6.5, "queries": 12, "rereview_scores": [5, 6], "cost_usd": 0.35,
           "stopped": "budget",
           "outcome": "improved on the original"},
}


def _document(doc: str, text: str) -> str:
    return json.dumps({"id": doc, "title": f"Paper {doc}", "sections": [{"title": "Abstract", "text": text}]})


def variant_key(doc: str) -> str:
    """The unit key of ``doc``'s winning variant in :func:`make_attack_run`'s store."""
    return f"v-{doc}-attack"


def make_attack_run(run_dir: Path, *, study: dict[str, Any] | None = None) -> Path:
    """Write ``study.json`` (:data:`ATTACK_STUDY` updated by ``study``) and a store holding the
    originals, the winners with their trajectories and the held-out reviews of the module
    docstring; returns ``run_dir``."""
    run_dir.mkdir(parents=True, exist_ok=True)
    spec = parse_study({**ATTACK_STUDY, **(study or {})})
    (run_dir / STUDY_FILE).write_text(spec.model_dump_json(indent=2), encoding="utf-8")
    store = Store.in_dir(run_dir)
    try:
        for doc, text in ORIGINAL_TEXT.items():
            store.insert("documents", {"document_id": doc, "content_hash": f"h-{doc}", "kind": "manuscript",
                                       "title": f"Paper {doc}", "document_json": _document(doc, text)})
            store.save_variant({"unit_key": variant_key(doc), "document_id": doc, "condition": CONDITION,
                                "rewriter": REWRITER, "prompt_version": "attack@1", "original_hash": f"h-{doc}",
                                "content_hash": f"w-{doc}", "status": "ok", "reason": None,
                                "document_json": _document(doc, WINNER_TEXT[doc])},
                               {"attack_trajectory": TRAJECTORIES[doc]})
        for n, ((reviewer, doc, arm), values) in enumerate(HELD_OUT.items()):
            original = arm == "original"
            for rep, value in enumerate(values):
                store.save_assessment({
                    "unit_key": f"u{n}-{rep}", "document_id": doc,
                    "variant_key": None if original else variant_key(doc),
                    "input_hash": f"i-{doc}-{arm}", "condition": arm, "rewriter": "none" if original else REWRITER,
                    "reviewer": reviewer, "model": f"mock/{reviewer}", "protocol": "default", "form": "review-000@1",
                    "replicate": rep, "status": "ok"}, {"overall": float(value)})
    finally:
        store.close()
    return run_dir
