"""Price table and cost formula, rate limiter, Retry-After parsing and HTTP error classification."""

from __future__ import annotations

import email.utils
import json

import pytest

from rhetorica.models.api import Usage
from rhetorica.models.errors import (
    AuthenticationError,
    ContextOverflowError,
    InvalidRequestError,
    ModelNotFoundError,
    PermanentError,
    RateLimitError,
    TransientError,
)
from rhetorica.models.limits import RateLimiter
from rhetorica.models.pricing import ModelPrice, cost_usd, load_prices, price_usage
from rhetorica.models.providers.common import Secret, classify_http_error, parse_retry_after, redact


# -- pricing -----------------------------------------------------------------------------------------
def test_every_packaged_price_has_source_and_date():
    table = load_prices()
    assert len(table.models) >= 15
    for name, price in table.models.items():
        assert price.source.startswith("https://"), name
        assert price.as_of >= "2025-01-01", name
        assert price.output >= price.input, name  # every listed vendor prices output above input
        if price.batch_input is not None:
            assert price.batch_input == pytest.approx(price.input / 2), name


def test_cost_of_gpt_4_1_mini_by_hand():
    # $0.40 input, $0.10 cached input, $1.60 output per 1M tokens (OpenAI pricing page).
    usage = Usage(input_tokens=12_000, cached_tokens=8_000, output_tokens=700)
    expected = (4_000 * 0.40 + 8_000 * 0.10 + 700 * 1.60) / 1e6  # = 0.00352
    assert cost_usd("openai", "gpt-4.1-mini", usage) == pytest.approx(0.00352, abs=1e-12)
    assert cost_usd("openai", "gpt-4.1-mini", usage) == pytest.approx(expected, rel=1e-12)
    # batch: half of every rate
    assert cost_usd("openai", "gpt-4.1-mini", usage, batch=True) == pytest.approx(0.00176, abs=1e-12)
    # dated snapshot alias has the same price
    assert cost_usd("openai", "gpt-4.1-mini-2025-04-14", usage) == pytest.approx(0.00352, abs=1e-12)


def test_long_context_rates_apply_above_threshold():
    small = Usage(input_tokens=200_000, output_tokens=1_000)
    large = Usage(input_tokens=200_001, output_tokens=1_000)
    assert cost_usd("google", "gemini-2.5-pro", small) == pytest.approx((200_000 * 1.25 + 1_000 * 10) / 1e6)
    assert cost_usd("google", "gemini-2.5-pro", large) == pytest.approx((200_001 * 2.50 + 1_000 * 15) / 1e6)


def test_unpriced_model_costs_zero():
    assert cost_usd("openai-compatible", "my-local-model", Usage(input_tokens=10**6, output_tokens=10**6)) == 0.0


def test_cache_write_priced_at_write_rate():
    price = ModelPrice(
        input=3.0, output=15.0, cached_input=0.3, cache_write_input=3.75, source="https://x", as_of="2026-01-01"
    )
    usage = Usage(input_tokens=1_000, cached_tokens=600, output_tokens=10)
    assert price_usage(price, usage, cache_write_tokens=300) == pytest.approx(
        (100 * 3.0 + 600 * 0.3 + 300 * 3.75 + 10 * 15.0) / 1e6
    )


def test_user_override_file_adds_and_replaces(tmp_path, monkeypatch):
    override = tmp_path / "prices.yaml"
    override.write_text(
        "models:\n"
        "  openai-compatible/qwen2.5-7b:\n    input: 0.05\n    output: 0.10\n"
        "    source: https://example.org/our-gpu-cost\n    as_of: '2026-11-01'\n"
        "  openai/gpt-4.1-mini:\n    input: 1.0\n    output: 2.0\n"
        "    source: https://example.org/contract\n    as_of: '2026-11-01'\n"
    )
    monkeypatch.setenv("RHETORICA_PRICES", str(override))
    usage = Usage(input_tokens=1_000_000, output_tokens=1_000_000)
    assert cost_usd("openai-compatible", "qwen2.5-7b", usage) == pytest.approx(0.15)
    assert cost_usd("openai", "gpt-4.1-mini", usage) == pytest.approx(3.0)
    assert load_prices().version.endswith("+prices.yaml")


def test_bad_override_names_file_and_entry(tmp_path):
    bad = tmp_path / "p.json"
    bad.write_text(
        json.dumps({"models": {"openai/x": {"input": -1, "output": 1, "source": "s", "as_of": "2026-01-01"}}})
    )
    with pytest.raises(ValueError, match=r"p\.json.*'openai/x'"):
        load_prices(bad)


# -- rate limiter ------------------------------------------------------------------------------------
def test_rate_limit_must_be_positive():
    with pytest.raises(ValueError, match="> 0"):
        RateLimiter(requests_per_minute=-5)
    assert RateLimiter.create(None, None) is None


# -- Retry-After and classification ------------------------------------------------------------------
def test_parse_retry_after_forms():
    assert parse_retry_after({"Retry-After": "12"}) == 12.0
    assert parse_retry_after({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    date = email.utils.formatdate(1_000_030, usegmt=True)
    assert parse_retry_after({"Retry-After": date}, now=1_000_000) == pytest.approx(30.0)
    assert parse_retry_after({"Retry-After": "soon"}) is None
    assert parse_retry_after({}) is None and parse_retry_after(None) is None


@pytest.mark.parametrize(
    ("status", "message", "code", "cls"),
    [
        (429, "slow down", None, RateLimitError),
        (429, "You exceeded your current quota", "insufficient_quota", PermanentError),
        (500, "oops", None, TransientError),
        (503, "unavailable", None, TransientError),
        (529, "Overloaded", None, TransientError),
        (408, "request timeout", None, TransientError),
        (400, "This model's maximum context length is 8192 tokens", None, ContextOverflowError),
        (400, "prompt is too long: 210000 tokens > 200000 maximum", None, ContextOverflowError),
        (
            400,
            "The input token count (1200000) exceeds the maximum number of tokens allowed",
            None,
            ContextOverflowError,
        ),
        (400, "the request exceeds the available context size", None, ContextOverflowError),
        (400, "temperature must be <= 2", None, InvalidRequestError),
        (401, "bad key", None, AuthenticationError),
        (403, "forbidden", None, AuthenticationError),
        (404, "no such model", None, ModelNotFoundError),
        (404, "The model `gpt-9` does not exist", "model_not_found", ModelNotFoundError),
        (418, "I'm a teapot", None, PermanentError),
        # llama-cpp-python's server answers a schema it cannot take with a 500 validation error
        (500, "[{'type': 'literal_error', 'msg': \"Input should be 'text' or 'json_object'\"}]", None,
         InvalidRequestError),
        (422, "Unprocessable Entity: field required", None, InvalidRequestError),
        # vLLM's wording of a context overflow (vllm/v1/engine/processor.py)
        (400, "The decoder prompt (length 9000) is longer than the maximum model length of 8192. Make sure "
              "that `max_model_len` is no smaller than the number of text tokens.", None, ContextOverflowError),
    ],
)
def test_classify_http_error(status, message, code, cls):
    err = classify_http_error(status, message, code=code)
    assert type(err) is cls
    assert f"HTTP {status}" in str(err)


def test_classify_keeps_retry_after_and_redacts():
    err = classify_http_error(
        429, "key sk-secret-abcdef used too often", headers={"Retry-After": "4"}, secrets=["sk-secret-abcdef"]
    )
    assert isinstance(err, RateLimitError) and err.retry_after == 4.0
    assert "sk-secret-abcdef" not in str(err) and "***" in str(err)
    assert redact("a sk-xyz123 b", ["sk-xyz123"]) == "a *** b"


def test_secret_never_prints():
    secret = Secret("sk-very-secret-value")
    assert "sk-very" not in repr(secret) and "sk-very" not in str(secret) and "sk-very" not in f"{secret}"
    assert secret.reveal() == "sk-very-secret-value"
