"""Imported (original, rewrite) pairs, judged without rewriting; the review rewrite conditions."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from rhetorica.evaluation import Target
from rhetorica.judges.conditions import REVIEW_CONDITIONS
from rhetorica.judges.judge import judge_factory
from rhetorica.documents.reviews.pairs import PairsError, read_review_pairs
from rhetorica.models.call import CallContext
from rhetorica.models.providers.mock import MockModel
from rhetorica.status import Status

ROWS = [
    {"paper_id": "iclr22_17", "review_id": "rA", "original": "Weak baselines.", "rewrite": "The baselines are weak.",
     "rewriter": "gpt-4o"},
    {"paper_id": "iclr22_17", "review_id": "rA", "original": "Weak baselines.", "rewrite": "Baselines: weak.",
     "rewriter": "llama-3"},
    {"paper_id": "iclr22_17", "review_id": "rB", "original": "Novel idea.", "rewrite": "The idea is novel."},
]


def write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "pairs.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_pairs_become_originals_and_linked_variants(tmp_path: Path) -> None:
    path = write(tmp_path, [json.dumps(r) for r in ROWS] + ["{not json", json.dumps({"review_id": "rC", "original": "x"})])
    imported = read_review_pairs(path)
    # the source's review ids are the document ids; rewrite ids are generated per review
    assert [d.id for d in imported.originals] == ["rA", "rB"]
    assert [d.paper_id for d in imported.originals] == ["iclr22_17", "iclr22_17"]
    assert [v.id for v in imported.variants] == ["rA.rewrite1", "rA.rewrite2", "rB.rewrite1"]
    assert [v.metadata["rewriter"] for v in imported.variants] == ["gpt-4o", "llama-3", "imported"]
    assert imported.variants[1].metadata["original_id"] == "rA"
    assert imported.variants[1].sections[0].text == "Baselines: weak."
    assert len(imported.problems) == 2
    assert imported.problems[0].startswith(f"{path}:4: not JSON")
    assert imported.problems[1] == f"{path}:5: a rewrite record needs its rewrite as text (rewrite)"


def test_conflicting_original_and_empty_file(tmp_path: Path) -> None:
    rows = [ROWS[0], ROWS[0] | {"original": "Different text."}]
    imported = read_review_pairs(write(tmp_path, [json.dumps(r) for r in rows]))
    assert len(imported.variants) == 1
    assert imported.problems[0].endswith(":2: review id 'rA' was given at line 1 with a different text; left out")
    with pytest.raises(PairsError, match="no usable pair"):
        read_review_pairs(write(tmp_path, ["[]"]))
    with pytest.raises(PairsError, match=r"no usable pair \(1 problem\(s\): .*:1: empty review text\)"):
        read_review_pairs(write(tmp_path, [json.dumps(ROWS[0] | {"original": " "})]))
    latin = tmp_path / "latin.jsonl"  # one bad line costs only itself
    latin.write_bytes(b'{"review_id": "r", "original": "Schw\xe4che", "rewrite": "x"}\n' + json.dumps(ROWS[2]).encode())
    imported = read_review_pairs(latin)
    assert [d.id for d in imported.originals] == ["rB"]
    assert imported.problems == [f"{latin}:1: not UTF-8 (byte 37 of the line: invalid continuation byte); line left out"]


def test_imported_pairs_are_judged_with_judge_calls_only(tmp_path: Path) -> None:
    imported = read_review_pairs(write(tmp_path, [json.dumps(r) for r in ROWS]))
    model = MockModel()
    judge = judge_factory("j", model=model, family="rottenreviews")
    targets = [Target(o, o.id, "original", "original", None, 0) for o in imported.originals] + [
        Target(v, v.metadata["original_id"], v.metadata["condition"], v.metadata["rewriter"], v.id, 0)
        for _, v in imported.pairs()]
    results = [asyncio.run(judge.evaluate(t, CallContext())) for t in targets]
    assert [r.status for r in results] == [Status.OK] * 5
    assert len(model.calls) == 5  # one judge call per text, no rewrite call


def test_review_conditions_have_versioned_instructions() -> None:
    assert set(REVIEW_CONDITIONS) == {"paraphrase", "polish"}
    paraphrase, polish = REVIEW_CONDITIONS["paraphrase"], REVIEW_CONDITIONS["polish"]
    assert paraphrase.instructions().startswith("You rewrite a peer review")
    assert "<!--" not in polish.instructions() and "fluency" in polish.instructions()
    assert paraphrase.prompt_version.startswith("v1:") and paraphrase.prompt_version != polish.prompt_version
    assert (paraphrase.length_bounds, polish.length_bounds) == ((0.45, 2.0), (0.45, 2.0))  # calibrated, issue 23
