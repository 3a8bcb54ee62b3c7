"""The circuit breaker: an endpoint that fails every request is paused after the threshold, then its
configuration stops with its units left pending, and a later run resumes them."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from fake_servers import FakeServer
from rhetorica.models.breaker import BreakerSettings, CircuitBreaker, EndpointDownError
from rhetorica.study.config import parse_study
from rhetorica.study.runner import StudyRunner
from rhetorica.study.status import study_status

SHARED_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_threshold_pause_trial_and_down():
    clock = Clock()
    events: list[tuple[str, str]] = []
    breaker = CircuitBreaker("e", BreakerSettings(failures=3, pause_s=10, recovery_s=60), clock=clock,
                             on_change=lambda endpoint, event, detail: events.append((endpoint, event)))
    for _ in range(2):
        breaker.record(transient_failure=True)
    breaker.record(transient_failure=False)  # an answer between failures does not reset the count
    assert not breaker.is_open and breaker.failures == 2
    breaker.record(transient_failure=True)  # 3 failures of 4 outcomes (75% >= 50%): paused
    assert breaker.is_open and not breaker.down and events == [("e", "paused")]
    clock.now += 10  # the pause is over: one trial call
    asyncio.run(breaker.admit())
    breaker.record(transient_failure=True)
    clock.now += 50  # 60 s after opening, no answer: down
    assert breaker.down
    with pytest.raises(EndpointDownError, match=r"3 or more transient failures within 60 s and 60 s"):
        asyncio.run(breaker.admit())


def test_failures_below_the_rate_or_outside_the_window_do_not_pause():
    clock = Clock()
    breaker = CircuitBreaker("e", BreakerSettings(failures=3, failure_rate=0.5, window_s=60), clock=clock)
    for _ in range(7):
        breaker.record(transient_failure=False)
    for _ in range(3):
        breaker.record(transient_failure=True)
    assert not breaker.is_open  # 3 failures of 10 outcomes: 30% < 50%
    clock.now += 61  # all ten leave the window
    breaker.record(transient_failure=True)
    breaker.record(transient_failure=True)
    assert not breaker.is_open and breaker.failures == 2  # 2 of 2 but fewer than 3 failures
    breaker.record(transient_failure=True)
    assert breaker.is_open  # 3 of 3


def test_a_429_counts_once_its_retry_after_has_passed():
    clock = Clock()
    breaker = CircuitBreaker("e", BreakerSettings(failures=3, window_s=60), clock=clock)
    for _ in range(3):
        breaker.record(transient_failure=True, retry_after=5.0)
    assert not breaker.is_open and breaker.failures == 0  # the server asked for 5 s: not failing yet
    clock.now += 4.9
    assert not breaker.is_open
    clock.now += 0.1  # the pause it asked for is over and it was still refusing: 3 failures
    assert breaker.is_open


def test_an_answer_during_a_trial_closes_the_breaker():
    clock = Clock()
    events: list[str] = []
    breaker = CircuitBreaker("e", BreakerSettings(failures=1, pause_s=5, recovery_s=60), clock=clock,
                             on_change=lambda endpoint, event, detail: events.append(event))
    breaker.record(transient_failure=True)
    clock.now += 5  # the pause is over: the next call is the trial
    asyncio.run(breaker.admit())
    breaker.record(transient_failure=False)
    assert (breaker.is_open, breaker.failures) == (False, 0)
    assert events == ["paused", "resumed"]


class Progress:
    def __init__(self) -> None:
        self.totals: dict[str, int] = {}
        self.advanced: dict[str, int] = {}

    def start(self, stage: str, total: int) -> None:
        self.totals[stage] = total
        self.advanced[stage] = 0

    def advance(self, stage: str) -> None:
        self.advanced[stage] += 1


def run(spec: dict, tmp_path: Path):
    progress = Progress()
    runner = StudyRunner(parse_study(spec), tmp_path, progress=progress)
    try:
        return asyncio.run(runner.run()), progress, len(runner.store.assessment_rows())
    finally:
        runner.store.close()


def test_an_endpoint_failing_every_request_stops_its_configuration_with_units_pending(tmp_path):
    with FakeServer(fault_fn=lambda index, body: "server_error") as server:
        spec = {
            "name": "dead-endpoint",
            "output_dir": str(tmp_path / "run"),
            "documents": [str(SHARED_DATA / "papers" / "gcrn_iclr2017")],
            "document_options": {"max_words": 120},
            "reviewers": [{"name": "dead", "model": f"openai-compatible/fake@{server.url}/v1",
                           "options": {"structured_output": "json_schema", "max_concurrency": 4}}],
            "replicates": 8,
            "concurrency": 4,
            "circuit_breaker": {"failures": 3, "pause_s": 0.2, "recovery_s": 1.0},
        }
        summary, progress, stored = run(spec, tmp_path)
        sent = len(server.model_requests())
        # 4 units in flight fail once each (the third failure opens the breaker), then at most one
        # trial per 0.2 s pause for 1 s: a dead endpoint is not ground through 8 x 5 attempts
        assert 4 <= sent <= 4 + 6, sent
        assert list(summary.stopped_configurations) == ["dead"]
        assert "circuit breaker" in summary.stopped_configurations["dead"]
        assert sum("configuration stopped" in reason for _, _, reason in summary.problems) == 1  # said once
        assert (stored, summary.units_run, summary.units_pending) == (0, 0, 8)  # pending, not failed
        assert (progress.totals["review"], progress.advanced["review"]) == (8, 0)  # nothing counted as done
        review = next(s for s in study_status(parse_study(spec), tmp_path).stages if s.stage == "review")
        assert (review.done, review.pending) == (0, 8)

        server.fault_fn = None  # the server is back: a later run resumes every unit
        summary, progress, stored = run(spec, tmp_path)
    assert (stored, summary.units_run, summary.stopped_configurations) == (8, 8, {})
    assert progress.advanced["review"] == 8


@pytest.mark.parametrize(("settings", "why"), [
    ({"failures": True}, "failures"), ({"pause_s": 0}, "pause_s"), ({"pause_s": -1}, "pause_s"),
    ({"failure_rate": 0}, "failure_rate"), ({"failure_rate": 1.5}, "failure_rate"), ({"window_s": 0}, "window_s")])
def test_settings_refuse_a_boolean_count_and_a_pause_that_is_not_positive(settings, why):
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match=why):
        BreakerSettings(**settings)
