"""The LLM reviewer's classification of answers: final review read, refusals not repaired."""

from __future__ import annotations

import asyncio
import json

from rhetorica.documents.models import Document, DocumentSource, Section
from rhetorica.models.providers.mock import MockModel
from rhetorica.evaluation import Evaluation
from rhetorica.reviewers.llm_reviewer import review_document
from rhetorica.reviewers.protocols import get_protocol
from rhetorica.status import Status

DOC = Document(id="p1", title="Spectral filters", sections=[Section(title="Introduction", text="We prove it.")],
               source=DocumentSource(path="p1.md", parser="test", parser_version="0"))
REVIEW = {"summary": "s", "strengths": ["a"], "weaknesses": [], "suggestions": [], "soundness": 3,
          "significance": 2, "evidence": 2, "clarity": 4, "confidence": 3}


def review(overall: int, **changes: object) -> str:
    return json.dumps(REVIEW | {"overall": overall} | changes)


def run(script: list) -> tuple[Evaluation, MockModel]:
    model = MockModel(script=script)
    result = asyncio.run(review_document(DOC, get_protocol("default"), model, replicate=0))
    return result, model


def test_plain_text_refusal_is_refused_without_repair() -> None:
    result, model = run(["I can't review this paper because it may be under confidential review."])
    assert result.status == Status.REFUSED and result.scores == {} and result.payload is None
    assert result.reason == ("the model declined in plain text: "
                             "\"I can't review this paper because it may be under confidential review.\"")
    assert len(model.calls) == 1


def test_apology_and_as_an_ai_refusals_make_one_call() -> None:
    for text in ("I'm sorry, but I cannot provide a review of this manuscript.",
                 "As an AI, I cannot evaluate research papers.\n\nPlease ask a human expert."):
        result, model = run([text])
        assert (result.status, len(model.calls)) == (Status.REFUSED, 1)


def test_review_that_contains_cannot_is_ok() -> None:
    result, model = run([review(4, summary="I cannot verify Theorem 2, and the method cannot scale.")])
    assert (result.status, result.scores.get("overall"), len(model.calls)) == (Status.OK, 4, 1)


def test_prose_without_json_gets_one_repair_then_malformed() -> None:
    # not a refusal ("see" is not a task verb): the repair call is made, and it fails too
    result, model = run(["I cannot see the figures, but overall I would give it a 7.", "Overall 7."])
    assert result.status == Status.MALFORMED and len(model.calls) == 2
    assert result.reason == "no JSON object found in the model output | after repair: no JSON object found in the model output"


def test_prose_without_json_repaired_to_ok() -> None:
    result, model = run(["I cannot see the figures, but overall I would give it a 7.", review(7)])
    assert (result.status, result.scores.get("overall"), len(model.calls)) == (Status.OK, 7, 2)


def test_refusal_after_repair_is_refused() -> None:
    result, model = run(['{"overall": 11}', "I'm sorry, but I can't help with that."])
    assert result.status == Status.REFUSED and len(model.calls) == 2
    assert result.reason == "repair attempt: the model declined in plain text: \"I'm sorry, but I can't help with that.\""


def test_draft_then_final_review_stored_with_final_score() -> None:
    text = "<think>First try: " + review(2) + "</think>\nDraft: " + review(3) + "\n```json\n" + review(6) + "\n```"
    result, model = run([text])
    assert (result.status, result.scores.get("overall"), len(model.calls)) == (Status.OK, 6, 1)


def test_a_failed_repair_call_keeps_the_answer_malformed_with_both_reasons() -> None:
    first = "I cannot see the figures, but overall I would give it a 7."
    result, model = run([first, {"error": "permanent"}])
    assert (result.status, len(model.calls)) == (Status.MALFORMED, 2)
    assert result.reason == ("no JSON object found in the model output | "
                             "repair attempt failed (error): PermanentError: mock permanent")
    assert result.raw_text == first


def test_the_review_prompt_is_the_blinded_input_and_is_recorded() -> None:
    # issue 24 §1: what the reviewer is sent comes from the one builder, notice included
    from rhetorica.documents.blinding import ANON_URL, IDENTITY_KEY, Identity
    from rhetorica.models.call import CallContext

    kept: list = []

    class Log:  # the study runner's call log keeps inputs; caching and call rows are not needed here
        def cache_get(self, key: str) -> None:
            return None

        def cache_put(self, key: str, output: object) -> None: ...
        def record_call(self, *args: object) -> None: ...
        def begin_call(self, *args: object, **options: object) -> int:  # input_usd, probe
            return 1

        def finish_call(self, *args: object) -> None: ...
        def record_input(self, unit_key: str, item: object) -> None:
            kept.append((unit_key, item))

    identity = Identity(["Jane Roe"], ["jane@quill.edu"]).record()
    doc = DOC.model_copy(update={"metadata": {IDENTITY_KEY: identity}, "sections": [
        Section(title="Introduction", text="Code: https: //github.com/janeroe/x. Ask jane@quill.edu.")]})
    model = MockModel(script=[review(6)])
    result = asyncio.run(review_document(doc, get_protocol("default"), model, replicate=0,
                                         context=CallContext(log=Log(), unit_key="u1"),  # type: ignore[arg-type]
                                         system_note="Hidden text: visit https://github.com/janeroe"))
    assert result.status == Status.OK
    system, user = model.calls[0][0]
    assert user.content == f"# Spectral filters\n\n## Introduction\n\nCode: {ANON_URL}. Ask [anonymized email].\n"
    assert system.content.endswith(f"\n\nHidden text: visit {ANON_URL}")
    assert [(k, i.role, i.text) for k, i in kept] == [("u1", "manuscript", user.content),
                                                     ("u1", "notice", f"Hidden text: visit {ANON_URL}")]
    assert [r.item for r in kept[0][1].removed] == ["identity URL", "email"]
