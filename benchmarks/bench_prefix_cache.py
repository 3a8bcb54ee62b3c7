"""Provider prompt caching under the runner's cache-aware schedule, against a loopback server.

The server (tests/models/fake_servers.py, OpenAI chat-completions wire format, a fixed latency per
call) simulates OpenAI's automatic prefix cache: a request whose first 1,024 tokens or more (in
steps of 128, tokens = words here) equal a prefix of a request answered in the 5 minutes before
it arrived gets the longest such prefix reported in ``usage.prompt_tokens_details.cached_tokens``.
A prefix is cached once its request is answered, so requests sent at the same time find nothing.

The study: ``--papers`` synthetic manuscripts of ``--words`` words, reviewed by three reviewer
configurations (three protocols, so three system prompts) with ``--replicates`` replicates at
concurrency ``--concurrency``, run twice on fresh servers and stores: with the runner's
cache-aware schedule (:mod:`rhetorica.study.scheduling`) and with the plain schedule (every unit
queued in plan order; this benchmark turns the grouping off in its own process). The
hidden-instruction scan is stubbed out in this process (``bench_scan.py`` measures it).

Per schedule it prints: calls, wall seconds, the share of the input tokens of replicates 2..n
(a prompt's second and later requests) reported cached, the share of all input tokens cached,
and the cost at the price table's ``openai/gpt-5-mini`` rates with the cached rate vs at list
price. The cached tokens the client stored (``model_calls.cached_tokens``) are checked against the
server's.

Targets (issue 26): >= 95% of replicates 2..n input tokens cached; cost <= 0.45x list; wall time
within 10% of the plain schedule's.

Run: ``PYTHONPATH=src .venv/bin/python benchmarks/bench_prefix_cache.py [--papers 20] [--words 8000]
[--replicates 3] [--concurrency 16] [--latency 0.5]``; ``--smoke``: 2 papers of 1,500 words, 2
replicates, 50 ms latency (a few seconds).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import random
import sqlite3
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "models"))

MIN_PREFIX, STEP, TTL_S = 1024, 128, 300.0
PROTOCOLS = ("default", "brief", "strict")
PRICED_AS = ("openai", "gpt-5-mini")


def _prefix_server(latency_s: float) -> Any:
    from fake_servers import FakeServer, _messages_of

    class PrefixCacheServer(FakeServer):
        """FakeServer with OpenAI-style automatic prefix caching (see the module docstring)."""

        def __post_init__(self) -> None:
            super().__post_init__()
            self.cache: dict[str, tuple[float, float]] = {}  # prefix digest -> (first, last) answered
            self.log: list[tuple[str, int, int]] = []  # (prompt digest, input tokens, cached tokens)
            self._cache_lock = threading.Lock()

        def _answer(self, kind: str, path: str, body: dict[str, Any], plan: dict[str, Any]) -> dict[str, Any]:
            words = " ".join(f"<{m.get('role')}> {m.get('content')}" for m in body.get("messages", [])).split()
            prompt_words = sum(len(t.split()) for t in _messages_of(kind, body))  # the server's token count
            digests = {n: hashlib.sha256(" ".join(words[:n]).encode()).hexdigest()
                       for n in range(MIN_PREFIX, len(words) + 1, STEP)}
            now = time.monotonic()
            arrived = now - self.latency_s  # the answer comes after a fixed latency; the cache is read on arrival
            with self._cache_lock:
                hits = [n for n, d in digests.items()
                        if d in self.cache and self.cache[d][0] <= arrived <= self.cache[d][1] + TTL_S]
                cached = min(max(hits, default=0), prompt_words)
                for d in digests.values():  # cached from its first answer on; each use renews it
                    self.cache[d] = (self.cache.get(d, (now, now))[0], now)
                self.log.append((hashlib.sha256(" ".join(words).encode()).hexdigest(), prompt_words, cached))
            return super()._answer(kind, path, body, plan | {"usage": {"cached": cached}})

    return PrefixCacheServer(latency_s=latency_s).start()


def _papers(folder: Path, papers: int, words: int) -> list[Path]:
    rng = random.Random(0)
    vocabulary = [f"term{k}" for k in range(3000)] + "the a of in we model graph data results show".split()
    paths = []
    for p in range(papers):
        body = " ".join(rng.choice(vocabulary) for _ in range(words))
        path = folder / f"paper{p:03d}.md"
        path.write_text(f"# Synthetic paper {p}\n\n## Abstract\n\nPaper {p}. {body}\n", encoding="utf-8")
        paths.append(path)
    return paths


def run_study(papers: list[Path], replicates: int, concurrency: int, latency_s: float, grouped: bool) -> dict[str, float]:
    from rhetorica.models.api import Usage
    from rhetorica.models.pricing import load_prices, price_usage
    from rhetorica.study import scheduling
    from rhetorica.study.config import parse_study
    from rhetorica.study.runner import StudyRunner

    server = _prefix_server(latency_s)
    original = scheduling.prefix_groups
    if not grouped:
        scheduling.prefix_groups = lambda units, group_of: {}  # the plain schedule (this process only)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            model = f"openai-compatible/{PRICED_AS[1]}@{server.url}/v1"
            config = parse_study({
                "name": "prefix-cache", "output_dir": tmp, "documents": [{"path": str(p)} for p in papers],
                "rewriters": [], "replicates": replicates, "concurrency": concurrency,
                "reviewers": [{"name": f"reviewer-{protocol}", "model": model, "protocol": protocol,
                               "sampling": {"max_tokens": 300}} for protocol in PROTOCOLS],
                "validation": {"enabled": False},
            })
            runner = StudyRunner(config, Path(tmp))
            started = time.perf_counter()
            summary = asyncio.run(runner.run())
            wall = time.perf_counter() - started
            runner.store.close()
            with sqlite3.connect(Path(tmp) / "store.sqlite") as conn:
                stored_cached, output = conn.execute(
                    "SELECT COALESCE(SUM(cached_tokens), 0), COALESCE(SUM(output_tokens), 0) FROM model_calls"
                ).fetchone()
    finally:
        scheduling.prefix_groups = original
        server.stop()
    seen: set[str] = set()
    later_in = later_cached = all_in = all_cached = 0
    for digest, tokens, cached in server.log:
        all_in, all_cached = all_in + tokens, all_cached + cached
        if digest in seen:
            later_in, later_cached = later_in + tokens, later_cached + cached
        seen.add(digest)
    price = load_prices().lookup(*PRICED_AS)
    assert price is not None
    mean_out = output / max(len(server.log), 1)
    listed = sum(price_usage(price, Usage(input_tokens=t, output_tokens=round(mean_out))) for _, t, _ in server.log)
    priced = sum(price_usage(price, Usage(input_tokens=t, output_tokens=round(mean_out), cached_tokens=c))
                 for _, t, c in server.log)
    return {"calls": len(server.log), "ok": summary.statuses.get("ok", 0), "wall": wall,
            "later_cached": later_cached / max(later_in, 1), "all_cached": all_cached / max(all_in, 1),
            "cost_ratio": priced / listed if listed else float("nan"),
            "client_matches_server": float(stored_cached == all_cached)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=20)
    parser.add_argument("--words", type=int, default=8000, help="words (= server tokens) per manuscript")
    parser.add_argument("--replicates", type=int, default=3)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--latency", type=float, default=0.5, help="server seconds per call")
    parser.add_argument("--smoke", action="store_true", help="a few seconds (see the module docstring)")
    args = parser.parse_args()
    if args.smoke:
        args.papers, args.words, args.replicates, args.concurrency, args.latency = 2, 1500, 2, 4, 0.05
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from common import stub_scan

    stub_scan()
    print(f"{args.papers} papers x {args.words} words, {len(PROTOCOLS)} reviewers x {args.replicates} replicates, "
          f"concurrency {args.concurrency}, {args.latency * 1000:.0f} ms per call; priced as {'/'.join(PRICED_AS)}")
    print(f"{'schedule':<12} {'calls':>5} {'ok':>4} {'wall s':>7} {'reps 2..n cached':>17} {'all cached':>11} "
          f"{'cost / list':>12} {'client = server':>16}")
    with tempfile.TemporaryDirectory() as tmp:
        papers = _papers(Path(tmp), args.papers, args.words)
        run_study(papers[:1], 1, args.concurrency, 0.0, True)  # warm-up: imports, first connections
        results = {}
        for name, grouped in (("cache-aware", True), ("plain", False)):
            r = run_study(papers, args.replicates, args.concurrency, args.latency, grouped)
            results[name] = r
            print(f"{name:<12} {r['calls']:>5} {r['ok']:>4} {r['wall']:>7.2f} {100 * r['later_cached']:>16.1f}% "
                  f"{100 * r['all_cached']:>10.1f}% {r['cost_ratio']:>12.3f} {'yes' if r['client_matches_server'] else 'NO':>16}")
    print(f"wall time cache-aware / plain: {results['cache-aware']['wall'] / results['plain']['wall']:.3f}")


if __name__ == "__main__":
    main()
