"""Review form parsing: ranges enforced, "10" is 10, failures explained, never defaulted."""

from __future__ import annotations

import json

import pytest

from rhetorica.reviewers.form import ReviewParseError, output_schema, parse_review

BASE = {"summary": "s", "strengths": ["a"], "weaknesses": [], "suggestions": [], "soundness": 3,
        "significance": 2, "evidence": 2, "clarity": 4, "confidence": 3}


def review_text(**changes: object) -> str:
    return json.dumps(BASE | {"overall": 7} | changes)


def test_ten_parses_as_ten() -> None:
    assert parse_review(review_text(overall="10")).overall == 10
    assert parse_review(review_text(overall=10)).overall == 10
    assert parse_review(review_text(overall=10.0)).overall == 10


@pytest.mark.parametrize(("value", "problem"), [
    (11, "overall: Input should be less than or equal to 10"),
    (0, "overall: Input should be greater than or equal to 1"),
    (6.5, "not a whole level"),
    ("1O", "not an integer"),
    (True, "not true/false"),
])
def test_out_of_range_and_bad_values_rejected(value: object, problem: str) -> None:
    with pytest.raises(ReviewParseError, match=problem):
        parse_review(review_text(overall=value))


def test_missing_field_is_named() -> None:
    data = json.loads(review_text())
    del data["clarity"]
    with pytest.raises(ReviewParseError, match="clarity: Field required"):
        parse_review(json.dumps(data))


def test_json_in_prose_and_raw_newlines() -> None:
    text = "Here is my review:\n```json\n" + review_text(summary="line one\nline two").replace("\\n", "\n") + "\n```"
    review = parse_review(text)
    assert review.summary == "line one\nline two" and review.overall == 7


def test_no_json_at_all() -> None:
    with pytest.raises(ReviewParseError, match="no JSON object"):
        parse_review("I would give it a 7.")


def test_schema_uses_integer_enums() -> None:
    schema = output_schema("full")
    assert schema["properties"]["overall"]["enum"] == list(range(1, 11))
    assert schema["properties"]["soundness"]["enum"] == [1, 2, 3, 4]
    assert schema["properties"]["confidence"]["enum"] == [1, 2, 3, 4, 5]
    assert set(output_schema("overall-only")["properties"]) == {"summary", "strengths", "weaknesses",
                                                              "suggestions", "overall"}
