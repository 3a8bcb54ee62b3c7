"""Estimate counts the review-metric study's calls, with the judge's own messages; the
human-anchored family (ScholarPeer) reads the paired reference review in a study.

Study: three reviews (JSONL, one per line) — paper A has two, paper B one — rewritten by a
``review``-kind rewriter (one call per review) and judged by three mock judges. By hand:

- rewrite: 3 calls (one per review);
- REMOR packed: 6 calls (3 originals + 3 variants, one call each);
- REMOR ``packing: metric``: 6 x 8 metrics = 48 calls;
- ScholarPeer: paper A's two reviews and their variants = 4 calls; paper B's review has no other
  review to compare with: no call, an ``error`` naming the missing reference.
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from typer.testing import CliRunner

from rhetorica.cli.app import app
from rhetorica.models.providers.mock import MockModel
from rhetorica.store.db import STORE_FILENAME, Store
from rhetorica.store.export import assessments_table
from rhetorica.study import graph
from rhetorica.study.config import load_study
from rhetorica.study.estimate import estimate_study
from rhetorica.study.inputs import load_documents

REVIEWS = [
    {"paper_id": "A", "review": "The method is sound. The experiments on two datasets are thin.", "rating": 5},
    {"paper_id": "A", "review": "Clear writing. Missing comparison with spectral baselines.", "rating": 6},
    {"paper_id": "B", "review": "An interesting dataset, but the licence of the audio is unclear.", "rating": 4},
]


def _study(tmp_path: Path) -> Path:
    (tmp_path / "reviews.jsonl").write_text("\n".join(json.dumps(r) for r in REVIEWS) + "\n", encoding="utf-8")
    spec = {
        "name": "judges-estimate", "output_dir": str(tmp_path / "run"),
        "documents": [{"reviews": "reviews.jsonl"}],
        "rewriters": [{"name": "para", "kind": "review", "model": "mock/rewriter", "conditions": ["paraphrase"],
                       "options": {"script": [f"## Review\n\nIn other words: {r['review']}" for r in REVIEWS]}}],
        "reviewers": [
            {"name": "remor", "kind": "judge", "model": "mock/remor", "options": {"family": "remor"}},
            {"name": "remor-split", "kind": "judge", "model": "mock/remor-split",
             "options": {"family": "remor", "packing": "metric"}},
            {"name": "peer", "kind": "judge", "model": "mock/peer", "options": {"family": "scholarpeer"}}],
        "validation": {"enabled": False}, "concurrency": 1,
    }
    path = tmp_path / "study.yaml"
    path.write_text(yaml.safe_dump(spec), encoding="utf-8")
    return path


def test_estimate_counts_review_rewrites_and_judge_calls(tmp_path: Path) -> None:
    estimate = estimate_study(_study(tmp_path))
    calls = {(r.stage, r.model): r.calls for r in estimate.rows}
    assert calls == {("rewrite", "mock/rewriter"): 3, ("review", "mock/remor"): 6,
                     ("review", "mock/remor-split"): 48, ("review", "mock/peer"): 4,
                     # each judge call may get one repair (an answer not valid in full)
                     ("review repairs (at most)", "mock/remor"): 6,
                     ("review repairs (at most)", "mock/remor-split"): 48,
                     ("review repairs (at most)", "mock/peer"): 4}


def test_estimate_prompts_are_what_the_judge_sends_and_scholarpeer_reads_the_reference(
        tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    study = _study(tmp_path)
    config, base_dir = load_study(study)
    documents = load_documents(config, base_dir, [])
    planned: dict[str, list[list[tuple[str, str]]]] = {}
    for step in graph.walk(config, documents, None, assume_pending=True):
        if step.stage.name != "review":
            continue
        for unit in step.units:  # the originals' units (variants are only assumed before the run)
            for call in step.stage.calls(unit):
                planned.setdefault(call.model, []).append([(m.role, m.content) for m in call.messages])

    received: dict[str, list[list[tuple[str, str]]]] = {}
    original_generate = MockModel.generate

    async def recording(self, messages, config):  # noqa: ANN001, ANN202
        received.setdefault(self.name.rsplit("/", 1)[-1], []).append([(m.role, m.content) for m in messages])
        return await original_generate(self, messages, config)

    monkeypatch.setattr(MockModel, "generate", recording)
    result = CliRunner().invoke(app, ["run", str(study)])
    # exit 1: paper B's two ScholarPeer units are stored failures. Before the report handled
    # judges of two families (primary metrics criticism and overall), this raised ValueError.
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    assert "review error 2, ok 16" in result.output
    # said once, before the report: paper B's review has no other review to compare with
    assert result.output.count("reviewer peer: family scholarpeer compares each review with another review of its "
                               "paper: 1 of 3 reviews have none") == 1

    for model in ("mock/remor", "mock/remor-split", "mock/peer"):
        name = model.split("/", 1)[1]
        assert planned[model] and all(call in received[name] for call in planned[model])
    assert len(received["rewriter"]) == 3 and len(received["remor"]) == 6 and len(received["remor-split"]) == 48
    assert len(received["peer"]) == 4  # paper B's review and its variant: no call
    a1, a2 = REVIEWS[0]["review"], REVIEWS[1]["review"]
    users = [dict(call)["user"] for call in received["peer"]]
    # review 1 is compared with review 2 and review 2 with review 1 (the next review, cyclically)
    assert all(u.startswith("The review to assess:\n\nCANDIDATE review:") for u in users)
    assert sum(u.index(a1) < u.index("REFERENCE review:") < u.index(a2) for u in users) == 2
    assert sum(u.index(a2) < u.index("REFERENCE review:") < u.index(a1) for u in users) == 2

    store = Store.open_readonly(tmp_path / "run" / STORE_FILENAME)
    try:
        table = assessments_table(store)
    finally:
        store.close()
    peer = table[table["reviewer"] == "peer"]
    b = peer[peer["document_id"] == "B.review1"]
    assert len(b) == 2 and set(b["status"]) == {"error"}
    assert set(b["reason"]) == {"the scholarpeer family compares with a reference review, and target B.review1 "
                                "has none"}
    assert set(peer[peer["document_id"] != "B.review1"]["status"]) == {"ok"}
