"""The google provider against the loopback server speaking Gemini generateContent."""

from __future__ import annotations

import asyncio
import json

import pytest

pytest.importorskip("google.genai")

from rhetorica.models.api import ChatMessage, GenerateConfig  # noqa: E402
from rhetorica.models.call import call_model  # noqa: E402
from rhetorica.models.errors import (  # noqa: E402
    ContextOverflowError,
    ModelTimeoutError,
    PermanentError,
    RateLimitError,
    TransientError,
)
from rhetorica.models.providers.google_provider import GoogleModel  # noqa: E402
from rhetorica.status import Status  # noqa: E402

SCHEMA = {"type": "object", "properties": {"overall": {"type": "integer", "minimum": 1, "maximum": 10}}}
MESSAGES = [
    ChatMessage(role="system", content="You are a careful reviewer."),
    ChatMessage(role="user", content="Review this short paper."),
    ChatMessage(role="assistant", content="Which aspects?"),
    ChatMessage(role="user", content="All of them."),
]
KEY = "AIza-fake-key-0123456789"


@pytest.fixture
def model(fake_server, monkeypatch):
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    return GoogleModel("gemini-2.5-flash", base_url=fake_server.url, api_key_env="GEMINI_API_KEY")


def generate(model, config=None):
    return asyncio.run(model.generate(MESSAGES, config or GenerateConfig()))


def test_request_shape_and_structured_answer(model, fake_server):
    out = generate(model, GenerateConfig(json_schema=SCHEMA, temperature=0.2, max_tokens=100, seed=5))
    req = fake_server.model_requests("gemini")[0]
    assert req.path == "/v1beta/models/gemini-2.5-flash:generateContent"
    assert req.headers["x-goog-api-key"] == KEY
    body = req.body
    assert body["systemInstruction"]["parts"] == [{"text": "You are a careful reviewer."}]
    assert [c["role"] for c in body["contents"]] == ["user", "model", "user"]
    gc = body["generationConfig"]
    assert gc["responseMimeType"] == "application/json" and gc["responseJsonSchema"] == SCHEMA
    assert (gc["temperature"], gc["maxOutputTokens"], gc["seed"]) == (0.2, 100, 5)
    assert out.status == Status.OK and 1 <= json.loads(out.text)["overall"] <= 10
    assert out.effective_params["max_output_tokens"] == 100 and out.effective_params["json_schema"] is True


def test_usage_counts_thoughts_as_output_and_prices_them(model, fake_server):
    fake_server.script = [
        {"fault": None, "text": "fine", "usage": {"input": 1000, "cached": 200, "output": 300, "reasoning": 120}}
    ]
    out = generate(model)
    assert (out.usage.input_tokens, out.usage.cached_tokens) == (1000, 200)
    assert (out.usage.output_tokens, out.usage.reasoning_tokens) == (300, 120)
    # gemini-2.5-flash: $0.30 in, $0.075 cached, $2.50 out per 1M tokens
    assert out.cost_usd == pytest.approx((800 * 0.30 + 200 * 0.075 + 300 * 2.50) / 1e6, rel=1e-12)


@pytest.mark.parametrize(
    ("fault", "status"),
    [
        ("truncated", Status.TRUNCATED),
        ("truncated_reasoning", Status.TRUNCATED),
        ("refusal", Status.REFUSED),
        ("empty", Status.EMPTY),
    ],
)
def test_answer_statuses(model, fake_server, fault, status):
    fake_server.script = [fault]
    out = generate(model)
    assert out.status == status
    if fault == "truncated_reasoning":
        assert "no content after 64 thinking tokens" in out.error


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
    fake_server.retry_after = "3"
    fake_server.script = [fault]
    with pytest.raises(error) as info:
        generate(model)
    if error is RateLimitError:
        assert info.value.retry_after == 3.0
    assert KEY not in str(info.value)


def test_timeout(model, fake_server):
    fake_server.script = ["timeout"]
    with pytest.raises(ModelTimeoutError):
        generate(model, GenerateConfig(timeout_s=0.2))


def test_call_model_retries_then_succeeds_once(model, fake_server, fast_retry):
    fake_server.script = ["rate_limit", "server_error"]
    out = asyncio.run(call_model(model, MESSAGES, GenerateConfig(), retry=fast_retry))
    assert out.status == Status.OK and len(fake_server.model_requests()) == 3


def test_missing_key(monkeypatch):
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    with pytest.raises(PermanentError, match="GEMINI_API_KEY"):
        GoogleModel("gemini-2.5-flash")
