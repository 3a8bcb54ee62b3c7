"""The response-cache key holds every provider option that can change an output, never the URL.

For each such option: two configurations that differ only there get different keys, and a cached
answer of one is not served to the other (the second makes its own request).
"""

from __future__ import annotations

import asyncio
import importlib.util

import pytest

from rhetorica.models.api import OPERATIONAL_OPTIONS, ChatMessage, GenerateConfig
from rhetorica.models.cache import model_cache_key
from rhetorica.models.call import CallContext, call_model
from rhetorica.models.registry import provider_class
from rhetorica.models.store_log import StoreCallLog
from rhetorica.store.db import Store

SCHEMA = {"type": "object", "properties": {"overall": {"type": "integer", "minimum": 1, "maximum": 10}}}
MESSAGES = [ChatMessage(role="user", content="Review this paper.")]
CONFIG = GenerateConfig(json_schema=SCHEMA, max_tokens=40)

# (provider, the option, value A, value B)
OPTIONS = [
    ("openai-compatible", "extra_body", {"top_k": 20}, {"top_k": 40}),
    ("openai-compatible", "structured_output", "json_schema", "json_object"),
    ("openai-compatible", "strict_schema", True, False),
    ("openai-compatible", "max_tokens_param", "max_tokens", "max_completion_tokens"),
    ("openai", "extra_body", {"reasoning_effort": "low"}, {"reasoning_effort": "high"}),
    ("anthropic", "structured_output", "json_schema", "tool"),
    ("anthropic", "default_max_tokens", 1024, 4096),
    ("google", "thinking_budget", 0, 512),
]


def build(provider: str, url: str, **options):
    from rhetorica.models.registry import get_model

    if provider == "openai-compatible":
        return get_model(f"openai-compatible/m@{url}/v1", **options)
    suffix = "/v1" if provider == "openai" else ""
    name = {"openai": "gpt-4.1-mini", "anthropic": "claude-haiku-4-5", "google": "gemini-2.5-flash"}[provider]
    return get_model(f"{provider}/{name}", base_url=f"{url}{suffix}", api_key_env="TEST_KEY", **options)


@pytest.mark.parametrize(("provider", "option", "a", "b"), OPTIONS, ids=[f"{p}-{o}" for p, o, _, _ in OPTIONS])
def test_configurations_differing_in_one_option_share_no_cached_answer(
    provider, option, a, b, fake_server, tmp_path, monkeypatch
):
    pytest.importorskip({"anthropic": "anthropic", "google": "google.genai"}.get(provider, "openai"))
    monkeypatch.setenv("TEST_KEY", "sk-cache-key-test-1234")
    first, second = build(provider, fake_server.url, **{option: a}), build(provider, fake_server.url, **{option: b})
    assert model_cache_key(first, MESSAGES, CONFIG, 0) != model_cache_key(second, MESSAGES, CONFIG, 0)
    store = Store.in_dir(tmp_path / "run")
    outs = [asyncio.run(call_model(m, MESSAGES, CONFIG, context=CallContext(log=StoreCallLog(store)))) for m in (first, second, first)]
    assert [o.cache_hit for o in outs] == [False, False, True]
    assert len(fake_server.model_requests()) == 2
    store.close()


def test_the_endpoint_url_is_not_in_the_key(fake_server):
    one = build("openai-compatible", fake_server.url, extra_body={"top_k": 20})
    other = build("openai-compatible", "http://10.0.0.7:8000", extra_body={"top_k": 20})
    assert model_cache_key(one, MESSAGES, CONFIG, 0) == model_cache_key(other, MESSAGES, CONFIG, 0)


def test_operational_options_do_not_change_the_key(fake_server):
    plain = build("openai-compatible", fake_server.url)
    paced = build("openai-compatible", fake_server.url, requests_per_minute=60, max_concurrency=2, timeout_s=5)
    assert model_cache_key(plain, MESSAGES, CONFIG, 0) == model_cache_key(paced, MESSAGES, CONFIG, 0)


@pytest.mark.skipif(importlib.util.find_spec("llama_cpp") is None, reason="embedded extra not installed")
def test_embedded_repeat_penalty_is_in_the_key():
    cls = provider_class("embedded")
    assert "repeat_penalty" in cls.declared_options() and "repeat_penalty" not in OPERATIONAL_OPTIONS
    one, other = cls(repeat_penalty=1.1), cls(repeat_penalty=1.0)  # the GGUF loads on first call only
    assert one.output_options()["repeat_penalty"] == 1.1
    assert model_cache_key(one, MESSAGES, CONFIG, 0) != model_cache_key(other, MESSAGES, CONFIG, 0)


EXPECTED_OUTPUT_OPTIONS = {
    "openai-compatible": {"extra_body", "max_tokens_param", "strict_schema", "structured_output"},
    "openai": {"extra_body", "max_tokens_param", "strict_schema", "structured_output"},
    "anthropic": {"default_max_tokens", "structured_output"},
    "google": {"thinking_budget"},
}


@pytest.mark.parametrize("provider", sorted(EXPECTED_OUTPUT_OPTIONS))
def test_every_output_option_is_kept_on_the_model(provider, monkeypatch):
    """A declared option that the model does not keep would raise here instead of leaving the key."""
    pytest.importorskip({"anthropic": "anthropic", "google": "google.genai"}.get(provider, "openai"))
    monkeypatch.setenv("TEST_KEY", "sk-cache-key-test-1234")
    assert set(build(provider, "http://127.0.0.1:9").output_options()) == EXPECTED_OUTPUT_OPTIONS[provider]


def test_mock_script_and_latency_are_not_model_settings():
    assert set(provider_class("mock").declared_options()) == {"latency_s", "max_concurrency", "script"}
    assert provider_class("mock")().output_options() == {}
