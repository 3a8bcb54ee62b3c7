"""Aspect annotation: the taxonomy, the annotator call, and phrase verification (scripted annotator)."""

from __future__ import annotations

import asyncio
import json

from rhetorica.forms import ICLR_2026
from rhetorica.models.providers.mock import MockModel
from rhetorica.reviewers.aspects import (
    annotate_review,
    annotation_instructions,
    annotation_schema,
    load_taxonomy,
    parse_annotation,
    review_text,
)
from rhetorica.status import Status

REVIEW = ("Strengths: the paper is   clearly written and well organised.\n"
          "Weaknesses: the baselines are weak, and the proof of Theorem 2 has a gap.")

PAPER_ASPECTS = {"Ablation", "Analysis", "Comparison", "Data/Task", "Evaluation", "Experiment", "Methodology",
                 "Result", "Theory"}
PAPER_INDEPENDENT = {"Contribution", "Definition/Description/Detail/Discussion/Explanation/Interpretation",
                     "Intuition/Justification/Motivation/Validation", "Novelty", "Presentation", "Related Work",
                     "Significance"}


def test_taxonomy_is_the_16_coarse_aspects_of_lu_et_al() -> None:
    taxonomy = load_taxonomy()
    assert {a.label for a in taxonomy.aspects} == PAPER_ASPECTS | PAPER_INDEPENDENT
    assert len(taxonomy.names) == 16 and "related_work" in taxonomy.names and "theory" in taxonomy.names
    prompt = annotation_instructions(taxonomy)
    assert all(f"- {a.name}: {a.definition}" in prompt for a in taxonomy.aspects)
    assert annotation_schema(taxonomy)["properties"]["mentions"]["items"]["properties"]["aspect"]["enum"] == list(
        taxonomy.names)


def annotation(*mentions: tuple[str, str, str]) -> str:
    return json.dumps({"mentions": [{"aspect": a, "polarity": p, "phrase": t} for a, p, t in mentions]})


def test_phrases_are_verified_and_the_rest_dropped_and_counted() -> None:
    answer = annotation(
        ("presentation", "positive", "the paper is clearly written and well organised."),  # whitespace differs
        ("comparison", "negative", "the baselines are weak"),
        ("theory", "negative", "the proof of Theorem 2 is wrong"),  # not in the review: dropped
        ("Presentation", "positive", "clearly written"),  # unknown aspect name: rejected
        ("novelty", "neutral", "well organised"),  # bad polarity: rejected
    )
    model = MockModel(script=[answer])
    result = asyncio.run(annotate_review(REVIEW, model))
    assert result.status == Status.OK
    assert [(m.aspect, m.polarity, m.phrase) for m in result.mentions] == [
        ("presentation", "positive", "the paper is clearly written and well organised."),
        ("comparison", "negative", "the baselines are weak")]
    assert (result.unverified, result.rejected) == (1, 2)
    assert result.reason == ("mention 2: phrase not found in the review; mention 3: unknown aspect 'Presentation'; "
                             "mention 4: polarity 'neutral' is not positive or negative")
    (call,) = model.calls
    assert call[0][1].content == REVIEW and call[0][0].content == annotation_instructions()


def test_case_must_match_and_garbage_is_malformed() -> None:
    lowered = parse_annotation(annotation(("comparison", "negative", "The Baselines Are Weak")), REVIEW)
    assert (lowered.mentions, lowered.unverified) == ([], 1)
    assert parse_annotation("The review is positive.", REVIEW).status == Status.MALFORMED
    assert parse_annotation('{"aspects": []}', REVIEW).reason == "the annotation has no 'mentions' list"
    empty = parse_annotation('{"mentions": []}', REVIEW)
    assert (empty.status, empty.mentions, empty.reason) == (Status.OK, [], None)


def test_model_failure_passes_through() -> None:
    result = asyncio.run(annotate_review(REVIEW, MockModel(script=[{"error": "permanent"}])))
    assert result.status == Status.ERROR and result.mentions == []


def test_review_text_renders_the_text_fields_in_form_order() -> None:
    payload = {"overall": 6, "questions": [], "weaknesses": ["weak baselines", "a gap"], "summary": "A method.",
               "strengths": ["clear"]}
    assert review_text(payload, ICLR_2026) == ("Summary:\nA method.\n\nStrengths:\n- clear\n\n"
                                               "Weaknesses:\n- weak baselines\n- a gap")
