"""``benchmarks/reliability/run.py --smoke`` against the loopback fake server: 3 SIGKILLs at
store-observed points behind a proxy injecting 25% faults; nothing lost, nothing duplicated, every
request the server received is in the call log, nothing left in flight."""

from __future__ import annotations

import sys
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
