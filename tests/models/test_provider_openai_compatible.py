"""The openai-compatible provider against the loopback server speaking chat completions."""

from __future__ import annotations

import asyncio
import json
import time

import pytest

from rhetorica.models.api import ChatMessage, GenerateConfig
from rhetorica.models.call import RetryPolicy, call_model
from rhetorica.models.errors import (
    AuthenticationError,
    ContextOverflowError,
    InvalidRequestError,
    ModelNotFoundError,
    ModelTimeoutError,
    PermanentError,
    RateLimitError,
    TransientError,
)
from rhetorica.models.providers.openai_compatible import OpenAICompatibleModel, strict_json_schema
from rhetorica.models.registry import get_model
from rhetorica.status import Status

SCHEMA = {
    "type": "object",
    "properties": {
        "overall": {"type": "integer", "minimum": 1, "maximum": 10},
        "summary": {"type": "string"},
    },
}
MESSAGES = [
    ChatMessage(role="system", content="You review papers."),
    ChatMessage(role="user", content="Paper text with seven words here."),
]


def model_for(server, **options) -> OpenAICompatibleModel:
    return OpenAICompatibleModel(f"tiny-model@{server.url}/v1", **options)


def generate(model, config=None, messages=MESSAGES):
    return asyncio.run(model.generate(messages, config or GenerateConfig()))


def test_structured_output_request_and_parsed_answer(fake_server):
    model = model_for(fake_server)
    out = generate(model, GenerateConfig(json_schema=SCHEMA, temperature=0.0, max_tokens=50, seed=3))
    assert out.status == Status.OK
    answer = json.loads(out.text)
    assert 1 <= answer["overall"] <= 10 and isinstance(answer["summary"], str)
    body = fake_server.model_requests("openai")[0].body
    assert body["model"] == "tiny-model"
    assert body["temperature"] == 0.0 and body["max_tokens"] == 50 and body["seed"] == 3
    sent = body["response_format"]
    assert sent["type"] == "json_schema" and sent["json_schema"]["strict"] is True
    assert sent["json_schema"]["schema"]["required"] == ["overall", "summary"]
    assert sent["json_schema"]["schema"]["additionalProperties"] is False
    # usage: the fake counts words; 3 + 6 prompt words
    assert out.usage.input_tokens == 9
    assert out.usage.output_tokens == len(out.text.split())
    assert out.effective_params["temperature"] == 0.0
    assert out.effective_params["max_tokens"] == 50
    assert out.effective_params["served_model"] == "tiny-model-served"
    assert out.effective_params["json_schema"] is True
    assert out.model == f"tiny-model@{fake_server.url}/v1" and out.provider == "openai-compatible"


def test_cached_and_reasoning_tokens_are_mapped(fake_server):
    fake_server.script = [
        {"fault": None, "text": "fine", "usage": {"input": 900, "cached": 512, "output": 70, "reasoning": 64}}
    ]
    out = generate(model_for(fake_server))
    assert (out.usage.input_tokens, out.usage.cached_tokens) == (900, 512)
    assert (out.usage.output_tokens, out.usage.reasoning_tokens) == (70, 64)


def test_rate_limit_raises_with_retry_after(fake_server):
    fake_server.retry_after = "2.5"
    fake_server.script = ["rate_limit"]
    with pytest.raises(RateLimitError) as info:
        generate(model_for(fake_server))
    assert info.value.retry_after == 2.5


def test_call_model_honours_retry_after_then_succeeds(fake_server):
    fake_server.retry_after = "0.3"
    fake_server.script = ["rate_limit", "server_error"]
    started = time.perf_counter()
    policy = RetryPolicy(max_attempts=3, base_delay_s=0.001, max_delay_s=1.0, jitter=0.0)
    out = asyncio.run(call_model(model_for(fake_server), MESSAGES, GenerateConfig(), retry=policy))
    assert out.status == Status.OK
    assert time.perf_counter() - started >= 0.3
    assert [r.fault for r in fake_server.model_requests()] == ["rate_limit", "server_error", None]


def test_server_error_is_transient(fake_server):
    fake_server.script = ["server_error"]
    with pytest.raises(TransientError) as info:
        generate(model_for(fake_server))
    assert "HTTP 500" in str(info.value)
    assert not isinstance(info.value, RateLimitError)


def test_timeout_is_classified_and_recorded_after_retries(fake_server):
    fake_server.script = ["timeout", "timeout"]
    model = model_for(fake_server)
    with pytest.raises(ModelTimeoutError):
        generate(model, GenerateConfig(timeout_s=0.2))
    out = asyncio.run(
        call_model(
            model, MESSAGES, GenerateConfig(timeout_s=0.2), retry=RetryPolicy(max_attempts=1, base_delay_s=0.001)
        )
    )
    assert out.status == Status.TIMEOUT and "ModelTimeoutError" in out.error


def test_malformed_body_is_transient_and_retried(fake_server, fast_retry):
    fake_server.script = ["malformed_body"]
    with pytest.raises(TransientError):
        generate(model_for(fake_server))
    fake_server.script = ["malformed_body"]
    out = asyncio.run(call_model(model_for(fake_server), MESSAGES, GenerateConfig(), retry=fast_retry))
    assert out.status == Status.OK


def test_truncation_statuses(fake_server):
    fake_server.script = ["truncated", "truncated_reasoning"]
    model = model_for(fake_server)
    cut = generate(model)
    assert cut.status == Status.TRUNCATED and cut.finish_reason == "length" and cut.text
    reasoning = generate(model)
    assert reasoning.status == Status.TRUNCATED and reasoning.text == ""
    assert "no content after 64 reasoning tokens" in reasoning.error


def test_refusal_content_filter_and_empty(fake_server):
    fake_server.script = ["refusal", "content_filter", "empty"]
    model = model_for(fake_server)
    refusal = generate(model)
    assert refusal.status == Status.REFUSED and "can't help" in refusal.error
    blocked = generate(model)
    assert blocked.status == Status.REFUSED and blocked.finish_reason == "content_filter"
    empty = generate(model)
    assert empty.status == Status.EMPTY and empty.text == ""


def test_malformed_content_is_returned_as_text_for_the_validator(fake_server):
    fake_server.script = ["malformed_content"]
    out = generate(model_for(fake_server), GenerateConfig(json_schema=SCHEMA))
    assert out.status == Status.OK
    with pytest.raises(json.JSONDecodeError):
        json.loads(out.text)


@pytest.mark.parametrize(
    ("fault", "error"),
    [
        ("context_overflow", ContextOverflowError),
        ("auth", AuthenticationError),
        ("not_found", ModelNotFoundError),
        ("quota", PermanentError),
    ],
)
def test_permanent_errors_fail_fast(fake_server, fast_retry, fault, error):
    fake_server.script = [fault]
    with pytest.raises(error):
        generate(model_for(fake_server))
    fake_server.script = [fault, None]
    out = asyncio.run(call_model(model_for(fake_server), MESSAGES, GenerateConfig(), retry=fast_retry))
    assert out.status == Status.ERROR and error.__name__ in out.error
    assert len(fake_server.model_requests()) == 2  # one direct call + one call_model call, no retry


def test_connection_refused_is_transient():
    model = OpenAICompatibleModel("m@http://127.0.0.1:9/v1")
    with pytest.raises(TransientError):
        generate(model, GenerateConfig(timeout_s=2))


def test_api_key_from_named_env_var_and_default(fake_server, monkeypatch):
    monkeypatch.setenv("MY_SERVER_KEY", "sk-test-named-variable-123")
    generate(model_for(fake_server, api_key_env="MY_SERVER_KEY"))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    generate(model_for(fake_server))
    auth = [r.headers["authorization"] for r in fake_server.model_requests()]
    assert auth == ["Bearer sk-test-named-variable-123", "Bearer EMPTY"]


def test_key_never_in_outputs_or_errors(fake_server, fast_retry, monkeypatch):
    secret = "sk-leak-check-9f8e7d6c5b4a"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    model = model_for(fake_server)
    fake_server.script = ["auth", None]
    failed = asyncio.run(call_model(model, MESSAGES, GenerateConfig(), retry=fast_retry))
    ok = asyncio.run(call_model(model, MESSAGES, GenerateConfig(), retry=fast_retry))
    assert failed.status == Status.ERROR and ok.status == Status.OK
    for text in (failed.model_dump_json(), ok.model_dump_json(), repr(model), str(vars(model))):
        assert secret not in text


def test_model_spec_and_registry(fake_server):
    model = get_model(f"openai-compatible/org/model-7b@{fake_server.url}/v1/", max_concurrency=3)
    assert isinstance(model, OpenAICompatibleModel)
    assert model.api_model == "org/model-7b" and model.base_url == f"{fake_server.url}/v1"
    assert model.max_concurrency == 3
    assert model.connection_key == f"openai-compatible:{fake_server.url}/v1"
    with pytest.raises(PermanentError, match="<model>@<base_url>"):
        OpenAICompatibleModel("model-without-url")


def test_extra_body_and_max_tokens_param(fake_server):
    model = model_for(fake_server, extra_body={"top_k": 20}, max_tokens_param="max_completion_tokens")
    out = generate(model, GenerateConfig(max_tokens=12))
    body = fake_server.model_requests()[0].body
    assert body["top_k"] == 20 and body["max_completion_tokens"] == 12 and "max_tokens" not in body
    assert out.effective_params["top_k"] == 20


def test_strict_schema_transform_is_recursive_and_copies():
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "object", "properties": {"b": {"type": "integer"}}},
            "c": {"type": "array", "items": {"type": "object", "properties": {"d": {"type": "string"}}}},
        },
    }
    strict = strict_json_schema(schema)
    assert strict["required"] == ["a", "c"]
    assert strict["properties"]["a"]["required"] == ["b"]
    assert strict["properties"]["c"]["items"]["additionalProperties"] is False
    assert "required" not in schema  # input untouched


def test_reused_across_event_loops(fake_server):
    model = model_for(fake_server)
    assert generate(model).status == Status.OK
    assert generate(model).status == Status.OK


# -- keys go only to the endpoint they belong to -------------------------------------------------------
def test_openai_api_key_is_not_sent_to_a_custom_endpoint(fake_server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-official-openai-key-0001")
    monkeypatch.setenv("MY_VLLM_KEY", "sk-vllm-key-0002")
    generate(model_for(fake_server))  # no api_key_env: no key at all
    generate(model_for(fake_server, api_key_env="MY_VLLM_KEY"))
    auth = [r.headers["authorization"] for r in fake_server.model_requests()]
    assert auth == ["Bearer EMPTY", "Bearer sk-vllm-key-0002"]


def test_a_named_key_variable_must_be_set(fake_server, monkeypatch):
    monkeypatch.delenv("MY_UNSET_KEY", raising=False)
    with pytest.raises(PermanentError, match="MY_UNSET_KEY"):
        model_for(fake_server, api_key_env="MY_UNSET_KEY")


def test_openai_provider_keeps_its_key_for_api_openai_com(fake_server, monkeypatch):
    from rhetorica.models.providers.openai_provider import OPENAI_BASE_URL, OpenAIModel

    monkeypatch.setenv("OPENAI_API_KEY", "sk-official-openai-key-0003")
    official = OpenAIModel("gpt-4.1-mini")
    assert official.base_url == OPENAI_BASE_URL and official._key.reveal() == "sk-official-openai-key-0003"
    with pytest.raises(AuthenticationError, match="api_key_env"):
        OpenAIModel("gpt-4.1-mini", base_url=f"{fake_server.url}/v1")
    # said explicitly, the same variable may go to a proxy
    generate(OpenAIModel("gpt-4.1-mini", base_url=f"{fake_server.url}/v1", api_key_env="OPENAI_API_KEY"))
    assert fake_server.model_requests()[0].headers["authorization"] == "Bearer sk-official-openai-key-0003"


# -- structured-output negotiation ---------------------------------------------------------------------
@pytest.fixture(autouse=True)
def _forget_negotiated_modes(monkeypatch):
    from rhetorica.models import negotiation

    monkeypatch.setattr(negotiation, "PROCESS", negotiation.Negotiation())


def formats_sent(server) -> list[str | None]:
    return [(r.body.get("response_format") or {}).get("type") for r in server.model_requests()]


def test_server_without_json_schema_gets_json_object_with_schema_and_it_is_remembered(fake_server):
    fake_server.reject_formats = ("json_schema",)  # llama-cpp-python's server: 500 "Input should be ..."
    model = model_for(fake_server)
    config = GenerateConfig(json_schema=SCHEMA, max_tokens=50)
    outs = [generate(model, config.model_copy(update={"seed": i})) for i in range(3)]
    assert [o.status for o in outs] == [Status.OK] * 3
    assert all(1 <= json.loads(o.text)["overall"] <= 10 for o in outs)
    # one rejected json_schema request, then json_object for this and every later call: no retries
    assert formats_sent(fake_server) == ["json_schema", "json_object", "json_object", "json_object"]
    second = fake_server.model_requests()[1].body
    assert second["response_format"]["schema"] == SCHEMA
    assert "JSON Schema:" in second["messages"][0]["content"]
    assert [o.effective_params["structured_output"] for o in outs] == ["json_object"] * 3
    # a new model object on the same endpoint starts from what the endpoint accepted
    generate(model_for(fake_server), config)
    assert formats_sent(fake_server)[-1] == "json_object"


def test_server_rejecting_both_formats_falls_back_to_prompt_only(fake_server):
    fake_server.reject_formats = ("json_schema", "json_object")
    out = generate(model_for(fake_server), GenerateConfig(json_schema=SCHEMA))
    assert out.status == Status.OK and set(json.loads(out.text)) == {"overall", "summary"}
    assert formats_sent(fake_server) == ["json_schema", "json_object", None]
    last = fake_server.model_requests()[-1].body
    assert last["messages"][0]["role"] == "system" and "JSON Schema:" in last["messages"][0]["content"]
    assert out.effective_params["structured_output"] == "prompt"


def test_pinned_mode_is_sent_and_never_changed(fake_server):
    out = generate(model_for(fake_server, structured_output="json_object"), GenerateConfig(json_schema=SCHEMA))
    assert out.status == Status.OK and formats_sent(fake_server) == ["json_object"]
    fake_server.reject_formats = ("json_schema",)
    with pytest.raises(InvalidRequestError, match="Input should be 'text' or 'json_object'"):
        generate(model_for(fake_server, structured_output="json_schema"), GenerateConfig(json_schema=SCHEMA))
    assert formats_sent(fake_server) == ["json_object", "json_schema"]  # no fallback, no retry


def test_invalid_request_is_never_retried(fake_server, fast_retry):
    fake_server.script = ["validation_500"] * 3
    out = asyncio.run(call_model(model_for(fake_server), MESSAGES, GenerateConfig(), retry=fast_retry))
    assert out.status == Status.ERROR and "InvalidRequestError" in out.error
    assert len(fake_server.model_requests()) == 1  # the transient 500 of before was retried 4 times


def test_unset_sampling_is_not_sent_and_sent_values_are_recorded(fake_server):
    out = generate(model_for(fake_server), GenerateConfig(max_tokens=20))
    body = fake_server.model_requests()[0].body
    assert "temperature" not in body and "top_p" not in body and "seed" not in body
    assert "temperature" not in out.effective_params and out.effective_params["max_tokens"] == 20
    out = generate(model_for(fake_server), GenerateConfig(temperature=0.7, top_p=0.9))
    body = fake_server.model_requests()[1].body
    assert (body["temperature"], body["top_p"]) == (0.7, 0.9)
    assert (out.effective_params["temperature"], out.effective_params["top_p"]) == (0.7, 0.9)


def test_vllm_context_overflow_is_permanent_and_said_so(fake_server, fast_retry):
    fake_server.script = ["vllm_context_overflow"] * 3
    out = asyncio.run(call_model(model_for(fake_server), MESSAGES, GenerateConfig(), retry=fast_retry))
    assert out.status == Status.ERROR and out.error.startswith("ContextOverflowError: context overflow")
    assert "longer than the maximum model length of 8192" in out.error
    assert len(fake_server.model_requests()) == 1  # not retried


def test_extra_body_response_format_is_logged_as_sent_with_the_schema_instruction(fake_server, tmp_path):
    from rhetorica.models.call import CallContext
    from rhetorica.models.store_log import StoreCallLog
    from rhetorica.store.db import Store

    store = Store.in_dir(tmp_path / "run")
    model = model_for(fake_server, extra_body={"response_format": {"type": "json_object"}})
    out = asyncio.run(call_model(model, MESSAGES, GenerateConfig(json_schema=SCHEMA),
                                 context=CallContext(log=StoreCallLog(store))))
    params = [json.loads(r[0]) for r in store.rows("SELECT params_json FROM model_calls")]
    store.close()
    assert out.status == Status.OK
    assert formats_sent(fake_server) == ["json_object"]  # no json_schema probe: the study pinned the format
    assert "JSON Schema:" in fake_server.model_requests()[0].body["messages"][0]["content"]
    assert [p["structured_output"] for p in params] == ["json_object"]  # what the server received


def test_a_pinned_response_format_schema_is_logged_by_name_and_hash(fake_server, tmp_path):
    """A pinned ``extra_body.response_format`` of type json_schema: the call log keeps its name and the
    SHA-256 of its schema's canonical JSON (sorted keys, no spaces, in a one-element list as
    rhetorica.hashing hashes parts), beside the mode."""
    import hashlib

    from rhetorica.models.call import CallContext
    from rhetorica.models.store_log import StoreCallLog
    from rhetorica.store.db import Store

    pinned = {"type": "object", "properties": {"verdict": {"type": "string"}}, "required": ["verdict"]}
    store = Store.in_dir(tmp_path / "run")
    model = model_for(fake_server, extra_body={"response_format": {
        "type": "json_schema", "json_schema": {"name": "house_review", "schema": pinned}}})
    asyncio.run(call_model(model, MESSAGES, GenerateConfig(json_schema=SCHEMA),
                           context=CallContext(log=StoreCallLog(store))))
    asyncio.run(call_model(model_for(fake_server), MESSAGES, GenerateConfig(),  # no schema, no format
                           context=CallContext(log=StoreCallLog(store))))
    params = [json.loads(r[0]) for r in store.rows("SELECT params_json FROM model_calls ORDER BY call_id")]
    store.close()
    digest = hashlib.sha256(json.dumps([pinned], sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    assert {k: params[0].get(k) for k in ("structured_output", "response_format_name",
                                           "response_format_schema_sha256")} == {
        "structured_output": "json_schema", "response_format_name": "house_review",
        "response_format_schema_sha256": digest}
    assert not any(k.startswith("response_format") for k in params[1])


def test_extra_body_overriding_a_negotiated_setting_is_warned_about():
    warnings = OpenAICompatibleModel.option_warnings({"extra_body": {"response_format": {"type": "json_object"},
                                                                     "top_k": 5, "temperature": 0.2}})
    assert len(warnings) == 2
    assert warnings[0].startswith("options.extra_body.response_format overrides the structured-output mode")
    assert warnings[1].startswith("options.extra_body.temperature overrides the temperature")
    assert OpenAICompatibleModel.option_warnings({"extra_body": {"top_k": 5}}) == []


def test_top_logprobs_are_requested_and_parsed(fake_server):
    content = [{"token": '{"overall": ', "logprob": 0.0, "top_logprobs": []},
               {"token": "7", "logprob": -0.25, "top_logprobs": [{"token": "7", "logprob": -0.25},
                                                                  {"token": "8", "logprob": -1.5}]},
               {"token": "}", "logprob": 0.0, "top_logprobs": [{"token": "}", "logprob": 0.0}]}]
    fake_server.script = [{"text": '{"overall": 7}', "logprobs": content}, {"text": '{"overall": 7}', "logprobs": content}]
    model = model_for(fake_server)
    out = generate(model, GenerateConfig(top_logprobs=5))
    plain = generate(model, GenerateConfig())
    sent, plain_sent = (r.body for r in fake_server.model_requests("openai"))
    assert (sent["logprobs"], sent["top_logprobs"]) == (True, 5)
    assert "logprobs" not in plain_sent and "top_logprobs" not in plain_sent and plain.logprobs is None
    assert [(t.token, t.logprob, t.top) for t in out.logprobs] == [
        ('{"overall": ', 0.0, []), ("7", -0.25, [("7", -0.25), ("8", -1.5)]), ("}", 0.0, [("}", 0.0)])]


def test_reused_tokens_from_llama_cpp_timings_when_usage_has_none() -> None:
    """llama.cpp's server reports what it took from the slot's cache in ``timings.cache_n`` (and what
    it evaluated in ``prompt_n``); a usage block's own count wins where there is one."""
    from rhetorica.models.providers.openai_compatible import _usage

    assert _usage({"usage": {"prompt_tokens": 1570, "completion_tokens": 40},
                   "timings": {"prompt_n": 3, "cache_n": 1567}}).cached_tokens == 1567
    assert _usage({"usage": {"prompt_tokens": 900, "prompt_tokens_details": {"cached_tokens": 512}},
                   "timings": {"cache_n": 7}}).cached_tokens == 512
    assert _usage({"usage": {"prompt_tokens": 10}, "timings": None}).cached_tokens == 0
    assert _usage({"usage": {"prompt_tokens": 10}, "timings": {"cache_n": "many"}}).cached_tokens == 0
