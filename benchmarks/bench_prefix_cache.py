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

Self-hosted servers (issue 40), each schedule on a fresh server: the shipped default (the model's cache
undeclared, so the run probes the server: ``/props`` -> slots, ``/metrics`` -> prefix, llama-cpp-python's
``/openapi.json`` title -> one slot, else none), plain
plan order (``prompt_cache: none``) and leader first (``prompt_cache: prefix``). The study: 2 shared
papers cut to 685 words, the original and its rule-based ``confidence:+`` rewrite, 3 replicates,
concurrency 2: the issue's design, whose 12 requests sent 18,843 prompt tokens (685 words: about 19,600
on llama-server, whose ``usage.prompt_tokens`` this prints). Prints per schedule: requests, requests answered (``ok`` or cut at
``--max-tokens``), prompt tokens sent (the server's ``usage.prompt_tokens``), tokens evaluated and the
requests that reused their whole prompt, both as the server counted them, the tokens evaluated by the
run's stored usage (prompt - reused tokens) as a cross-check, wall seconds, the 1-minute load average
at the end, and what the probe found (``--per-call``: each request's evaluated tokens; ``--schedules``: a
subset of ``shipped,plain,leader``). ``--server``:

- ``slots --slots N``: a loopback llama.cpp-style server with N slots
  (:class:`tests.models.cache_servers.SlotServer`, tokens = words);
- ``vllm --capacity T``: a loopback vLLM-style prefix cache holding T tokens in blocks of 16
  (:class:`tests.models.cache_servers.PrefixCacheServer`; full reuse: less than a block evaluated);
- ``llama``: ``python -m llama_cpp.server`` with the embedded GGUF (one model state: one slot; the
  study's first request is the structured-output probe, which the server rejects before evaluating
  anything, so it counts one evaluation fewer than requests; tokens evaluated from
  its verbose log's ``prompt eval time = ... / N tokens`` lines; full reuse: at most 1 token);
- ``llama-server --slots N``: llama.cpp's own server binary (``--llama-server`` or
  ``$RHETORICA_LLAMA_SERVER``; default: the one built from llama-cpp-python 0.3.36's vendored source)
  with the embedded GGUF, ``--parallel N``, ``-c`` 4,096 per slot, ``--threads`` (2), its other
  settings at their defaults (its host-memory prompt cache, ``--cache-ram``, included; ``--llama-args``
  adds arguments, e.g. ``'--cache-ram 0'``); tokens evaluated from its ``--log-file``'s ``prompt eval
  time = ... / N tokens`` lines (llama.cpp evaluates a whole prompt found on the slot's last token
  again: full reuse is at most 1 token).

``--smoke`` (every mode): 1 paper cut to 150 words, 2 replicates. The real-server modes are not
part of the test suite's smoke runs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import os
import random
import re
import shlex
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "models"))
sys.path.insert(0, str(ROOT))  # tests.models.cache_servers
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


def _study(papers: list[Path], tmp: str, base_url: str, replicates: int, concurrency: int, prompt_cache: str | None,
           protocols: tuple[str, ...] = PROTOCOLS, max_tokens: int = 300) -> Any:
    """The benchmark's study: ``papers`` reviewed under ``protocols`` through one declared
    openai-compatible model whose ``prompt_cache`` is given (the schedule follows it; ``None``: undeclared,
    the run probes the server)."""
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


LLAMA_SERVER = Path("/work/llama-build/llama_cpp_python-0.3.36/vendor/llama.cpp/build/bin/llama-server")
SCHEDULES = (("shipped default", None), ("plain order", "none"), ("leader first", "prefix"))


@contextlib.contextmanager
def llama_server(binary: Path, slots: int, threads: int, log: Path, extra: tuple[str, ...] = ()) -> Iterator[str]:
    """llama.cpp's ``llama-server`` serving the embedded GGUF on a free loopback port with ``slots``
    slots, its log written to ``log`` (``extra``: further arguments); yields its root URL once
    ``GET /health`` answers 200."""
    from rhetorica.models.providers.embedded import gguf_path

    reliability = _reliability()
    port = reliability._free_port()
    cmd = [str(binary), "-m", str(gguf_path("smollm2-135m")), "--host", "127.0.0.1", "--port", str(port),
           "--parallel", str(slots), "-c", str(4096 * slots), "--threads", str(threads), "--log-file", str(log), *extra]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        reliability.wait_ready(proc, f"{url}/health", str(binary))
        yield url
    finally:
        reliability.stop(proc)


def run_local(papers: list[Path], args: argparse.Namespace, prompt_cache: str | None) -> dict[str, Any]:
    """One schedule (the model's declared ``prompt_cache``; ``None``: the shipped default, probed) on a
    fresh server of kind ``args.server`` (see the module docstring)."""
    from rhetorica.study.runner import StudyRunner

    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        fake = None
        log = Path(tmp) / "server.log"
        if args.server in ("slots", "vllm"):
            from tests.models.cache_servers import PrefixCacheServer, SlotServer

            fake = stack.enter_context(SlotServer(latency_s=0.02, slots=args.slots) if args.server == "slots"
                                       else PrefixCacheServer(latency_s=0.02, capacity=args.capacity))
            base = f"{fake.url}/v1"
        elif args.server == "llama":
            base = stack.enter_context(_reliability().llama_cpp_server(threads=args.threads, log=log, n_ctx=4096)) + "/v1"
        else:
            base = stack.enter_context(llama_server(args.llama_server, args.slots, args.threads, log,
                                                    tuple(shlex.split(args.llama_args)))) + "/v1"
        config = _study(papers, tmp, base, args.replicates, args.concurrency, prompt_cache, protocols=("default",),
                        max_tokens=args.max_tokens)
        config = config.model_copy(update={"rewriters": _rules_rewriter(),
                                           "document_options": config.document_options.model_copy(
                                               update={"max_words": args.words})})
        runner = StudyRunner(config, Path(tmp))
        started = time.perf_counter()
        asyncio.run(runner.run())
        wall = time.perf_counter() - started
        runner.store.close()
        with sqlite3.connect(Path(tmp) / "store.sqlite") as conn:
            prompt, calls, answered, stored_evaluated = conn.execute(
                "SELECT COALESCE(SUM(input_tokens), 0), COUNT(*), COALESCE(SUM(status IN ('ok', 'truncated')), 0), "
                "COALESCE(SUM(input_tokens - cached_tokens), 0) FROM model_calls WHERE cache_hit = 0").fetchone()
            probed = conn.execute("SELECT detail FROM endpoint_events WHERE event = 'prompt-cache'").fetchone()
        if fake is not None:
            counts = [s.evaluated for s in fake.served]
            evaluated, reused = fake.evaluated, fake.full_reuse
        else:
            stack.close()  # the server has stopped: its log is complete
            counts = [int(n) for n in EVAL_LINE.findall(log.read_text(encoding="utf-8"))]
            evaluated, reused = sum(counts), sum(n <= 1 for n in counts)  # llama.cpp evaluates a found prompt's last token
    return {"calls": calls, "answered": answered, "prompt": prompt, "evaluated": evaluated, "reused": reused,
            "server_calls": len(counts), "per_call": counts, "stored_evaluated": stored_evaluated, "wall": wall,
            "load": os.getloadavg()[0], "cache": probed[0] if probed else f"{prompt_cache} (declared)"}


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
    """The self-hosted modes: each schedule on a fresh server (see :func:`run_local`)."""
    papers = [SHARED / name for name in LOCAL_PAPERS[: args.papers]]
    print(f"{args.papers} shared papers cut to {args.words} words, 2 arms (original, confidence:+), "
          f"{args.replicates} replicates, concurrency {args.concurrency}; server: {args.server}"
          + (f", {args.slots} slot(s)" if args.server in ("slots", "llama-server") else "")
          + (f", {args.llama_args}" if args.server == "llama-server" and args.llama_args else "")
          + (f", capacity {args.capacity} tokens" if args.server == "vllm" else ""))
    if args.server == "llama-server":
        version = subprocess.run([str(args.llama_server), "--version"], capture_output=True, text=True, check=False)
        print(f"{args.llama_server}: " + " ".join((version.stdout + version.stderr).split()))
    print(f"{'schedule':<16} {'requests':>8} {'answered':>8} {'prompt tok':>10} {'evaluated':>9} {'full reuse':>10} "
          f"{'usage eval':>10} {'wall s':>7} {'load':>5}  cache scheduled for")
    for label, cache in SCHEDULES:
        if label.split()[0] not in args.schedules.split(","):
            continue
        r = run_local(papers, args, cache)
        if r["server_calls"] != r["calls"]:
            print(f"  (the server counted {r['server_calls']} prompt evaluations for {r['calls']} requests)")
        print(f"{label:<16} {r['calls']:>8} {r['answered']:>8} {r['prompt']:>10} {r['evaluated']:>9} {r['reused']:>10} "
              f"{r['stored_evaluated']:>10} {r['wall']:>7.1f} {r['load']:>5.1f}  {r['cache']}")
        if args.per_call:
            print(f"  evaluated per request, as the server answered them: {' '.join(map(str, r['per_call']))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=20)
    parser.add_argument("--words", type=int, default=8000, help="words (= server tokens) per manuscript")
    parser.add_argument("--replicates", type=int, default=3)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--latency", type=float, default=0.5, help="server seconds per call")
    parser.add_argument("--smoke", action="store_true", help="a few seconds (see the module docstring)")
    parser.add_argument("--server", choices=("openai-prefix", "slots", "vllm", "llama", "llama-server"),
                        default="openai-prefix", help="the cache simulated or served (see the module docstring)")
    parser.add_argument("--slots", type=int, default=1, help="slots, llama-server: the server's slots")
    parser.add_argument("--capacity", type=int, default=3000, help="vllm: tokens the prefix cache holds")
    parser.add_argument("--llama-server", type=Path,
                        default=Path(os.environ.get("RHETORICA_LLAMA_SERVER", str(LLAMA_SERVER))),
                        help="llama-server: the binary (default: $RHETORICA_LLAMA_SERVER, else the vendored build)")
    parser.add_argument("--llama-args", default="", help="llama-server: further arguments, e.g. '--cache-ram 0' "
                        "(no host-memory prompt cache: each slot keeps only its last prompt)")
    parser.add_argument("--threads", type=int, default=2, help="llama: the server's CPU threads")
    parser.add_argument("--max-tokens", type=int, default=40, help="self-hosted modes: tokens per answer (a "
                        "review cut at the cap is stored truncated; its prompt was evaluated all the same)")
    parser.add_argument("--schedules", default="shipped,plain,leader", help="self-hosted modes: which of the "
                        "schedules to run (comma-separated: shipped, plain, leader)")
    parser.add_argument("--per-call", action="store_true", help="self-hosted modes: also print each request's "
                        "evaluated tokens")
    args = parser.parse_args()
    if args.server != "openai-prefix":
        if args.smoke:
            args.papers, args.words, args.replicates, args.concurrency = 1, 150, 2, 2
        elif args.papers == 20:  # the issue-40 design unless told otherwise
            args.papers, args.words, args.replicates, args.concurrency = 2, 685, 3, 2
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
