"""Cache keys are stable across processes and change exactly when the output can change."""

from __future__ import annotations

import subprocess
import sys

from rhetorica.models.api import ChatMessage, GenerateConfig
from rhetorica.models.cache import cache_key

MESSAGES = [ChatMessage(role="system", content="Review."), ChatMessage(role="user", content="Paper text.")]
CONFIG = GenerateConfig(temperature=0.7, max_tokens=100, seed=1)


def key(**changes: object) -> str:
    config = CONFIG.model_copy(update=changes.pop("config", {}))
    args = {"provider": "mock", "model": "m", "messages": MESSAGES, "config": config, "replicate": 0} | changes
    return cache_key(**args)  # type: ignore[arg-type]


def test_same_inputs_same_key_in_another_process() -> None:
    code = ("from rhetorica.models.api import ChatMessage, GenerateConfig;"
            "from rhetorica.models.cache import cache_key;"
            "m=[ChatMessage(role='system', content='Review.'), ChatMessage(role='user', content='Paper text.')];"
            "print(cache_key('mock', 'm', m, GenerateConfig(temperature=0.7, max_tokens=100, seed=1), 0))")
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert other == key()
    assert len(other) == 64


def test_key_changes_with_what_changes_the_output() -> None:
    base = key()
    assert key(replicate=1) != base
    assert key(model="m2") != base
    assert key(provider="openai") != base
    assert key(config={"temperature": 0.0}) != base
    assert key(config={"json_schema": {"type": "object"}}) != base
    assert key(messages=MESSAGES[:1]) != base


def test_key_ignores_the_timeout() -> None:
    assert key(config={"timeout_s": 30.0}) == key()
