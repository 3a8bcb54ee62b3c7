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


def test_key_is_the_content_hash_of_its_parts_for_every_replicate() -> None:
    """The key's definition: SHA-256 of the canonical JSON of (version, provider, model, messages,
    output-affecting config, options, replicate); made from a remembered prefix per prompt, it must
    stay that hash (stored caches and batch files are keyed by it)."""
    from rhetorica.hashing import content_hash

    messages = [ChatMessage(role="system", content="Réviewer \"strict\"\n\t\\ü"),
                ChatMessage(role="user", content="Paper ∑ text.\u0001" * 50)]
    config = GenerateConfig(temperature=0.7, max_tokens=100, seed=1, json_schema={"type": "object", "b": 1, "a": [2]})
    options = {"reasoning": "low", "z": None}
    for replicate in (0, 1, 9, 10):
        for opts in (options, None):
            expected = content_hash("model-call/v2", "mock", "m", [m.model_dump() for m in messages],
                                    config.output_affecting(), opts or {}, replicate, length=64)
            assert cache_key("mock", "m", messages, config, replicate, opts) == expected
    # the key the code before the remembered prefix gave (/work/baseline/src, same inputs)
    assert key() == "fc500774b343061c67d3f906802d221de4b60e79aa8e19f15314ca3c067c8d0e"
