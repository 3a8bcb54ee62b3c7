"""The stage graph: registered stages, their order by kinds, and a stage over assessments.

``GuidedRewrite`` is a stage registered by this test only: a second rewrite that needs a review of
the first text (reviewer-guided rewriting, rewrite -> review -> rewrite). It appends the review's
summary to the reviewed text, so its output shows which review it was built on.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from rhetorica import registry
from rhetorica.documents.models import Section
from rhetorica.hashing import content_hash
from rhetorica.kinds import RunContext
from rhetorica.status import Status
from rhetorica.study import graph, planner
from rhetorica.study.config import load_study
from rhetorica.study.runner import StudyRunner
from rhetorica.study.stages import TableStage
from rhetorica.study.status import study_status
from tests.study.helpers import write_study

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
PAPER = DATA / "papers" / "gcrn_iclr2017"


@dataclass(frozen=True)
class GuidedUnit:
    key: str
    assessment: planner.Assessment
    after: tuple[str, ...]
    waiting: bool

    @property
    def label(self) -> str:
        return f"{self.assessment.target.document_id} / guided"


class GuidedRewrite(TableStage):
    """assessment -> revision: the reviewed original with the review's summary appended."""

    name = "guided-test"
    consumes = ("assessment",)
    produces = "revision"
    table = "variants"
    plan = "rewrite"
    order = 40

    def applies(self, config: Any) -> bool:
        return True

    def units(self, config: Any, inputs: dict[str, Any]) -> list[Any]:
        return [GuidedUnit(planner.unit_key("guided-test", a.target.document.content_hash, a.key, 0,
                                            (a.target.document_id,)), a, (a.key,), a.assumed)
                for a in inputs.get("assessment") or [] if a.target.variant_key is None]

    def outputs(self, store: Any, units: list[Any], assume_pending: bool) -> list[Any]:
        return []

    async def execute(self, unit: Any, ctx: RunContext) -> dict[str, Any]:
        original = unit.assessment.target.document
        summary = json.loads(unit.assessment.row["review_json"])["summary"]
        sections = [*original.sections, Section(title="Response to the review", text=summary)]
        variant = original.model_copy(update={"sections": sections})
        return {"unit_key": unit.key, "document_id": original.id, "condition": "guided", "rewriter": self.name,
                "prompt_version": "test", "original_hash": original.content_hash, "status": str(Status.OK),
                "reason": None, "content_hash": variant.content_hash, "document_json": variant.model_dump_json()}


@pytest.fixture
def guided(monkeypatch):
    monkeypatch.setattr(registry.stages, "_entries", dict(registry.stages._entries))
    registry.stages.add(GuidedRewrite.name, GuidedRewrite())


def _study(tmp_path: Path) -> Path:
    if not PAPER.is_dir():
        pytest.fail(f"shared data not found at {PAPER}")
    spec = {"name": "guided", "output_dir": str(tmp_path / "run"), "documents": [{"path": str(PAPER)}],
            "document_options": {"max_words": 200},
            "rewriters": [{"name": "rules", "kind": "rule-based", "conditions": ["confidence:+"]}],
            "reviewers": [{"name": "r", "model": "mock/reviewer"}], "replicates": 2,
            "validation": {"enabled": False}}
    return write_study(tmp_path / "study.yaml", spec)


def _runner(study: Path) -> StudyRunner:
    config, base = load_study(study)
    return StudyRunner(config, base)


def test_builtin_stages_are_ordered_by_what_they_consume(tmp_path):
    config, _ = load_study(_study(tmp_path))
    assert [s.name for s in graph.study_stages(config)] == ["rewrite", "review"]
    with_checks = config.model_copy(update={"validation": config.validation.model_copy(update={"enabled": True})})
    assert [(s.name, s.consumes, s.produces) for s in graph.study_stages(with_checks)] == [
        ("rewrite", ("document",), "variant"), ("validate", ("variant",), "checks"),
        ("review", ("document", "variant", "checks"), "assessment")]


def test_stages_that_consume_each_other_are_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(registry.stages, "_entries", dict(registry.stages._entries))
    loop = GuidedRewrite()
    loop.produces = "document"  # a stage over assessments that makes documents feeds the rewrites
    registry.stages.add("loop", loop)
    config, _ = load_study(_study(tmp_path))
    with pytest.raises(graph.StageOrderError, match=r"in a circle: .*rewrite \(document -> variant\)"):
        graph.study_stages(config)


def test_guided_rewrite_waits_for_the_review_it_reads(tmp_path, guided):
    study = _study(tmp_path)
    config, base = load_study(study)
    assert [s.name for s in graph.study_stages(config)] == ["rewrite", "review", "guided-test"]
    # before anything ran: 1 rewrite, (1 original + 1 variant) x 2 replicates reviews, one guided
    # rewrite per review of the original, all pending (the guided ones wait on their reviews)
    before = {s.stage: (s.units, s.done, s.pending) for s in study_status(config, base).stages}
    assert before == {"rewrite": (1, 0, 1), "review": (4, 0, 4), "guided-test": (2, 0, 2)}

    runner = _runner(study)
    stopped = asyncio.run(runner.run(before_stage=lambda stage: stage.name != "guided-test"))  # "crash" here
    assert stopped.units_run == 1 + 4
    runner.store.close()
    middle = {s.stage: (s.units, s.done, s.pending) for s in study_status(config, base).stages}
    assert middle == {"rewrite": (1, 1, 0), "review": (4, 4, 0), "guided-test": (2, 0, 2)}

    runner = _runner(study)
    resumed = asyncio.run(runner.run())
    steps = list(graph.walk(config, runner.load_documents([]), runner.store))
    reviews = {r["unit_key"]: json.loads(r["review_json"])["summary"] for r in runner.store.rows(
        "SELECT unit_key, review_json FROM assessments WHERE variant_key IS NULL")}
    guided_rows = runner.store.rows("SELECT unit_key, document_json FROM variants WHERE condition = 'guided'")
    runner.store.close()
    assert (resumed.units_run, resumed.model_calls, resumed.units_skipped) == (2, 0, 5)
    guided_step = steps[-1]
    # each guided unit hangs on one review of the original: the edges of the graph
    assert sorted(up for up, _ in guided_step.edges) == sorted(reviews)
    texts = {key: json.loads(doc)["sections"][-1]["text"] for key, doc in guided_rows}
    by_unit = {u.key: u.after[0] for u in guided_step.units}
    assert {key: reviews[by_unit[key]] for key in texts} == texts

    again = _runner(study)
    summary = asyncio.run(again.run())
    again.store.close()
    assert (summary.units_run, summary.model_calls) == (0, 0)
    after = {s.stage: (s.units, s.done, s.pending) for s in study_status(config, base).stages}
    assert after == {"rewrite": (1, 1, 0), "review": (4, 4, 0), "guided-test": (2, 2, 0)}
    assert study_status(config, base).superseded.empty  # guided variants are in the current plan


def test_unit_keys_do_not_depend_on_the_walk(tmp_path):
    """The typed units keep the keys of the matrix cells: a review's key is its cell's, whatever the graph."""
    config, base = load_study(_study(tmp_path))
    documents = _runner(_study(tmp_path)).load_documents([])
    doc = documents[0]
    steps = {s.stage.name: s for s in graph.walk(config, documents, None, assume_pending=True)}
    original_reviews = [u for u in steps["review"].units if u.variant_key is None]
    spec = planner.reviewer_spec_hash(config.reviewers[0])
    assert [u.key for u in original_reviews] == [
        content_hash("unit/v1", "review", doc.content_hash, spec, r, [doc.id, "original", "none"]) for r in (0, 1)]
    assert [u.key for u in steps["review"].waiting] == [
        content_hash("unit/v1", "review", doc.content_hash, spec, r, [doc.id, "confidence:+", "rules"]) for r in (0, 1)]
    assert steps["review"].edges == [(steps["rewrite"].units[0].key, u.key) for u in steps["review"].waiting]


def test_reference_warnings_count_the_reviews_without_another_review_of_their_paper(tmp_path: Path) -> None:
    from rhetorica.study.estimate import estimate_study
    from rhetorica.study.inputs import load_documents
    from rhetorica.study.stages import reference_warnings
    from tests.judges.test_judge_estimate_reference import REVIEWS, _study

    study = _study(tmp_path)  # papers A (2 reviews) and B (1); judges remor, remor-split, peer (scholarpeer)
    config, base_dir = load_study(study)
    said = ("family scholarpeer compares each review with another review of its paper: 1 of 3 reviews have none "
            "(their paper has one review in the study); their judgements and their rewrites' will fail")
    assert reference_warnings(config, load_documents(config, base_dir, [])) == [
        ("study", "reviewer peer", f"warning: {said}")]
    assert [w for w in estimate_study(study).warnings if "scholarpeer" in w] == [f"reviewer peer: {said}"]
    both = [*REVIEWS, {"paper_id": "B", "review": "The audio licence is fine; the baselines are old.", "rating": 5}]
    (tmp_path / "reviews.jsonl").write_text("\n".join(json.dumps(r) for r in both) + "\n", encoding="utf-8")
    assert reference_warnings(config, load_documents(config, base_dir, [])) == []
    alone = [{**r, "paper_id": f"P{k}"} for k, r in enumerate(REVIEWS)]
    (tmp_path / "reviews.jsonl").write_text("\n".join(json.dumps(r) for r in alone) + "\n", encoding="utf-8")
    assert [w[2].split(": ", 2)[2][:26] for w in reference_warnings(config, load_documents(config, base_dir, []))] == [
        "3 of 3 reviews have none ("]
