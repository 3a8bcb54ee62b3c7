"""One entry point for every model call: cache, merging, pacing, retries, classification, call log.

Policy (ARCHITECTURE.md, "Model layer"):
- cache hit -> no call; only ``ok`` outputs are cached (never errors or refusals);
- identical calls in flight at the same time (same cache key) are merged: one request is sent and
  every caller gets its output (the others are logged like cache hits); :func:`single_flight` does
  this, for external reviewer calls as well;
- each request is logged when it is sent (status ``in_flight`` with its reserved worst-case cost)
  and updated when it returns, so a run killed mid-call still accounts for what it sent;
- requests are paced by the connection's :class:`rhetorica.models.limits.RateLimiter` (declared
  requests/tokens per minute, the server's rate-limit headers, a 429's ``Retry-After``);
- :class:`TransientError` / :class:`ModelTimeoutError` retried (tenacity's ``AsyncRetrying``) with
  jittered exponential backoff, each failure spending one of ``max_attempts``; a
  :class:`RateLimitError` (429) is waited out (its ``Retry-After``, else the backoff) without
  spending an attempt, within ``rate_limit_wait_s`` seconds of such waits per unit, and the wait is
  reported to the run (``ConnectionLimits.on_event``);
- a call whose attempts (or rate-limit waits) all ended in transient failures returns its last
  failure marked ``transient``: the runner leaves its unit pending, to be run again, instead of
  storing a failure;
- a logical model with several endpoints (:class:`rhetorica.models.endpoints.EndpointPool`) sends
  each attempt to a healthy endpoint, paced and limited on that endpoint's own connection; a
  transient failure there moves the next attempt to another healthy endpoint without backoff;
- a structured-output mode is negotiated once per endpoint (:mod:`rhetorica.models.negotiation`;
  the accepted mode kept in the store), and every HTTP request, probes included, has its own row;
- an endpoint that keeps failing is paused by its circuit breaker (:mod:`rhetorica.models.breaker`)
  and, if no endpoint of the model recovers, :class:`EndpointDownError` is raised (the unit stays
  pending);
- any other exception raised while a request is made or its answer read (a field of a type the
  provider's format does not allow) is an :class:`UnreadableAnswerError`, and any exception around
  the request a failure: the call's row is finished as ``error`` with the reason, never left
  ``in_flight`` (only cancellation leaves it so: the process ended mid-call);
- :class:`PermanentError` fails at once; every failure becomes a :class:`ModelOutput` with a failure
  status and the reason — callers never see an exception for a model failure (only the budget and
  a model that is down raise, so that the unit is left pending).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception_type

from rhetorica.models import negotiation as negotiation_module
from rhetorica.models.api import ChatMessage, GenerateConfig, ModelAPI, ModelOutput, Usage
from rhetorica.models.breaker import BreakerSettings, CircuitBreaker, EndpointDownError
from rhetorica.models.budget import Budget, charged_cost, input_cost, worst_case_cost
from rhetorica.models.cache import CallLog, model_cache_key
from rhetorica.models.endpoints import EndpointPool, has_other_endpoint, route
from rhetorica.models.errors import (
    ConfigurationError,
    InvalidRequestError,
    ModelError,
    ModelTimeoutError,
    PermanentError,
    RateLimitError,
    TransientError,
    UnreadableAnswerError,
    unexpected,
)
from rhetorica.models.limits import RateLimiter
from rhetorica.models.negotiation import Negotiation
from rhetorica.models.redaction import redact_urls
from rhetorica.models.usage import unknown_usage
from rhetorica.status import Status


@dataclass(frozen=True)
class CallContext:
    """What every model call of one work unit shares (one object instead of four arguments).

    Attributes:
        log: the store's cache and call log (``None``: no cache, no log — tests and one-off calls).
        unit_key: the work unit the calls belong to, for the call log.
        limits: the run's shared per-connection semaphores, rate limiters and calls in flight
            (``None``: no merging, the model's own rate limiter).
        budget: the study budget; a live call first reserves its worst-case cost (``None``: unlimited).
    """

    log: CallLog | None = None
    unit_key: str | None = None
    limits: ConnectionLimits | None = None
    budget: Budget | None = None


class RetryPolicy(BaseModel):
    """Retry settings (``retries:`` in the study file; the retry loop is tenacity's: :class:`_Attempts`).

    Attributes:
        max_attempts: attempts per call that may end in a transient failure (>= 1); a 429 does
            not spend one.
        base_delay_s: first backoff delay in seconds; doubles each attempt.
        max_delay_s: cap on one delay (a larger ``Retry-After`` is still honoured up to this cap x 4).
        jitter: fraction of random jitter added to each delay, in [0, 1].
        rate_limit_wait_s: seconds the calls of one unit may wait on 429s in all (``Retry-After``
            or backoff); a 429 past it ends the call as a transient failure (the unit stays pending).
    """

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    max_attempts: int = Field(default=5, ge=1, strict=True,
                              description="attempts per call that may end in a transient failure (a 429 spends none)")
    base_delay_s: float = Field(default=1.0, ge=0, description="first backoff delay in seconds; doubles each attempt")
    max_delay_s: float = Field(default=60.0, ge=0, description="cap on one backoff delay in seconds")
    jitter: float = Field(default=0.25, ge=0, le=1, description="fraction of random jitter added to each delay")
    rate_limit_wait_s: float = Field(default=900.0, ge=0, description="seconds the calls of one unit may wait on "
                                                                      "429s in all before the unit is left pending")

    def wait(self, attempt: int, retry_after: float | None) -> float:
        """Seconds to wait after failed attempt ``attempt`` (counted from 1; tenacity's wait
        strategy in :class:`_Attempts` asks): the server's ``Retry-After`` (capped at 4 x
        ``max_delay_s``), else ``base_delay_s x 2^(attempt - 1)`` capped at ``max_delay_s``, times
        ``1 + jitter x U[0, 1)``."""
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.max_delay_s * 4)
        base = min(self.base_delay_s * 2 ** (attempt - 1), self.max_delay_s)
        return base * (1 + self.jitter * random.random())


#: The retry policy of calls that name none (a study's ``retries:`` defaults).
DEFAULT_RETRY = RetryPolicy()


class ConnectionLimits:
    """What the calls of one run share per connection key (provider endpoint): a concurrency
    semaphore, one rate limiter, a circuit breaker, the structured-output negotiation, and the
    calls in flight (for merging identical ones).

    The first model of a connection that declares a rate limit supplies the connection's limiter,
    so reviewer and rewriter configurations on one endpoint are paced together; a connection
    without declared limits still gets a limiter that obeys the server's ``Retry-After`` and
    rate-limit headers.

    Args:
        breaker: the circuit breakers' settings (:mod:`rhetorica.models.breaker`); ``None``: no
            breaker (calls are only retried).
        retry: the retry policy of calls that name none (``None``: :class:`RetryPolicy`'s defaults).
        on_event: called with ``(endpoint, event, detail)`` when an endpoint's breaker pauses
            (``paused``) or resumes (``resumed``) it, and when a call waits out a 429
            (``waiting``); ``detail`` is one sentence for the terminal.
    """

    def __init__(self, breaker: BreakerSettings | None = None, retry: RetryPolicy | None = None,
                 on_event: Callable[[str, str, str], None] | None = None) -> None:
        self._semaphores: dict[str, asyncio.Semaphore] = {}
        self._limiters: dict[str, RateLimiter] = {}
        self._breaker_settings = breaker
        self._breakers: dict[str, CircuitBreaker] = {}
        self.retry = retry or DEFAULT_RETRY
        self.on_event = on_event
        #: unit key -> seconds its calls waited on 429s this run (bounded by ``rate_limit_wait_s``)
        self.rate_waits: dict[str | None, float] = {}
        #: cache key -> output of the call now in flight with that key
        self.in_flight: dict[str, asyncio.Future[ModelOutput]] = {}
        #: the structured-output modes found per endpoint during this run
        self.negotiation = Negotiation()

    def breaker(self, model: ModelAPI) -> CircuitBreaker | None:
        """The circuit breaker of ``model``'s connection (``None`` when breakers are off)."""
        if self._breaker_settings is None:
            return None
        key = model.connection_key
        if key not in self._breakers:
            self._breakers[key] = CircuitBreaker(redact_urls(key), self._breaker_settings, on_change=self.event)
        return self._breakers[key]

    def event(self, endpoint: str, event: str, detail: str) -> None:
        """Pass an endpoint event to ``on_event`` (nothing when none is set)."""
        if self.on_event is not None:
            self.on_event(endpoint, event, detail)

    def semaphore(self, model: ModelAPI) -> asyncio.Semaphore:
        key = model.connection_key
        if key not in self._semaphores:
            self._semaphores[key] = asyncio.Semaphore(max(1, model.max_concurrency))
        return self._semaphores[key]

    def limiter(self, model: ModelAPI) -> RateLimiter:
        """The rate limiter of ``model``'s connection: the first declared one, else one without
        quotas that still obeys the server (``Retry-After``, rate-limit headers)."""
        key = model.connection_key
        current = self._limiters.get(key)
        if current is None or (model.limiter is not None and current.request_quota is None
                               and current.token_quota is None and not current.observed):
            self._limiters[key] = model.limiter or RateLimiter()
        return self._limiters[key]


def _failure(model: ModelAPI, status: Status, reason: str, latency: float, *, stops: bool = False,
             answered: bool = False) -> ModelOutput:
    """A failure output; ``answered``: the server answered (and may bill it), its usage unknown."""
    return ModelOutput(provider=model.provider, model=model.model, status=status, error=reason, latency_s=latency,
                       stops_configuration=stops, usage=unknown_usage() if answered else Usage())


async def call_model(
    model: ModelAPI,
    messages: list[ChatMessage],
    config: GenerateConfig,
    *,
    replicate: int = 0,
    context: CallContext | None = None,
    retry: RetryPolicy | None = None,
) -> ModelOutput:
    """Generate with caching, merging, pacing, retries and logging; never raises for a model failure.

    Args:
        model: provider connection.
        messages: chat messages.
        config: sampling/output config.
        replicate: replicate index (part of the cache key, so replicates are distinct samples).
        context: the unit's :class:`CallContext` (cache and call log, unit key, shared limits,
            budget); ``None`` = no cache, no log, no shared limits, no budget.
        retry: retry policy (default: the run's, ``context.limits.retry``, else :class:`RetryPolicy`).

    Returns:
        The output, with ``status`` ``ok`` or a failure status and ``error`` set; ``transient``
        when every attempt ended in a transient failure (the unit's result would not be final).

    Raises:
        BudgetExceededError: the call could take spending past ``budget``; it was not made (the
            caller leaves its unit pending and says so).
        EndpointDownError: every endpoint of ``model`` stayed down past the circuit breaker's
            ``recovery_s`` (the caller stops the configuration and leaves its units pending).
    """
    context = context or CallContext()
    log, unit_key, limits, budget = context.log, context.unit_key, context.limits, context.budget
    if retry is None and limits is not None:
        retry = limits.retry
    key = model_cache_key(model, messages, config, replicate)
    return await single_flight(key, config, context, lambda: _live_call(
        model, messages, config, key, log, unit_key, limits, retry, budget))


async def single_flight(
    key: str, config: GenerateConfig, context: CallContext, live: Callable[[], Awaitable[ModelOutput]],
) -> ModelOutput:
    """The response cache and merging around one live call: a cached ``ok`` answer under ``key``
    is returned (logged as a cache hit) without a call; with the run's ``context.limits``, a call
    whose ``key`` is already in flight waits for that one and shares its output (logged like a
    cache hit), so each key is sent once at a time; otherwise ``live()`` makes the call (and logs
    and caches it). Model calls (:func:`call_model`) and external reviewer calls
    (:meth:`rhetorica.reviewers.external.base.ExternalReviewer.call`) both go through here.

    Raises:
        Whatever ``live()`` raises (a waiting caller re-raises a leader's :class:`ModelError`).
    """
    log, unit_key, limits = context.log, context.unit_key, context.limits
    if log is not None:
        cached = log.cache_get(key)
        if cached is not None:
            hit = cached.model_copy(update={"cache_hit": True, "latency_s": 0.0, "cost_usd": 0.0})
            log.record_call(unit_key, key, hit, config)
            return hit
    if limits is None:
        return await live()

    while (leader := limits.in_flight.get(key)) is not None:
        try:
            shared = await asyncio.shield(leader)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if leader.cancelled() and not (task is not None and task.cancelling()):
                continue  # the leading call was cancelled, not this one: send it ourselves
            raise
        merged = shared.model_copy(update={"cache_hit": True, "latency_s": 0.0, "cost_usd": 0.0})
        if log is not None:
            log.record_call(unit_key, key, merged, config)
        return merged

    future: asyncio.Future[ModelOutput] = asyncio.get_running_loop().create_future()
    limits.in_flight[key] = future
    try:
        output = await live()
    except ModelError as exc:  # the budget refused it: callers waiting on it are refused too
        future.set_exception(exc)
        future.exception()  # retrieved here: waiters re-raise it, nobody else needs to
        raise
    except BaseException:
        future.cancel()
        raise
    else:
        future.set_result(output)
        return output
    finally:
        if limits.in_flight.get(key) is future:
            del limits.in_flight[key]


@dataclass
class _Requests:
    """The HTTP requests of one attempt on one endpoint, each logged as it is sent (a structured
    call negotiating its mode may send several; a rejected mode's row is finished at once).
    ``call_id`` and ``started`` are the last request's."""

    model: ModelAPI
    target: ModelAPI
    messages: list[ChatMessage]
    config: GenerateConfig
    key: str
    log: CallLog | None
    unit_key: str | None
    reserved: float
    certain: float
    limiter: RateLimiter | None
    call_id: int | None = None
    started: float = 0.0
    #: the attempt the next request belongs to (1: the first), logged with it
    attempt: int = 1
    #: the last request's row was finished when the endpoint rejected its structured-output mode
    rejected: bool = False

    async def send(self, mode: str | None, probe: bool) -> ModelOutput:
        """One request (``mode``: the structured-output mode, ``None``: the provider's own)."""
        messages, config, limiter = self.messages, self.config, self.limiter
        if limiter is not None:
            await limiter.acquire(self.target.estimate_tokens(messages, config) if limiter.counts_tokens else 0)
        if self.log is not None:
            self.call_id = self.log.begin_call(self.unit_key, self.key, self.model, config, self.reserved,
                                               input_usd=self.certain, probe=probe, attempt=self.attempt)
            self.rejected = False
        self.started = time.perf_counter()
        try:
            if mode is None:
                output = await self.target.generate(messages, config)
            else:
                output = await self.target.generate_in_mode(messages, config, mode)  # type: ignore[attr-defined]
        except BaseException as exc:
            if limiter is not None:
                limiter.observe(None)  # answered with an error, or abandoned
            if mode is not None and isinstance(exc, InvalidRequestError):
                self.rejected = True
                self.finish(_failure(self.model, Status.ERROR, f"structured-output mode {mode} rejected by the "
                                     f"endpoint: {exc}", time.perf_counter() - self.started))
            if isinstance(exc, Exception) and not isinstance(exc, ModelError):  # not classified by the provider
                what = f"the answer of {redact_urls(self.target.name)} could not be read"
                raise UnreadableAnswerError(unexpected(what, exc)) from exc
            raise  # a classified failure, or cancelled: a row left in flight was abandoned
        if limiter is not None:
            limiter.observe(output.rate_limit)
        return output

    def finish(self, output: ModelOutput, *, cache: bool = False) -> None:
        """Log the outcome of the last request; ``cache``: also cache ``output`` (ok) under the
        call's key. With no request open: one finished row (the call failed before reaching a
        server), unless the last request's row already holds the outcome — the endpoint
        rejected its mode — so that the log has one row per HTTP request."""
        if self.call_id is None and self.rejected:
            return
        _finish(self.log, self.call_id, self.unit_key, self.key, output, self.config, cache)
        self.call_id = None


async def _live_call(
    model: ModelAPI,
    messages: list[ChatMessage],
    config: GenerateConfig,
    key: str,
    log: CallLog | None,
    unit_key: str | None,
    limits: ConnectionLimits | None,
    retry: RetryPolicy | None,
    budget: Budget | None,
) -> ModelOutput:
    # the worst case is logged with each request (a killed run's calls count at it until resumed)
    reserved = (budget.reserve(model, messages, config) if budget is not None
                else worst_case_cost(model, messages, config) if log is not None else 0.0)
    certain = input_cost(model, messages, config) if log is not None else 0.0
    requests = _Requests(model, model, messages, config, key, log, unit_key, reserved, certain, None)
    attempts = _Attempts(model, retry or DEFAULT_RETRY, requests, limits)
    output: ModelOutput | None = None
    try:
        try:
            output = await _retried(attempts)
        except TransientError:  # the last attempt failed: its failure is the outcome, not a final one
            assert attempts.failure is not None
            output = attempts.failure.model_copy(update={"transient": True})
        except Exception as exc:  # noqa: BLE001 - a fault around the request: its row ends failed, never in flight
            if isinstance(exc, ModelError):  # the budget or a model that is down: the unit stays pending
                raise
            output = _failure(model, Status.ERROR, unexpected(f"the call to {redact_urls(model.name)} failed", exc),
                              time.perf_counter() - requests.started, answered=requests.call_id is not None)
        assert output is not None
        charged = charged_cost(model, messages, config, output)  # a count not reported: at its bound
        if charged != output.cost_usd:
            output = output.model_copy(update={"cost_usd": charged})
        requests.finish(output, cache=output.status == Status.OK)  # an ok answer is cached with its outcome
        return output
    finally:
        if budget is not None:
            budget.settle(reserved, output.cost_usd if output is not None else 0.0)


async def _retried(attempts: _Attempts) -> ModelOutput:
    """The first attempt, then tenacity's loop only when it failed with a retryable error: most
    calls succeed at once, and building the loop costs more than a mock call. A failed first
    attempt enters the loop as its first attempt (its error raised there), so the stop, wait and
    before-next rules see the same attempts as a loop started at once."""
    try:
        return await attempts.send()
    except (TransientError, _EndpointRetired) as exc:
        first: BaseException | None = exc
    output: ModelOutput | None = None
    async for attempt in attempts.retrying():
        with attempt:
            if first is not None:
                failed, first = first, None
                raise failed
            output = await attempts.send()
    assert output is not None
    return output


class _Attempts:
    """The attempts of one live call, retried by tenacity.

    Only a :class:`TransientError` (rate limits and timeouts included) and an endpoint retired from
    its pool are retried; a permanent or other classified error becomes a failure output at once.
    A failed attempt counts against ``max_attempts`` unless it was a 429 (the server asked for a
    pause: waited out, bounded by ``rate_limit_wait_s`` per unit), the endpoint's circuit breaker
    opened on it (the endpoint is judged, not the request) or the endpoint was retired. Before the
    next attempt the call waits the ``Retry-After`` the server gave, else the policy's jittered
    exponential backoff — but not at all when the breaker or another endpoint of the pool takes over.
    """

    def __init__(self, model: ModelAPI, policy: RetryPolicy, requests: _Requests,
                 limits: ConnectionLimits | None) -> None:
        self.model, self.policy, self.requests, self.limits = model, policy, requests, limits
        self.negotiation = limits.negotiation if limits is not None else negotiation_module.PROCESS
        self.counted = 0  # failed attempts that count against max_attempts
        self.limited = 0  # 429s met
        self.waited_out = False  # the unit's rate_limit_wait_s is used up
        #: seconds waited on 429s per unit: the run's (shared by the unit's calls), else this call's
        self.rate_waits: dict[str | None, float] = limits.rate_waits if limits is not None else {}
        self.paused = False
        self.next_wait = 0.0
        self.failure: ModelOutput | None = None

    def retrying(self) -> AsyncRetrying:
        """tenacity's loop over the attempts (the last counted failure is re-raised)."""
        return AsyncRetrying(retry=retry_if_exception_type((TransientError, _EndpointRetired)),
                             stop=self._stop, wait=self._wait, before_sleep=self._before_next,
                             sleep=_sleep, reraise=True)

    def _stop(self, state: RetryCallState) -> bool:
        return self.counted >= self.policy.max_attempts or self.waited_out

    def _wait(self, state: RetryCallState) -> float:
        assert state.outcome is not None
        return 0.0 if isinstance(state.outcome.exception(), _EndpointRetired) else self.next_wait

    def _before_next(self, state: RetryCallState) -> None:
        assert state.outcome is not None
        if self.failure is not None and not isinstance(state.outcome.exception(), _EndpointRetired):
            self.requests.finish(self.failure)  # the failed request's row, before the next is sent
            self.requests.attempt += 1

    async def send(self) -> ModelOutput:
        """One attempt on one endpoint of the model.

        Raises:
            TransientError: a retryable failure (:attr:`failure` holds it as an output).
            _EndpointRetired: the endpoint was taken out of its pool; another one takes the call.
            EndpointDownError: every endpoint of the model is down.
        """
        model, requests, limits = self.model, self.requests, self.limits
        breaker: CircuitBreaker | None = None
        requests.started = time.perf_counter()
        try:
            with route(model) as target:  # a logical model's endpoint for this attempt
                breaker = limits.breaker(target) if limits is not None else None
                if breaker is not None:
                    await _admit(breaker, model, target, limits)  # type: ignore[arg-type]
                requests.target = target
                requests.limiter = limits.limiter(target) if limits is not None else target.limiter
                gate = limits.semaphore(target) if limits is not None else contextlib.nullcontext()
                async with gate:
                    modes = negotiable_modes(target, requests.config)
                    output = await (self.negotiation.send(target.connection_key, modes, requests.send, requests.log)
                                    if modes else requests.send(None, False))
        except PermanentError as exc:
            if breaker is not None:
                breaker.record(transient_failure=False)  # the server answered
            return _failure(model, Status.ERROR, f"{type(exc).__name__}: {exc}",
                            time.perf_counter() - requests.started, stops=isinstance(exc, ConfigurationError),
                            answered=isinstance(exc, UnreadableAnswerError))
        except TransientError as exc:
            self._failed(exc, breaker)
            raise
        except (_EndpointRetired, EndpointDownError):
            raise
        except ModelError as exc:
            return _failure(model, Status.ERROR, f"{type(exc).__name__}: {exc}", time.perf_counter() - requests.started)
        except BaseException:
            if breaker is not None:
                breaker.abort()
            raise
        if breaker is not None:
            breaker.record(transient_failure=False)
        if target is not model:  # logged and cached as the logical model's answer
            output = output.model_copy(update={"provider": model.provider, "model": model.model})
        return output

    def _failed(self, exc: TransientError, breaker: CircuitBreaker | None) -> None:
        """Book a transient failure: the breaker, the attempt count or the rate-limit wait, the
        output, the wait before the next attempt."""
        elapsed = time.perf_counter() - self.requests.started
        retry_after = exc.retry_after if isinstance(exc, RateLimitError) else None
        self.paused = False
        if breaker is not None:
            breaker.record(transient_failure=True, retry_after=retry_after)
            self.paused = breaker.is_open
        here = not self.paused and not has_other_endpoint(self.model)  # else the breaker or a replica decides
        status = Status.TIMEOUT if isinstance(exc, ModelTimeoutError) else Status.ERROR
        rate_limited = isinstance(exc, RateLimitError)
        if rate_limited:
            self.limited += 1
            self.next_wait = self.policy.wait(self.limited, retry_after) if here else 0.0
        if rate_limited and (self.next_wait > 0 or not here):  # a 429 asking for no wait at all is a failure
            reason = self._rate_limited(exc, retry_after)
        else:
            self.counted += int(not self.paused)
            self.next_wait = self.policy.wait(self.counted, None) if here else 0.0
            reason = f"{type(exc).__name__} after {self.counted} attempt(s): {exc}"
        self.failure = _failure(self.model, status, reason, elapsed)
        if self.requests.limiter is not None and isinstance(exc, RateLimitError):
            self.requests.limiter.pause(retry_after)

    def _rate_limited(self, exc: RateLimitError, retry_after: float | None) -> str:
        """Charge the coming wait to the unit's rate-limit waits (ending the call when they are
        used up), say on the terminal that the run waits and why; returns the failure's reason."""
        waits = self.rate_waits
        unit = self.requests.unit_key
        waited = waits.get(unit, 0.0)
        endpoint = redact_urls(self.requests.target.connection_key)
        if waited + self.next_wait > self.policy.rate_limit_wait_s:
            self.waited_out = True
            return (f"{type(exc).__name__} after {self.limited} rate-limited request(s) and {waited:.1f} s of waits "
                    f"(retries.rate_limit_wait_s {self.policy.rate_limit_wait_s:g} s per unit): {exc}")
        waits[unit] = waited + self.next_wait
        if self.limits is not None and self.next_wait > 0:
            asked = f"its Retry-After {retry_after:g} s" if retry_after is not None else "backoff, no Retry-After"
            self.limits.event(endpoint, "waiting", f"waiting: {endpoint} answered 429 (rate limited); this call waits "
                                                   f"{self.next_wait:.1f} s ({asked}; no attempt spent)")
        return f"{type(exc).__name__} ({self.limited} rate-limited request(s)): {exc}"


async def _sleep(seconds: float) -> None:
    """The wait between attempts (a module function, so that tests can record the waits)."""
    await asyncio.sleep(seconds)


class _EndpointRetired(Exception):
    """An endpoint of a pool is down and was taken out of the choice; the call goes elsewhere."""


async def _admit(breaker: CircuitBreaker, model: ModelAPI, target: ModelAPI, limits: ConnectionLimits) -> None:
    """Wait until ``target``'s breaker lets a call through. A down endpoint of a pool whose other
    endpoints are not all down is retired from the pool (:class:`_EndpointRetired`).

    Raises:
        EndpointDownError: every endpoint of ``model`` is down (message names the model).
    """
    try:
        await breaker.admit()
    except EndpointDownError as exc:
        endpoints = model.endpoints if isinstance(model, EndpointPool) else [model]
        if isinstance(model, EndpointPool) and not all(
                (b := limits.breaker(e)) is not None and b.down for e in endpoints):
            model.retire(target)
            raise _EndpointRetired from exc
        raise EndpointDownError(f"{redact_urls(model.name)}: {exc}") from exc


def negotiable_modes(target: ModelAPI, config: GenerateConfig) -> tuple[str, ...]:
    """The structured-output modes ``target`` negotiates for ``config``, strongest first (empty:
    nothing to negotiate — no schema, a pinned mode, or a provider without negotiation)."""
    modes = getattr(target, "negotiable_modes", None)
    return tuple(modes(config)) if modes is not None else ()


def _finish(
    log: CallLog | None, call_id: int | None, unit_key: str | None, key: str, output: ModelOutput,
    config: GenerateConfig, cache: bool = False,
) -> None:
    if log is None:
        return
    if call_id is None:  # failed before it was sent (e.g. a setup error): one finished row
        if cache:
            log.cache_put(key, output)
        log.record_call(unit_key, key, output, config)
    elif cache:  # the paid answer and its outcome in one transaction
        log.finish_call(call_id, output, config, key)
    else:
        log.finish_call(call_id, output, config)
