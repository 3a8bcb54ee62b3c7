"""call_model's retries (tenacity): which failures are retried, how long it waits between attempts
(Retry-After first, else exponential backoff), and when it stops. The waits are recorded instead of
slept."""

from __future__ import annotations

import asyncio

import pytest

from rhetorica.models import call as call_module
from rhetorica.models.api import ChatMessage, GenerateConfig
from rhetorica.models.call import RetryPolicy, call_model
from rhetorica.models.providers.mock import MockModel
from rhetorica.status import Status

MESSAGES = [ChatMessage(role="user", content="hello")]
#: no jitter: the waits are exactly 1, 2, 4, 8, then 10 (the cap)
POLICY = RetryPolicy(max_attempts=4, base_delay_s=1.0, max_delay_s=10.0, jitter=0.0)


@pytest.fixture
def waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    recorded: list[float] = []

    async def record(seconds: float) -> None:
        recorded.append(seconds)

    monkeypatch.setattr(call_module, "_sleep", record)
    return recorded


def _run(script: list, policy: RetryPolicy = POLICY) -> tuple[MockModel, object]:
    model = MockModel(script=script)
    return model, asyncio.run(call_model(model, MESSAGES, GenerateConfig(), retry=policy))


def test_transient_failures_back_off_exponentially_then_succeed(waits: list[float]) -> None:
    model, out = _run([{"error": "transient"}, {"error": "timeout"}, {"error": "transient"}, "fine"])
    assert (out.status, out.text, len(model.calls)) == (Status.OK, "fine", 4)
    assert waits == [1.0, 2.0, 4.0]


def test_retry_after_is_waited_instead_of_the_backoff_and_capped_at_four_times_the_maximum(waits: list[float]) -> None:
    model, out = _run([{"error": "rate_limit", "retry_after": 7}, {"error": "rate_limit", "retry_after": 1000},
                       {"error": "rate_limit"}, "fine"])
    assert out.status == Status.OK and len(model.calls) == 4
    assert waits == [7.0, 40.0, 4.0]  # Retry-After 7; 1000 capped at 4 x 10; none given: backoff of attempt 3


@pytest.mark.parametrize("kind", ["permanent", "context_overflow", "invalid_request", "not_found", "auth"])
def test_permanent_failures_are_never_retried(waits: list[float], kind: str) -> None:
    model, out = _run([{"error": kind}, "never reached"])
    assert (out.status, len(model.calls), waits) == (Status.ERROR, 1, [])
    assert out.error is not None and out.error.endswith(f"mock {kind}")


def test_the_last_attempt_s_failure_is_the_outcome_after_max_attempts(waits: list[float]) -> None:
    model, out = _run([{"error": "transient"}] * 3 + [{"error": "timeout"}, "never reached"])
    assert (out.status, len(model.calls)) == (Status.TIMEOUT, 4)
    assert out.error == "ModelTimeoutError after 4 attempt(s): mock timeout"
    assert waits == [1.0, 2.0, 4.0]  # no wait after the last attempt


def test_one_attempt_means_no_retry(waits: list[float]) -> None:
    model, out = _run([{"error": "transient"}, "never reached"], RetryPolicy(max_attempts=1))
    assert (out.status, out.error, len(model.calls), waits) == (
        Status.ERROR, "TransientError after 1 attempt(s): mock transient", 1, [])


def test_jitter_adds_at_most_its_fraction() -> None:
    policy = RetryPolicy(base_delay_s=2.0, max_delay_s=60.0, jitter=0.25)
    for attempt, base in ((1, 2.0), (2, 4.0), (3, 8.0), (7, 60.0)):
        assert all(base <= policy.wait(attempt, None) <= base * 1.25 for _ in range(50))


def test_a_429_waits_its_retry_after_without_spending_an_attempt(waits: list[float]) -> None:
    # 6 rate-limited answers, then one: 4 attempts are for failures, so all 7 requests are made
    model, out = _run([{"error": "rate_limit", "retry_after": 1}] * 6 + ["fine"])
    assert (out.status, out.text, len(model.calls), out.transient) == (Status.OK, "fine", 7, False)
    assert waits == [1.0] * 6
    # a failure after them still has all its attempts: 3 transient failures and an answer
    model, out = _run([{"error": "rate_limit", "retry_after": 1}] * 2 + [{"error": "transient"}] * 3 + ["fine"])
    assert (out.status, len(model.calls)) == (Status.OK, 6)


def test_rate_limit_waits_are_bounded_per_unit_and_end_the_call_as_transient(waits: list[float]) -> None:
    policy = POLICY.model_copy(update={"rate_limit_wait_s": 2.5})
    model, out = _run([{"error": "rate_limit", "retry_after": 1}] * 5 + ["never reached"], policy)
    # waits of 1 + 1 s; a third would make 3 s > 2.5 s: the call ends, its unit left pending
    assert (out.status, len(model.calls), waits, out.transient) == (Status.ERROR, 3, [1.0, 1.0], True)
    assert out.error is not None and "rate_limit_wait_s 2.5 s" in out.error


def test_a_call_whose_attempts_all_failed_transiently_is_marked_transient_a_permanent_one_not(
        waits: list[float]) -> None:
    _, out = _run([{"error": "transient"}] * 4)
    assert (out.status, out.transient) == (Status.ERROR, True)
    _, out = _run([{"error": "transient"}, {"error": "permanent"}])
    assert (out.status, out.transient) == (Status.ERROR, False)
