"""The review forms come from the declared forms: the schema sent to models is unchanged, the ICLR
form has its own, and an out-of-range score is malformed, never clipped."""

from __future__ import annotations

import asyncio
import json

from rhetorica.documents.models import Document, DocumentSource, Section
from rhetorica.forms import ICLR_2026, REVIEW_000, REVIEW_000_OVERALL
from rhetorica.models.providers.mock import MockModel
from rhetorica.reviewers.form import output_schema, parse_review
from rhetorica.reviewers.llm_reviewer import LLMReviewer
from rhetorica.reviewers.protocols import get_protocol, protocol_version
from rhetorica.evaluation import Target
from rhetorica.registry import evaluators
from rhetorica.status import Status

# The schemas main sent before the forms were declared (pydantic classes), printed by
# `json.dumps(output_schema("full"))` / `("overall-only")` on commit be6a0ed: cached answers are
# keyed by them, so they must not change by one byte.
MAIN_FULL = (
    '{"type": "object", "properties": {"summary": {"type": "string"}, "strengths": {"type": "array", "items": '
    '{"type": "string"}, "maxItems": 5}, "weaknesses": {"type": "array", "items": {"type": "string"}, "maxItems": 5}, '
    '"suggestions": {"type": "array", "items": {"type": "string"}, "maxItems": 5}, "soundness": {"type": "integer", '
    '"enum": [1, 2, 3, 4]}, "significance": {"type": "integer", "enum": [1, 2, 3, 4]}, "evidence": {"type": "integer", '
    '"enum": [1, 2, 3, 4]}, "clarity": {"type": "integer", "enum": [1, 2, 3, 4]}, "confidence": {"type": "integer", '
    '"enum": [1, 2, 3, 4, 5]}, "overall": {"type": "integer", "enum": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}}, "required": '
    '["summary", "strengths", "weaknesses", "suggestions", "soundness", "significance", "evidence", "clarity", '
    '"confidence", "overall"], "additionalProperties": false}')
MAIN_OVERALL = (
    '{"type": "object", "properties": {"summary": {"type": "string"}, "strengths": {"type": "array", "items": '
    '{"type": "string"}, "maxItems": 5}, "weaknesses": {"type": "array", "items": {"type": "string"}, "maxItems": 5}, '
    '"suggestions": {"type": "array", "items": {"type": "string"}, "maxItems": 5}, "overall": {"type": "integer", '
    '"enum": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}}, "required": ["summary", "strengths", "weaknesses", "suggestions", '
    '"overall"], "additionalProperties": false}')

DOC = Document(id="p1", title="Spectral filters", sections=[Section(title="Introduction", text="We prove it.")],
               source=DocumentSource(path="p1.md", parser="test", parser_version="0"))
ICLR_ANSWER = {"summary": "s", "strengths": ["a"], "weaknesses": [], "questions": ["why?"], "soundness": 3,
               "presentation": 2, "contribution": 4, "confidence": 3, "overall": 8}


def test_schema_of_the_000_forms_is_main_s_byte_for_byte() -> None:
    assert json.dumps(output_schema(REVIEW_000)) == MAIN_FULL
    assert json.dumps(output_schema(REVIEW_000_OVERALL)) == MAIN_OVERALL
    assert get_protocol("default").form is REVIEW_000 and get_protocol("bare").form is REVIEW_000_OVERALL


def test_protocol_versions_keep_main_s_unit_keys() -> None:
    # printed by protocol_version(get_protocol(name)) on commit be6a0ed
    assert {n: protocol_version(get_protocol(n)) for n in ("default", "bare", "strict")} == {
        "default": "63e4ab33", "bare": "7fbd7cd1", "strict": "694720c9"}


def test_iclr_schema_and_parse() -> None:
    schema = output_schema(ICLR_2026)
    assert list(schema["properties"]) == ["summary", "strengths", "weaknesses", "questions", "soundness",
                                          "presentation", "contribution", "confidence", "overall"]
    assert schema["properties"]["presentation"] == {"type": "integer", "enum": [1, 2, 3, 4]}
    parsed = parse_review(json.dumps(ICLR_ANSWER), ICLR_2026)
    assert parsed.scores == {"overall": 8.0, "soundness": 3.0, "presentation": 2.0, "contribution": 4.0,
                             "confidence": 3.0}
    assert list(parsed.payload) == list(schema["properties"]) and parsed.payload["overall"] == 8


def test_strict_integers_stay_strict() -> None:
    for value, problem in (("1e1", "overall: score '1e1' is not an integer"),
                           ("10.0", "overall: score '10.0' is not an integer")):
        try:
            parse_review(json.dumps(ICLR_ANSWER | {"overall": value}), ICLR_2026)
        except ValueError as exc:
            assert str(exc) == problem
        else:
            raise AssertionError(f"{value!r} was accepted")


def test_out_of_range_iclr_score_is_malformed_through_the_evaluator() -> None:
    bad = json.dumps(ICLR_ANSWER | {"presentation": 5})
    model = MockModel(model="reviewer", script=[bad, bad])
    reviewer = evaluators.get("llm")("iclr", model=model, protocol="standard", model_id="mock/reviewer")
    assert isinstance(reviewer, LLMReviewer) and reviewer.form is ICLR_2026
    target = Target(document=DOC, document_id="p1", condition="original", rewriter="none", variant_key=None,
                    replicate=0)
    result = asyncio.run(reviewer.evaluate(target, None))  # type: ignore[arg-type]
    assert result.status == Status.MALFORMED and result.scores == {}
    assert result.reason == ("presentation: 5 is outside its range 1..4 | after repair: "
                             "presentation: 5 is outside its range 1..4")
    assert model.calls[0][1].json_schema == output_schema(ICLR_2026)
