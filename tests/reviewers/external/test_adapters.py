"""Native review formats onto rhetorica forms: exact mappings, and malformed where a value does not map."""

from __future__ import annotations

import pytest

from rhetorica.reviewers.external.adapters import AdapterError, get_adapter

AI_SCIENTIST = {"Summary": "s", "Strengths": ["a"], "Weaknesses": ["b"], "Questions": ["q"], "Originality": 3,
                "Quality": 3, "Clarity": 2, "Significance": 3, "Soundness": 3, "Presentation": 2,
                "Contribution": 3, "Overall": 7, "Confidence": 4, "Decision": "Accept"}
OPENREVIEW = {"summary": "s", "strengths": "clear", "weaknesses": "small", "questions": "why?",
              "soundness": "3 good", "presentation": "2: fair", "contribution": 3,
              "rating": "6: marginally above the acceptance threshold", "confidence": "4: confident"}


def test_ai_scientist_review_maps_onto_iclr_2026() -> None:
    adapter = get_adapter("ai-scientist")
    assert adapter.form.name == "iclr-2026"
    payload = adapter.adapt(AI_SCIENTIST)
    assert {k: payload[k] for k in ("overall", "soundness", "presentation", "contribution", "confidence")} == {
        "overall": 7.0, "soundness": 3.0, "presentation": 2.0, "contribution": 3.0, "confidence": 4.0}
    assert (payload["summary"], payload["questions"], payload["native_decision"]) == ("s", ["q"], "Accept")


@pytest.mark.parametrize(("change", "message"), [
    ({"Overall": 11}, "overall: 11 is outside its range 1..10"),
    ({"Overall": 6.5}, "overall: 6.5 is not a whole number"),
    ({"Soundness": 0}, "soundness: 0 is outside its range 1..4"),
    ({"Decision": "Weak accept"}, "Decision: 'Weak accept' is not Accept or Reject"),
    ({"Confidence": None}, "Confidence: missing"),
])
def test_ai_scientist_values_that_do_not_map_are_errors(change, message) -> None:
    with pytest.raises(AdapterError) as caught:
        get_adapter("ai-scientist").adapt(AI_SCIENTIST | change)
    assert str(caught.value) == message


def test_openreview_rating_set_and_labelled_values() -> None:
    payload = get_adapter("openreview").adapt(OPENREVIEW)
    assert (payload["overall"], payload["soundness"], payload["presentation"], payload["confidence"]) == (6, 3, 2, 4)
    assert payload["strengths"] == ["clear"] and payload["questions"] == ["why?"]
    for rating, overall in ((1, 1), (3, 3), (5, 5), ("8", 8), ("10: strong accept", 10)):
        assert get_adapter("openreview").adapt(OPENREVIEW | {"rating": rating})["overall"] == overall


@pytest.mark.parametrize("rating", [4, 7, "7: accept", 2, 0, "excellent", "6 7", 5.5])
def test_openreview_rating_off_the_set_is_an_error(rating) -> None:
    with pytest.raises(AdapterError, match="rating"):
        get_adapter("openreview").adapt(OPENREVIEW | {"rating": rating})


def test_six_point_scale_uses_the_declared_table() -> None:
    adapter = get_adapter("scale-1-6")
    assert adapter.form.name == "overall-1-10"
    got = {level: adapter.adapt({"rating": level})["overall"] for level in range(1, 7)}
    assert got == {1: 1, 2: 3, 3: 5, 4: 6, 5: 8, 6: 10}
    custom = get_adapter("scale-1-6", mapping={"1": 1, "6": 10}, rating_field="overall")
    assert custom.adapt({"overall": "6: strong accept", "summary": "fine"}) == {"overall": 10.0, "summary": "fine"}
    with pytest.raises(AdapterError, match=r"overall: 3 is not one of the declared levels \{1, 6\}"):
        custom.adapt({"overall": 3})
    with pytest.raises(AdapterError, match="not one of the declared levels"):
        adapter.adapt({"rating": 4.5})
    with pytest.raises(AdapterError, match="not one of the declared levels"):
        adapter.adapt({"rating": 7})


def test_bad_adapter_options_are_named() -> None:
    with pytest.raises(ValueError, match="unknown review adapter 'deepreviewer'; known: native, ai-scientist"):
        get_adapter("deepreviewer")
    with pytest.raises(ValueError, match="outside the overall scale 1..10"):
        get_adapter("scale-1-6", mapping={1: 0})
    with pytest.raises(ValueError, match="takes no 'mapping'"):
        get_adapter("openreview", mapping={1: 1})
    assert get_adapter("native", form="review-000").form.name == "review-000"
