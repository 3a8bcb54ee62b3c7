"""Providers resolve through the open registry (a provider registered by another package works like a
built-in); each built-in provider is an optional extra: a missing SDK gives one error with the
install command."""

from __future__ import annotations

import sys

import pytest

from rhetorica.models.api import ChatMessage, GenerateConfig, ModelAPI, ModelOutput
from rhetorica.models.errors import ProviderNotInstalledError, UnknownProviderError
from rhetorica.models.providers.mock import MockModel
from rhetorica.models.registry import (
    LazyProvider,
    get_model,
    provider_class,
    provider_names,
    provider_is_free,
    provider_option_lines,
    provider_option_type_problems,
    split_model_id,
)
from rhetorica.registry import providers


@pytest.mark.parametrize(
    ("model_id", "sdk", "extra"),
    [
        ("openai/gpt-4.1-mini", "openai", "openai"),
        ("openai-compatible/m@http://127.0.0.1:9/v1", "openai", "openai"),
        ("anthropic/claude-haiku-4-5", "anthropic", "anthropic"),
        ("google/gemini-2.5-flash", "google.genai", "google"),
    ],
)
def test_missing_sdk_names_the_extra(model_id, sdk, extra, monkeypatch):
    monkeypatch.setitem(sys.modules, sdk, None)  # makes "import <sdk>" fail
    for entry in providers.entries():  # forget provider modules imported by earlier tests
        if isinstance(entry.value, LazyProvider):
            monkeypatch.delitem(sys.modules, entry.value.target.partition(":")[0], raising=False)
    with pytest.raises(ProviderNotInstalledError, match=rf"pip install 'rhetorica\[{extra}\]'"):
        get_model(model_id)


def test_builtin_providers_are_registry_entries_of_rhetorica() -> None:
    builtins = {"mock", "embedded", "openai-compatible", "openai", "anthropic", "google"}
    assert builtins <= set(provider_names())
    for name in builtins:
        assert providers.entry(name).source == "rhetorica"
    assert provider_class("mock") is MockModel


class _Constant(ModelAPI):
    """Answers every call with the model name (a provider registered the way a plug-in does)."""

    provider = "test-constant"

    def __init__(self, model: str, *, suffix: str = "") -> None:
        self.model, self.suffix = model, suffix

    async def generate(self, messages: list[ChatMessage], config: GenerateConfig) -> ModelOutput:
        return ModelOutput(provider=self.provider, model=self.model, text=self.model + self.suffix)


@pytest.fixture
def constant_provider():
    providers.add("test-constant", _Constant, description="test provider")
    yield
    del providers._entries["test-constant"]  # noqa: SLF001 - the registry has no public removal


@pytest.mark.usefixtures("constant_provider")
def test_a_registered_provider_class_resolves_through_get_model() -> None:
    assert split_model_id("test-constant/abc") == ("test-constant", "abc")
    model = get_model("test-constant/abc", suffix="!")
    assert isinstance(model, _Constant) and (model.model, model.suffix) == ("abc", "!")
    assert "test-constant" in provider_names()


def test_a_registered_lazy_provider_imports_its_module_at_first_use() -> None:
    providers.add("test-lazy", LazyProvider("rhetorica.models.providers.mock:MockModel"))
    try:
        assert isinstance(get_model("test-lazy/scripted"), MockModel)
    finally:
        del providers._entries["test-lazy"]  # noqa: SLF001


def test_free_providers_are_declared_by_their_class_or_lazy_entry(constant_provider) -> None:
    # the built-in local providers are free without importing them; the API providers are not
    assert [provider_is_free(p) for p in ("mock", "embedded", "openai", "openai-compatible", "anthropic",
                                          "google", "nope")] == [True, True, False, False, False, False, False]
    # each lazy entry's flag agrees with its class (the classes that import without an SDK)
    assert provider_class("mock").free is True
    assert provider_is_free("test-constant") is False
    _Constant.free = True
    try:
        assert provider_is_free("test-constant") is True
    finally:
        del _Constant.free


def test_unknown_provider_lists_the_registered_ones() -> None:
    with pytest.raises(UnknownProviderError, match=r"unknown provider 'nope'.*known providers: .*anthropic, .*mock"):
        get_model("nope/x")
    with pytest.raises(UnknownProviderError, match="must look like '<provider>/<model>'"):
        split_model_id("mock")


def test_an_entry_that_is_not_a_model_class_is_refused_naming_its_source() -> None:
    providers.add("test-not-a-class", object(), description="wrong")
    try:
        with pytest.raises(UnknownProviderError, match=r"'test-not-a-class' \(registered by .*\) is not a ModelAPI"):
            provider_class("test-not-a-class")
    finally:
        del providers._entries["test-not-a-class"]  # noqa: SLF001


def test_provider_option_lines_give_each_init_option_with_its_type_and_default(monkeypatch) -> None:
    assert provider_option_lines("mock") == {"latency_s": "float (default 0.0)", "max_concurrency": "int (default 8)",
                                             "script": "list[str | dict[str, Any]] | None (default None)"}
    # a provider whose SDK is missing lists no options (and no error)
    monkeypatch.setitem(sys.modules, "anthropic", None)
    for entry in providers.entries():
        if isinstance(entry.value, LazyProvider):
            monkeypatch.delitem(sys.modules, entry.value.target.partition(":")[0], raising=False)
    assert provider_option_lines("anthropic") == {}


def test_provider_option_type_problems_name_each_option_that_does_not_fit_its_annotation() -> None:
    """Checked against the provider's ``__init__`` annotations (mock: latency_s float, script list | None)."""
    assert provider_option_type_problems("mock", {"latency_s": "fast", "script": ["a", {"text": "b"}],
                                                  "max_concurrency": 2}) == [
        "options.latency_s: Input should be a valid number, unable to parse string as a number "
        "(provider mock takes float)"]
    assert provider_option_type_problems("mock", {"script": "abc", "latency_s": 0}) == [
        "options.script: Input should be a valid list (provider mock takes list[str | dict[str, Any]] | None)"]
    # unknown options and unknown providers are other checks' business
    assert provider_option_type_problems("mock", {"colour": 1}) == []
    assert provider_option_type_problems("no-such-provider", {"x": 1}) == []
