"""Batch mode against the loopback server's OpenAI, Anthropic and Gemini batch endpoints."""

from __future__ import annotations

import asyncio
import json

import pytest

from rhetorica.models.api import ChatMessage, GenerateConfig
from rhetorica.models.batch import BatchRequest, collect_batches, submit_batch, supports_batch
from rhetorica.models.cache import model_cache_key
from rhetorica.models.call import CallContext, call_model
from rhetorica.models.registry import get_model
from rhetorica.status import Status
from rhetorica.models.store_log import StoreCallLog
from rhetorica.store.db import Store

SCHEMA = {"type": "object", "properties": {"overall": {"type": "integer", "minimum": 1, "maximum": 10}}}


def requests_for(n: int) -> list[BatchRequest]:
    return [
        BatchRequest(
            messages=[
                ChatMessage(role="system", content="You review papers."),
                ChatMessage(role="user", content=f"Paper number {i} text."),
            ],
            config=GenerateConfig(json_schema=SCHEMA, max_tokens=100),
            replicate=0,
            unit_key=f"unit-{i}",
        )
        for i in range(n)
    ]


PROVIDERS = [
    # a base_url other than OpenAI's gets OPENAI_API_KEY only when the study names it
    (
        "openai/gpt-4.1-mini",
        "OPENAI_API_KEY",
        lambda url: {"base_url": f"{url}/v1", "api_key_env": "OPENAI_API_KEY"},
        "openai",
    ),
    (
        "anthropic/claude-haiku-4-5",
        "ANTHROPIC_API_KEY",
        lambda url: {"base_url": url, "api_key_env": "ANTHROPIC_API_KEY"},
        "anthropic",
    ),
    (
        "google/gemini-2.5-flash",
        "GEMINI_API_KEY",
        lambda url: {"base_url": url, "api_key_env": "GEMINI_API_KEY"},
        "gemini",
    ),
]


@pytest.fixture(params=PROVIDERS, ids=[p[0].split("/")[0] for p in PROVIDERS])
def setup(request, fake_server, tmp_path, monkeypatch):
    model_id, env, options_for, kind = request.param
    monkeypatch.setenv(env, "sk-batch-test-key-000111")
    options = options_for(fake_server.url)
    store = Store.in_dir(tmp_path / "run")
    yield model_id, options, store, kind
    store.close()


def factory(model_id, options):
    return get_model(model_id, **options)


def test_submit_collect_later_then_cache_serves_live_calls(setup, fake_server):
    model_id, options, store, kind = setup
    requests = requests_for(4)
    fake_server.script = [None, "truncated", None, "server_error"]  # answers in submission order
    batch_id = asyncio.run(submit_batch(factory(model_id, options), requests + requests[:1], store, options=options))
    assert batch_id
    # resubmitting while the batch is open sends nothing
    assert asyncio.run(submit_batch(factory(model_id, options), requests, store, options=options)) is None
    first = asyncio.run(collect_batches(store, factory))
    assert [r.state for r in first] == ["submitted"]  # still in progress at the first poll
    # "a later process": new model objects built from the stored model id and options
    second = asyncio.run(collect_batches(store, factory))
    assert second[0].state == "collected" and second[0].requests == 4
    assert second[0].statuses == {"ok": 2, "truncated": 1, "error": 1}
    calls = store.rows("SELECT status, cost_usd, params_json, unit_key FROM model_calls ORDER BY unit_key")
    assert [c["status"] for c in calls] == ["ok", "truncated", "ok", "error"]
    assert all(json.loads(c["params_json"])["batch_id"] == batch_id for c in calls)
    # ok results are in the cache: a live call with the same inputs makes no request
    model = factory(model_id, options)
    before = len(fake_server.model_requests())
    hit = asyncio.run(call_model(model, requests[0].messages, requests[0].config, context=CallContext(log=StoreCallLog(store))))
    assert hit.status == Status.OK and hit.cache_hit and isinstance(json.loads(hit.text)["overall"], int)
    assert len(fake_server.model_requests()) == before
    # a third collect changes nothing
    assert asyncio.run(collect_batches(store, factory)) == []
    assert len(store.rows("SELECT * FROM model_calls")) == 5
    # resubmission sends only the two requests that did not succeed
    fake_server.script = []
    again = asyncio.run(submit_batch(model, requests, store, options=options))
    keys = {r[0] for r in store.rows("SELECT cache_key FROM batch_requests WHERE batch_id = ?", (again,))}
    expected = {model_cache_key(model, requests[i].messages, requests[i].config, 0) for i in (1, 3)}
    assert keys == expected


def test_batch_results_are_priced_at_batch_rates(setup, fake_server):
    model_id, options, store, kind = setup
    fake_server.batch_polls_before_done = 0
    fake_server.script = [{"fault": None, "text": '{"overall": 7}', "usage": {"input": 1_000_000, "output": 100_000}}]
    asyncio.run(submit_batch(factory(model_id, options), requests_for(1), store, options=options))
    asyncio.run(collect_batches(store, factory))
    cost = store.rows("SELECT cost_usd FROM model_calls")[0][0]
    # half of the standard rates: gpt-4.1-mini 0.40/1.60, haiku-4.5 1/5, gemini-2.5-flash 0.30/2.50
    expected = {"openai": 0.20 + 0.08, "anthropic": 0.50 + 0.25, "gemini": 0.15 + 0.125}[kind]
    assert cost == pytest.approx(expected, rel=1e-9)


def test_collect_survives_a_crash_half_way(setup, fake_server, monkeypatch):
    """A collection that dies after some results were written is finished by the next one."""
    import rhetorica.models.batch as batch

    model_id, options, store, kind = setup
    fake_server.batch_polls_before_done = 0
    asyncio.run(submit_batch(factory(model_id, options), requests_for(3), store, options=options))
    original = batch._output_for
    seen = []

    def dying(*args, **kwargs):
        if len(seen) == 2:
            raise KeyboardInterrupt("killed")
        seen.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(batch, "_output_for", dying)
    with pytest.raises(KeyboardInterrupt):
        asyncio.run(collect_batches(store, factory))
    monkeypatch.setattr(batch, "_output_for", original)
    reports = asyncio.run(collect_batches(store, factory))
    assert reports[0].statuses == {"ok": 3}
    assert len(store.rows("SELECT * FROM model_calls")) == 3
    assert len(store.rows("SELECT * FROM response_cache")) == 3


def test_a_connection_failure_on_submit_is_a_transient_error_naming_the_provider(tmp_path, monkeypatch):
    import httpx
    import openai

    from rhetorica.models import batch as batch_module
    from rhetorica.models.errors import TransientError

    monkeypatch.setenv("OPENAI_API_KEY", "sk-batch-test-key-000222")

    async def no_network(self, items):
        raise openai.APIConnectionError(request=httpx.Request("POST", "https://api.openai.com/v1/files"))

    monkeypatch.setattr(batch_module._OpenAIBatches, "submit", no_network)
    store = Store.in_dir(tmp_path / "run")
    try:
        with pytest.raises(TransientError) as info:
            asyncio.run(submit_batch(get_model("openai/gpt-4.1-mini"), requests_for(1), store))
    finally:
        store.close()
    assert str(info.value) == ("connection to provider 'openai' (https://api.openai.com/v1) failed: "
                               "APIConnectionError: Connection error.")
    assert "sk-batch-test-key-000222" not in str(info.value)


def test_a_provider_without_a_registered_batch_api_is_refused_naming_the_registered_ones(tmp_path):
    model = get_model("mock/scripted")
    assert not supports_batch(model)
    assert supports_batch(get_model("openai-compatible/m@http://127.0.0.1:9/v1"))
    store = Store.in_dir(tmp_path / "run")
    try:
        with pytest.raises(ValueError) as info:
            asyncio.run(submit_batch(model, requests_for(1), store))
    finally:
        store.close()
    assert str(info.value) == "provider 'mock' has no batch mode; known: anthropic, google, openai, openai-compatible"
