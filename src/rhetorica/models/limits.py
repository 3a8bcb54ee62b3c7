"""Requests-per-minute and tokens-per-minute limits for one provider connection.

Providers publish per-minute quotas for requests (RPM) and tokens (TPM) and enforce them over a
moving window; sending faster only earns 429 responses. :class:`RateLimiter` keeps both quotas
with two mechanisms:

- a **sliding-window log** of what was sent in the last ``window_s`` seconds: a call waits until
  the window holds room for it, so no window of that length ever carries more than the quota
  (a token bucket that starts full with a whole minute's allowance lets up to twice the quota
  leave within one window);
- **pacing** (GCRA without burst tolerance, ITU-T I.371 "virtual scheduling"): consecutive
  requests are spaced by ``window_s / quota`` and a call of ``n`` tokens delays the next by
  ``n * window_s / token quota``, so a study that starts with many calls ready spreads them
  evenly instead of sending a window's allowance in the first second.

Both run at ``1 - headroom`` of the declared quota (default 2 %), which leaves room for network
jitter between the client's clock and the server's.

It also adapts to what the server says: :meth:`RateLimiter.pause` stops every call on the
connection for a 429's ``Retry-After``; :meth:`RateLimiter.observe` reads OpenAI-style
``x-ratelimit-remaining-requests`` / ``x-ratelimit-reset-requests`` (and the ``-tokens`` pair) and
Anthropic's ``anthropic-ratelimit-*`` headers. From them it keeps an estimate of the requests the
server will still take before its reset (the remaining count, less the calls still in flight, less
each call sent since) and holds calls until the reset once that estimate reaches 0.

No library offers this, so it is written here: anyio's ``CapacityLimiter`` bounds concurrency (the
connection semaphore does that), not a rate; leaky-bucket limiters such as aiolimiter neither
keep a sliding window nor follow the server's headers and ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import math
import re
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime

#: Fraction of the declared quota left unused as headroom for clock and network jitter.
DEFAULT_HEADROOM = 0.02

_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)(ms|h|m|s)")


def parse_reset(value: str | None, now: float | None = None) -> float | None:
    """Seconds until a rate-limit window resets.

    Accepts OpenAI's durations (``"1s"``, ``"6m0s"``, ``"20ms"``, ``"1h2m3.5s"``), plain seconds
    (``"2.5"``) and RFC 3339 timestamps (Anthropic, ``"2026-01-01T00:00:30Z"``).

    Args:
        value: header value, or ``None``.
        now: current POSIX time for timestamps (default ``time.time()``).

    Returns:
        Seconds (>= 0), or ``None`` when absent or unparsable.
    """
    if not value:
        return None
    text = value.strip()
    try:
        return max(float(text), 0.0)
    except ValueError:
        pass
    parts = _DURATION_PART.findall(text)
    if parts and "".join(n + u for n, u in parts) == text:
        scale = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 0.001}
        return sum(float(n) * scale[u] for n, u in parts)
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return max(when.timestamp() - (time.time() if now is None else now), 0.0)


@dataclass(frozen=True)
class RateLimitInfo:
    """What a response's rate-limit headers said (``None`` = not sent).

    Attributes:
        remaining_requests: requests left in the server's current window.
        reset_requests_s: seconds until that window resets.
        remaining_tokens: tokens left in the server's current window.
        reset_tokens_s: seconds until the token window resets.
    """

    remaining_requests: int | None = None
    reset_requests_s: float | None = None
    remaining_tokens: int | None = None
    reset_tokens_s: float | None = None

    @classmethod
    def from_headers(cls, headers: Mapping[str, str] | None) -> RateLimitInfo | None:
        """Read OpenAI-style ``x-ratelimit-*`` or Anthropic ``anthropic-ratelimit-*`` headers;
        ``None`` when the response carried none."""
        if not headers:
            return None
        lowered = {k.lower(): v for k, v in headers.items()}

        def first(*names: str) -> str | None:
            return next((lowered[n] for n in names if n in lowered), None)

        def count(value: str | None) -> int | None:
            try:
                return int(float(value)) if value is not None else None
            except ValueError:
                return None

        info = cls(
            remaining_requests=count(first("x-ratelimit-remaining-requests", "anthropic-ratelimit-requests-remaining")),
            reset_requests_s=parse_reset(first("x-ratelimit-reset-requests", "anthropic-ratelimit-requests-reset")),
            remaining_tokens=count(first("x-ratelimit-remaining-tokens", "anthropic-ratelimit-tokens-remaining")),
            reset_tokens_s=parse_reset(first("x-ratelimit-reset-tokens", "anthropic-ratelimit-tokens-reset")),
        )
        return None if info == cls() else info


class RateLimiter:
    """Waits so that calls stay within ``requests_per_minute`` and ``tokens_per_minute``.

    Args:
        requests_per_minute: request quota (> 0) or ``None`` for no request limit.
        tokens_per_minute: token quota (> 0) or ``None``; a call charges its estimated input plus
            requested output tokens. A single call larger than the quota is charged as the whole
            quota (it waits for an empty window).
        clock: monotonic clock in seconds (tests inject a fake one).
        window_s: length of the quota's window in seconds (60 for per-minute quotas; a shorter
            window scales the quota, e.g. ``window_s=6`` allows a tenth of it per 6 s; used by the
            benchmark's short-window server).
        headroom: fraction of each quota left unused, in [0, 0.5).

    Raises:
        ValueError: a limit is <= 0, or ``window_s`` / ``headroom`` is out of range.
    """

    def __init__(
        self,
        requests_per_minute: float | None = None,
        tokens_per_minute: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        *,
        window_s: float = 60.0,
        headroom: float = DEFAULT_HEADROOM,
    ) -> None:
        for label, value in (("requests_per_minute", requests_per_minute), ("tokens_per_minute", tokens_per_minute)):
            if value is not None and value <= 0:
                raise ValueError(f"{label} must be > 0, got {value}")
        if window_s <= 0 or not 0 <= headroom < 0.5:
            raise ValueError(f"window_s must be > 0 and headroom in [0, 0.5), got {window_s}, {headroom}")
        scale = window_s / 60.0 * (1.0 - headroom)
        #: requests and tokens allowed per window (after headroom)
        self.request_quota = requests_per_minute * scale if requests_per_minute else None
        self.token_quota = tokens_per_minute * scale if tokens_per_minute else None
        self.window_s = window_s
        self._clock = clock
        self._log: deque[tuple[float, float]] = deque()  # (sent at, tokens charged)
        self._log_tokens = 0.0
        self._next_request_at = -math.inf
        self._next_tokens_at = -math.inf
        self._paused_until = -math.inf
        #: True once a call went through this limiter (it then keeps its state)
        self.observed = False
        self._in_flight = 0  # calls sent whose answer has not been seen
        self._server_remaining: float | None = None  # requests the server still takes before ...
        self._server_reset_at = -math.inf  # ... this time
        self._lock: asyncio.Lock | None = None
        self._lock_loop: asyncio.AbstractEventLoop | None = None

    @classmethod
    def create(cls, requests_per_minute: float | None, tokens_per_minute: float | None) -> RateLimiter | None:
        """A limiter, or ``None`` when neither limit is set."""
        if requests_per_minute is None and tokens_per_minute is None:
            return None
        return cls(requests_per_minute, tokens_per_minute)

    @property
    def counts_tokens(self) -> bool:
        """True when calls must say how many tokens they charge."""
        return self.token_quota is not None

    def _charge(self, tokens: float) -> float:
        return min(float(tokens), self.token_quota) if self.token_quota is not None else 0.0

    def _expire(self, now: float) -> None:
        while self._log and self._log[0][0] <= now - self.window_s:
            _, tokens = self._log.popleft()
            self._log_tokens -= tokens

    def delay(self, tokens: int = 0) -> float:
        """Seconds a call of ``tokens`` tokens must wait now (0 = may go at once)."""
        now = self._clock()
        self._expire(now)
        waits = [self._paused_until - now]
        if self._server_remaining is not None:
            if now >= self._server_reset_at:
                self._server_remaining = None
            elif self._server_remaining < 1:
                waits.append(self._server_reset_at - now)
        if self.request_quota is not None:
            waits.append(self._next_request_at - now)
            excess = len(self._log) + 1 - max(1, math.floor(self.request_quota))
            if excess > 0:  # the window is full: wait until enough of it has expired
                waits.append(self._log[excess - 1][0] + self.window_s - now)
        if self.token_quota is not None:
            charge = self._charge(tokens)
            waits.append(self._next_tokens_at - now)
            over = self._log_tokens + charge - self.token_quota
            if over > 1e-9:
                freed = 0.0
                for sent, used in self._log:
                    freed += used
                    if freed >= over - 1e-9:
                        waits.append(sent + self.window_s - now)
                        break
        return max(max(waits), 0.0)

    def take(self, tokens: int = 0) -> None:
        """Charge one request of ``tokens`` tokens sent now."""
        now = self._clock()
        self.observed = True
        self._in_flight += 1
        if self._server_remaining is not None:
            self._server_remaining -= 1
        charge = self._charge(tokens)
        self._log.append((now, charge))
        self._log_tokens += charge
        if self.request_quota is not None:
            self._next_request_at = max(self._next_request_at, now) + self.window_s / self.request_quota
        if self.token_quota is not None:
            self._next_tokens_at = max(self._next_tokens_at, now) + charge * self.window_s / self.token_quota

    def pause(self, seconds: float | None) -> None:
        """Send nothing on this connection for ``seconds`` (a 429's ``Retry-After``); ``None`` or
        values <= 0 change nothing."""
        if seconds is not None and seconds > 0:
            self._paused_until = max(self._paused_until, self._clock() + seconds)

    def observe(self, info: RateLimitInfo | None) -> None:
        """Note that one call sent through :meth:`acquire` has been answered, and adapt to its
        rate-limit headers (``None`` = none sent): when the server says no token remains, pause
        until its reset; keep the request estimate described in the module docstring."""
        self._in_flight = max(self._in_flight - 1, 0)
        if info is None:
            return
        now = self._clock()
        if info.remaining_requests is not None and info.reset_requests_s is not None:
            self._server_remaining = float(info.remaining_requests - self._in_flight)
            self._server_reset_at = now + info.reset_requests_s
        elif info.remaining_requests is not None and info.remaining_requests <= 0:
            self.pause(info.reset_requests_s)
        if info.remaining_tokens is not None and info.remaining_tokens <= 0:
            self.pause(info.reset_tokens_s)

    async def acquire(self, tokens: int = 0) -> None:
        """Wait until one request of ``tokens`` tokens fits both quotas, then charge it (FIFO)."""
        loop = asyncio.get_running_loop()
        if self._lock is None or self._lock_loop is not loop:
            self._lock, self._lock_loop = asyncio.Lock(), loop
        async with self._lock:
            while (wait := self.delay(tokens)) > 0:
                await asyncio.sleep(wait)
            self.take(tokens)
