"""The one check of reported token counts (rhetorica.models.usage), run through every provider's
response parser on a generated corpus of malformed usage blocks, and a study against a loopback
server answering them: every answer is kept, every unusable count is unknown, never a crash."""

from __future__ import annotations

import copy
import math
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from fake_servers import FakeServer

from rhetorica.models.api import Usage
from rhetorica.models.providers.openai_compatible import OpenAICompatibleModel
from rhetorica.models.usage import MAX_TOKENS, NOT_SENT, reported_usage, token_count
from rhetorica.status import Status

FIELDS = ("input_tokens", "output_tokens", "cached_tokens", "reasoning_tokens")

#: Every kind of value that is not a usable count (NOT_SENT: the key is left out).
BAD: dict[str, Any] = {
    "missing": NOT_SENT, "null": None, "true": True, "false": False, "numeric string": "100", "word": "many",
    "negative": -1, "negative float": -3.0, "fraction": 2.5, "nan": math.nan, "inf": math.inf, "-inf": -math.inf,
    "at the bound": 2**53, "huge float": 1e30, "huge int": 10**400, "list": [1, 2, 3], "empty list": [],
    "object": {"n": 1},
}
#: Usable counts and their value.
GOOD: list[tuple[Any, int]] = [(0, 0), (7, 7), (7.0, 7), (2**53 - 1, 2**53 - 1), (1e15, 10**15)]
#: Values that are no object (for a nested level that must be one).
NOT_OBJECTS: dict[str, Any] = {"null": None, "true": True, "string": "usage", "number": 5, "float": 1.5,
                               "list": [1, 2, 3], "empty list": [], "nan": math.nan}
TEXT = '{"summary": "A sound paper.", "overall": 6}'


def test_token_count_keeps_exactly_the_non_negative_integers_below_the_bound():
    assert MAX_TOKENS == 9_007_199_254_740_992
    assert [token_count(v) for v, _ in GOOD] == [n for _, n in GOOD]
    assert {name: token_count(v) for name, v in BAD.items()} == dict.fromkeys(BAD)


def test_a_part_is_kept_only_up_to_its_usable_whole():
    assert reported_usage(input_tokens=100, output_tokens=50, cached_tokens=100, reasoning_tokens=50) == Usage(
        input_tokens=100, output_tokens=50, cached_tokens=100, reasoning_tokens=50)
    assert reported_usage(input_tokens=100, output_tokens=50, cached_tokens=101, reasoning_tokens=51) == Usage(
        input_tokens=100, output_tokens=50, unreported=["cached_tokens", "reasoning_tokens"])
    assert reported_usage(input_tokens=-1, output_tokens="50", cached_tokens=0, reasoning_tokens=0) == Usage(
        unreported=list(FIELDS))
    assert reported_usage(input_tokens=3, output_tokens=4) == Usage(
        input_tokens=3, output_tokens=4, unreported=["cached_tokens", "reasoning_tokens"])


def _with(body: dict[str, Any], path: tuple[str, ...], value: Any) -> dict[str, Any]:
    """``body`` with ``value`` at ``path`` (the key left out for NOT_SENT)."""
    out = copy.deepcopy(body)
    node = out
    for key in path[:-1]:
        node = node[key]
    if value is NOT_SENT:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return out


def _check(output: Any, expected: dict[str, int], unknown: set[str]) -> None:
    """The answer is kept and ok; the usable counts are as ``expected``, the others 0 and unreported."""
    assert output.text == TEXT and output.status == Status.OK
    assert set(output.usage.unreported) == unknown
    assert {f: getattr(output.usage, f) for f in FIELDS} == {f: 0 if f in unknown else expected[f] for f in FIELDS}


# -- OpenAI-compatible (also OpenAI's own API and llama.cpp's server) -----------------------------------
OPENAI_BODY = {"choices": [{"index": 0, "message": {"role": "assistant", "content": TEXT}, "finish_reason": "stop"}],
               "usage": {"prompt_tokens": 100, "completion_tokens": 50, "prompt_tokens_details": {"cached_tokens": 80},
                         "completion_tokens_details": {"reasoning_tokens": 20}}}
OPENAI_EXPECTED = {"input_tokens": 100, "output_tokens": 50, "cached_tokens": 80, "reasoning_tokens": 20}
#: Where each count is, and which counts a bad value there leaves unknown (a part of an unknown whole).
OPENAI_FIELDS = {
    ("usage", "prompt_tokens"): {"input_tokens", "cached_tokens"},
    ("usage", "completion_tokens"): {"output_tokens", "reasoning_tokens"},
    ("usage", "prompt_tokens_details", "cached_tokens"): {"cached_tokens"},
    ("usage", "completion_tokens_details", "reasoning_tokens"): {"reasoning_tokens"},
}


def openai_corpus() -> list[tuple[str, dict[str, Any], set[str]]]:
    """(case, response body, the counts that must be unknown)."""
    cases = [(f"{'.'.join(path)}={kind}", _with(OPENAI_BODY, path, value), unknown)
             for path, unknown in OPENAI_FIELDS.items() for kind, value in BAD.items()]
    cases += [(f"usage={kind}", _with(OPENAI_BODY, ("usage",), value), set(FIELDS)) for kind, value in NOT_OBJECTS.items()]
    cases += [("usage missing", _with(OPENAI_BODY, ("usage",), NOT_SENT), set(FIELDS)),
              ("usage={}", _with(OPENAI_BODY, ("usage",), {}), set(FIELDS))]
    for level, unknown in (("prompt_tokens_details", {"cached_tokens"}), ("completion_tokens_details", {"reasoning_tokens"})):
        cases += [(f"{level}={kind}", _with(OPENAI_BODY, ("usage", level), value), unknown)
                  for kind, value in NOT_OBJECTS.items()]
    cases += [("cached 101 > prompt 100", _with(OPENAI_BODY, ("usage", "prompt_tokens_details", "cached_tokens"), 101),
               {"cached_tokens"}),
              ("cached 5000 > prompt 100", _with(OPENAI_BODY, ("usage", "prompt_tokens_details", "cached_tokens"), 5000),
               {"cached_tokens"}),
              ("reasoning 51 > completion 50",
               _with(OPENAI_BODY, ("usage", "completion_tokens_details", "reasoning_tokens"), 51), {"reasoning_tokens"})]
    # llama.cpp's server: the reused count in timings.cache_n when the usage block has none
    no_details = _with(OPENAI_BODY, ("usage", "prompt_tokens_details"), NOT_SENT)
    cases += [(f"timings.cache_n={kind}", {**no_details, "timings": {"prompt_n": 20, "cache_n": value}}, {"cached_tokens"})
              for kind, value in BAD.items() if value is not NOT_SENT]
    cases += [(f"timings={kind}", {**no_details, "timings": value}, {"cached_tokens"}) for kind, value in NOT_OBJECTS.items()]
    cases += [("timings.cache_n 101 > prompt 100", {**no_details, "timings": {"cache_n": 101}}, {"cached_tokens"})]
    return cases


def test_openai_compatible_corpus_keeps_every_answer_and_only_the_usable_counts():
    corpus = openai_corpus()
    assert len(corpus) == 4 * 18 + 8 + 2 + 2 * 8 + 3 + 17 + 8 + 1 == 127
    model = OpenAICompatibleModel("m@http://127.0.0.1:9/v1")
    for case, body, unknown in corpus:
        try:
            _check(model.parse_response(body, {"model": "m"}, 0.1), OPENAI_EXPECTED, unknown)
        except AssertionError as exc:
            raise AssertionError(f"case {case}") from exc
    # unknown counts: 18 x (2 + 2 + 1 + 1), 8 x 4, 2 x 4, 16 x 1, 3, 17, 8, 1
    assert sum(len(unknown) for _, _, unknown in corpus) == 108 + 32 + 8 + 16 + 3 + 17 + 8 + 1 == 193


def test_openai_compatible_usable_counts_and_timings_are_kept():
    model = OpenAICompatibleModel("m@http://127.0.0.1:9/v1")
    floats = _with(_with(OPENAI_BODY, ("usage", "prompt_tokens"), 100.0), ("usage", "completion_tokens"), 50.0)
    _check(model.parse_response(floats, {"model": "m"}, 0.1), OPENAI_EXPECTED, set())
    llama = {**_with(OPENAI_BODY, ("usage", "prompt_tokens_details"), NOT_SENT), "timings": {"prompt_n": 40, "cache_n": 60}}
    _check(model.parse_response(llama, {"model": "m"}, 0.1), {**OPENAI_EXPECTED, "cached_tokens": 60}, set())


# -- Anthropic ------------------------------------------------------------------------------------------
ANTHROPIC_BODY = {"content": [{"type": "text", "text": TEXT}], "stop_reason": "end_turn", "model": "claude-haiku-4-5",
                  "usage": {"input_tokens": 20, "cache_creation_input_tokens": 30, "cache_read_input_tokens": 50,
                            "output_tokens": 40, "output_tokens_details": {"thinking_tokens": 10}}}
ANTHROPIC_EXPECTED = {"input_tokens": 100, "output_tokens": 40, "cached_tokens": 50, "reasoning_tokens": 10}
ANTHROPIC_FIELDS = {
    ("usage", "input_tokens"): {"input_tokens", "cached_tokens"},
    ("usage", "cache_creation_input_tokens"): {"input_tokens", "cached_tokens"},
    ("usage", "cache_read_input_tokens"): {"input_tokens", "cached_tokens"},
    ("usage", "output_tokens"): {"output_tokens", "reasoning_tokens"},
    ("usage", "output_tokens_details", "thinking_tokens"): {"reasoning_tokens"},
}
#: Anthropic leaves out (or nulls) the cache counts of a call without prompt caching: those are 0.
ZERO_WHEN_ABSENT = {"missing", "null"}


@pytest.fixture
def anthropic(monkeypatch):
    pytest.importorskip("anthropic")
    from rhetorica.models.providers.anthropic_provider import AnthropicModel

    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-fake-0123456789abcdef")
    return AnthropicModel("claude-haiku-4-5", base_url="http://127.0.0.1:9", api_key_env="ANTHROPIC_API_KEY")


def test_anthropic_corpus_keeps_every_answer_and_only_the_usable_counts(anthropic):
    checked = 0
    for path, unknown in ANTHROPIC_FIELDS.items():
        for kind, value in BAD.items():
            expected, missing = dict(ANTHROPIC_EXPECTED), unknown
            if path[-1].startswith("cache_") and kind in ZERO_WHEN_ABSENT:
                absent = {"cache_creation_input_tokens": 30, "cache_read_input_tokens": 50}[path[-1]]
                expected["input_tokens"] -= absent
                expected["cached_tokens"] -= absent if path[-1] == "cache_read_input_tokens" else 0
                missing = set()
            try:
                _check(anthropic.parse_response(_with(ANTHROPIC_BODY, path, value), {}, 0.1), expected, missing)
            except AssertionError as exc:
                raise AssertionError(f"case {'.'.join(path)}={kind}") from exc
            checked += 1
    for kind, value in NOT_OBJECTS.items():
        _check(anthropic.parse_response(_with(ANTHROPIC_BODY, ("usage",), value), {}, 0.1), ANTHROPIC_EXPECTED,
               set(FIELDS))
        checked += 1
    assert checked == 5 * 18 + 8 == 98


# -- Gemini ---------------------------------------------------------------------------------------------
GOOGLE_BODY = {"candidates": [{"content": {"parts": [{"text": TEXT}]}, "finish_reason": "STOP"}],
               "usage_metadata": {"prompt_token_count": 100, "candidates_token_count": 30, "thoughts_token_count": 20,
                                  "cached_content_token_count": 60}}
GOOGLE_EXPECTED = {"input_tokens": 100, "output_tokens": 50, "cached_tokens": 60, "reasoning_tokens": 20}
GOOGLE_FIELDS = {
    "prompt_token_count": ({"input_tokens", "cached_tokens"}, {"input_tokens": 0, "cached_tokens": 0}),
    "candidates_token_count": ({"output_tokens", "reasoning_tokens"}, {"output_tokens": 20}),
    "thoughts_token_count": ({"output_tokens", "reasoning_tokens"}, {"output_tokens": 30, "reasoning_tokens": 0}),
    "cached_content_token_count": ({"cached_tokens"}, {"cached_tokens": 0}),
}
"""count -> (the counts a bad value leaves unknown, the counts when it is left out: proto3 JSON omits zeros).
A left-out prompt count of 0 makes the cached 60 a part larger than its whole: unknown."""


@pytest.fixture
def google(monkeypatch):
    pytest.importorskip("google.genai")
    from rhetorica.models.providers.google_provider import GoogleModel

    monkeypatch.setenv("GEMINI_API_KEY", "fake-gemini-key-0123456789")
    return GoogleModel("gemini-2.5-flash", base_url="http://127.0.0.1:9", api_key_env="GEMINI_API_KEY")


def test_google_corpus_keeps_every_answer_and_only_the_usable_counts(google):
    params = {"config": {}}
    checked = 0
    for name, (unknown, absent) in GOOGLE_FIELDS.items():
        for kind, value in BAD.items():
            expected, missing = dict(GOOGLE_EXPECTED), unknown
            if kind in ZERO_WHEN_ABSENT:
                expected.update(absent)
                missing = {"cached_tokens"} if name == "prompt_token_count" else set()
            try:
                _check(google.parse_response(_with(GOOGLE_BODY, ("usage_metadata", name), value), params, 0.1),
                       expected, missing)
            except AssertionError as exc:
                raise AssertionError(f"case {name}={kind}") from exc
            checked += 1
    for kind, value in NOT_OBJECTS.items():
        _check(google.parse_response(_with(GOOGLE_BODY, ("usage_metadata",), value), params, 0.1), GOOGLE_EXPECTED,
               set(FIELDS))
        checked += 1
    assert checked == 4 * 18 + 8 == 80


# -- a study against a server answering malformed usage blocks ------------------------------------------
#: The usage blocks the server cycles through (the trial's cases among them).
STUDY_BLOCKS: list[Any] = [
    [1, 2, 3],
    {"prompt_tokens": math.nan, "completion_tokens": 50},
    {"prompt_tokens": 1e30, "completion_tokens": 1e30},
    {"prompt_tokens": -100, "completion_tokens": -50, "prompt_tokens_details": {"cached_tokens": -80}},
    {"prompt_tokens": 100, "completion_tokens": 50, "prompt_tokens_details": {"cached_tokens": 5000}},
    {"prompt_tokens": "100", "completion_tokens": 50, "prompt_tokens_details": [80]},
]


def test_a_study_against_malformed_usage_stores_every_review_and_no_impossible_count(tmp_path: Path):
    from rhetorica.report.build import collect
    from rhetorica.report.sections import usage_note
    from tests.report.runs import run_study

    papers = tmp_path / "papers"
    papers.mkdir()
    for i in (1, 2):
        (papers / f"p{i}.md").write_text(f"# Paper {i}\n\n## Abstract\n\nWe clearly show that sparse estimation "
                                         "may improve accuracy. Our results suggest a large gain.\n", encoding="utf-8")
    with FakeServer(fault_fn=lambda index, _body: {"usage_block": STUDY_BLOCKS[index % len(STUDY_BLOCKS)]}) as server:
        run_dir = run_study({
            "name": "bad-usage", "output_dir": str(tmp_path / "run"), "documents": [str(papers / "*.md")],
            "rewriters": [{"name": "rules", "kind": "rule-based", "conditions": ["confidence:+", "confidence:-"]}],
            "reviewers": [{"name": "srv", "model": f"openai-compatible/fake-model@{server.url}/v1"}],
            "replicates": 3, "concurrency": 4, "validation": {"enabled": False}}, tmp_path)
    conn = sqlite3.connect(run_dir / "store.sqlite")
    try:
        statuses = [row[0] for row in conn.execute("SELECT status FROM assessments")]
        calls = conn.execute("SELECT status, input_tokens, cached_tokens, output_tokens, usage_unreported "
                             "FROM model_calls WHERE cache_hit = 0").fetchall()
    finally:
        conn.close()
    assert statuses == ["ok"] * 18
    assert len(calls) == 18 and {c[0] for c in calls} == {"ok"}
    # every block above has an unusable input or output count (the 5000 > 100 one: its reused count)
    assert all(c[4] for c in calls)
    assert all(0 <= c[2] <= c[1] and c[3] >= 0 for c in calls)
    usage = collect(run_dir, n_resamples=10).usage
    row = usage.iloc[0]
    assert (row["calls"], row["failed_calls"], row["unanswered_calls"]) == (18, 0, 0)
    # blocks 0-3 and 5 have no usable input count (15 of 18 calls), block 4 has 100 with its 5000 unknown
    assert row["input_tokens"] == 100 * 3 and row["cached_tokens"] == 0
    assert row["input_tokens_unreported"] == 15 and row["cached_tokens_unreported"] == 18
    # blocks 0, 2, 3 lack a usable output count; 1, 4, 5 report 50
    assert row["output_tokens"] == 50 * 9 and row["output_tokens_unreported"] == 9
    note = usage_note(usage)
    assert "input tokens of 15 call(s)" in note and "reused input tokens of 18 call(s)" in note
    assert "output tokens of 9 call(s)" in note and "lower bounds" in note
