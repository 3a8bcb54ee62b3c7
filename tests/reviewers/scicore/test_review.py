"""Branch reviews on a declared form: the prompt schema, validation, repair."""

from __future__ import annotations

import asyncio

from rhetorica.forms import ICLR_2026
from rhetorica.models.providers.mock import MockModel
from rhetorica.reviewers.protocols import get_protocol
from rhetorica.reviewers.scicore.review import ReviewOptions, prompt_schema, review_on_form
from rhetorica.status import Status
from tests.reviewers.scicore.helpers import DOC, review_json


def test_prompt_schema_of_the_iclr_form() -> None:
    assert prompt_schema(ICLR_2026) == {
        "title": "iclr-2026", "type": "object",
        "properties": {
            "summary": {"type": "string"},
            "strengths": {"type": "array", "items": {"type": "string"}, "maxItems": 12},
            "weaknesses": {"type": "array", "items": {"type": "string"}, "maxItems": 12},
            "questions": {"type": "array", "items": {"type": "string"}, "maxItems": 12},
            "overall": {"type": "integer", "enum": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]},
            "soundness": {"type": "integer", "enum": [1, 2, 3, 4]},
            "presentation": {"type": "integer", "enum": [1, 2, 3, 4]},
            "contribution": {"type": "integer", "enum": [1, 2, 3, 4]},
            "confidence": {"type": "integer", "enum": [1, 2, 3, 4, 5]}},
        "required": ["summary", "strengths", "weaknesses", "questions", "overall", "soundness", "presentation",
                     "contribution", "confidence"],
        "additionalProperties": False}


def review(script: list):
    model = MockModel(script=script)
    result = asyncio.run(review_on_form(DOC, get_protocol("standard"), model, replicate=2,
                                        options=ReviewOptions(temperature=0.0), context=None))
    return result, model


def test_a_valid_review_is_ok_with_the_forms_scores() -> None:
    result, model = review([review_json(8, summary="fine")])
    assert result.status == Status.OK
    assert result.scores == {"overall": 8.0, "soundness": 3.0, "presentation": 2.0, "contribution": 3.0,
                             "confidence": 4.0}
    assert result.payload["summary"] == "fine" and result.payload["strengths"] == ["a"]
    config = model.calls[0][1]
    assert (config.seed, config.temperature, config.max_tokens) == (2, 0.0, 700)
    assert config.json_schema == prompt_schema(ICLR_2026)


def test_out_of_range_and_missing_fields_are_repaired_once_then_malformed() -> None:
    repaired, model = review([review_json(6, presentation=5), review_json(6)])
    assert repaired.status == Status.OK and len(model.calls) == 2
    assert "presentation: 5 is outside its range 1..4" in model.calls[1][0][-1].content
    failed, _ = review(['{"overall": 6}', '{"overall": 6}'])
    assert failed.status == Status.MALFORMED and failed.reason.startswith("soundness: missing; presentation: missing")
