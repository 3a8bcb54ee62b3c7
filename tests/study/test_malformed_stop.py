"""A configuration stopped for repeated malformed answers is stopped once (issue 23.3): a re-run does not
ask it again (no model call), says why, and ``--retry-failed`` asks again."""

from __future__ import annotations

import asyncio
from pathlib import Path

from rhetorica.models.providers.mock import MockModel
from rhetorica.study.config import parse_study
from rhetorica.study.runner import MALFORMED_STOP_MIN, StudyRunner

from .helpers import study_dict


def run(spec: dict, tmp_path: Path, model: MockModel, retry_failed: bool = False):
    runner = StudyRunner(parse_study(spec), tmp_path, model_factory=lambda model_id, options: model)
    try:
        return asyncio.run(runner.run(retry_failed=retry_failed))
    finally:
        runner.store.close()


def test_a_stopped_configuration_is_not_asked_again_until_retry_failed(shared_data, tmp_path):
    spec = study_dict(shared_data, tmp_path / "run", rewriters=[], replicates=4, concurrency=1,
                      reviewers=[{"name": "prose", "model": "mock/prose"}])
    first = MockModel(model="prose", script=["I liked this paper a lot."] * 40)
    summary = run(spec, tmp_path, first)
    assert summary.units_run == MALFORMED_STOP_MIN == 5 and len(first.calls) == 10  # 12 units, 7 left pending
    again = MockModel(model="prose", script=["I liked this paper a lot."] * 40)
    summary = run(spec, tmp_path, again)
    assert again.calls == [] and summary.units_run == 0
    assert summary.stopped_configurations["prose"] == (
        "stopped in an earlier run: all 5 stored reviews are malformed (rule: the first 5 or more reviews of a "
        "configuration all malformed); not asked again, --retry-failed asks again")
    said = [p for p in summary.problems if p[1] == "prose"]
    assert len(said) == 1 and said[0][0] == "review"
    retried = MockModel(model="prose", script=["I liked this paper a lot."] * 40)
    summary = run(spec, tmp_path, retried, retry_failed=True)
    # run again: the 5 stored units are re-parsed from the response cache and stop it again by this run's rule
    assert summary.units_run == 5 and summary.cache_hits == 10 and retried.calls == []
    assert "all 5 reviews so far are malformed" in summary.stopped_configurations["prose"]
