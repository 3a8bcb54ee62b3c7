"""``benchmarks/reliability/run.py --smoke`` against the loopback fake server: 3 SIGKILLs at
store-observed points behind a proxy injecting 25% faults; nothing lost, nothing duplicated, every
request the server received is in the call log, nothing left in flight."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from fake_servers import FakeServer

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "reliability"


def test_smoke_kills_lose_and_duplicate_nothing(tmp_path):
    sys.path.insert(0, str(BENCH))
    try:
        import run as reliability
    finally:
        sys.path.remove(str(BENCH))
    with FakeServer(latency_s=0.5) as server:
        summary = reliability.main(["--smoke", "--upstream", server.url, "--model", "fake-reviewer",
                                    "--out", str(tmp_path / "work")])
        answered = len(server.model_requests())
    assert summary["kills"] == 3 and not summary["finished_before_all_kills"], summary
    assert summary["final_exit_code"] == 0, summary["final_output_tail"]
    assert (summary["units_planned"], summary["results_stored"]) == (12, 12)
    assert (summary["units_lost"], summary["results_duplicated"], summary["in_flight_left"]) == (0, 0, 0)
    # a request is logged just before it is sent: only a call a kill cut off in between is logged
    # and never received, and every such call is an abandoned one
    received = summary["server_requests"]
    assert received <= summary["logged_requests"] <= received + summary["abandoned"], summary
    assert answered == summary["proxy"]["forwarded"]  # the proxy forwarded what it did not fault
    assert sum(summary["proxy"]["faults"].values()) >= 1  # faults were met and survived
    assert summary["json_schema_requests"] >= 1 and summary["priced_spend_usd"] > 0


def test_a_75_percent_failing_endpoint_leaves_units_pending_and_a_plain_resume_completes_them(tmp_path):
    """Through the harness's proxy failing 75% of requests (reset, 429, 500, truncated body), the
    default breaker window pauses the endpoint; units whose calls ended in transient failures only
    stay pending (exit 1, said), none is stored as a failure; once the endpoint heals, a plain
    ``rhetorica run`` completes every unit with exit 0. Every request the server got has one row."""
    import os
    import sqlite3
    import subprocess
    import time

    import yaml

    sys.path.insert(0, str(BENCH))
    try:
        from proxy import Proxy
    finally:
        sys.path.remove(str(BENCH))
    papers = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "papers"
    rhetorica = [sys.executable, "-c", "from rhetorica.cli.app import main; main()"]
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")} | {"COLUMNS": "200"}
    with FakeServer() as server, Proxy(server.url, fault_rate=0.75, seed=7, retry_after_s=0.2) as proxy:
        study = tmp_path / "study.yaml"
        study.write_text(yaml.safe_dump({
            "name": "heal", "output_dir": str(tmp_path / "run"), "documents": [str(papers / "gcrn_iclr2017")],
            "document_options": {"max_words": 120}, "replicates": 12, "concurrency": 3,
            "reviewers": [{"name": "flaky", "model": f"openai-compatible/fake-reviewer@{proxy.url}/v1",
                           "options": {"timeout_s": 10, "max_concurrency": 3}}],
            # the default window (5 failures, 50%, 60 s); short pauses and backoff keep the test quick
            "circuit_breaker": {"pause_s": 0.3, "recovery_s": 5},
            "retries": {"max_attempts": 3, "base_delay_s": 0.05, "max_delay_s": 0.2},
            "validation": {"enabled": False}}))
        started = time.monotonic()
        first = subprocess.run([*rhetorica, "run", str(study)], env=env, capture_output=True, text=True, timeout=300)
        first_s = time.monotonic() - started
        out = first.stdout + first.stderr
        store = tmp_path / "run" / "store.sqlite"
        with sqlite3.connect(store) as conn:
            stored = Counter(r[0] for r in conn.execute("SELECT status FROM assessments"))
            events = [r[0] for r in conn.execute(  # the breaker's (the table also keeps the run's probe of the server)
                "SELECT event FROM endpoint_events WHERE event IN ('paused', 'resumed') ORDER BY event_id")]
        assert first.returncode == 1, out
        assert sum(proxy.counts()["faults"].values()) >= 0.6 * proxy.counts()["received"]
        assert set(stored) <= {"ok"}, stored  # a transient failure is never stored as the unit's result
        assert stored["ok"] < 12 and "left pending" in out and "transient failures only" in out, out
        assert events and events[0] == "paused" and "paused" in out, out  # said on the terminal and kept
        assert first_s < 60  # paused (and the run over) within a minute

        proxy.fault_rate = 0.0  # the endpoint heals
        second = subprocess.run([*rhetorica, "run", str(study)], env=env, capture_output=True, text=True,
                                timeout=300)
        with sqlite3.connect(store) as conn:
            stored = Counter(r[0] for r in conn.execute("SELECT status FROM assessments"))
            logged = conn.execute("SELECT COUNT(*) FROM model_calls WHERE cache_hit = 0").fetchone()[0]
    assert second.returncode == 0, second.stdout + second.stderr
    assert stored == {"ok": 12}
    assert logged == proxy.counts()["received"]  # one call-log row per request the server received
