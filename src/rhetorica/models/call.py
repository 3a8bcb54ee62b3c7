"""One entry point for every model call: cache, concurrency, retries, classification and the call log.

Policy (ARCHITECTURE.md, "Model layer"):
- cache hit -> no call; only ``ok`` outputs are cached (never errors or refusals);
- :class:`RateLimitError` / :class:`TransientError` / :class:`ModelTimeoutError` retried with
  jittered exponential backoff, honouring ``Retry-After`` when given;
- :class:`PermanentError` fails at once; every failure becomes a :class:`ModelOutput` with a failure
  status and the reason — callers never see an exception for a model failure.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass

from rhetorica.models.api import ChatMessage, GenerateConfig, ModelAPI, ModelOutput
from rhetorica.models.budget import Budget
from rhetorica.models.cache import CallLog, cache_key
from rhetorica.models.errors import (
    ModelError,
    ModelTimeoutError,
    PermanentError,
    RateLimitError,
    TransientError,
)
from rhetorica.status import Status


@dataclass(frozen=True)
class RetryPolicy:
    """Retry settings.

    Attributes:
        max_attempts: total attempts per call (>= 1).
        base_delay_s: first backoff delay in seconds; doubles each attempt.
        max_delay_s: cap on one delay (a larger ``Retry-After`` is still honoured up to this cap x 4).
        jitter: fraction of random jitter added to each delay, in [0, 1].
    """

    max_attempts: int = 5
    base_delay_s: float = 1.0
    max_delay_s: float = 60.0
    jitter: float = 0.25

    def delay(self, attempt: int, retry_after: float | None) -> float:
        """Seconds to wait before attempt ``attempt + 1`` (attempt counts from 1)."""
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.max_delay_s * 4)
        base = min(self.base_delay_s * 2 ** (attempt - 1), self.max_delay_s)
        return base * (1 + self.jitter * random.random())


class ConnectionLimits:
    """One semaphore per connection key (provider endpoint), created on first use."""

    def __init__(self) -> None:
        self._semaphores: dict[str, asyncio.Semaphore] = {}

    def semaphore(self, model: ModelAPI) -> asyncio.Semaphore:
        key = model.connection_key
        if key not in self._semaphores:
            self._semaphores[key] = asyncio.Semaphore(max(1, model.max_concurrency))
        return self._semaphores[key]


def _failure(model: ModelAPI, status: Status, reason: str, latency: float) -> ModelOutput:
    return ModelOutput(
        provider=model.provider, model=model.model, status=status, error=reason, latency_s=latency
    )


async def call_model(
    model: ModelAPI,
    messages: list[ChatMessage],
    config: GenerateConfig,
    *,
    replicate: int = 0,
    log: CallLog | None = None,
    unit_key: str | None = None,
    limits: ConnectionLimits | None = None,
    retry: RetryPolicy | None = None,
    budget: Budget | None = None,
) -> ModelOutput:
    """Generate with caching, retries and logging; never raises for a model failure.

    Args:
        model: provider connection.
        messages: chat messages.
        config: sampling/output config.
        replicate: replicate index (part of the cache key, so replicates are distinct samples).
        log: store implementing :class:`CallLog`; ``None`` disables cache and logging.
        unit_key: work unit the call belongs to, for the call log.
        limits: shared per-connection semaphores.
        retry: retry policy (default :class:`RetryPolicy`).
        budget: study budget; a live call first reserves its worst-case cost (cache hits are free).

    Returns:
        The output, with ``status`` ``ok`` or a failure status and ``error`` set.

    Raises:
        BudgetExceededError: the call could take spending past ``budget``; it was not made (the
            caller leaves its unit pending and says so).
    """
    retry = retry or RetryPolicy()
    key = cache_key(model.provider, model.model, messages, config, replicate)
    if log is not None:
        cached = log.cache_get(key)
        if cached is not None:
            hit = cached.model_copy(update={"cache_hit": True, "latency_s": 0.0, "cost_usd": 0.0})
            log.record_call(unit_key, key, hit, config)
            return hit

    reserved = budget.reserve(model, messages, config) if budget is not None else 0.0
    output: ModelOutput | None = None
    try:
        for attempt in range(1, retry.max_attempts + 1):
            started = time.perf_counter()
            try:
                if limits is not None:
                    async with limits.semaphore(model):
                        output = await model.generate(messages, config)
                else:
                    output = await model.generate(messages, config)
                break
            except PermanentError as exc:
                output = _failure(model, Status.ERROR, f"{type(exc).__name__}: {exc}", time.perf_counter() - started)
                break
            except TransientError as exc:
                elapsed = time.perf_counter() - started
                status = Status.TIMEOUT if isinstance(exc, ModelTimeoutError) else Status.ERROR
                output = _failure(model, status, f"{type(exc).__name__} after {attempt} attempt(s): {exc}", elapsed)
                if log is not None:
                    log.record_call(unit_key, key, output, config)
                if attempt == retry.max_attempts:
                    return output
                retry_after = exc.retry_after if isinstance(exc, RateLimitError) else None
                await asyncio.sleep(retry.delay(attempt, retry_after))
            except ModelError as exc:
                output = _failure(model, Status.ERROR, f"{type(exc).__name__}: {exc}", time.perf_counter() - started)
                break

        assert output is not None
        if log is not None:
            if output.status == Status.OK:
                log.cache_put(key, output)
            log.record_call(unit_key, key, output, config)
        return output
    finally:
        if budget is not None:
            budget.settle(reserved, output.cost_usd if output is not None else 0.0)
