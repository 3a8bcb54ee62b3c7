"""Answers of a shape no parser expects end their call as a failure with a reason, never ``in_flight``.

A generated set of malformed answers (every field on the path to the text, the finish reason, the
usage and the log-probabilities replaced by a value of each wrong JSON type or removed, and bodies
that are not a JSON object) is sent by the loopback server to the OpenAI-compatible, Anthropic and
Gemini providers through :func:`rhetorica.models.call.call_model` with the store's call log. Every
call must end ``ok`` with the text the server sent, or as a failure whose reason is stored; no row
may stay ``in_flight`` (``rhetorica status`` would call it abandoned).
"""

from __future__ import annotations

import asyncio
import copy
import os
import sqlite3
import subprocess
from collections import Counter
from typing import Any

import pytest
import yaml

from fake_servers import FakeServer
from rhetorica.models.api import ChatMessage, GenerateConfig
from rhetorica.models.call import CallContext, RetryPolicy, call_model
from rhetorica.models.providers.openai_compatible import OpenAICompatibleModel
from rhetorica.models.store_log import StoreCallLog
from rhetorica.status import Status
from rhetorica.store.db import Store

MESSAGES = [ChatMessage(role="user", content="Review this short paper.")]
TEXT = "a review of the paper"  # the answer the server renders before a shape is applied
RETRY = RetryPolicy(max_attempts=2, base_delay_s=0.0, max_delay_s=0.0, jitter=0.0)
#: a value of each JSON type, and ``REMOVED`` (the field left out)
REMOVED = object()
WRONG_VALUES: tuple[Any, ...] = ([{"x": 1}], {"x": 1}, 7, 2.5, "x", True, None, REMOVED)
#: bodies that are not a JSON object (sent as they are)
NOT_OBJECTS: tuple[Any, ...] = (b"<html>502 Bad Gateway</html>", b"", b'{"choices": [', [1, 2], "text", 3, None)

#: per provider: the paths of the fields the parser reads (keys and list indexes of the rendered answer)
PATHS: dict[str, list[tuple[Any, ...]]] = {
    "openai": [("choices",), ("choices", 0), ("choices", 0, "message"), ("choices", 0, "message", "content"),
               ("choices", 0, "message", "refusal"), ("choices", 0, "finish_reason"), ("choices", 0, "logprobs"),
               ("choices", 0, "logprobs", "content"), ("choices", 0, "logprobs", "content", 0),
               ("choices", 0, "logprobs", "content", 0, "logprob"),
               ("choices", 0, "logprobs", "content", 0, "top_logprobs"), ("usage",), ("model",)],
    "anthropic": [("content",), ("content", 0), ("content", 0, "type"), ("content", 0, "text"), ("stop_reason",),
                  ("usage",), ("model",)],
    "gemini": [("candidates",), ("candidates", 0), ("candidates", 0, "content"),
               ("candidates", 0, "content", "parts"), ("candidates", 0, "content", "parts", 0),
               ("candidates", 0, "content", "parts", 0, "text"), ("candidates", 0, "finishReason"),
               ("usageMetadata",)],
}
#: per provider: the path of the answer's text (a string put there is the answer)
TEXT_PATHS = {"openai": ("choices", 0, "message", "content"), "anthropic": ("content", 0, "text"),
              "gemini": ("candidates", 0, "content", "parts", 0, "text")}
LOGPROBS = [{"token": "a", "logprob": -0.5, "top_logprobs": [{"token": "a", "logprob": -0.5}]}]


def _set(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    out = copy.deepcopy(data)
    node = out
    for step in path[:-1]:
        node = node[step]
    if value is REMOVED:
        del node[path[-1]]
    else:
        node[path[-1]] = copy.deepcopy(value)
    return out


def shapes(kind: str) -> list[tuple[str, Any, str]]:
    """(label, reshape, the text the answer carries) of the generated malformed answers of one provider."""
    out: list[tuple[str, Any, str]] = []
    for path in PATHS[kind]:
        for value in WRONG_VALUES:
            label = f"{'.'.join(map(str, path))}={'removed' if value is REMOVED else repr(value)}"
            text = value if path == TEXT_PATHS[kind] and isinstance(value, str) else TEXT
            out.append((label, lambda data, p=path, v=value: _set(data, p, v), text))
    for body in NOT_OBJECTS:
        out.append((f"body={body!r}", lambda _data, b=body: b, TEXT))
    return out


def _model(kind: str, url: str, monkeypatch: pytest.MonkeyPatch):
    if kind == "openai":
        return OpenAICompatibleModel(f"shapes@{url}/v1")
    if kind == "anthropic":
        pytest.importorskip("anthropic")
        from rhetorica.models.providers.anthropic_provider import AnthropicModel

        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-fake")
        return AnthropicModel("claude-haiku-4-5", base_url=url, api_key_env="ANTHROPIC_API_KEY")
    pytest.importorskip("google.genai")
    from rhetorica.models.providers.google_provider import GoogleModel

    monkeypatch.setenv("GEMINI_API_KEY", "AIza-fake")
    return GoogleModel("gemini-2.5-flash", base_url=url, api_key_env="GEMINI_API_KEY")


def _rows(store: Store) -> list[sqlite3.Row]:
    conn = sqlite3.connect(store.path)
    conn.row_factory = sqlite3.Row
    try:
        return list(conn.execute("SELECT unit_key, status, error, finished_at FROM model_calls ORDER BY call_id"))
    finally:
        conn.close()


@pytest.mark.parametrize("kind", ["openai", "anthropic", "gemini"])
def test_every_malformed_answer_ends_its_call_ok_or_failed_with_a_reason(kind, tmp_path, monkeypatch):
    generated = shapes(kind)
    assert len(generated) >= 20
    store = Store.in_dir(tmp_path / "run")
    log = StoreCallLog(store)
    # logprobs are asked of the OpenAI-compatible server, so that its log-probability fields are read
    config = GenerateConfig(max_tokens=50, top_logprobs=1 if kind == "openai" else None)
    outputs = {}
    sent = {label: text for label, _reshape, text in generated}
    with FakeServer() as server:
        model = _model(kind, server.url, monkeypatch)

        async def main() -> None:
            for index, (label, reshape, _text) in enumerate(generated):
                plan = {"text": TEXT, "reshape": reshape, "logprobs": LOGPROBS}
                server.script = [dict(plan) for _ in range(RETRY.max_attempts)]  # every attempt: the same shape
                messages = [ChatMessage(role="user", content=f"{MESSAGES[0].content} ({index})")]
                outputs[label] = await call_model(model, messages, config, retry=RETRY,
                                                  context=CallContext(log=log, unit_key=label))

        asyncio.run(main())
    rows = _rows(store)
    store.close()

    assert [r["status"] for r in rows if r["status"] == "in_flight" or r["finished_at"] is None] == []
    assert {r["unit_key"] for r in rows} == set(outputs)  # every call has its rows
    for label, output in outputs.items():
        if output.status == Status.OK:  # an answer taken as read carries the text the server sent
            assert output.text == sent[label], label
        else:
            assert output.error, label
        last = [r for r in rows if r["unit_key"] == label][-1]
        assert last["status"] == str(output.status), label
        assert (last["error"] or None) == (output.error or None), label
    # an answer that could not be read names the model and what went wrong
    unreadable = {k: o for k, o in outputs.items() if o.error and o.error.startswith("UnreadableAnswerError")}
    for label, output in unreadable.items():
        assert model.name.split("@")[0] in output.error and "answer" in output.error, (label, output.error)
        assert not output.transient, label


#: the study-level set: every wrong value of each field on the path to the review's text (40 shapes)
STUDY_PATHS = PATHS["openai"][:6]


def test_study_with_unreadable_answers_stores_failures_and_status_finds_no_abandoned_call(tmp_path):
    from test_study_faults import RHETORICA, assessments, run_cli, write_study

    generated = [(label, reshape) for label, reshape, _text in shapes("openai")
                 if any(label.startswith(".".join(map(str, p)) + "=") for p in STUDY_PATHS)]
    generated = [g for g in generated if not g[0].startswith("choices.0.message.refusal")][:40]
    assert len(generated) == 40
    groups: dict[str, int] = {}

    def shape_of_unit(_index: int, body: Any) -> dict[str, Any] | None:
        """Each review's first call gets its own shape, on every attempt; the repair call an ok answer."""
        if len(body["messages"]) != 2:
            return None
        group = repr((body["messages"], body.get("seed")))
        number = groups.setdefault(group, len(groups))
        return {"reshape": generated[number % len(generated)][1]}

    key = "sk-loopback-unreadable-31"
    with FakeServer(fault_fn=shape_of_unit) as server:
        study = write_study(tmp_path, server.url, replicates=8, concurrency=4, timeout_s=30.0)
        spec = yaml.safe_load(study.read_text())
        spec["retries"] = {"max_attempts": 2, "base_delay_s": 0.0, "jitter": 0.0}
        study.write_text(yaml.safe_dump(spec))
        proc = run_cli(study, key)
        out, _ = proc.communicate(timeout=240)
    assert len(groups) == 40
    run_dir = tmp_path / "run"
    conn = sqlite3.connect(run_dir / "store.sqlite")
    try:
        calls = conn.execute("SELECT status, error FROM model_calls").fetchall()
    finally:
        conn.close()
    assert [c for c in calls if c[0] in ("in_flight", "abandoned")] == []
    assert all(error for status, error in calls if status != "ok")
    rows = assessments(run_dir)
    # a body without choices (absent, null, or an empty array: 3 shapes) is a transient failure, left
    # pending for the next run and said so; every other review is stored
    no_choices = {"choices=None", "choices=removed", "choices.0=removed"}
    assert len(rows) == 40 - len(no_choices)
    assert "3 unit(s) left pending: a call ended in transient failures only" in " ".join(out.split()), out
    for r in rows:
        assert r["status"] == "ok" or r["reason"], dict(r)
    unreadable = [r for r in rows if "UnreadableAnswerError" in (r["reason"] or "")]
    assert len(unreadable) == 25  # the 25 errors below, each with the field and the type it had
    assert proc.returncode == 1, out  # failures are stored: the exit code says so

    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")} | {"COLUMNS": "200"}

    def status() -> str:
        done = subprocess.run([*RHETORICA, "status", str(study)], env=env, capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout + done.stderr

    shown = status()
    review = next(line for line in shown.splitlines() if "review " in line and "│" in line)
    cells = [c.strip() for c in review.split("│") if c.strip()]
    # by the format, of the 8 values at each of the 5 fields: ok 4 (content "x", repaired into a
    # review; finish_reason "x", null, removed); empty 8 (a choice or message object without content,
    # a null or removed message, content null, removed or an array of parts without text); error 25,
    # every wrong type: choices 5, choices[0] 6 (null too), message 5, content 4, finish_reason 5;
    # pending 3 (choices null, removed or empty)
    assert Counter(r["status"] for r in rows) == {"ok": 4, "empty": 8, "error": 25}
    assert cells == ["review", "40", "4", "33 (empty: 8, error: 25)", "3"], shown
    assert "abandoned" not in shown.lower() and "interrupted" not in shown.lower(), shown
    # the check can fail: a call left in flight (as the old code left these) is reported
    conn = sqlite3.connect(run_dir / "store.sqlite")
    with conn:
        conn.execute("UPDATE model_calls SET status = 'in_flight', finished_at = NULL WHERE call_id = "
                     "(SELECT MIN(call_id) FROM model_calls WHERE status = 'error')")
    conn.close()
    assert "abandoned: 1 call(s) of interrupted runs never came back" in " ".join(status().split())


def test_batch_results_of_every_malformed_shape_become_outputs_with_a_reason():
    from fake_servers import _render_openai
    from rhetorica.models.batch import BatchRequest, BatchResult, _output_for

    model = OpenAICompatibleModel("shapes@http://127.0.0.1:9/v1")
    request = BatchRequest(messages=MESSAGES, config=GenerateConfig(max_tokens=50, top_logprobs=1))
    usage = {"input": 5, "output": 5, "cached": 0, "reasoning": 0}
    answer = _render_openai("shapes", TEXT, "stop", usage, {})
    answer["choices"][0]["logprobs"] = {"content": LOGPROBS}
    bodies = [(label, reshape(answer), text) for label, reshape, text in shapes("openai")]
    bodies = [(label, body, text) for label, body, text in bodies if isinstance(body, dict)]
    assert len(bodies) == len(PATHS["openai"]) * len(WRONG_VALUES)
    statuses = Counter()
    for label, body, text in bodies:
        output = _output_for(model, request, BatchResult(body=body), "batch-1")
        statuses[output.status] += 1
        if output.status == Status.OK:
            assert output.text == text, label
        else:
            assert output.error, label
    # by the chat-completions format, of the 8 values (list, object, 7, 2.5, "x", true, null, removed):
    # choices: all but the list (a choice without a message: empty) fail: 5 wrong types + null and
    #   removed ("no choices") = 7; choices[0]: all but the object (empty) = 7 (removed: no choices);
    # message: list, 7, 2.5, "x", true = 5 (object, null, removed: empty); content: object, 7, 2.5,
    #   true = 4 ("x" is the text; list of a part without text, null, removed: empty); refusal: list,
    #   object, 7, 2.5, true = 5 ("x": refused); finish_reason: 5 the same; logprobs: list, 7, 2.5,
    #   "x", true = 5 (an object without content: none); logprobs.content: all but null, removed = 6;
    #   its item: all but removed = 7; its logprob: list, object, "x", true, null, removed = 6 (7 and
    #   2.5 are numbers); top_logprobs: all but null, removed = 6; usage and model: 0 (never needed)
    assert statuses == {Status.ERROR: 7 + 7 + 5 + 4 + 5 + 5 + 5 + 6 + 7 + 6 + 6, Status.EMPTY: 1 + 1 + 3 + 3,
                        Status.REFUSED: 1, Status.OK: 13 * 8 - 63 - 8 - 1}


def test_a_fault_after_the_answer_came_ends_the_call_row_failed(tmp_path, monkeypatch):
    """An exception outside the provider (here the rate limiter's bookkeeping of the answer) still
    finishes the call's row, as a failure naming the call and the exception."""
    from rhetorica.models.limits import RateLimiter

    def broken(self, info):
        raise RuntimeError("bookkeeping broke")

    store = Store.in_dir(tmp_path / "run")
    with FakeServer() as server:
        model = OpenAICompatibleModel(f"shapes@{server.url}/v1")
        model.limiter = RateLimiter()
        monkeypatch.setattr(RateLimiter, "observe", broken)
        output = asyncio.run(call_model(model, MESSAGES, GenerateConfig(max_tokens=5), retry=RETRY,
                                        context=CallContext(log=StoreCallLog(store), unit_key="u1")))
        assert len(server.model_requests()) == 1
        url = server.url
    rows = _rows(store)
    store.close()
    reason = (f"the call to openai-compatible/shapes@{url}/v1 failed: RuntimeError in broken: "
              "bookkeeping broke")
    assert (output.status, output.error, output.transient) == (Status.ERROR, reason, False)
    assert [(r["unit_key"], r["status"], r["error"]) for r in rows] == [("u1", "error", reason)]
