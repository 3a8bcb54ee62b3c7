"""Requests-per-minute and tokens-per-minute limits for one provider connection.

Providers publish per-minute quotas for requests (RPM) and tokens (TPM); sending faster only earns
429 responses. :class:`RateLimiter` keeps two token buckets (capacity = one minute's allowance,
refilled continuously) and makes a call wait until both hold enough.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


class _Bucket:
    """Continuous token bucket: ``capacity`` units, refilled at ``capacity / 60`` units per second."""

    def __init__(self, per_minute: float, clock: Callable[[], float]) -> None:
        if per_minute <= 0:
            raise ValueError(f"a per-minute limit must be > 0, got {per_minute}")
        self.capacity = float(per_minute)
        self.rate = self.capacity / 60.0
        self.level = self.capacity
        self._clock = clock
        self._stamp = clock()

    def refill(self) -> None:
        now = self._clock()
        self.level = min(self.capacity, self.level + (now - self._stamp) * self.rate)
        self._stamp = now

    def wait_for(self, amount: float) -> float:
        """Seconds until ``amount`` (capped at capacity) is available; 0 when it is now."""
        self.refill()
        need = min(amount, self.capacity) - self.level
        return max(need / self.rate, 0.0)

    def take(self, amount: float) -> None:
        self.level -= min(amount, self.capacity)


class RateLimiter:
    """Waits so that calls stay within ``requests_per_minute`` and ``tokens_per_minute``.

    Args:
        requests_per_minute: request quota (> 0) or ``None`` for no request limit.
        tokens_per_minute: token quota (> 0) or ``None``; a call charges its estimated input plus
            requested output tokens. A single call larger than the quota waits for a full bucket.
        clock: monotonic clock in seconds (tests inject a fake one).

    Raises:
        ValueError: a limit is <= 0.
    """

    def __init__(
        self,
        requests_per_minute: float | None = None,
        tokens_per_minute: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._requests = _Bucket(requests_per_minute, clock) if requests_per_minute else None
        self._tokens = _Bucket(tokens_per_minute, clock) if tokens_per_minute else None
        self._lock: asyncio.Lock | None = None
        self._lock_loop: asyncio.AbstractEventLoop | None = None

    @classmethod
    def create(cls, requests_per_minute: float | None, tokens_per_minute: float | None) -> RateLimiter | None:
        """A limiter, or ``None`` when neither limit is set."""
        if requests_per_minute is None and tokens_per_minute is None:
            return None
        return cls(requests_per_minute, tokens_per_minute)

    def delay(self, tokens: int) -> float:
        """Seconds a call of ``tokens`` tokens must wait now (0 = may go at once)."""
        waits = [0.0]
        if self._requests is not None:
            waits.append(self._requests.wait_for(1))
        if self._tokens is not None:
            waits.append(self._tokens.wait_for(tokens))
        return max(waits)

    def take(self, tokens: int) -> None:
        """Charge one request of ``tokens`` tokens."""
        if self._requests is not None:
            self._requests.take(1)
        if self._tokens is not None:
            self._tokens.take(tokens)

    async def acquire(self, tokens: int = 0) -> None:
        """Wait until one request of ``tokens`` tokens fits both quotas, then charge it (FIFO)."""
        loop = asyncio.get_running_loop()
        if self._lock is None or self._lock_loop is not loop:
            self._lock, self._lock_loop = asyncio.Lock(), loop
        async with self._lock:
            while (wait := self.delay(tokens)) > 0:
                await asyncio.sleep(wait)
            self.take(tokens)
