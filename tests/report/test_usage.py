"""The report's usage table shows the calls never answered (abandoned by an interrupted run) apart,
with what was reserved for them."""

from __future__ import annotations

import pandas as pd

from rhetorica.report.build import _usage


def test_unanswered_calls_are_counted_apart_with_their_reserved_cost():
    calls = pd.DataFrame({
        "provider": ["p"] * 5, "model": ["m"] * 5,
        "status": ["ok", "abandoned", "abandoned", "in_flight", "ok"],
        "cache_hit": [0, 0, 0, 0, 1],
        "input_tokens": [10, 0, 0, 0, 10], "output_tokens": [5, 0, 0, 0, 5],
        "cost_usd": [0.02, 0.01, 0.03, 0.5, 0.0], "reserved_usd": [0.5, 0.2, 0.3, 0.5, 0.0],
        "latency_s": [1.0, 0.0, 0.0, 0.0, 0.0],
    })
    row = _usage(calls).iloc[0]
    assert (row["calls"], row["cache_hits"], row["failed_calls"]) == (4, 1, 3)
    assert row["unanswered_calls"] == 3
    assert row["unanswered_reserved_usd"] == 0.2 + 0.3 + 0.5
    assert row["cost_usd"] == 0.02 + 0.01 + 0.03 + 0.5
