"""The report's usage table shows the calls never answered (abandoned by an interrupted run) apart,
with what was reserved for them, and per model the input tokens its server reused beside the reuse
``estimate`` assumed and the prompt cache the run scheduled for."""

from __future__ import annotations

import pandas as pd

from rhetorica.report.build import _usage
from rhetorica.study.config import parse_study

STUDY = parse_study({"name": "u", "documents": ["x.md"], "reviewers": [{"name": "n", "kind": "control"}],
                     "models": {"local": {"provider": "openai-compatible", "model": "smollm2", "prompt_cache": "slots", "cache_slots": 2,
                                          "endpoints": [{"base_url": "http://127.0.0.1:9/v1"}]}}})


def test_unanswered_calls_are_counted_apart_with_their_reserved_cost():
    calls = pd.DataFrame({
        "provider": ["p"] * 5, "model": ["m"] * 5,
        "status": ["ok", "abandoned", "abandoned", "in_flight", "ok"],
        "cache_hit": [0, 0, 0, 0, 1],
        "input_tokens": [10, 0, 0, 0, 10], "cached_tokens": [0] * 5, "output_tokens": [5, 0, 0, 0, 5],
        "cost_usd": [0.02, 0.01, 0.03, 0.5, 0.0], "reserved_usd": [0.5, 0.2, 0.3, 0.5, 0.0],
        "latency_s": [1.0, 0.0, 0.0, 0.0, 0.0],
    })
    row = _usage(calls, STUDY).iloc[0]
    assert (row["calls"], row["cache_hits"], row["failed_calls"]) == (4, 1, 3)
    assert row["unanswered_calls"] == 3
    assert row["unanswered_reserved_usd"] == 0.2 + 0.3 + 0.5
    assert row["cost_usd"] == 0.02 + 0.01 + 0.03 + 0.5


def test_reused_tokens_and_the_prompt_cache_per_model():
    """Reused input tokens are summed over the requests that reached the server (a cache hit of
    rhetorica's own response cache reached none); the prompt cache is the declared one, else the provider's."""
    calls = pd.DataFrame({
        "provider": ["openai-compatible"] * 3 + ["openai"] * 2,
        "model": ["smollm2@http://127.0.0.1:9/v1"] * 3 + ["gpt-5-mini"] * 2,
        "status": ["ok"] * 5, "cache_hit": [0, 0, 1, 0, 0],
        "input_tokens": [1570, 1570, 1570, 2000, 2000], "cached_tokens": [0, 1567, 1567, 0, 1920],
        "output_tokens": [40] * 5, "cost_usd": [0.0] * 5, "reserved_usd": [0.0] * 5, "latency_s": [1.0] * 5,
    })
    rows = _usage(calls, STUDY).set_index("provider")
    assert rows.loc["openai-compatible", "cached_tokens"] == 1567 and rows.loc["openai", "cached_tokens"] == 1920
    assert rows.loc["openai-compatible", "prompt_cache"] == "slots: 2 (declared)"
    assert rows.loc["openai", "prompt_cache"] == "prefix (provider)"
    assert rows.loc["openai-compatible", "estimate_assumes"] == "slots: a repeated prompt, whole"
    assert rows.loc["openai", "estimate_assumes"] == "prefix: a repeated prompt from 1,024 tokens, in 128-token steps"
    columns = list(rows.reset_index().columns)  # side by side
    assert columns[columns.index("cached_tokens"):][:3] == ["cached_tokens", "estimate_assumes", "prompt_cache"]


def test_a_probed_cache_is_shown_as_the_run_heard_it():
    """An openai-compatible model with no declared cache shows its probe's answer (the store's
    ``prompt-cache`` events), or ``not probed`` when the run kept none."""
    study = parse_study({"name": "u", "documents": ["x.md"], "reviewers": [{"name": "n", "kind": "control"}],
                         "models": {"local": {"provider": "openai-compatible", "model": "smollm2",
                                              "endpoints": [{"base_url": "http://127.0.0.1:9/v1"}]}}})
    calls = pd.DataFrame({
        "provider": ["openai-compatible"] * 2, "model": ["smollm2@http://127.0.0.1:9/v1", "qwen@http://127.0.0.1:8/v1"],
        "status": ["ok"] * 2, "cache_hit": [0, 0], "input_tokens": [10, 10], "cached_tokens": [0, 0],
        "output_tokens": [1, 1], "cost_usd": [0.0] * 2, "reserved_usd": [0.0] * 2, "latency_s": [1.0] * 2,
    })
    probed = {"local": "prefix (probed: GET /metrics: vllm: metrics)"}
    rows = _usage(calls, study, probed).set_index("model")
    assert rows.loc["smollm2@http://127.0.0.1:9/v1", "prompt_cache"] == "prefix (probed: GET /metrics: vllm: metrics)"
    assert rows.loc["qwen@http://127.0.0.1:8/v1", "prompt_cache"] == "none (not probed)"
    # estimate sends no request: it assumed nothing of either server
    assert set(rows["estimate_assumes"]) == {"none (not asked of the server)"}


def test_calls_without_usable_counts_are_counted_per_token_column_and_named_in_the_note():
    """A call whose server reported no usable count (``model_calls.usage_unreported``) adds 0 to
    the sum; the table counts such calls per column (real calls only) and the note says so."""
    from rhetorica.report.sections import usage_note

    calls = pd.DataFrame({
        "provider": ["p"] * 5 + ["q"], "model": ["m"] * 5 + ["n"], "status": ["ok"] * 6,
        "cache_hit": [0, 0, 0, 0, 1, 0],
        "input_tokens": [0, 100, 0, 100, 0, 7], "cached_tokens": [0, 0, 0, 60, 0, 0],
        "output_tokens": [0, 50, 20, 50, 0, 3], "cost_usd": [0.0] * 6, "reserved_usd": [0.0] * 6,
        "latency_s": [1.0] * 6,
        "usage_unreported": ["input_tokens,output_tokens,cached_tokens,reasoning_tokens", "cached_tokens",
                             "input_tokens,cached_tokens", "reasoning_tokens",
                             "input_tokens,output_tokens,cached_tokens", ""],
    })
    rows = _usage(calls, STUDY).set_index("provider")
    assert rows.loc["p", ["input_tokens", "cached_tokens", "output_tokens"]].tolist() == [200, 60, 120]
    assert rows.loc["p", ["input_tokens_unreported", "cached_tokens_unreported", "output_tokens_unreported"]].tolist() \
        == [2, 3, 1]
    assert rows.loc["q", ["input_tokens_unreported", "cached_tokens_unreported", "output_tokens_unreported"]].tolist() \
        == [0, 0, 0]
    note = usage_note(rows.reset_index())
    assert note == ("The server reported no usable count (missing, not a non-negative integer, or a part larger than "
                    "its whole) for the input tokens of 2 call(s); the reused input tokens of 3 call(s); the output "
                    "tokens of 1 call(s): these count as 0 in the token sums, which are therefore lower bounds.")
    assert rows["charged_at_bound"].tolist() == [0, 0]  # unpriced: nothing to charge


def test_a_store_from_before_the_column_counts_no_call_as_unreported():
    """Rows of a store older than schema 14 (no ``usage_unreported``) read as every count reported."""
    from rhetorica.report.sections import usage_note

    calls = pd.DataFrame({"provider": ["p"], "model": ["m"], "status": ["ok"], "cache_hit": [0], "input_tokens": [10],
                          "cached_tokens": [0], "output_tokens": [5], "cost_usd": [0.0], "reserved_usd": [0.0],
                          "latency_s": [1.0]})
    usage = _usage(calls, STUDY)
    assert usage.iloc[0][["input_tokens_unreported", "cached_tokens_unreported", "output_tokens_unreported"]].tolist() \
        == [0, 0, 0]
    assert usage_note(usage) == ""


def test_priced_calls_without_usable_counts_are_counted_as_charged_at_their_bound():
    """Of the real calls, the priced ones (cost > 0) lacking a usable input or output count were
    charged at their bound (rhetorica.models.budget.charged_cost); the note says how many."""
    from rhetorica.report.sections import usage_note

    calls = pd.DataFrame({
        "provider": ["p"] * 6, "model": ["m"] * 6, "status": ["ok"] * 5 + ["error"], "cache_hit": [0, 0, 0, 0, 1, 0],
        "input_tokens": [0, 10, 10, 0, 0, 0], "cached_tokens": [0] * 6, "output_tokens": [5, 0, 5, 0, 0, 0],
        # row 0: input unreported, priced; row 1: output unreported, priced; row 2: only the cached
        # count unreported (0 reused is already the dearer); row 3: both unreported but unpriced;
        # row 4: a cache hit; row 5: an answer that could not be read, priced
        "cost_usd": [0.054, 0.013, 0.007, 0.0, 0.0, 0.054], "reserved_usd": [0.054] * 6, "latency_s": [1.0] * 6,
        "usage_unreported": ["input_tokens,cached_tokens", "output_tokens,reasoning_tokens", "cached_tokens",
                             "input_tokens,output_tokens", "input_tokens",
                             "input_tokens,output_tokens,cached_tokens,reasoning_tokens"],
    })
    usage = _usage(calls, STUDY)
    assert usage.iloc[0]["charged_at_bound"] == 3
    assert usage.iloc[0]["cost_usd"] == 0.054 + 0.013 + 0.007 + 0.054
    note = usage_note(usage)
    assert note.endswith("3 priced call(s) without a usable input or output count (or whose answer could not be read) "
                         "are charged at their bound in the cost and the budget: the request's input tokens as the "
                         "budget counts them, max_tokens output tokens (without max_tokens: the answer's text counted "
                         "so), no reused input.")


def test_seconds_in_calls_read_not_measured_where_no_call_was_timed():
    """A model whose real calls all carry a 0 s duration (nothing timed them: a mock model, batch
    results) shows 'not measured', not 0.00; a timed model its sum; a model with cache hits only,
    which made no call, 0.00 s; the note counts the untimed models."""
    from rhetorica.report.sections import USAGE_HEADERS, usage_note, usage_shown
    from rhetorica.report.views import table_view

    calls = pd.DataFrame({
        "provider": ["mock", "mock", "p", "p", "p", "q"], "model": ["m", "m", "t", "t", "t", "h"],
        "status": ["ok"] * 6, "cache_hit": [0, 0, 0, 0, 1, 1],
        "input_tokens": [1] * 6, "cached_tokens": [0] * 6, "output_tokens": [1] * 6, "cost_usd": [0.0] * 6,
        "reserved_usd": [0.0] * 6,
        # the timed model: 1.25 s + 0 s (a batch result) = 1.25 s; its cache hit's 0 is no call
        "latency_s": [0.0, 0.0, 1.25, 0.0, 0.0, 0.0],
    })
    usage = _usage(calls, STUDY).set_index("provider")
    assert usage.loc["mock", "untimed_calls"] == 2 and pd.isna(usage.loc["mock", "call_seconds"])
    assert usage.loc["p", "call_seconds"] == 1.25 and usage.loc["p", "untimed_calls"] == 1
    assert usage.loc["q", "calls"] == 0 and usage.loc["q", "call_seconds"] == 0.0
    view = table_view(usage_shown(usage.reset_index()), USAGE_HEADERS)
    seconds = {row[0]: row[view.headers.index("Seconds in calls")] for row in view.rows}
    assert seconds == {"mock": "not measured", "p": "1.25", "q": "0.00"}
    assert ("Seconds in calls: not measured for 1 model(s) whose calls carry no duration (each logged as 0 s: "
            "a model answering in-process without a timed request, such as a mock model, or batch results).") \
        in usage_note(usage.reset_index())
