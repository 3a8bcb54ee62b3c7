"""API keys never reach logs (even at DEBUG), outputs, errors, the store or a model's repr."""

from __future__ import annotations

import asyncio
import logging

import pytest

from rhetorica.models.api import ChatMessage, GenerateConfig
from rhetorica.models.call import CallContext, call_model
from rhetorica.models.registry import get_model
from rhetorica.models.store_log import StoreCallLog
from rhetorica.store.db import Store

KEY = "sk-hygiene-check-4f3e2d1c0b9a"
CASES = [
    ("openai/gpt-4.1-mini", "OPENAI_API_KEY", "/v1"),
    ("anthropic/claude-haiku-4-5", "ANTHROPIC_API_KEY", ""),
    ("google/gemini-2.5-flash", "GEMINI_API_KEY", ""),
]


@pytest.mark.parametrize(("model_id", "env", "suffix"), CASES, ids=[c[0].split("/")[0] for c in CASES])
def test_key_absent_from_logs_store_and_errors(
    model_id, env, suffix, fake_server, fast_retry, tmp_path, caplog, monkeypatch
):
    pytest.importorskip(
        {"openai": "openai", "anthropic": "anthropic", "google": "google.genai"}[model_id.split("/")[0]]
    )
    monkeypatch.setenv(env, KEY)
    caplog.set_level(logging.DEBUG)
    store = Store.in_dir(tmp_path / "run")
    model = get_model(model_id, base_url=f"{fake_server.url}{suffix}", api_key_env=env)
    messages = [ChatMessage(role="user", content="hello there")]
    fake_server.script = ["auth", "server_error", None, "rate_limit", "context_overflow"]
    outputs = [
        asyncio.run(call_model(model, messages, GenerateConfig(seed=i), context=CallContext(log=StoreCallLog(store)), retry=fast_retry)) for i in range(3)
    ]
    assert [o.status for o in outputs] == ["error", "ok", "error"]
    store.close()
    # the key did travel to the server (so the checks below can fail) ...
    sent = fake_server.model_requests()[0].headers
    assert any(KEY in value for value in sent.values())
    # ... and nowhere else
    assert KEY not in caplog.text
    assert all(KEY not in o.model_dump_json() for o in outputs)
    assert KEY not in repr(model) and KEY not in str(vars(model))
    for path in (tmp_path / "run").iterdir():
        assert KEY.encode() not in path.read_bytes(), path


@pytest.mark.parametrize(("model_id", "env", "suffix"), CASES, ids=[c[0].split("/")[0] for c in CASES])
def test_a_providers_own_key_never_goes_to_another_endpoint(model_id, env, suffix, fake_server, monkeypatch):
    """``OPENAI_API_KEY``/``ANTHROPIC_API_KEY``/``GEMINI_API_KEY`` belong to the official endpoints."""
    from rhetorica.models.errors import AuthenticationError

    pytest.importorskip(
        {"openai": "openai", "anthropic": "anthropic", "google": "google.genai"}[model_id.split("/")[0]]
    )
    monkeypatch.setenv(env, KEY)
    with pytest.raises(AuthenticationError, match=f"{env} is sent only to"):
        get_model(model_id, base_url=f"{fake_server.url}{suffix}")
    assert fake_server.received == []
