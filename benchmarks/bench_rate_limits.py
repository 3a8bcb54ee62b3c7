"""Declared rate limits against a loopback server that enforces the same limit.

The fake chat-completions server (tests/models/fake_servers.py, ``rate_limit=(n, window_s)``), in
its own process, answers at most ``n`` requests in any sliding window of ``window_s`` seconds and
429 (with ``Retry-After``) beyond. rhetorica's client declares the same quota (``requests_per_minute``
scaled to the window, :class:`rhetorica.models.limits.RateLimiter` with ``window_s``) and sends
``--calls`` distinct calls through ``call_model`` at concurrency 16. A short window (default 6 s,
60 requests per window = 600 per minute) keeps the run to about ``calls / 10`` seconds; the pacing
logic is the same as for 60-s windows, only scaled.

Targets (issue 9 §3): achieved rate >= 95 % of the limit, <= 1 % of calls answered 429.

Variants:

- ``declared``: the limit is declared; the client paces itself.
- ``headers``: nothing declared; the server sends ``x-ratelimit-remaining/reset-requests`` and the
  client waits when nothing remains.
- ``undeclared``: nothing declared and no headers: the client learns only from 429s (for contrast).

Usage::

    .venv/bin/python benchmarks/bench_rate_limits.py [--calls 300] [--limit 60] [--window 6]
    # about 3 x calls / (limit / window) seconds in all (~90 s with the defaults)

Prints one row per variant: calls, 429 answers (% of calls), wall seconds, achieved rate as % of
the limit (answered requests per window, from the first to the last answered request; above 100 %
for the bursty variants, whose full windows at each reset a sliding-window server admits).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "models"))


async def _run(url: str, calls: int, limit: int, window: float, declared: bool) -> float:
    from rhetorica.models.api import ChatMessage, GenerateConfig
    from rhetorica.models.call import CallContext, ConnectionLimits, RetryPolicy, call_model
    from rhetorica.models.limits import RateLimiter
    from rhetorica.models.providers.openai_compatible import OpenAICompatibleModel
    from rhetorica.status import Status

    model = OpenAICompatibleModel(f"bench@{url}/v1", max_concurrency=16)
    if declared:
        model.limiter = RateLimiter(requests_per_minute=limit * 60.0 / window, window_s=window)
    context = CallContext(limits=ConnectionLimits())
    retry = RetryPolicy(max_attempts=20, base_delay_s=0.05, max_delay_s=window)
    config = GenerateConfig(max_tokens=16)

    async def one(i: int) -> bool:
        out = await call_model(model, [ChatMessage(role="user", content=f"call {i}")], config, context=context,
                               retry=retry)
        return out.status == Status.OK

    started = time.perf_counter()
    results = await asyncio.gather(*(one(i) for i in range(calls)))
    if not all(results):
        raise SystemExit(f"{results.count(False)} calls failed")
    return time.perf_counter() - started


def _serve(limit: int, window: float, headers: bool, channel: Any, stop: Any) -> None:
    from fake_servers import FakeServer

    with FakeServer(rate_limit=(limit, window), rate_headers=headers) as server:
        channel.put(server.url)
        stop.wait()
        answered = [r.started for r in server.model_requests() if r.fault != "rate_limited"]
        channel.put((server.rate_limited, answered))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--limit", type=int, default=60, help="requests per window")
    parser.add_argument("--window", type=float, default=6.0, help="window length in seconds")
    parser.add_argument("--smoke", action="store_true", help="a few seconds: 12 calls, 10 per 0.5 s window")
    args = parser.parse_args()
    if args.smoke:
        args.calls, args.limit, args.window = 12, 10, 0.5
    print(f"limit: {args.limit} requests per {args.window:g} s ({args.limit * 60 / args.window:g}/min), "
          f"{args.calls} calls, concurrency 16")
    print(f"{'variant':<11} {'calls':>6} {'429s':>6} {'429 %':>6} {'wall s':>7} {'rate % of limit':>16}")
    context = multiprocessing.get_context("spawn")
    for variant in ("declared", "headers", "undeclared"):
        channel, stop = context.Queue(), context.Event()
        server = context.Process(target=_serve, args=(args.limit, args.window, variant == "headers", channel, stop))
        server.start()
        try:
            url = channel.get(timeout=60)
            wall = asyncio.run(_run(url, args.calls, args.limit, args.window, variant == "declared"))
            stop.set()
            limited, answered = channel.get(timeout=60)
        finally:
            stop.set()
            server.join(timeout=10)
        answered.sort()
        span = answered[-1] - answered[0]
        rate = (len(answered) - 1) / span * args.window / args.limit * 100 if span > 0 else float("nan")
        print(f"{variant:<11} {args.calls:>6} {limited:>6} {100 * limited / args.calls:>6.1f} {wall:>7.1f} "
              f"{rate:>16.1f}")


if __name__ == "__main__":
    main()
