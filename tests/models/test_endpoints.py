"""A logical model over several endpoints: calls spread over healthy replicas, a failing replica
sits out a cool-down, each key goes only to its own endpoint, and the cache key is the logical
model's (the same as the inline one-endpoint form, so existing stores still hit)."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest
from fake_servers import FakeServer

from rhetorica.models.api import ChatMessage, GenerateConfig
from rhetorica.models.cache import model_cache_key
from rhetorica.models.call import CallContext, ConnectionLimits, call_model
from rhetorica.models.endpoints import EndpointPool, build_pool
from rhetorica.models.errors import PermanentError
from rhetorica.models.registry import get_model
from rhetorica.models.store_log import StoreCallLog
from rhetorica.status import Status
from rhetorica.store.db import Store

MESSAGES = [ChatMessage(role="user", content="Review this paper.")]
SCHEMA = {"type": "object", "properties": {"overall": {"type": "integer", "minimum": 1, "maximum": 10}}}
CONFIG = GenerateConfig(temperature=0.0, max_tokens=40, json_schema=SCHEMA)

#: ``model_cache_key`` of these calls computed by rhetorica before logical models existed (commit
#: be6a0ed), for ``openai-compatible/qwen2.5-7b@http://localhost:8000/v1``: without options at
#: replicate 0, and with ``extra_body={"top_k": 20}`` at replicate 1.
OLD_KEY = "a68f950a32bcbc36f3cd790868b2ebc8761ec51ace36adf3117b6ace73744f44"
OLD_KEY_TOP_K = "d69b98a2079c40b040c7bebf43c24b5d7cce3f1b7850f3bc7ce9cfd515eff084"


@pytest.fixture
def two_servers():
    with FakeServer(hang_s=1.0) as a, FakeServer(hang_s=1.0) as b:
        yield a, b


def pool_of(a: FakeServer, b: FakeServer, *, options=None, keys=(None, None), **kwargs) -> EndpointPool:
    endpoints = [{"base_url": f"{s.url}/v1", "api_key_env": key} for s, key in zip((a, b), keys)]
    return build_pool("qwen", "openai-compatible", "qwen2.5-7b", options or {}, endpoints,
                      lambda model_id, opts: get_model(model_id, **opts), **kwargs)


def config(seed: int) -> GenerateConfig:
    return CONFIG.model_copy(update={"seed": seed})


def test_concurrent_calls_spread_over_both_endpoints(two_servers):
    a, b = two_servers
    a.latency_s = b.latency_s = 0.3
    pool = pool_of(a, b)
    limits = ConnectionLimits()

    async def main():
        return await asyncio.gather(*(call_model(pool, MESSAGES, config(i), context=CallContext(limits=limits))
                                      for i in range(4)))

    outputs = asyncio.run(main())
    assert [o.status for o in outputs] == [Status.OK] * 4
    # least in flight: the 4 calls are assigned A, B, A, B
    assert (len(a.model_requests()), len(b.model_requests())) == (2, 2)


def test_each_key_goes_only_to_its_own_endpoint(two_servers, monkeypatch):
    a, b = two_servers
    monkeypatch.setenv("REPLICA_A_KEY", "sk-replica-a-000001")
    monkeypatch.setenv("REPLICA_B_KEY", "sk-replica-b-000002")
    pool = pool_of(a, b, keys=("REPLICA_A_KEY", "REPLICA_B_KEY"))
    for i in range(6):
        assert asyncio.run(call_model(pool, MESSAGES, config(i))).status == Status.OK
    sent_a = [r.headers["authorization"] for r in a.model_requests()]
    sent_b = [r.headers["authorization"] for r in b.model_requests()]
    assert sent_a == ["Bearer sk-replica-a-000001"] * 3
    assert sent_b == ["Bearer sk-replica-b-000002"] * 3
    seen_by_a = " ".join(str(r.headers) + str(r.body) for r in a.model_requests())
    assert "sk-replica-b" not in seen_by_a


def test_a_failing_endpoint_gets_no_calls_during_its_cooldown(two_servers, fast_retry):
    a, b = two_servers
    broken = {"on": True}
    a.fault_fn = lambda index, body: "server_error" if broken["on"] else None
    now = [0.0]
    pool = pool_of(a, b)
    pool = EndpointPool("qwen", pool.endpoints, cooldown_s=10.0, clock=lambda: now[0])

    first = asyncio.run(call_model(pool, MESSAGES, config(0), retry=fast_retry))
    assert first.status == Status.OK  # A answered 500 once, the retry went to B at once
    assert (len(a.model_requests()), len(b.model_requests())) == (1, 1)
    assert pool.healthy() == [1]
    for i in range(1, 4):
        assert asyncio.run(call_model(pool, MESSAGES, config(i), retry=fast_retry)).status == Status.OK
    assert (len(a.model_requests()), len(b.model_requests())) == (1, 4)  # A sat out its cool-down

    now[0] = 10.5  # the cool-down is over and A works again: round robin over both
    broken["on"] = False
    for i in range(4, 6):
        assert asyncio.run(call_model(pool, MESSAGES, config(i), retry=fast_retry)).status == Status.OK
    assert (len(a.model_requests()), len(b.model_requests())) == (2, 5)
    assert pool.healthy() == [0, 1]


def test_when_every_endpoint_is_down_the_first_to_recover_is_used(two_servers):
    a, b = two_servers
    now = [0.0]
    pool = EndpointPool("qwen", pool_of(a, b).endpoints, cooldown_s=10.0, clock=lambda: now[0])
    pool._down_until = [8.0, 5.0]  # both in a cool-down; B's ends first
    with pool.endpoint() as target:
        assert target is pool.endpoints[1]


def test_the_cache_key_is_the_logical_models_and_equals_the_inline_forms(two_servers):
    a, b = two_servers
    inline = get_model("openai-compatible/qwen2.5-7b@http://localhost:8000/v1")
    pool = pool_of(a, b)
    assert model_cache_key(inline, MESSAGES, CONFIG, 0) == OLD_KEY
    assert model_cache_key(pool, MESSAGES, CONFIG, 0) == OLD_KEY
    for endpoint in pool.endpoints:  # each replica alone would file its answers there too
        assert model_cache_key(endpoint, MESSAGES, CONFIG, 0) == OLD_KEY
    tuned = pool_of(a, b, options={"extra_body": {"top_k": 20}})
    assert model_cache_key(tuned, MESSAGES, CONFIG, 1) == OLD_KEY_TOP_K


def test_an_answer_stored_under_the_inline_form_is_served_to_the_logical_model(two_servers, tmp_path):
    a, b = two_servers
    store = Store.in_dir(tmp_path / "run")
    inline = get_model(f"openai-compatible/qwen2.5-7b@{a.url}/v1")
    first = asyncio.run(call_model(inline, MESSAGES, CONFIG, context=CallContext(log=StoreCallLog(store))))
    assert first.status == Status.OK and len(a.model_requests()) == 1

    again = asyncio.run(call_model(pool_of(a, b), MESSAGES, CONFIG, context=CallContext(log=StoreCallLog(store))))
    assert again.cache_hit and again.text == first.text
    assert (len(a.model_requests()), len(b.model_requests())) == (1, 0)


def test_a_logical_models_rows_name_it_without_any_endpoint_url(two_servers, tmp_path):
    a, b = two_servers
    store = Store.in_dir(tmp_path / "run")
    pool = pool_of(a, b)
    for i in range(2):
        asyncio.run(call_model(pool, MESSAGES, config(i), context=CallContext(log=StoreCallLog(store))))
    conn = sqlite3.connect(store.path)
    try:
        rows = conn.execute("SELECT provider, model FROM model_calls UNION ALL "
                            "SELECT provider, model FROM response_cache").fetchall()
        dump = "\n".join(line for line in conn.iterdump())
    finally:
        conn.close()
    assert rows == [("openai-compatible", "qwen2.5-7b")] * 4
    assert "127.0.0.1" not in dump


def test_endpoints_of_one_model_must_share_provider_model_and_output_options(two_servers):
    a, b = two_servers
    one = get_model(f"openai-compatible/qwen2.5-7b@{a.url}/v1")
    other = get_model(f"openai-compatible/qwen2.5-7b@{b.url}/v1", extra_body={"top_k": 5})
    with pytest.raises(PermanentError, match=r"endpoints\[1\] serves .*top_k"):
        EndpointPool("qwen", [one, other])
    with pytest.raises(PermanentError, match="endpoints.0. needs a base_url"):
        build_pool("qwen", "openai-compatible", "qwen2.5-7b", {}, [{}], lambda m, o: get_model(m, **o))


def test_a_rate_limited_endpoint_rests_until_its_retry_after(two_servers, fast_retry):
    a, b = two_servers
    a.script = ["rate_limit"]
    a.retry_after = "20"
    now = [0.0]
    pool = EndpointPool("qwen", pool_of(a, b).endpoints, cooldown_s=5.0, clock=lambda: now[0])
    out = asyncio.run(call_model(pool, MESSAGES, config(0), retry=fast_retry))
    assert out.status == Status.OK and (len(a.model_requests()), len(b.model_requests())) == (1, 1)
    now[0] = 6.0  # past the cool-down of a transient error, not past the 20 s Retry-After
    assert pool.healthy() == [1]
    now[0] = 20.5
    assert pool.healthy() == [0, 1]


def test_the_store_log_refuses_to_cache_a_failure(tmp_path):
    from rhetorica.models.api import ModelOutput

    log = StoreCallLog(Store.in_dir(tmp_path))
    with pytest.raises(ValueError, match="refusing to cache a refused output"):
        log.cache_put("k", ModelOutput(provider="mock", model="m", status=Status.REFUSED))
    assert log.cache_get("k") is None
