"""The ``python`` reviewer: sync and async functions, timeouts, exceptions, bad returns."""

from __future__ import annotations

import asyncio
import time

import pytest

from rhetorica.registry import evaluators
from rhetorica.reviewers.external import python_entry as _python  # noqa: F401  (registers the kind)
from rhetorica.status import Status
from tests.reviewers.external.helpers import ICLR_JSON, ICLR_REVIEW, evaluate

HERE = "tests.reviewers.external.test_python_entry"


def sync_review(manuscript: str, *, document_id: str, replicate: int, input_format: str, bonus: int = 0) -> dict:
    return ICLR_REVIEW | {"summary": f"{document_id}/{replicate}/{input_format}/{len(manuscript)}",
                          "overall": 5 + bonus}


async def async_review(manuscript: str, **kwargs) -> str:
    await asyncio.sleep(0)
    return ICLR_JSON


def slow_review(manuscript: str, **kwargs) -> dict:
    time.sleep(2)
    return ICLR_REVIEW


def crashing_review(manuscript: str, **kwargs) -> dict:
    raise RuntimeError("CUDA out of memory")


def exiting_review(manuscript: str, **kwargs) -> dict:
    raise SystemExit(3)


def interrupted_review(manuscript: str, **kwargs) -> dict:
    raise KeyboardInterrupt()


async def async_exiting_review(manuscript: str, **kwargs) -> dict:
    raise SystemExit("bye")


def number_review(manuscript: str, **kwargs) -> float:
    return 6.0


def reviewer(function: str, **options):
    return evaluators.get("python")("py", entry=f"{HERE}:{function}", **options)


def test_sync_function_gets_the_manuscript_and_options() -> None:
    result = evaluate(reviewer("sync_review", options={"bonus": 2}))
    assert result.status == Status.OK and result.scores["overall"] == 7.0
    assert result.payload["summary"] == "p1/0/markdown/50"  # 50 characters of Markdown: 18 + 2 + 15 + 2 + 12 + 1


def test_async_function_is_awaited() -> None:
    assert evaluate(reviewer("async_review")).scores["overall"] == 6.0


def test_failures_are_statuses() -> None:
    slow = evaluate(reviewer("slow_review", timeout_s=0.2))
    assert (slow.status, slow.reason) == (Status.TIMEOUT, f"{HERE}:slow_review ran past its 0.2 s limit")
    crash = evaluate(reviewer("crashing_review"))
    assert (crash.status, crash.reason) == (Status.ERROR, f"{HERE}:crashing_review raised RuntimeError: CUDA out of memory")
    number = evaluate(reviewer("number_review"))
    assert (number.status, number.reason) == (Status.MALFORMED, f"{HERE}:number_review returned a float, not a dict or JSON text")


def test_system_exit_and_keyboard_interrupt_are_errors_not_the_end_of_the_study() -> None:
    exits = evaluate(reviewer("exiting_review"))
    assert (exits.status, exits.reason) == (Status.ERROR, f"{HERE}:exiting_review raised SystemExit: 3")
    interrupted = evaluate(reviewer("interrupted_review"))
    assert (interrupted.status, interrupted.reason) == (
        Status.ERROR, f"{HERE}:interrupted_review raised KeyboardInterrupt: ")
    async_exits = evaluate(reviewer("async_exiting_review"))
    assert (async_exits.status, async_exits.reason) == (
        Status.ERROR, f"{HERE}:async_exiting_review raised SystemExit: bye")


def test_an_entry_that_does_not_load_is_named() -> None:
    with pytest.raises(ValueError, match="has no attribute 'no_such_function'"):
        reviewer("no_such_function")
    with pytest.raises(ValueError, match="cannot import 'no_such_package.mod': No module named 'no_such_package'"):
        evaluators.get("python")("py", entry="no_such_package.mod:f")
