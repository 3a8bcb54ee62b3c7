"""The anthropic provider against the loopback server speaking the Messages API."""

from __future__ import annotations

import asyncio
import json

import pytest

pytest.importorskip("anthropic")

from rhetorica.models.api import ChatMessage, GenerateConfig  # noqa: E402
from rhetorica.models.call import call_model  # noqa: E402
from rhetorica.models.errors import (  # noqa: E402
    ContextOverflowError,
    ModelTimeoutError,
    PermanentError,
    RateLimitError,
    TransientError,
)
from rhetorica.models.providers.anthropic_provider import AnthropicModel  # noqa: E402
from rhetorica.models.registry import get_model  # noqa: E402
from rhetorica.status import Status  # noqa: E402

SCHEMA = {"type": "object", "properties": {"overall": {"type": "integer", "minimum": 1, "maximum": 10}}}
MESSAGES = [
    ChatMessage(role="system", content="You are a careful reviewer."),
    ChatMessage(role="user", content="Review this short paper."),
]
KEY = "sk-ant-fake-0123456789abcdef"


@pytest.fixture
def model(fake_server, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    return AnthropicModel("claude-haiku-4-5", base_url=fake_server.url, api_key_env="ANTHROPIC_API_KEY")


def generate(model, config=None):
    return asyncio.run(model.generate(MESSAGES, config or GenerateConfig()))


def test_request_caches_system_prompt_and_uses_native_schema(model, fake_server):
    out = generate(model, GenerateConfig(json_schema=SCHEMA, max_tokens=300, temperature=0.5))
    req = fake_server.model_requests("anthropic")[0]
    sent_key = req.headers.get("x-api-key") or req.headers.get("authorization", "").removeprefix("Bearer ")
    assert sent_key == KEY
    assert req.body["system"] == [
        {"type": "text", "text": "You are a careful reviewer.", "cache_control": {"type": "ephemeral"}}
    ]
    # the document (first user message) carries the second cache breakpoint
    assert req.body["messages"] == [{"role": "user", "content": [
        {"type": "text", "text": "Review this short paper.", "cache_control": {"type": "ephemeral"}}]}]
    assert req.body["max_tokens"] == 300 and req.body["temperature"] == 0.5
    assert req.body["output_config"]["format"]["type"] == "json_schema"
    assert out.status == Status.OK and isinstance(json.loads(out.text)["overall"], int)
    assert out.effective_params["max_tokens"] == 300 and out.effective_params["json_schema"] is True


def test_tool_mode_returns_tool_input_as_json(fake_server, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    model = AnthropicModel(
        "claude-3-5-haiku", base_url=fake_server.url, structured_output="tool", api_key_env="ANTHROPIC_API_KEY"
    )
    out = generate(model, GenerateConfig(json_schema=SCHEMA))
    body = fake_server.model_requests()[0].body
    assert body["tool_choice"] == {"type": "tool", "name": "output"}
    assert body["tools"][0]["input_schema"] == SCHEMA
    assert 1 <= json.loads(out.text)["overall"] <= 10


def test_default_max_tokens_is_sent(model, fake_server):
    generate(model)
    assert fake_server.model_requests()[0].body["max_tokens"] == 4096


def test_cache_usage_and_cost(model, fake_server):
    # 2,000 input tokens: 1,500 read from cache, 400 written, 100 fresh; 200 output.
    fake_server.script = [
        {"fault": None, "text": "ok", "usage": {"input": 2000, "cached": 1500, "cache_write": 400, "output": 200}}
    ]
    out = generate(model)
    assert (out.usage.input_tokens, out.usage.cached_tokens, out.usage.output_tokens) == (2000, 1500, 200)
    assert out.effective_params["cache_write_tokens"] == 400
    # Haiku 4.5: $1 in, $0.10 cache read, $1.25 cache write, $5 out per 1M tokens.
    expected = (100 * 1.0 + 1500 * 0.10 + 400 * 1.25 + 200 * 5.0) / 1e6
    assert out.cost_usd == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    ("fault", "status"), [("truncated", Status.TRUNCATED), ("refusal", Status.REFUSED), ("empty", Status.EMPTY)]
)
def test_answer_statuses(model, fake_server, fault, status):
    fake_server.script = [fault]
    assert generate(model).status == status


@pytest.mark.parametrize(
    ("fault", "error"),
    [
        ("rate_limit", RateLimitError),
        ("server_error", TransientError),
        ("malformed_body", TransientError),
        ("context_overflow", ContextOverflowError),
        ("auth", PermanentError),
        ("not_found", PermanentError),
    ],
)
def test_errors_are_classified(model, fake_server, fault, error):
    fake_server.retry_after = "7"
    fake_server.script = [fault]
    with pytest.raises(error) as info:
        generate(model)
    if error is RateLimitError:
        assert info.value.retry_after == 7.0
    assert KEY not in str(info.value)


def test_timeout(model, fake_server):
    fake_server.script = ["timeout"]
    with pytest.raises(ModelTimeoutError):
        generate(model, GenerateConfig(timeout_s=0.2))


def test_call_model_recovers_after_overload(model, fake_server, fast_retry):
    fake_server.script = ["server_error", "rate_limit"]
    out = asyncio.run(call_model(model, MESSAGES, GenerateConfig(), retry=fast_retry))
    assert out.status == Status.OK and len(fake_server.model_requests()) == 3


def test_missing_key_is_one_clear_error(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(PermanentError, match="ANTHROPIC_API_KEY"):
        get_model("anthropic/claude-haiku-4-5")


def test_rate_limit_headers_reach_the_output(fake_server, monkeypatch):
    from rhetorica.models.limits import RateLimitInfo

    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-123456")
    fake_server.rate_limit, fake_server.rate_headers = (10, 60.0), True
    model = AnthropicModel("claude-haiku-4-5", base_url=fake_server.url, api_key_env="ANTHROPIC_API_KEY")
    out = asyncio.run(model.generate([ChatMessage(role="user", content="hi")], GenerateConfig(max_tokens=5)))
    assert out.rate_limit is not None and out.rate_limit.remaining_requests == 9
    assert isinstance(out.rate_limit, RateLimitInfo) and 59.0 < out.rate_limit.reset_requests_s <= 60.1
