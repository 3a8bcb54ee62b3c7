"""Science-core extraction with the scripted mock model: parse, repair, refusal, failed checks."""

from __future__ import annotations

import asyncio
import json

from rhetorica.models.providers.mock import MockModel
from rhetorica.reviewers.scicore.core import core_schema
from rhetorica.reviewers.scicore.extract import CoreResult, ExtractOptions, extract_core
from rhetorica.reviewers.scicore.instructions import instruction
from rhetorica.status import Status
from tests.reviewers.scicore.helpers import CORE, DOC, core_json


def run(script: list, **options) -> tuple[CoreResult, MockModel]:
    model = MockModel(script=script)
    return asyncio.run(extract_core(DOC, model, None, options=ExtractOptions(**options))), model


def test_a_valid_core_is_ok_and_the_call_carries_instruction_manuscript_and_schema() -> None:
    result, model = run([core_json()])
    assert result.status == Status.OK and result.reason is None
    assert result.core.model_dump() == CORE and result.checks.ok
    assert result.source_hash == DOC.content_hash
    (messages, config), = model.calls
    assert [m.role for m in messages] == ["system", "user"]
    assert messages[0].content == instruction("extract_core_v1") and messages[1].content == DOC.to_markdown()
    assert config.json_schema == core_schema() and config.seed == 0 and config.max_tokens == 3000
    assert set(core_schema()["required"]) == set(CORE)


def test_the_core_schema_declares_no_string_length() -> None:
    # a maxLength of this size makes llama.cpp's grammar fail to build (a segfault in the embedded
    # provider); lengths are checked on the answer instead
    schema = core_schema()
    assert schema["properties"]["problem"] == {"type": "string"}
    assert schema["properties"]["claims"] == {"type": "array", "items": {"type": "string"}, "maxItems": 25,
                                              "minItems": 1}
    assert schema["properties"]["limitations"] == {"type": "array", "items": {"type": "string"}, "maxItems": 25}
    result, _ = run([core_json(limitations=["x" * 1501]), core_json()])
    assert result.status == Status.OK  # the overlong statement was sent back for repair


def test_the_final_object_is_read_not_a_draft() -> None:
    draft = core_json(claims=["The manuscript states it beats everything by 40%."])
    result, _ = run([f"<think>{draft}</think>\nDraft: {draft}\nFinal:\n{core_json()}"])
    assert result.status == Status.OK and result.core.claims == CORE["claims"]


def test_an_invalid_core_gets_one_repair() -> None:
    result, model = run(['{"problem": "p"}', core_json()])
    assert result.status == Status.OK and len(model.calls) == 2
    repair = model.calls[1][0][-1].content
    assert repair == "That answer is not valid (claims: Field required). Reply with only the corrected JSON object."


def test_invalid_twice_is_malformed_with_both_reasons() -> None:
    result, model = run(["no json here", json.dumps(CORE | {"novelty": "high"})])
    assert result.status == Status.MALFORMED and result.core is None and len(model.calls) == 2
    assert result.reason == ("no JSON object found in the model output | after repair: "
                             "novelty: Extra inputs are not permitted")


def test_refusal_and_model_failures_pass_through() -> None:
    refused, model = run(["I'm sorry, but I can't help with that request."])
    assert refused.status == Status.REFUSED and len(model.calls) == 1
    truncated, _ = run([{"text": '{"problem": "p", "claims": ["a', "finish_reason": "length"}])
    assert (truncated.status, truncated.reason) == (Status.TRUNCATED, "finish_reason=length")


def test_a_core_with_a_new_number_is_malformed_naming_it() -> None:
    result, _ = run([core_json(results=["The manuscript reports 99.41% accuracy on MNIST."])])
    assert result.status == Status.MALFORMED
    assert result.reason == "the science core fails its checks: results[0]: the number 99.41% is not in the manuscript"
    assert result.core is not None and result.artefact()["checks"]["new_numbers"] == [
        {"location": "results[0]", "number": "99.41%", "value": "99.41"}]
    assert CoreResult.from_artefact(json.loads(json.dumps(result.artefact())), result.raw_text) == result


def test_options_change_the_spec_and_the_input_limit_applies() -> None:
    assert ExtractOptions().spec() != ExtractOptions(max_tokens=100).spec()
    result, model = run([core_json()], max_input_words=7)  # "#" and "##" count as words
    assert result.input_truncated
    assert model.calls[0][0][1].content == "# Spectral filters on graphs\n\n## Introduction\n"
    # the checks run on the text the extractor read: the numbers of the cut part are new
    assert result.status == Status.MALFORMED and "99.14%" in result.reason


def test_a_failed_repair_call_keeps_the_answer_malformed_with_both_reasons() -> None:
    result, model = run(["no json here", {"error": "permanent"}])
    assert (result.status, result.core, len(model.calls)) == (Status.MALFORMED, None, 2)
    assert result.reason == ("no JSON object found in the model output | "
                             "repair attempt failed (error): PermanentError: mock permanent")
