"""A circuit breaker per endpoint: a server that is down is paused, then given up on.

Without it, every unit of a large study spends all its retry attempts against an endpoint that is
down (hours of backoff). Per endpoint (connection key) and shared by every call of a run:

- each transient failure (connection error, 5xx, timeout, malformed body) counts; any answer of
  the server — ok, a failure status, a 4xx, a 429 — resets the count (the server is up);
- after ``failures`` consecutive transient failures, across units, the breaker opens: no call goes
  to the endpoint for ``pause_s`` seconds, then one trial call at a time, again ``pause_s`` after
  each failed trial; an answer closes it;
- open for ``recovery_s`` seconds without an answer, the endpoint is down: its calls raise
  :class:`EndpointDownError`. A model whose endpoints are all down raises it from
  :func:`rhetorica.models.call.call_model`; the runner then stops that configuration once, with one
  message, and leaves its units pending (a later run resumes them).

While an endpoint's breaker is open, failed attempts do not use up a call's retry attempts: the
endpoint is being judged, not the request. This is the circuit breaker of Nygard, *Release It!*
(2nd ed., ch. 5, "Circuit Breaker"), with a consecutive-failure threshold.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from pydantic import BaseModel, ConfigDict, Field

from rhetorica.models.errors import ModelError


class EndpointDownError(ModelError):
    """Every endpoint of a model stayed unanswering past the breaker's ``recovery_s``; the call was
    not made and its unit stays pending."""


class BreakerSettings(BaseModel):
    """The circuit breaker of a study (``circuit_breaker:`` in the study file).

    Attributes:
        failures: consecutive transient failures of one endpoint that open its breaker (>= 1).
        pause_s: seconds between trial calls while the breaker is open (> 0: a zero pause would
            send trial calls back to back for the whole recovery time).
        recovery_s: seconds an open endpoint has to answer before it counts as down (>= 0).
    """

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    failures: int = Field(default=5, ge=1, strict=True, description="consecutive transient failures of one endpoint, across "
                                                       "units, that pause it")
    pause_s: float = Field(default=30.0, gt=0, description="seconds between trial calls to a paused endpoint")
    recovery_s: float = Field(default=300.0, ge=0, description="seconds a paused endpoint has to answer before its "
                                                               "configurations stop (units left pending)")


class CircuitBreaker:
    """The breaker of one endpoint (see the module docstring); one event loop, not thread-safe.

    Args:
        endpoint: the endpoint's name, for messages.
        settings: thresholds.
        clock: monotonic seconds (tests inject one).
    """

    def __init__(self, endpoint: str, settings: BreakerSettings,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.endpoint = endpoint
        self.settings = settings
        self._clock = clock
        self.failures = 0
        self.opened_at: float | None = None
        self._next_trial = 0.0
        self._trial = False

    @property
    def is_open(self) -> bool:
        """True while the endpoint is paused (or down)."""
        return self.opened_at is not None

    @property
    def down(self) -> bool:
        """True once the endpoint stayed open for ``recovery_s`` seconds."""
        return self.opened_at is not None and self._clock() - self.opened_at >= self.settings.recovery_s

    def reason(self) -> str:
        """Why the endpoint counts as down, in one sentence."""
        return (f"endpoint {self.endpoint} gave no answer after {self.settings.failures} consecutive transient "
                f"failures and {self.settings.recovery_s:g} s of trial calls (circuit breaker)")

    async def admit(self) -> None:
        """Return when a call may go to the endpoint: at once when closed; when open, as the next
        trial call (waiting for it).

        Raises:
            EndpointDownError: the endpoint is down (see :attr:`down`).
        """
        while self.opened_at is not None:
            now = self._clock()
            deadline = self.opened_at + self.settings.recovery_s
            if now >= deadline:
                raise EndpointDownError(self.reason())
            if not self._trial and now >= self._next_trial:
                self._trial = True
                return
            # a trial in flight: look again soon; else sleep until the next trial (or the deadline)
            delay = min(0.05, deadline - now) if self._trial else min(self._next_trial, deadline) - now
            await asyncio.sleep(max(delay, 0.001))

    def record(self, *, transient_failure: bool) -> None:
        """The outcome of one call sent to the endpoint."""
        self._trial = False
        if not transient_failure:
            self.failures, self.opened_at = 0, None
            return
        self.failures += 1
        now = self._clock()
        if self.opened_at is None and self.failures >= self.settings.failures:
            self.opened_at = now
        if self.opened_at is not None:
            self._next_trial = now + self.settings.pause_s

    def abort(self) -> None:
        """A call admitted as a trial ended without an outcome (cancelled): let another try."""
        self._trial = False
