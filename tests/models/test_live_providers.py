"""Live checks against the real provider APIs: skipped unless asked for and a key is present.

Run with ``pytest tests/models/test_live_providers.py --runapi`` (when the root conftest registers
that option) or with ``RHETORICA_RUNAPI=1``; each provider also needs its key variable. Each test
makes two tiny calls (well under $0.001). Models can be changed with ``RHETORICA_LIVE_<PROVIDER>``.
"""

from __future__ import annotations

import asyncio
import json
import os

import pytest

from rhetorica.models.api import ChatMessage, GenerateConfig
from rhetorica.models.registry import get_model
from rhetorica.status import Status

LIVE = [
    ("openai", "OPENAI_API_KEY", "gpt-4.1-nano"),
    ("anthropic", "ANTHROPIC_API_KEY", "claude-haiku-4-5"),
    ("google", "GEMINI_API_KEY", "gemini-2.5-flash-lite"),
]
SCHEMA = {
    "type": "object",
    "properties": {"answer": {"type": "integer", "minimum": 0, "maximum": 100}},
    "required": ["answer"],
    "additionalProperties": False,
}


@pytest.mark.runapi
@pytest.mark.parametrize(("provider", "env", "default_model"), LIVE, ids=[p[0] for p in LIVE])
def test_live_structured_call_and_truncation(provider, env, default_model, request):
    if not (request.config.getoption("--runapi", default=False) or os.environ.get("RHETORICA_RUNAPI") == "1"):
        pytest.skip("live API test: pass --runapi or set RHETORICA_RUNAPI=1")
    if not os.environ.get(env):
        pytest.skip(f"{env} is not set")
    model = get_model(f"{provider}/{os.environ.get(f'RHETORICA_LIVE_{provider.upper()}', default_model)}")
    messages = [
        ChatMessage(role="system", content="Answer with the JSON object requested."),
        ChatMessage(role="user", content="What is 17 + 25? Put the number in 'answer'."),
    ]
    out = asyncio.run(model.generate(messages, GenerateConfig(json_schema=SCHEMA, max_tokens=200, temperature=0)))
    assert out.status == Status.OK, out.error
    assert json.loads(out.text)["answer"] == 42
    assert out.usage.input_tokens > 0 and out.usage.output_tokens > 0 and out.cost_usd > 0
    cut = asyncio.run(
        model.generate(
            [ChatMessage(role="user", content="Count from 1 to 200, comma separated.")], GenerateConfig(max_tokens=16)
        )
    )
    assert cut.status == Status.TRUNCATED
