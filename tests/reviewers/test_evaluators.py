"""The LLM and control reviewers are registered evaluators (``llm``, ``control``) that follow the
:class:`~rhetorica.evaluation.Evaluator` protocol."""

from __future__ import annotations

import asyncio
import json

from rhetorica.analysis.controls import ControlReviewer
from rhetorica.documents.models import Document, DocumentSource, Section
from rhetorica.evaluation import Evaluator, Target
from rhetorica.forms import CONTROL_000, REVIEW_000
from rhetorica.kinds import EvaluatorKind
from rhetorica.models.providers.mock import MockModel
from rhetorica.registry import evaluators
from rhetorica.reviewers.control import ControlEvaluator, control_review
from rhetorica.reviewers.llm_reviewer import LLMReviewer
from rhetorica.status import Status

DOC = Document(id="p1", title="T", sections=[Section(title="Introduction", text="We prove it.")],
               source=DocumentSource(path="p1.md", parser="test", parser_version="0"),
               metadata={"human_scores": [6.0, 7.0]})
TARGET = Target(document=DOC, document_id="p1", condition="confidence:+", rewriter="rules", variant_key="v1",
                replicate=1)


def test_registered_factories_build_evaluators() -> None:
    # each kind is a registered class whose factory builds the evaluator (rhetorica.kinds)
    assert evaluators.get("llm").factory is LLMReviewer and evaluators.get("control").factory is ControlEvaluator
    assert isinstance(evaluators.get("llm"), EvaluatorKind) and evaluators.get("control").simulated
    llm = evaluators.get("llm")("r", model=MockModel(model="reviewer"), protocol="strict", model_id="mock/reviewer",
                                temperature=0.7)
    control = evaluators.get("control")("c", replicates=2, noise_sd=0.5)
    assert isinstance(llm, Evaluator) and isinstance(control, Evaluator)
    assert (llm.form, control.form) == (REVIEW_000, CONTROL_000)
    assert llm.spec()["protocol"] == "strict" and llm.spec()["form"] == "review-000@1"
    assert control.spec() == {"kind": "control", "name": "c", "noise_sd": 0.5, "bias_arm": None,
                              "preference_ratio": 1.0, "integer_scores": False, "failure_rate": 0.0,
                              "replicates": 2, "form": "control-000@1"}


def test_control_evaluation_is_the_simulated_review() -> None:
    settings = ControlReviewer(name="c", noise_sd=0.5, bias_arm="confidence:+", preference_ratio=3.0)
    expected = control_review(settings, "p1", "confidence:+", 1, replicates=2, human_score=6.5)
    result = asyncio.run(evaluators.get("control")("c", replicates=2, noise_sd=0.5, bias_arm="confidence:+",
                                                   preference_ratio=3.0).evaluate(TARGET, None))
    assert result.status == Status.OK and result.scores == expected.model_dump()
    assert result.scores["soundness"] in (1.0, 2.0, 3.0, 4.0)


def test_llm_evaluation_carries_the_notice_and_scores() -> None:
    answer = json.dumps({"summary": "s", "strengths": [], "weaknesses": [], "suggestions": [], "soundness": 3,
                         "significance": 2, "evidence": 2, "clarity": 4, "confidence": 3, "overall": "10"})
    model = MockModel(model="reviewer", script=[answer])
    target = Target(**{**TARGET.__dict__, "notice": "NOTICE: hidden text was found."})
    result = asyncio.run(LLMReviewer("r", model=model, model_id="mock/reviewer").evaluate(target, None))
    assert result.status == Status.OK
    assert result.scores == {"overall": 10.0, "soundness": 3.0, "significance": 2.0, "evidence": 2.0,
                             "clarity": 4.0, "confidence": 3.0}
    assert model.calls[0][0][0].content.endswith("\n\nNOTICE: hidden text was found.")
