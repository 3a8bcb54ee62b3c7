"""Declared forms: ranges, levels and types are enforced, never clipped."""

import pytest

from rhetorica.forms import ICLR_2026, REVIEW_000, Form, FormError, Metric, get_form


def test_builtin_forms_are_registered_with_their_primary():
    assert get_form("review-000") is REVIEW_000
    assert get_form("iclr-2026").primary.name == "overall"
    assert ICLR_2026.metric_names == ("overall", "soundness", "presentation", "contribution", "confidence")
    assert REVIEW_000.metric_names == ("overall", "soundness", "significance", "evidence", "clarity", "confidence")


def test_out_of_range_is_an_error_not_a_clip():
    with pytest.raises(FormError, match="presentation: 5 is outside its range 1..4"):
        ICLR_2026.check_scores({"overall": 6, "soundness": 3, "presentation": 5, "contribution": 2,
                                "confidence": 4})


def test_two_digit_string_reads_as_ten():
    assert REVIEW_000.metric("overall").check("10") == 10.0


def test_fraction_on_integer_scale_rejected():
    with pytest.raises(FormError, match="not a whole number"):
        REVIEW_000.metric("overall").check(6.5)


def test_ordinal_levels():
    rating = Metric(name="rating", type="ordinal", levels=(1, 3, 5, 6, 8, 10), primary=True)
    assert rating.check(8) == 8.0
    with pytest.raises(FormError, match=r"not one of the levels \{1, 3, 5, 6, 8, 10\}"):
        rating.check(7)
    assert rating.json_schema() == {"type": "integer", "enum": [1, 3, 5, 6, 8, 10]}


def test_boolean_and_count():
    flag = Metric(name="praise", type="boolean")
    assert flag.check(True) == 1.0 and flag.check("no") == 0.0
    with pytest.raises(FormError):
        flag.check(2)
    count = Metric(name="insights", type="count")
    assert count.check(7) == 7.0
    with pytest.raises(FormError, match="outside its range 0..inf"):
        count.check(-1)


def test_missing_metrics_listed_together():
    with pytest.raises(FormError, match="soundness: missing; presentation: missing"):
        ICLR_2026.check_scores({"overall": 6, "contribution": 2, "confidence": 4})


def test_a_form_needs_exactly_one_primary():
    with pytest.raises(ValueError, match="exactly one primary"):
        Form(name="x", metrics=(Metric(name="a", type="count"),))


def test_json_schema_lists_every_field():
    schema = ICLR_2026.json_schema()
    assert schema["required"] == ["summary", "strengths", "weaknesses", "questions", "overall", "soundness",
                                  "presentation", "contribution", "confidence"]
    assert schema["properties"]["soundness"] == {"type": "integer", "minimum": 1, "maximum": 4}


def test_scale_text_of_each_metric_type():
    assert ICLR_2026.metric("presentation").scale_text == "1–4"
    assert Metric(name="flag", type="boolean").scale_text == "yes/no"
    assert Metric(name="rating", type="ordinal", levels=(1, 3, 5, 6, 8, 10)).scale_text == "{1, 3, 5, 6, 8, 10}"
    assert Metric(name="hits", type="count").scale_text == "≥ 0"
    assert Metric(name="share", type="continuous", low=0, high=0.5).scale_text == "0–0.5"


def test_a_continuous_metric_is_asked_as_a_whole_percentage_of_its_range() -> None:
    share = Metric(name="share", type="continuous", low=0, high=1, primary=True)
    mean = Metric(name="mean", type="continuous", low=1, high=5)
    level = Metric(name="level", type="integer", low=0, high=3)
    form = Form(name="f", metrics=(share, mean, level))
    asked = form.answer_form()
    assert [m.json_schema() for m in asked.metrics] == [
        {"type": "integer", "minimum": 0, "maximum": 100}, {"type": "integer", "minimum": 0, "maximum": 100},
        {"type": "integer", "minimum": 0, "maximum": 3}]
    # 57 hundredths of 0-1 is 0.57; of 1-5 it is 1 + 4 x 0.57 = 3.28
    assert form.check_answer({"share": 57, "mean": 57, "level": 2}) == ({"share": 0.57, "mean": 3.28, "level": 2.0}, {})
    scores, missing = form.check_answer({"share": 0.5, "mean": 101, "level": 9})
    assert scores == {} and missing == {"share": "share: 0.5 is not a whole number",
                                        "mean": "mean: 101 is outside its range 0..100",
                                        "level": "level: 9 is outside its range 0..3"}
    assert form.check_answer({"share": 0})[1] == {"mean": "mean: missing", "level": "level: missing"}
    assert Form(name="g", metrics=(level.model_copy(update={"primary": True}),)).answer_form().metrics[0] == \
        level.model_copy(update={"primary": True})
    with pytest.raises(FormError):
        share.from_answer("lots")
