"""Credentials written into endpoint URLs are found and redacted wherever a URL is stored or shown."""

from __future__ import annotations

import asyncio
import base64
import json

import pytest

from rhetorica.models.api import ChatMessage, GenerateConfig
from rhetorica.models.call import CallContext, RetryPolicy, call_model
from rhetorica.models.providers.openai_compatible import OpenAICompatibleModel
from rhetorica.models.redaction import redact_url, redact_urls, url_secrets
from rhetorica.models.store_log import StoreCallLog
from rhetorica.store.db import Store
from rhetorica.study.config import parse_study


@pytest.mark.parametrize(
    ("url", "redacted", "secrets"),
    [
        ("http://alice:s3cret-pw@host:8000/v1", "http://***@host:8000/v1", ["alice:s3cret-pw"]),
        ("https://host/v1?key=AIzaSy-123&alt=json", "https://host/v1?key=***&alt=json", ["AIzaSy-123"]),
        ("https://host/v1?alt=json&Token=tok-9#frag", "https://host/v1?alt=json&Token=***#frag", ["tok-9"]),
        ("https://host/v1?api_key=k1&access_token=k2", "https://host/v1?api_key=***&access_token=***", ["k1", "k2"]),
        ("http://127.0.0.1:8000/v1", "http://127.0.0.1:8000/v1", []),
        ("https://host/v1?keyword=x", "https://host/v1?keyword=x", []),
    ],
)
def test_url_credentials(url, redacted, secrets):
    assert redact_url(url) == redacted
    assert url_secrets(url) == secrets


def test_redact_urls_in_free_text():
    text = "connection to http://bob:pw-123@h/v1 failed; see https://h/x?token=abc."
    assert redact_urls(text) == "connection to http://***@h/v1 failed; see https://h/x?token=***."


def test_credentials_in_url_reach_the_server_but_no_store_row_or_output(fake_server, tmp_path):
    secret = "url-secret-7f3a9c"
    port_url = fake_server.url.replace("http://", f"http://user:{secret}@")
    model = OpenAICompatibleModel(f"tiny@{port_url}/v1")
    assert secret not in model.name and secret not in model.connection_key and secret not in repr(model)
    assert model.base_url == f"{fake_server.url.replace('http://', 'http://***@')}/v1"
    store = Store.in_dir(tmp_path / "run")
    messages = [ChatMessage(role="user", content="hi")]
    fake_server.script = ["auth", None]
    fast = RetryPolicy(max_attempts=2, base_delay_s=0.001, jitter=0.0)
    failed = asyncio.run(call_model(model, messages, GenerateConfig(), context=CallContext(log=StoreCallLog(store)), retry=fast))
    ok = asyncio.run(call_model(model, messages, GenerateConfig(seed=1), context=CallContext(log=StoreCallLog(store)), retry=fast))
    store.close()
    assert failed.status == "error" and ok.status == "ok"
    # the URL's credentials were used for the requests (so the checks below can fail) ...
    sent = base64.b64encode(f"user:{secret}".encode()).decode()
    assert [r.headers["authorization"] for r in fake_server.model_requests()] == [f"Basic {sent}"] * 2
    # ... and appear in no output and no byte of the store
    for text in (failed.model_dump_json(), ok.model_dump_json(), str(vars(model))):
        assert secret not in text
    for path in (tmp_path / "run").iterdir():
        assert secret.encode() not in path.read_bytes(), path


def test_study_json_and_model_id_are_redacted():
    url = "http://u:pw-secret-1@h:9/v1?key=k-secret-2"
    config = parse_study({
        "name": "s", "documents": ["a.md"],
        "reviewers": [{"name": "r", "model": f"openai-compatible/m@{url}"}],
        "rewriters": [{"name": "w", "model": "openai/gpt-4.1-mini", "conditions": ["confidence:+"],
                       "options": {"base_url": url}}],
    })
    shown = config.model_dump_json()
    assert "pw-secret-1" not in shown and "k-secret-2" not in shown
    assert json.loads(shown)["reviewers"][0]["model"] == "openai-compatible/m@http://***@h:9/v1?key=***"
    assert config.reviewers[0].model_id == "openai-compatible/m@http://***@h:9/v1?key=***"
    # the config itself keeps the real URL: it is what the requests go to
    assert config.reviewers[0].model == f"openai-compatible/m@{url}"
    assert config.rewriters[0].options.as_kwargs()["base_url"] == url


def test_errors_naming_a_model_id_redact_its_credentials():
    from rhetorica.models.errors import ModelError
    from rhetorica.models.registry import get_model

    for model_id in ("nope/m@http://u:pw-secret-3@h/v1", "openai-compatible/m@ftp://u:pw-secret-3@h"):
        with pytest.raises(ModelError) as info:
            get_model(model_id)
        assert "pw-secret-3" not in str(info.value) and "***" in str(info.value)
