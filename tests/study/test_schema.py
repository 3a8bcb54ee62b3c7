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
    assert conditions.startswith("registered conditions: complexity:+, complexity:-, confidence:+, ")
    assert ", joint, " in conditions
    assert conditions.endswith("`|` joins several into one (`rhetorica list --kind condition`)")
