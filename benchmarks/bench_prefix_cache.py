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

Servers that keep only their last prompt (issue 40), ``--server last-prompt`` (a loopback server with
one slot that evaluates each request's tokens after its common prefix with the previous one:
:mod:`tests.models.last_prompt_server`) and ``--server llama`` (the real ``python -m llama_cpp.server``
with the embedded GGUF, one slot; its tokens evaluated read from its log): 2 shared papers cut to 700
words, the original and its rule-based ``confidence:+`` rewrite, 3 replicates, concurrency 2 (the
issue's design), each
schedule on a fresh server — the lane of a ``last-prompt`` model, plan order (``none``) and the leader
schedule of a ``prefix`` model. Prints calls, prompt tokens sent, tokens evaluated, requests whose
whole prompt was reused and wall seconds. ``--smoke``: 1 paper cut to 150 words, 2 replicates.
llama-cpp-python's server has one slot; a llama.cpp server with ``--parallel N`` is not available here.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import random
import re
import sqlite3
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "models"))
sys.path.insert(0, str(ROOT))  # tests.models.last_prompt_server
SHARED = ROOT.parent / "shared" / "data" / "papers"
LOCAL_PAPERS = ("gcrn_iclr2017", "chebnet_nips2016", "stable-nalu_iclr2020")
EVAL_LINE = re.compile(r"prompt eval time =\s*[\d.]+ ms /\s*(\d+) tokens")

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


def _study(papers: list[Path], tmp: str, base_url: str, replicates: int, concurrency: int, prompt_cache: str,
           protocols: tuple[str, ...] = PROTOCOLS, max_tokens: int = 300) -> Any:
    """The benchmark's study: ``papers`` reviewed under ``protocols`` through one declared
    openai-compatible model whose ``prompt_cache`` is given (the schedule follows it)."""
    from rhetorica.study.config import parse_study

    return parse_study({
        "name": "prefix-cache", "output_dir": tmp, "documents": [{"path": str(p)} for p in papers],
        "models": {"m": {"provider": "openai-compatible", "model": PRICED_AS[1], "prompt_cache": prompt_cache,
                         "endpoints": [{"base_url": base_url}]}},
        "rewriters": [], "replicates": replicates, "concurrency": concurrency,
        "reviewers": [{"name": f"reviewer-{protocol}", "model": "m", "protocol": protocol,
                       "sampling": {"max_tokens": max_tokens}} for protocol in protocols],
        "validation": {"enabled": False},
    })


def run_study(papers: list[Path], replicates: int, concurrency: int, latency_s: float, grouped: bool) -> dict[str, float]:
    from rhetorica.models.api import Usage
    from rhetorica.models.pricing import load_prices, price_usage
    from rhetorica.study.runner import StudyRunner

    server = _prefix_server(latency_s)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            # the cache-aware schedule for a prefix cache, or plan order (nothing assumed)
            config = _study(papers, tmp, f"{server.url}/v1", replicates, concurrency, "prefix" if grouped else "none")
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


def run_local(papers: list[Path], words: int, replicates: int, concurrency: int, server: str, prompt_cache: str,
              threads: int, max_tokens: int) -> dict[str, float]:
    """One schedule (the model's declared ``prompt_cache``) against a server that keeps its last prompt:
    the loopback :class:`tests.models.last_prompt_server.LastPromptServer` (``server="last-prompt"``) or
    the real ``python -m llama_cpp.server`` with the embedded GGUF (``server="llama"``; tokens
    evaluated read from its verbose log, one ``prompt eval time = … / N tokens`` line per call)."""
    from rhetorica.study.runner import StudyRunner

    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        if server == "last-prompt":
            from tests.models.last_prompt_server import LastPromptServer

            fake = stack.enter_context(LastPromptServer(latency_s=0.02))
            base = f"{fake.url}/v1"
        else:
            log = Path(tmp) / "server.log"
            base = stack.enter_context(_reliability().llama_cpp_server(threads=threads, log=log, n_ctx=4096)) + "/v1"
        config = _study(papers, tmp, base, replicates, concurrency, prompt_cache, protocols=("default",),
                        max_tokens=max_tokens)
        config = config.model_copy(update={"rewriters": _rules_rewriter(),
                                           "document_options": config.document_options.model_copy(
                                               update={"max_words": words})})
        runner = StudyRunner(config, Path(tmp))
        started = time.perf_counter()
        asyncio.run(runner.run())
        wall = time.perf_counter() - started
        runner.store.close()
        with sqlite3.connect(Path(tmp) / "store.sqlite") as conn:
            prompt, calls, ok = conn.execute(
                "SELECT COALESCE(SUM(input_tokens), 0), COUNT(*), COALESCE(SUM(status = 'ok'), 0) FROM model_calls "
                "WHERE cache_hit = 0").fetchone()
        if server == "last-prompt":
            evaluated, reused = fake.evaluated, fake.full_reuse
        else:
            stack.close()  # the server has stopped: its log is complete
            counts = [int(n) for n in EVAL_LINE.findall(log.read_text(encoding="utf-8"))]
            evaluated, reused = sum(counts), sum(n <= 1 for n in counts)
    return {"calls": calls, "calls_ok": ok, "prompt": prompt, "evaluated": evaluated,
            "reused": reused, "wall": wall}


def _rules_rewriter() -> list[Any]:
    from rhetorica.study.config import RewriterSpec

    return [RewriterSpec(name="rules", kind="rule-based", conditions=["confidence:+"])]


def _reliability() -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_reliability_run", ROOT / "benchmarks" / "reliability" / "run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main_local(args: argparse.Namespace) -> None:
    """The last-prompt modes: each schedule on a fresh server (see :func:`run_local`)."""
    papers = [SHARED / name for name in LOCAL_PAPERS[: args.papers]]
    print(f"{args.papers} shared papers cut to {args.words} words, 2 arms (original, confidence:+), "
          f"{args.replicates} replicates, concurrency {args.concurrency}; server: {args.server}")
    print(f"{'schedule':<24} {'requests':>8} {'answered ok':>11} {'prompt tok':>10} {'evaluated':>9} "
          f"{'full reuse':>10} {'wall s':>7}")
    for label, cache in (("last-prompt (lane)", "last-prompt"), ("none (plan order)", "none"),
                         ("prefix (leader first)", "prefix")):
        r = run_local(papers, args.words, args.replicates, args.concurrency, args.server, cache, args.threads,
                      args.max_tokens)
        print(f"{label:<24} {r['calls']:>8} {r['calls_ok']:>11} {r['prompt']:>10} {r['evaluated']:>9} "
              f"{r['reused']:>10} {r['wall']:>7.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=20)
    parser.add_argument("--words", type=int, default=8000, help="words (= server tokens) per manuscript")
    parser.add_argument("--replicates", type=int, default=3)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--latency", type=float, default=0.5, help="server seconds per call")
    parser.add_argument("--smoke", action="store_true", help="a few seconds (see the module docstring)")
    parser.add_argument("--server", choices=("openai-prefix", "last-prompt", "llama"), default="openai-prefix",
                        help="the cache simulated or served (see the module docstring)")
    parser.add_argument("--threads", type=int, default=2, help="llama: the server's CPU threads")
    parser.add_argument("--max-tokens", type=int, default=40, help="last-prompt, llama: tokens per answer (a "
                        "review cut at the cap is stored truncated; its prompt was evaluated all the same)")
    args = parser.parse_args()
    if args.server != "openai-prefix":
        if args.smoke:
            args.papers, args.words, args.replicates, args.concurrency = 1, 150, 2, 2
        elif args.papers == 20:  # the issue-40 design unless told otherwise
            args.papers, args.words, args.replicates, args.concurrency = 2, 700, 3, 2
        main_local(args)
        return
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
