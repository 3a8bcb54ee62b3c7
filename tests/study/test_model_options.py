"""Provider and control options checked at load, sampling sent only as set, and configurations
stopped by a configuration error or by malformed reviews."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rhetorica.cli.app import app
from rhetorica.models.providers.mock import MockModel
from rhetorica.study.config import ConfigError, StudyConfig, parse_study
from rhetorica.study.runner import MALFORMED_STOP_MIN, StudyRunner

from .helpers import study_dict, write_study

VALID = json.dumps({"summary": "s", "strengths": ["a"], "weaknesses": ["b"], "suggestions": [], "overall": 6,
                    "soundness": 3, "significance": 3, "evidence": 3, "clarity": 3, "confidence": 3})


def one_reviewer(shared_data: Path, tmp_path: Path, reviewer: dict, **overrides) -> dict:
    return study_dict(shared_data, tmp_path / "run", rewriters=[], reviewers=[reviewer], **overrides)


@pytest.mark.parametrize(
    ("reviewer", "message"),
    [
        ({"name": "r", "model": "openai-compatible/m@http://127.0.0.1:9/v1", "options": {"timeout": 5}},
         "study.yaml: reviewers[0].options.timeout: unknown option for provider openai-compatible (known: "
         "api_key_env, extra_body, max_concurrency, max_tokens_param, requests_per_minute, strict_schema, "
         "structured_output, timeout_s, tokens_per_minute)"),
        ({"name": "c", "kind": "control", "options": {"noise_sdd": 0.5}},
         "study.yaml: reviewers[0].options.noise_sdd: unknown option for control reviewers (known: bias_arm, "
         "failure_rate, integer_scores, noise_sd, preference_ratio)"),
        ({"name": "r", "model": "mock/x", "options": {"requests_per_minute": 0}},
         "study.yaml: reviewers[0].options.requests_per_minute: Input should be greater than 0"),
        ({"name": "r", "model": "mock/x", "options": {"thinking_budget": 100}},
         "study.yaml: reviewers[0].options.thinking_budget: unknown option for provider mock (known: latency_s, "
         "max_concurrency, script)"),
    ],
)
def test_unknown_or_bad_options_are_named_at_load(reviewer, message, shared_data, tmp_path):
    with pytest.raises(ConfigError) as info:
        parse_study(one_reviewer(shared_data, tmp_path, reviewer), source="study.yaml")
    assert str(info.value) == message


def test_rewriter_options_are_checked_too(shared_data, tmp_path):
    spec = study_dict(shared_data, tmp_path / "run", rewriters=[
        {"name": "w", "model": "mock/w", "conditions": ["confidence:+"], "options": {"top_k": 3}}])
    with pytest.raises(ConfigError, match=r"rewriters\[0\]\.options\.top_k: unknown option for provider mock"):
        parse_study(spec, source="s.yaml")


def test_run_exits_2_naming_the_key(shared_data, tmp_path):
    reviewer = {"name": "r", "model": "openai-compatible/m@http://127.0.0.1:9/v1", "options": {"timeout": 5}}
    path = write_study(tmp_path / "study.yaml", one_reviewer(shared_data, tmp_path, reviewer))
    result = CliRunner().invoke(app, ["run", str(path)])
    assert result.exit_code == 2
    assert "reviewers[0].options.timeout: unknown option for provider openai-compatible" in result.output


def test_limit_options_are_typed_in_the_schema():
    options = StudyConfig.model_json_schema()["$defs"]["ModelOptions"]["properties"]
    for name in ("requests_per_minute", "tokens_per_minute"):
        assert {"exclusiveMinimum": 0, "type": "number"} in options[name]["anyOf"]
    assert {"minimum": 1, "type": "integer"} in options["max_concurrency"]["anyOf"]
    assert {"exclusiveMinimum": 0, "type": "number"} in options["timeout_s"]["anyOf"]
    assert {"enum": ["auto", "json_schema", "json_object", "prompt", "tool"], "type": "string"} in \
        options["structured_output"]["anyOf"]


def test_unset_options_keep_unit_keys_stable(shared_data, tmp_path):
    """Only the options a study sets are part of a configuration (old run directories still match)."""
    config = parse_study(one_reviewer(shared_data, tmp_path, {"name": "r", "model": "mock/x",
                                                              "options": {"max_concurrency": 2}}))
    assert config.reviewers[0].model_dump()["options"] == {"max_concurrency": 2}
    assert parse_study(one_reviewer(shared_data, tmp_path, {"name": "r", "model": "mock/x"})
                       ).reviewers[0].model_dump()["options"] == {}


def run_with(config: StudyConfig, tmp_path: Path, models: dict[str, MockModel]):
    runner = StudyRunner(config, tmp_path, model_factory=lambda model_id, options: models[model_id])
    summary = asyncio.run(runner.run())
    return runner, summary


def test_rewriter_without_sampling_sends_no_temperature(shared_data, tmp_path):
    spec = study_dict(shared_data, tmp_path / "run", reviewers=[{"name": "r", "model": "mock/r"}], replicates=1,
                      rewriters=[{"name": "w", "model": "mock/w", "conditions": ["proficiency:+"]}])
    models = {"mock/w": MockModel(model="w"), "mock/r": MockModel(model="r")}
    runner, _ = run_with(parse_study(spec), tmp_path, models)
    assert models["mock/w"].calls and all(config.temperature is None for _, config in models["mock/w"].calls)
    logged = [json.loads(r[0]) for r in runner.store.rows(
        "SELECT params_json FROM model_calls WHERE model = 'w' AND cache_hit = 0")]
    assert logged and all("temperature" not in p and "max_tokens" in p for p in logged)
    runner.store.close()


def test_model_not_found_stops_the_configuration_and_is_said_once(shared_data, tmp_path):
    spec = study_dict(shared_data, tmp_path / "run", rewriters=[], replicates=3, concurrency=1,
                      reviewers=[{"name": "gone", "model": "mock/gone"}, {"name": "fine", "model": "mock/fine"}])
    models = {"mock/gone": MockModel(model="gone", script=[{"error": "not_found"}] * 9),
              "mock/fine": MockModel(model="fine")}
    runner, summary = run_with(parse_study(spec), tmp_path, models)
    assert len(models["mock/gone"].calls) == 1  # 9 units, one call: the rest were not run
    assert len(models["mock/fine"].calls) == 9
    assert list(summary.stopped_configurations) == ["gone"]
    assert "ModelNotFoundError" in summary.stopped_configurations["gone"]
    said = [p for p in summary.problems if p[1] == "gone"]
    assert len(said) == 1 and "remaining units were not run" in said[0][2]
    statuses = runner.store.rows("SELECT reviewer, status, COUNT(*) FROM assessments GROUP BY reviewer, status")
    assert sorted(tuple(r) for r in statuses) == [("fine", "ok", 9), ("gone", "error", 1)]
    runner.store.close()


def test_an_invalid_request_does_not_stop_the_configuration(shared_data, tmp_path):
    spec = study_dict(shared_data, tmp_path / "run", rewriters=[], replicates=1, concurrency=1,
                      reviewers=[{"name": "r", "model": "mock/r"}])
    models = {"mock/r": MockModel(model="r", script=[{"error": "invalid_request"}, VALID, VALID])}
    _, summary = run_with(parse_study(spec), tmp_path, models)
    assert summary.stopped_configurations == {} and dict(summary.statuses) == {"error": 1, "ok": 2}


def test_all_malformed_reviews_stop_the_configuration_after_the_minimum(shared_data, tmp_path):
    spec = study_dict(shared_data, tmp_path / "run", rewriters=[], replicates=4, concurrency=1,
                      reviewers=[{"name": "prose", "model": "mock/prose"}])
    models = {"mock/prose": MockModel(model="prose", script=["I liked this paper a lot."] * 40)}
    runner, summary = run_with(parse_study(spec), tmp_path, models)
    assert dict(summary.statuses) == {"malformed": MALFORMED_STOP_MIN} and MALFORMED_STOP_MIN == 5
    assert len(models["mock/prose"].calls) == 2 * MALFORMED_STOP_MIN  # each with its repair attempt
    assert "all 5 reviews so far are malformed" in summary.stopped_configurations["prose"]
    assert summary.units_total == 12 and summary.units_run == 5
    runner.store.close()


def test_a_malformed_review_among_valid_ones_stops_nothing(shared_data, tmp_path):
    spec = study_dict(shared_data, tmp_path / "run", rewriters=[], replicates=4, concurrency=1,
                      reviewers=[{"name": "r", "model": "mock/r"}])
    script = ["prose", "prose", VALID] + [VALID] * 11
    models = {"mock/r": MockModel(model="r", script=script)}
    _, summary = run_with(parse_study(spec), tmp_path, models)
    assert summary.stopped_configurations == {} and summary.units_run == 12
