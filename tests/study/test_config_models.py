"""The ``models:`` section: a logical model declared once with its endpoints, named by reviewers
and rewriters; bad entries named at load; endpoints never part of a unit key."""

from __future__ import annotations

import asyncio
import copy
import json

import pytest

from rhetorica.status import Status
from rhetorica.study import planner
from rhetorica.study.config import ConfigError, StudyConfig, parse_study
from rhetorica.study.runner import StudyRunner
from tests.models.fake_servers import FakeServer

from .helpers import study_dict

QWEN = {
    "provider": "openai-compatible",
    "model": "qwen2.5-7b",
    "options": {"extra_body": {"top_k": 20}},
    "endpoints": [{"base_url": "http://user:pa55word@gpu-a:8000/v1"},
                  {"base_url": "http://gpu-b:8000/v1", "max_concurrency": 2}],
}


def declared(shared_data, tmp_path, **model_changes) -> dict:
    spec = study_dict(shared_data, tmp_path / "run", rewriters=[], replicates=1,
                      reviewers=[{"name": "r", "model": "qwen"}])
    spec["models"] = {"qwen": copy.deepcopy(QWEN) | model_changes}
    return spec


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s["reviewers"][0].update(model="qwn"),
         "reviewers[0].model: 'qwn' is not a model of the models: section (qwen) nor an inline id"),
        (lambda s: s["reviewers"][0].update(options={"timeout_s": 3}),
         "reviewers[0].options: reviewer 'r' uses the declared model 'qwen'; set options under models.qwen.options"),
        (lambda s: s["models"]["qwen"]["endpoints"][1].pop("base_url"),
         "models.qwen.endpoints[1].base_url: required for provider openai-compatible"),
        (lambda s: s["models"]["qwen"]["options"].update(api_key_env="K"),
         "models.qwen.options.api_key_env: set per endpoint, under endpoints"),
        (lambda s: s["models"]["qwen"].update(provider="nope"),
         "models.qwen.provider: unknown provider 'nope'"),
        (lambda s: s["models"]["qwen"]["options"].update(top_k=1),
         "models.qwen.options.top_k: unknown option for provider openai-compatible"),
        (lambda s: s["models"]["qwen"]["endpoints"][0].update(colour=1),
         "models.qwen.endpoints[0].colour: unknown key"),
        (lambda s: s["models"].update({"mock-model": {"provider": "mock", "model": "m",
                                                      "endpoints": [{"base_url": "http://x"}]}}),
         "models.mock-model.endpoints[0].base_url: provider mock takes no base_url"),
        (lambda s: s["models"]["qwen"]["endpoints"][1].update(base_url="ftp://host/v1"),
         "models.qwen.endpoints[1].base_url: 'ftp://host/v1' is not an http:// or https:// URL with a host"),
        (lambda s: s["models"]["qwen"]["endpoints"][1].update(base_url="not a url"),
         "models.qwen.endpoints[1].base_url: 'not a url' is not an http:// or https:// URL with a host"),
        (lambda s: s["models"]["qwen"]["endpoints"][0].update(api_key_env="GPU_A_KEY"),
         "models.qwen.endpoints[0]: base_url 'http://***@gpu-a:8000/v1' carries credentials in its URL and "
         "names api_key_env 'GPU_A_KEY': give one"),
        (lambda s: s["reviewers"].append({"name": "h", "kind": "http", "options": {
            "url": "http://frank:pw4frank@127.0.0.1:9/ok?token=t0k", "api_key_env": "HTTP_KEY"}}),
         "reviewers[1].options: url 'http://***@127.0.0.1:9/ok?token=***' carries credentials in its URL and "
         "names api_key_env 'HTTP_KEY': give one"),
        (lambda s: s["models"].update({"a/b": {"provider": "mock", "model": "m"}}),
         "models: model name 'a/b' may hold only letters"),
    ],
)
def test_bad_model_entries_are_named_at_load(change, message, shared_data, tmp_path):
    spec = declared(shared_data, tmp_path)
    change(spec)
    with pytest.raises(ConfigError) as info:
        parse_study(spec, source="study.yaml")
    assert f"study.yaml: {message}" in str(info.value)


def test_endpoints_are_not_part_of_the_unit_keys_but_options_are(shared_data, tmp_path):
    def key(spec):
        return planner.reviewer_spec_hash(parse_study(spec).reviewers[0])

    base = key(declared(shared_data, tmp_path))
    moved = key(declared(shared_data, tmp_path, endpoints=[{"base_url": "http://elsewhere:9000/v1",
                                                            "api_key_env": "OTHER", "requests_per_minute": 60}]))
    renamed = declared(shared_data, tmp_path)
    renamed["models"] = {"qwen-dp": renamed["models"].pop("qwen")}
    renamed["reviewers"][0]["model"] = "qwen-dp"
    retuned = key(declared(shared_data, tmp_path, options={"extra_body": {"top_k": 40}}))
    assert moved == base
    assert key(renamed) == base  # the name is a label; what answers is the same
    assert retuned != base


def test_inline_reviewers_keep_their_unit_keys(shared_data, tmp_path):
    spec = study_dict(shared_data, tmp_path / "run", rewriters=[], reviewers=[
        {"name": "r", "model": "openai-compatible/m@http://127.0.0.1:9/v1", "options": {"max_concurrency": 2}}])
    reviewer = parse_study(spec).reviewers[0]
    assert reviewer.declared_model is None
    # what the key hashed before (cost_per_call_usd, a price for the estimate, came later and changes no review)
    assert reviewer.output_spec() == reviewer.model_dump(exclude={"name", "cost_per_call_usd"})


def test_the_study_copy_redacts_endpoint_credentials(shared_data, tmp_path):
    config = parse_study(declared(shared_data, tmp_path))
    shown = config.model_dump_json()
    assert "pa55word" not in shown and "http://***@gpu-a:8000/v1" in shown
    assert config.models["qwen"].endpoints[0].settings()["base_url"] == "http://user:pa55word@gpu-a:8000/v1"
    assert config.reviewers[0].served_model == "openai-compatible/qwen2.5-7b"
    assert config.reviewers[0].model_id == "qwen"


def test_the_study_copy_and_the_unit_key_of_an_http_reviewer_hold_no_url_credentials(shared_data, tmp_path):
    url = "http://frank:pw4frank@127.0.0.1:9/ok?token=qs-secret-123"
    spec = study_dict(shared_data, tmp_path / "run", rewriters=[], reviewers=[
        {"name": "h", "kind": "http", "options": {"url": url}}])
    config = parse_study(spec)
    shown = config.model_dump_json()
    assert "pw4frank" not in shown and "qs-secret-123" not in shown
    assert json.loads(shown)["reviewers"][0]["options"]["url"] == "http://***@127.0.0.1:9/ok?token=***"
    assert config.reviewers[0].options.as_kwargs()["url"] == url  # the request still goes to the real URL
    from rhetorica.registry import evaluators

    system = evaluators.get("http")("h", url=url).system_spec()["system"]
    assert system == "http://***@127.0.0.1:9/ok"


def test_the_schema_describes_models_and_endpoints():
    schema = StudyConfig.model_json_schema()
    assert set(schema["$defs"]["ModelSpec"]["properties"]) == {"provider", "model", "options", "endpoints",
                                                               "cooldown_s", "prompt_cache", "cache_slots"}
    assert "api_key_env" in schema["$defs"]["EndpointSpec"]["properties"]


def test_a_study_reviews_through_both_replicas_of_a_declared_model(shared_data, tmp_path, monkeypatch):
    monkeypatch.setenv("REPLICA_A_KEY", "sk-replica-a-000001")
    with FakeServer(latency_s=0.2) as a, FakeServer(latency_s=0.2) as b:
        spec = declared(shared_data, tmp_path, options={}, endpoints=[
            {"base_url": f"{a.url}/v1", "api_key_env": "REPLICA_A_KEY"}, {"base_url": f"{b.url}/v1"}])
        spec["concurrency"] = 4
        runner = StudyRunner(parse_study(spec), tmp_path)
        summary = asyncio.run(runner.run())
        rows = runner.store.rows("SELECT status, model FROM assessments")
        logged = runner.store.rows("SELECT DISTINCT provider, model FROM model_calls")
        runner.store.close()
        sent_a = {r.headers["authorization"] for r in a.model_requests()}
        sent_b = {r.headers["authorization"] for r in b.model_requests()}
    assert summary.model_calls == 3
    assert sorted(tuple(r) for r in rows) == [(str(Status.OK), "qwen")] * 3
    assert [tuple(r) for r in logged] == [("openai-compatible", "qwen2.5-7b")]
    # 3 reviews in flight at once: least in flight sends them A, B, A
    assert (len(a.model_requests()), len(b.model_requests())) == (2, 1)
    assert sent_a == {"Bearer sk-replica-a-000001"} and sent_b == {"Bearer EMPTY"}


def test_a_rewriter_kind_with_its_own_options_may_name_a_declared_model(shared_data, tmp_path):
    """An ``attack`` rewriter's ``options`` are the search's (targets, rounds ...), not the provider's:
    they stand beside a declared model, whose provider options stay under ``models:``; an ``llm``
    rewriter's options are the provider's and are still refused beside a declared model."""
    spec = study_dict(shared_data, tmp_path / "run", replicates=1,
                      reviewers=[{"name": "r", "model": "mock/reviewer"}],
                      rewriters=[{"name": "attacker", "kind": "attack", "model": "proposer",
                                  "conditions": ["attack:+"], "options": {"targets": ["r"], "rounds": 2}}])
    spec["models"] = {"proposer": {"provider": "mock", "model": "p"}}
    config = parse_study(spec)
    assert config.rewriters[0]._declared is config.models["proposer"]
    assert config.rewriters[0].options.as_kwargs() == {"targets": ["r"], "rounds": 2}
    spec["rewriters"] = [{"name": "echo", "kind": "llm", "model": "proposer", "conditions": ["proficiency:+"],
                          "options": {"latency_s": 0}}]
    with pytest.raises(ConfigError) as info:
        parse_study(spec)
    assert ("rewriters[0].options: rewriter 'echo' uses the declared model 'proposer'; "
            "set options under models.proposer.options") in str(info.value)


def test_a_provider_option_of_the_wrong_type_is_refused_at_load(shared_data, tmp_path):
    """An untyped provider option (not one of ModelOptions' fields) is checked against the provider's
    annotation when the study loads, not left to fail inside every call."""
    spec = study_dict(shared_data, tmp_path / "run", rewriters=[],
                      reviewers=[{"name": "r", "model": "mock/r", "options": {"script": "not a list"}}])
    with pytest.raises(ConfigError) as info:
        parse_study(spec)
    assert str(info.value) == ("study: reviewers[0].options.script: Input should be a valid list "
                               "(provider mock takes list[str | dict[str, Any]] | None)")
    spec["reviewers"] = []
    spec["models"] = {"m": {"provider": "mock", "model": "m", "options": {"latency_s": "slow"}}}
    spec["rewriters"] = [{"name": "echo", "kind": "llm", "model": "m", "conditions": ["proficiency:+"]}]
    with pytest.raises(ConfigError) as info:
        parse_study(spec)
    assert ("models.m.options.latency_s: Input should be a valid number, unable to parse string as a number "
            "(provider mock takes float)") in str(info.value)
