"""ReconstructReview with the scripted mock model: extract, rebuild, review under standard."""

from __future__ import annotations

import asyncio

from rhetorica.evaluation import Evaluator
from rhetorica.models.call import CallContext
from rhetorica.models.providers.mock import MockModel
from rhetorica.registry import evaluators
from rhetorica.reviewers.protocols import get_protocol, system_prompt
from rhetorica.reviewers.scicore import reconstruct as _reconstruct  # noqa: F401  (registers the kind)
from rhetorica.reviewers.scicore.core import ScienceCore, core_document
from rhetorica.reviewers.scicore.instructions import instruction
from rhetorica.status import Status
from tests.reviewers.scicore.helpers import CORE, DOC, TARGET, core_json, review_json

REBUILT = ("# Spectral filters on graphs\n\n## Results\n\nThe graph network reaches 99.14% accuracy on MNIST "
           "against 99.33% for a classical CNN, over 5 runs.")


def run(script: list):
    model = MockModel(script=script)
    evaluator = evaluators.get("reconstruct")("rr", model=model)
    return asyncio.run(evaluator.evaluate(TARGET, CallContext())), model, evaluator


def test_reconstruct_review_runs_and_stores_the_core_and_the_reconstruction() -> None:
    result, model, evaluator = run([core_json(), f"<think>plan</think>\n{REBUILT}", review_json(7, soundness=2)])
    assert isinstance(evaluator, Evaluator) and evaluator.form.name == "iclr-2026"
    assert result.status == Status.OK
    assert result.scores == {"overall": 7.0, "soundness": 2.0, "presentation": 2.0, "contribution": 3.0,
                             "confidence": 4.0}
    assert result.artefacts["science_core"]["core"] == CORE
    assert result.artefacts["reconstruction"] == REBUILT  # reasoning removed
    assert result.artefacts["reconstruction_new_numbers"] == ["5"]  # "over 5 runs": not in the manuscript
    extraction, rebuild, review = model.calls
    assert rebuild[0][0].content == instruction("reconstruct_v1")
    assert rebuild[0][1].content == core_document(ScienceCore(**CORE), DOC).to_markdown()
    assert rebuild[1].json_schema is None and rebuild[1].max_tokens == 6000
    assert review[0][0].content == system_prompt(get_protocol("standard"))
    assert review[0][1].content == REBUILT + "\n"


def test_a_failed_step_fails_the_assessment_naming_it() -> None:
    empty, _, _ = run([core_json(), "<think>only thoughts</think>"])
    assert (empty.status, empty.reason) == (Status.EMPTY, "reconstruction: the reconstruction is empty")
    refused, _, _ = run([core_json(), "I'm sorry, but I can't help with that."])
    assert refused.status == Status.REFUSED and refused.reason.startswith("reconstruction: the model declined")
    bad, model, _ = run([core_json(), REBUILT, review_json(0), review_json(0)])
    assert bad.status == Status.MALFORMED and len(model.calls) == 4
    assert bad.reason == ("review of the reconstruction: overall: 0 is outside its range 1..10 | "
                          "after repair: overall: 0 is outside its range 1..10")
    assert bad.artefacts["reconstruction"] == REBUILT
    no_core, model, _ = run([core_json(claims=[]), core_json(claims=[])])
    assert (no_core.status, len(model.calls)) == (Status.MALFORMED, 2)
    assert no_core.reason == ("science-core extraction: claims: List should have at least 1 item after validation, "
                              "not 0 | after repair: claims: List should have at least 1 item after validation, not 0")


def test_spec_holds_protocol_and_rebuild_options() -> None:
    make = evaluators.get("reconstruct")
    spec = make("rr", model=MockModel()).spec()
    assert (spec["kind"], spec["protocol"], spec["form"]) == ("reconstruct", "standard", "iclr-2026@1")
    assert make("rr", model=MockModel(), rebuild={"max_tokens": 100}).spec() != spec
