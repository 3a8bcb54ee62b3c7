"""Rate limiter: sliding window + pacing on a fake clock, and adaptation to what a server says."""

from __future__ import annotations

import asyncio

import pytest

from fake_servers import FakeServer
from rhetorica.models.api import ChatMessage, GenerateConfig
from rhetorica.models.call import CallContext, ConnectionLimits, RetryPolicy, call_model
from rhetorica.models.limits import RateLimiter, RateLimitInfo, parse_reset
from rhetorica.models.providers.openai_compatible import OpenAICompatibleModel
from rhetorica.status import Status


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def send_greedily(limiter: RateLimiter, clock: FakeClock, n: int, tokens: int = 0) -> list[float]:
    """Send ``n`` calls as fast as the limiter lets them go; their send times."""
    times = []
    for _ in range(n):
        clock.now += limiter.delay(tokens)
        assert limiter.delay(tokens) == 0
        limiter.take(tokens)
        times.append(clock.now)
    return times


def most_in_any_window(times: list[float], window: float) -> int:
    """Largest number of send times inside one half-open window [t, t + window)."""
    return max(sum(1 for u in times if t <= u < t + window) for t in times)


def test_no_window_of_sixty_seconds_exceeds_the_request_quota():
    clock = FakeClock()
    limiter = RateLimiter(requests_per_minute=120, clock=clock, headroom=0.0)
    times = send_greedily(limiter, clock, 300)
    # paced, not a burst: one request every 60/120 = 0.5 s from the first one on
    assert times[:4] == pytest.approx([0.0, 0.5, 1.0, 1.5])
    assert times[-1] == pytest.approx(299 * 0.5)
    # a full bucket at the start would send 120 at t=0 and 120 more within the first minute
    assert most_in_any_window(times, 60.0) == 120


def test_headroom_spaces_requests_a_little_wider():
    clock = FakeClock()
    limiter = RateLimiter(requests_per_minute=120, clock=clock)  # default headroom 2 %
    times = send_greedily(limiter, clock, 3)
    assert times[1] == pytest.approx(60 / (120 * 0.98))
    assert limiter.request_quota == pytest.approx(117.6)


def test_sliding_window_holds_after_idle_time():
    """Idle time earns no burst beyond the quota: 60 rpm, idle 100 s, then 70 calls."""
    clock = FakeClock()
    limiter = RateLimiter(requests_per_minute=60, clock=clock, headroom=0.0)
    send_greedily(limiter, clock, 5)
    clock.now = 100.0
    times = send_greedily(limiter, clock, 70)
    assert times[0] == 100.0 and times[1] == pytest.approx(101.0)
    assert most_in_any_window(times, 60.0) == 60


def test_token_quota_paces_by_size_and_caps_the_window():
    clock = FakeClock()
    limiter = RateLimiter(tokens_per_minute=6_000, clock=clock, headroom=0.0)  # 100 tokens/s
    assert limiter.delay(3_000) == 0
    limiter.take(3_000)
    assert limiter.delay(250) == pytest.approx(30.0)  # 3000 tokens occupy 30 s
    clock.now = 30.0
    limiter.take(3_000)  # the window (−30, 30] now holds the whole quota
    clock.now = 59.0
    assert limiter.delay(100) == pytest.approx(1.0)  # pacing says 60; the window frees at 60 too
    clock.now = 60.0
    assert limiter.delay(100) == 0
    # a call larger than the quota is charged as the whole quota: it waits for an empty window
    assert limiter.delay(10_000) == pytest.approx(30.0)


def test_short_window_scales_the_quota():
    clock = FakeClock()
    limiter = RateLimiter(requests_per_minute=600, clock=clock, window_s=6.0, headroom=0.0)
    assert limiter.request_quota == pytest.approx(60.0)
    times = send_greedily(limiter, clock, 200)
    assert most_in_any_window(times, 6.0) == 60
    assert times[1] == pytest.approx(0.1)


def test_pause_and_headers_stop_every_call_until_the_reset():
    clock = FakeClock()
    limiter = RateLimiter(clock=clock)  # no declared quota: only what the server says
    assert limiter.delay() == 0
    limiter.pause(5.0)
    assert limiter.delay() == pytest.approx(5.0)
    clock.now = 5.0
    assert limiter.delay() == 0
    limiter.observe(RateLimitInfo(remaining_requests=3, reset_requests_s=9.0))
    assert limiter.delay() == 0  # requests remain: nothing to wait for
    limiter.observe(RateLimitInfo(remaining_requests=0, reset_requests_s=2.0))
    assert limiter.delay() == pytest.approx(2.0)
    limiter.observe(RateLimitInfo(remaining_tokens=0, reset_tokens_s=7.5))
    assert limiter.delay() == pytest.approx(7.5)


@pytest.mark.parametrize(
    ("value", "seconds"),
    [("1s", 1.0), ("6m0s", 360.0), ("20ms", 0.02), ("1h2m3.5s", 3723.5), ("2.5", 2.5), ("soon", None), (None, None)],
)
def test_parse_reset(value, seconds):
    assert parse_reset(value) == (pytest.approx(seconds) if seconds is not None else None)


def test_parse_reset_timestamp_and_headers():
    assert parse_reset("1970-01-12T13:46:40Z", now=1_000_000 - 30) == pytest.approx(30.0)
    info = RateLimitInfo.from_headers(
        {"X-RateLimit-Remaining-Requests": "0", "x-ratelimit-reset-requests": "1.5s",
         "x-ratelimit-remaining-tokens": "900"}
    )
    assert info == RateLimitInfo(remaining_requests=0, reset_requests_s=1.5, remaining_tokens=900)
    assert RateLimitInfo.from_headers({"content-type": "application/json"}) is None


def test_acquire_waits_in_real_time():
    limiter = RateLimiter(requests_per_minute=600, headroom=0.0)  # one request per 0.1 s

    async def main() -> float:
        loop = asyncio.get_running_loop()
        await limiter.acquire()
        start = loop.time()
        await limiter.acquire()
        return loop.time() - start

    assert 0.08 <= asyncio.run(main()) < 0.5


MESSAGES = [ChatMessage(role="user", content="hello")]
FAST = RetryPolicy(max_attempts=4, base_delay_s=0.001, max_delay_s=0.01, jitter=0.0)


def sequential_calls(server: FakeServer, n: int, **options) -> list[Status]:
    model = OpenAICompatibleModel(f"m@{server.url}/v1", **options)
    limits = ConnectionLimits()

    async def main() -> list[Status]:
        return [(await call_model(model, MESSAGES, GenerateConfig(seed=i), context=CallContext(limits=limits), retry=FAST)).status
                for i in range(n)]

    return asyncio.run(main())


def test_remaining_zero_header_pauses_before_the_server_refuses():
    with FakeServer(rate_limit=(3, 0.6), rate_headers=True) as server:
        assert sequential_calls(server, 7) == [Status.OK] * 7
        assert server.rate_limited == 0
    # the same calls against a server that sends no headers meet 429s: the check above can fail
    with FakeServer(rate_limit=(3, 0.6)) as server:
        assert sequential_calls(server, 7) == [Status.OK] * 7
        assert server.rate_limited >= 1


def test_retry_after_pauses_the_connection_longer_than_the_backoff():
    with FakeServer(retry_after="0.5") as server:
        server.script = ["rate_limit"]
        assert sequential_calls(server, 2) == [Status.OK, Status.OK]
        first, retried, second = server.model_requests()
        # the retry policy alone would wait 0.04 s (its cap); the connection waited Retry-After
        assert retried.started - first.finished >= 0.45
        assert second.started >= retried.started


def test_declared_limit_is_kept_against_a_server_that_enforces_it():
    with FakeServer(rate_limit=(5, 1.0)) as server:
        model = OpenAICompatibleModel(f"m@{server.url}/v1", max_concurrency=8)
        # 5 per 1-s window, 10 % headroom (100 ms) for scheduling jitter on a busy test machine
        model.limiter = RateLimiter(requests_per_minute=300, window_s=1.0, headroom=0.1)

        async def main() -> list[Status]:
            limits = ConnectionLimits()
            outs = await asyncio.gather(*(call_model(model, MESSAGES, GenerateConfig(seed=i), context=CallContext(limits=limits),
                                                     retry=FAST) for i in range(12)))
            return [o.status for o in outs]

        assert asyncio.run(main()) == [Status.OK] * 12
        assert server.rate_limited == 0
        starts = sorted(r.started for r in server.model_requests())
        assert most_in_any_window(starts, 1.0) <= 5
