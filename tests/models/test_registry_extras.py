"""Each provider is an optional extra: a missing SDK gives one error with the install command."""

from __future__ import annotations

import sys

import pytest

from rhetorica.models.errors import ProviderNotInstalledError
from rhetorica.models.registry import PROVIDERS, get_model


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
    for target, _ in PROVIDERS.values():  # forget provider modules imported by earlier tests
        monkeypatch.delitem(sys.modules, target.partition(":")[0], raising=False)
    with pytest.raises(ProviderNotInstalledError, match=rf"pip install 'rhetorica\[{extra}\]'"):
        get_model(model_id)
