"""Review form parsing: ranges enforced, "10" is 10, failures explained, never defaulted."""

from __future__ import annotations

import json

import pytest

from rhetorica.forms import REVIEW_000, REVIEW_000_OVERALL, Form
from rhetorica.reviewers.form import ParsedReview, ReviewParseError, is_refusal, output_schema, parse_review

BASE = {"summary": "s", "strengths": ["a"], "weaknesses": [], "suggestions": [], "soundness": 3,
        "significance": 2, "evidence": 2, "clarity": 4, "confidence": 3}


def parse(text: str, form: Form = REVIEW_000) -> ParsedReview:
    return parse_review(text, form)


def review_text(**changes: object) -> str:
    return json.dumps(BASE | {"overall": 7} | changes)


def test_ten_parses_as_ten() -> None:
    assert parse(review_text(overall="10")).payload["overall"] == 10
    assert parse(review_text(overall=10)).payload["overall"] == 10
    assert parse(review_text(overall=10.0)).payload["overall"] == 10


@pytest.mark.parametrize(("value", "problem"), [
    (11, "overall: 11 is outside its range 1..10"),
    (0, "overall: 0 is outside its range 1..10"),
    (6.5, "not a whole level"),
    ("1O", "not an integer"),
    (True, "not true/false"),
])
def test_out_of_range_and_bad_values_rejected(value: object, problem: str) -> None:
    with pytest.raises(ReviewParseError, match=problem):
        parse(review_text(overall=value))


def test_missing_field_is_named() -> None:
    data = json.loads(review_text())
    del data["clarity"]
    with pytest.raises(ReviewParseError, match="clarity: missing"):
        parse(json.dumps(data))


def test_json_in_prose_and_raw_newlines() -> None:
    text = "Here is my review:\n```json\n" + review_text(summary="line one\nline two").replace("\\n", "\n") + "\n```"
    review = parse(text)
    assert review.payload["summary"] == "line one\nline two" and review.payload["overall"] == 7


def test_no_json_at_all() -> None:
    with pytest.raises(ReviewParseError, match="no JSON object"):
        parse("I would give it a 7.")


def test_schema_uses_integer_enums() -> None:
    schema = output_schema(REVIEW_000)
    assert schema["properties"]["overall"]["enum"] == list(range(1, 11))
    assert schema["properties"]["soundness"]["enum"] == [1, 2, 3, 4]
    assert schema["properties"]["confidence"]["enum"] == [1, 2, 3, 4, 5]
    assert set(output_schema(REVIEW_000_OVERALL)["properties"]) == {"summary", "strengths", "weaknesses",
                                                              "suggestions", "overall"}


# --- the final answer, not the first object (issue 10 §1) ---------------------------------------

def test_draft_in_reasoning_then_final_fenced_review() -> None:
    # the draft (overall 2) is a complete, valid review: the old parser stored it as ok
    draft = review_text(overall=2)
    text = ("Let me draft a review first: " + draft + "\nOn reflection the evidence is stronger.\n"
            "Final review:\n```json\n" + review_text(overall=6) + "\n```\n")
    assert parse(text).payload["overall"] == 6


def test_think_block_with_braces_before_review() -> None:
    # the old parser raised "no JSON object"/field errors on the think block's {…} and lost the review
    text = ("<think>The form is {summary, strengths, …}; maybe {\"overall\": 3}? No: the proofs hold."
            "</think>\n" + review_text(overall=8))
    assert parse(text).payload["overall"] == 8


def test_think_block_holding_a_valid_draft_review_is_ignored() -> None:
    text = "<think>" + review_text(overall=2) + "</think>\n```json\n" + review_text(overall=5) + "\n```"
    assert parse(text).payload["overall"] == 5
    # also <reasoning> and <thinking>, in any case
    text = "<Reasoning>" + review_text(overall=2) + "</Reasoning>" + review_text(overall=4)
    assert parse(text).payload["overall"] == 4


def test_unterminated_leading_think_block() -> None:
    # chat templates that put "<think>" in the prompt: the output starts inside the reasoning
    text = "The paper proposes " + review_text(overall=2) + " hmm, too harsh.\n</think>\n\n" + review_text(overall=7)
    assert parse(text).payload["overall"] == 7
    # reasoning opened and never closed holds no final answer: its draft is never read
    with pytest.raises(ReviewParseError, match="no JSON object found in the model output outside its reasoning"):
        parse("<think>Draft: " + review_text(overall=2))


def test_two_bare_objects_last_valid_wins() -> None:
    assert parse(review_text(overall=3) + "\n\nRevised:\n" + review_text(overall=9)).payload["overall"] == 9


def test_final_invalid_object_after_a_valid_one_is_malformed() -> None:
    # The last review-shaped object is the model's own revision: falling back to the earlier valid
    # one would store a superseded score as ok, so the answer is invalid (and gets a repair call).
    text = review_text(overall=6) + "\nCorrection:\n" + review_text(overall=11)
    with pytest.raises(ReviewParseError, match="overall: 11 is outside its range 1..10"):
        parse(text)


def test_objects_without_form_fields_are_skipped() -> None:
    text = review_text(overall=6) + '\nMetadata: {"model": "x", "tokens": 12}'
    assert parse(text).payload["overall"] == 6


def test_nested_braces_inside_strings() -> None:
    summary = 'Proves {x : f(x) > 0} is convex; see "}{"'
    text = "Review:\n" + review_text(overall=5, summary=summary) + "\n"
    review = parse(text)
    assert review.payload["summary"] == summary and review.payload["overall"] == 5
    # and a trailing object after it is still found as the next top-level object
    assert parse(text + review_text(overall=9, summary="{")).payload["overall"] == 9


def test_fenced_preferred_to_a_later_bare_object() -> None:
    text = "```json\n" + review_text(overall=6) + "\n```\nFor comparison, my first draft was " + review_text(overall=2)
    assert parse(text).payload["overall"] == 6


def test_overall_only_form_review_shape() -> None:
    one = json.dumps({"summary": "s", "strengths": [], "weaknesses": [], "suggestions": [], "overall": 3})
    two = json.dumps({"summary": "t", "strengths": [], "weaknesses": [], "suggestions": [], "overall": 8})
    assert parse(one + two, form=REVIEW_000_OVERALL).payload["overall"] == 8


# --- plain-text refusals (issue 10 §4) ----------------------------------------------------------

@pytest.mark.parametrize("text", [
    "I can't review this paper because it may contain confidential material.",
    "I'm sorry, but I cannot provide a review of this manuscript.",
    "I\u2019m sorry, but I can\u2019t help with that.",
    "As an AI language model, I cannot evaluate unpublished research.",
    "Unfortunately, I am unable to complete this review.",
    "I won't be able to review this submission.",
    "I must decline this request.",
    "<think>The user wants a review; policy says no.</think>\nI cannot assist with this request.",
    "**I'm sorry, I can't do that.**",
])
def test_refusals_recognised(text: str) -> None:
    assert is_refusal(text) is True


@pytest.mark.parametrize("text", [
    # a review that merely contains "cannot"
    review_text(summary="The method cannot scale beyond 10k nodes.", overall=4),
    "I cannot stress enough how clear this is. " + review_text(overall=8),
    # no JSON, but not a refusal: no task verb after "cannot", or the wording is not at the start
    "I cannot see the figures, but overall I would give it a 7.",
    "The authors cannot review all related work; I would rate it 5.",
    "Overall: 6. I can't review the appendix in detail.",
    "",
])
def test_not_refusals(text: str) -> None:
    assert is_refusal(text) is False
