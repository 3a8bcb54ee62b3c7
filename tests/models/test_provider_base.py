"""The one base of the HTTP providers: endpoint redaction, connection key, key policy and pricing
are the same for openai, anthropic and google."""

from __future__ import annotations

import pytest

from rhetorica.models.api import ModelOutput, Usage
from rhetorica.models.errors import AuthenticationError, PermanentError
from rhetorica.models.providers.base import NO_KEY, HTTPModelAPI
from rhetorica.models.registry import get_model, provider_class

URL = "http://user:s3cretpass@127.0.0.1:9/v1?key=qsecret12345"
SHOWN = "http://***@127.0.0.1:9/v1?key=***"
PRICES = """
models:
  openai/m1:
    input: 2.0
    output: 8.0
    cached_input: 0.5
    source: https://example.org/test-price
    as_of: '2026-11-01'
  anthropic/m1:
    input: 2.0
    output: 8.0
    cached_input: 0.5
    cache_write_input: 2.5
    source: https://example.org/test-price
    as_of: '2026-11-01'
  google/m1:
    input: 2.0
    output: 8.0
    cached_input: 0.5
    source: https://example.org/test-price
    as_of: '2026-11-01'
"""


@pytest.fixture
def prices(tmp_path, monkeypatch):
    path = tmp_path / "prices.yaml"
    path.write_text(PRICES)
    monkeypatch.setenv("RHETORICA_PRICES", str(path))
    monkeypatch.setenv("TEST_KEY", "sk-test-key-000001")


@pytest.mark.parametrize("provider", ["openai", "anthropic", "google"])
def test_endpoint_connection_key_and_price_come_from_one_base(provider, prices):
    pytest.importorskip({"openai": "openai", "anthropic": "anthropic", "google": "google.genai"}[provider])
    model = get_model(f"{provider}/m1", base_url=URL)
    assert isinstance(model, HTTPModelAPI)
    assert model.model == "m1"  # openai split "m1@<url>" at its last @ before: the password went into the name
    assert model.base_url == SHOWN
    assert model.connection_key == f"{provider}:{SHOWN}"
    assert "s3cretpass" not in repr(model) and "qsecret12345" not in repr(model)
    assert model._url == URL  # the SDK still gets the credentials
    # 1000 input tokens of which 200 cached, 100 output: (800 * 2 + 200 * 0.5 + 100 * 8) / 1e6
    usage = Usage(input_tokens=1000, cached_tokens=200, output_tokens=100)
    priced = model.priced(ModelOutput(provider=provider, model="m1", usage=usage))
    assert priced.cost_usd == pytest.approx(2.5e-3)


def test_cache_writes_are_priced_at_their_rate(prices):
    pytest.importorskip("anthropic")
    model = get_model("anthropic/m1", base_url=URL)
    usage = Usage(input_tokens=1000, cached_tokens=200, output_tokens=100)
    # 300 of the 800 uncached tokens were written to the cache: (500*2 + 300*2.5 + 200*0.5 + 100*8) / 1e6
    priced = model.priced(ModelOutput(provider="anthropic", model="m1", usage=usage), cache_write_tokens=300)
    assert priced.cost_usd == pytest.approx(2.65e-3)


@pytest.mark.parametrize(("provider", "variable"), [("openai", "OPENAI_API_KEY"), ("anthropic", "ANTHROPIC_API_KEY"),
                                                     ("google", "GEMINI_API_KEY")])
def test_a_vendor_key_never_goes_to_another_endpoint(provider, variable, monkeypatch):
    pytest.importorskip({"openai": "openai", "anthropic": "anthropic", "google": "google.genai"}[provider])
    monkeypatch.setenv(variable, "sk-vendor-key-000001")
    with pytest.raises(AuthenticationError, match=f"{variable} is sent only to"):
        get_model(f"{provider}/m1", base_url="http://127.0.0.1:9/v1")


def test_parent_options_count_only_where_an_init_passes_kwargs_on():
    # OpenAICompatibleModel's __init__ takes no **kwargs: the base's base_url is not its option
    assert "base_url" not in provider_class("openai-compatible").declared_options()
    # AnthropicModel and GoogleModel pass **endpoint on to the base
    assert {"api_key_env", "requests_per_minute", "timeout_s"} <= set(provider_class("google").declared_options())


@pytest.mark.parametrize("provider", ["openai", "anthropic", "google", "openai-compatible"])
def test_url_credentials_and_a_named_key_are_refused_together(provider, prices):
    pytest.importorskip({"openai": "openai", "anthropic": "anthropic", "google": "google.genai",
                         "openai-compatible": "openai"}[provider])
    with pytest.raises(PermanentError) as info:
        if provider == "openai-compatible":  # its endpoint is the model id's @url part
            get_model(f"{provider}/m1@{URL}", api_key_env="TEST_KEY")
        else:
            get_model(f"{provider}/m1", base_url=URL, api_key_env="TEST_KEY")
    assert str(info.value) == (f"provider {provider!r}: base_url {SHOWN!r} carries credentials in its URL and "
                               "names api_key_env 'TEST_KEY': give one")


@pytest.mark.parametrize("provider", ["openai", "anthropic", "google"])
def test_url_credentials_alone_send_no_key(provider, prices, monkeypatch):
    pytest.importorskip({"openai": "openai", "anthropic": "anthropic", "google": "google.genai"}[provider])
    monkeypatch.setenv(provider_class(provider).default_key_env(), "sk-vendor-key-never-sent")
    model = get_model(f"{provider}/m1", base_url=URL)
    assert model._key.reveal() == NO_KEY
