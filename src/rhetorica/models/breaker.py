"""A circuit breaker per endpoint: a server that is down is paused, then given up on.

Without it, every unit of a large study spends all its retry attempts against an endpoint that is
down (hours of backoff). Per endpoint (connection key) and shared by every call of a run:

- the breaker counts the outcomes of the last ``window_s`` seconds (a sliding time window, kept
  as counts per whole second); a transient failure (connection error, 5xx, timeout, malformed
  body) counts as a failure at once,
  a 429 counts as one once its ``Retry-After`` has passed (a server that asked for a pause and got
  it is not failing; one still refusing after the pause is), any other answer counts as a success;
- when the window holds at least ``failures`` failures and they are at least ``failure_rate`` of
  its outcomes, the breaker opens: no call goes to the endpoint for ``pause_s`` seconds, then one
  trial call at a time, again ``pause_s`` after each failed trial; an answer closes it and empties
  the window. So an endpoint failing 75% of its requests is paused as soon as ``failures`` of
  them have failed, whatever successes come between (a consecutive count would be reset by each);
- open for ``recovery_s`` seconds without an answer, the endpoint is down: its calls raise
  :class:`EndpointDownError`. A model whose endpoints are all down raises it from
  :func:`rhetorica.models.call.call_model`; the runner then stops that configuration once, with one
  message, and leaves its units pending (a later run resumes them).

Every opening and closing is reported to ``on_change`` (the runner prints it and keeps it in the
store's ``endpoint_events``). While an endpoint's breaker is open, failed attempts do not use up a
call's retry attempts: the endpoint is being judged, not the request. This is the circuit breaker
of Nygard, *Release It!* (2nd ed., ch. 5, "Circuit Breaker"), with the count-in-a-time-window
trip rule of resilience4j's ``TIME_BASED`` sliding window (failure-rate threshold, minimum count).
"""

from __future__ import annotations

import asyncio
import heapq
import time
from collections import deque
from collections.abc import Callable

from pydantic import BaseModel, ConfigDict, Field

from rhetorica.models.errors import ModelError


class EndpointDownError(ModelError):
    """Every endpoint of a model stayed unanswering past the breaker's ``recovery_s``; the call was
    not made and its unit stays pending."""


class BreakerSettings(BaseModel):
    """The circuit breaker of a study (``circuit_breaker:`` in the study file).

    Attributes:
        failures: transient failures of one endpoint within ``window_s`` that open its breaker
            (>= 1), when they are also at least ``failure_rate`` of the window's outcomes.
        failure_rate: share of the window's outcomes that must be failures, in (0, 1].
        window_s: length of the sliding window in seconds (> 0).
        pause_s: seconds between trial calls while the breaker is open (> 0: a zero pause would
            send trial calls back to back for the whole recovery time).
        recovery_s: seconds an open endpoint has to answer before it counts as down (>= 0).
    """

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    failures: int = Field(default=5, ge=1, strict=True, description="transient failures of one endpoint, across units, "
                                                                         "within window_s that pause it (with failure_rate)")
    failure_rate: float = Field(default=0.5, gt=0, le=1, description="share of the window's outcomes that must be "
                                                                      "failures to pause the endpoint")
    window_s: float = Field(default=60.0, gt=0, description="seconds of outcomes the breaker counts (sliding window)")
    pause_s: float = Field(default=30.0, gt=0, description="seconds between trial calls to a paused endpoint")
    recovery_s: float = Field(default=300.0, ge=0, description="seconds a paused endpoint has to answer before its "
                                                               "configurations stop (units left pending)")


class CircuitBreaker:
    """The breaker of one endpoint (see the module docstring); one event loop, not thread-safe.

    Args:
        endpoint: the endpoint's name, for messages.
        settings: thresholds.
        clock: monotonic seconds (tests inject one).
        on_change: called with ``(endpoint, event, detail)`` when the breaker opens (``paused``)
            or closes (``resumed``); ``detail`` says why, in one sentence.
    """

    def __init__(self, endpoint: str, settings: BreakerSettings,
                 clock: Callable[[], float] = time.monotonic,
                 on_change: Callable[[str, str, str], None] | None = None) -> None:
        self.endpoint = endpoint
        self.settings = settings
        self._clock = clock
        self._on_change = on_change
        #: [second, failures, outcomes] counted in each whole second of the window, oldest first
        self._outcomes: deque[list[int]] = deque()
        self._failed = 0  # failures in the window
        self._seen = 0  # outcomes in the window
        self._due: list[float] = []  # heap: when each 429 not counted yet starts counting
        self.opened_at: float | None = None
        self._next_trial = 0.0
        self._trial = False

    @property
    def failures(self) -> int:
        """Failures counted in the window now."""
        self._advance(self._clock())
        return self._failed

    @property
    def is_open(self) -> bool:
        """True while the endpoint is paused (or down); a closed breaker first counts the 429s
        whose ``Retry-After`` has passed since the last outcome (they may open it)."""
        if self.opened_at is None:
            self._trip(self._clock())
        return self.opened_at is not None

    @property
    def down(self) -> bool:
        """True once the endpoint stayed open for ``recovery_s`` seconds."""
        return self.opened_at is not None and self._clock() - self.opened_at >= self.settings.recovery_s

    def reason(self) -> str:
        """Why the endpoint counts as down, in one sentence."""
        return (f"endpoint {self.endpoint} gave no answer after {self.settings.failures} or more transient failures "
                f"within {self.settings.window_s:g} s and {self.settings.recovery_s:g} s of trial calls "
                "(circuit breaker)")

    async def admit(self) -> None:
        """Return when a call may go to the endpoint: at once when closed; when open, as the next
        trial call (waiting for it).

        Raises:
            EndpointDownError: the endpoint is down (see :attr:`down`).
        """
        while self.is_open:  # a 429 whose Retry-After has passed counts from now
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

    def record(self, *, transient_failure: bool, retry_after: float | None = None) -> None:
        """The outcome of one call sent to the endpoint.

        Args:
            transient_failure: the call failed transiently (a 429 included).
            retry_after: for a 429, the seconds the server asked to wait: the failure counts from
                then (``None``: from now).
        """
        self._trial = False
        now = self._clock()
        if not transient_failure:
            if self.opened_at is not None:  # an answer closes it: the endpoint is judged afresh
                self.opened_at = None
                self._outcomes.clear()
                self._due.clear()
                self._failed = self._seen = 0
                self._tell("resumed", f"endpoint {self.endpoint} answered a trial call; calls resume")
            self._count(now, failed=False)
            return
        if retry_after is not None and retry_after > 0:
            heapq.heappush(self._due, now + retry_after)
        else:
            self._count(now, failed=True)
        if self.opened_at is None:
            self._trip(now)
        if self.opened_at is not None:
            self._next_trial = now + self.settings.pause_s

    def abort(self) -> None:
        """A call admitted as a trial ended without an outcome (cancelled): let another try."""
        self._trial = False

    def _advance(self, now: float) -> None:
        """Bring the window to ``now``: 429s whose ``Retry-After`` has passed enter it, the
        seconds wholly older than ``window_s`` leave it (amortised O(1) per outcome; at most
        ``window_s`` + 1 seconds kept, however many calls)."""
        while self._due and self._due[0] <= now:
            heapq.heappop(self._due)
            self._count(now, failed=True)
        oldest = now - self.settings.window_s
        while self._outcomes and self._outcomes[0][0] + 1 <= oldest:
            _, failed, seen = self._outcomes.popleft()
            self._failed -= failed
            self._seen -= seen

    def _count(self, now: float, *, failed: bool) -> None:
        """One outcome, in the window's second of ``now``."""
        second = int(now // 1)
        if not self._outcomes or self._outcomes[-1][0] != second:
            self._outcomes.append([second, 0, 0])
        self._outcomes[-1][1] += int(failed)
        self._outcomes[-1][2] += 1
        self._failed += int(failed)
        self._seen += 1

    def _trip(self, now: float) -> None:
        """Open the breaker when the window holds enough failures (see the module docstring)."""
        self._advance(now)
        failed, seen = self._failed, self._seen
        if failed >= self.settings.failures and failed >= self.settings.failure_rate * seen:
            self.opened_at = now
            self._next_trial = now + self.settings.pause_s
            self._tell("paused", f"endpoint {self.endpoint}: {failed} of its last {seen} outcomes within "
                                 f"{self.settings.window_s:g} s were transient failures; paused, one trial call "
                                 f"every {self.settings.pause_s:g} s")

    def _tell(self, event: str, detail: str) -> None:
        if self._on_change is not None:
            self._on_change(self.endpoint, event, detail)
