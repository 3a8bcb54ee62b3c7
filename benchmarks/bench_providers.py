"""Throughput and client CPU per call of the openai-compatible provider against a loopback server.

The fake chat-completions server (tests/models/fake_servers.py) runs in its own process and answers
every request after a fixed latency, so the numbers measure rhetorica's client path: request
building, the openai SDK, response parsing, pricing and ``call_model`` (retries, semaphores; no
store). The same workload then goes through inspect_ai's OpenAI provider when inspect_ai is
importable, and the ratio is printed.

Set-up: ``make install-demo && .venv/bin/pip install -e ".[bench]"`` (the openai SDK and inspect_ai).

Usage::

    .venv/bin/python benchmarks/bench_providers.py [--latency 0.02] [--calls 200]

Prints one row per (client, concurrency): calls, wall seconds, calls/s, client CPU ms per call.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "models"))

CONCURRENCY = (1, 16, 64)
PROMPT = "Summarise the contribution of this paper in one sentence. " * 20


def _serve(latency: float, port_queue: Any, stop: Any) -> None:
    from fake_servers import FakeServer

    server = FakeServer(latency_s=latency).start()
    port_queue.put(server.url)
    stop.wait()
    server.stop()


async def _rhetorica(url: str, calls: int, concurrency: int) -> dict[str, float]:
    from rhetorica.models.api import ChatMessage, GenerateConfig
    from rhetorica.models.call import CallContext, ConnectionLimits, call_model
    from rhetorica.models.providers.openai_compatible import OpenAICompatibleModel
    from rhetorica.status import Status

    model = OpenAICompatibleModel(f"bench-model@{url}/v1", max_concurrency=concurrency)
    context = CallContext(limits=ConnectionLimits())
    config = GenerateConfig(max_tokens=64, temperature=0.0)

    async def one(i: int) -> bool:
        messages = [ChatMessage(role="user", content=f"{i} {PROMPT}")]
        out = await call_model(model, messages, config, context=context)
        return out.status == Status.OK

    return await _timed(one, calls, concurrency)


async def _inspect(url: str, calls: int, concurrency: int) -> dict[str, float]:
    from inspect_ai.model import ChatMessageUser, GenerateConfig, get_model

    # inspect_ai keeps one connection semaphore per model name for the whole process: a distinct
    # name per concurrency level gets a semaphore of that level
    model = get_model(
        f"openai/gpt-4.1-bench-c{concurrency}",
        base_url=f"{url}/v1",
        api_key="EMPTY",
        responses_api=False,
        config=GenerateConfig(max_connections=concurrency, max_retries=0, max_tokens=64, temperature=0.0),
    )

    async def one(i: int) -> bool:
        out = await model.generate([ChatMessageUser(content=f"{i} {PROMPT}")])
        return bool(out.completion)

    return await _timed(one, calls, concurrency)


async def _timed(one: Any, calls: int, concurrency: int) -> dict[str, float]:
    """Warm up (imports, a full pool of open connections), then time ``calls`` calls of ``one``."""
    await asyncio.gather(*(one(-i - 1) for i in range(max(2 * concurrency, 20))))
    cpu0, wall0 = time.process_time(), time.perf_counter()
    ok = sum(await asyncio.gather(*(one(i) for i in range(calls))))
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return {"ok": ok, "wall": wall, "rate": calls / wall, "cpu_ms": 1000 * cpu / calls}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.02, help="server latency per call in seconds")
    parser.add_argument("--calls", type=int, default=200, help="calls per concurrency level (x4 at 64)")
    parser.add_argument("--no-inspect", action="store_true", help="rhetorica only, even if inspect_ai is importable")
    parser.add_argument("--smoke", action="store_true", help="a few seconds: 20 calls at concurrency 1 and 4, rhetorica only")
    args = parser.parse_args()
    levels = (1, 4) if args.smoke else CONCURRENCY
    if args.smoke:
        args.calls, args.no_inspect = 20, True

    ctx = multiprocessing.get_context("fork")
    urls, stop = ctx.Queue(), ctx.Event()
    server = ctx.Process(target=_serve, args=(args.latency, urls, stop), daemon=True)
    server.start()
    url = urls.get(timeout=10)
    os.environ.setdefault("OPENAI_API_KEY", "EMPTY")
    clients: list[tuple[str, Any]] = [("rhetorica", _rhetorica)]
    try:
        if args.no_inspect:
            raise ImportError
        import inspect_ai  # noqa: F401

        clients.append(("inspect_ai", _inspect))
    except ImportError:
        print("inspect_ai not importable or not asked for: side-by-side skipped")
    print(f"server latency {args.latency * 1000:.0f} ms; python {sys.version.split()[0]}; cpus {os.cpu_count()}")
    print(f"{'client':<11} {'conc':>4} {'calls':>6} {'ok':>6} {'wall s':>7} {'calls/s':>8} {'CPU ms/call':>11}")
    results: dict[tuple[str, int], dict[str, float]] = {}
    try:
        for concurrency in levels:
            calls = args.calls * (4 if concurrency == 64 else 1)
            for name, runner in clients:
                r = asyncio.run(runner(url, calls, concurrency))
                results[(name, concurrency)] = r
                print(
                    f"{name:<11} {concurrency:>4} {calls:>6} {r['ok']:>6} {r['wall']:>7.2f} {r['rate']:>8.1f} "
                    f"{r['cpu_ms']:>11.2f}"
                )
    finally:
        stop.set()
        server.join(timeout=5)
    if len(clients) > 1:
        print("ratio rhetorica / inspect_ai (throughput; CPU per call):")
        for concurrency in levels:
            a, b = results[("rhetorica", concurrency)], results[("inspect_ai", concurrency)]
            print(
                f"  concurrency {concurrency:>2}: {a['rate'] / b['rate']:.2f}x calls/s; "
                f"{a['cpu_ms'] / b['cpu_ms']:.2f}x CPU per call"
            )


if __name__ == "__main__":
    main()
