"""Planner: review unit keys of reviewer configurations that differ only in their names."""

from __future__ import annotations

import asyncio
from pathlib import Path

from rhetorica.models.providers.mock import MockModel
from rhetorica.study.config import parse_study
from rhetorica.study.planner import reviewer_spec_hash, reviewer_spec_hashes
from rhetorica.study.runner import StudyRunner
from rhetorica.study.status import study_status

from .helpers import study_dict

TWINS = [{"name": "first", "model": "mock/reviewer", "sampling": {"temperature": 0.7}},
         {"name": "second", "model": "mock/reviewer", "sampling": {"temperature": 0.7}}]


def test_twin_reviewers_each_keep_their_results(shared_data: Path, tmp_path: Path) -> None:
    # 3 papers, no rewriters, 2 replicates: N = 6 units per reviewer; the twins share their calls
    config = parse_study(study_dict(shared_data, tmp_path / "run", rewriters=[], reviewers=TWINS))
    calls: list[int] = []

    def factory(model_id: str, options: dict) -> MockModel:
        calls.append(1)
        return MockModel(model=model_id.split("/", 1)[1], **options)

    runner = StudyRunner(config, tmp_path, model_factory=factory)
    try:
        summary = asyncio.run(runner.run())
        rows = runner.store.assessment_rows()
    finally:
        runner.store.close()
    by_reviewer = {name: sum(r["reviewer"] == name for r in rows) for name in ("first", "second")}
    assert by_reviewer == {"first": 6, "second": 6}
    assert summary.units_run == 12 and summary.model_calls == 6 and summary.cache_hits == 6
    review = next(s for s in study_status(config, tmp_path).stages if s.stage == "review")
    assert (review.units, review.done, review.pending) == (12, 12, 0)


def test_keys_of_distinct_reviewers_are_unchanged() -> None:
    config = parse_study({"name": "k", "documents": ["x.md"], "reviewers": [
        {"name": "a", "model": "mock/reviewer"}, {"name": "b", "model": "mock/reviewer", "protocol": "brief"}]})
    assert reviewer_spec_hashes(config.reviewers) == {r.name: reviewer_spec_hash(r) for r in config.reviewers}

