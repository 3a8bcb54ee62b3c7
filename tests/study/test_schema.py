"""The study file's JSON Schema: reviewers and rewriters as discriminated unions over the registered kinds."""

from __future__ import annotations

from rhetorica.registry import evaluators, rewriters
from rhetorica.study.schema import study_schema


def test_every_registered_kind_is_a_variant_keyed_by_its_kind() -> None:
    schema = study_schema()
    reviewers = schema["properties"]["reviewers"]["items"]
    rewriter_items = schema["properties"]["rewriters"]["items"]
    assert reviewers["discriminator"]["propertyName"] == "kind"
    assert set(reviewers["discriminator"]["mapping"]) == set(evaluators.names())
    assert set(rewriter_items["discriminator"]["mapping"]) == set(rewriters.names())
    assert reviewers["discriminator"]["mapping"]["control"] == "#/$defs/ReviewerSpec_control"
    assert schema["$defs"]["RewriterSpec_rule_based"]["properties"]["kind"]["const"] == "rule-based"
    # only llm is the default kind (a configuration may leave it out)
    assert schema["$defs"]["ReviewerSpec_llm"]["properties"]["kind"]["default"] == "llm"
    assert "default" not in schema["$defs"]["ReviewerSpec_judge"]["properties"]["kind"]


def test_each_variant_documents_its_kinds_options() -> None:
    defs = study_schema()["$defs"]
    control = defs["ReviewerSpec_control"]["properties"]["options"]["$ref"].rsplit("/", 1)[1]
    # the control's settings without its name (the study sets it from the configuration's name)
    assert set(defs[control]["properties"]) == {"noise_sd", "bias_arm", "preference_ratio", "integer_scores",
                                                "failure_rate"}
    assert defs[control]["properties"]["noise_sd"] == {"default": 0.5, "minimum": 0, "title": "Noise Sd",
                                                       "type": "number"}
    judge = defs["ReviewerSpec_judge"]["properties"]["options"]["$ref"].rsplit("/", 1)[1]
    assert defs[judge]["required"] == ["family"]
    assert defs[judge]["properties"]["packing"]["enum"] == ["family", "metric"]
    command = defs["ReviewerSpec_command"]["properties"]["options"]["$ref"].rsplit("/", 1)[1]
    assert "args" in defs[command]["required"]


def test_model_options_and_conditions_name_the_registered_providers_and_conditions() -> None:
    defs = study_schema()["$defs"]
    # each provider with the options its class takes (mock: latency_s, max_concurrency, script)
    assert "; mock: latency_s, max_concurrency, script; " in defs["ModelOptions"]["description"]
    conditions = defs["RewriterSpec_llm"]["properties"]["conditions"]["description"]
    assert conditions.startswith("registered conditions: attack:+, attack:-, complexity:+, complexity:-, confidence:+, ")
    assert ", joint, " in conditions
    assert conditions.endswith("`|` joins several into one (`rhetorica list --kind condition`)")


def test_the_science_core_kinds_document_their_options() -> None:
    defs = study_schema()["$defs"]

    def options(kind: str) -> dict:
        return defs[defs[f"ReviewerSpec_{kind}"]["properties"]["options"]["$ref"].rsplit("/", 1)[1]]["properties"]

    shared = {"extractor", "model_id", "extractor_id", "review", "extract", "require_valid_core"}
    scicore, reconstruct = options("scicore"), options("reconstruct")
    assert set(scicore) == shared | {"full_protocol", "core_protocol"}
    assert set(reconstruct) == shared | {"protocol", "rebuild"}
    assert scicore["full_protocol"]["default"] == "strict-iclr" and scicore["core_protocol"]["default"] == "science-record"
    assert reconstruct["protocol"]["default"] == "standard" and scicore["require_valid_core"]["default"] is True
    extract = defs[scicore["extract"]["$ref"].rsplit("/", 1)[1]]["properties"]
    assert extract["support_threshold"]["maximum"] == 1.0 and extract["max_tokens"]["exclusiveMinimum"] == 0
