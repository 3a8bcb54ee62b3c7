"""SciCore with the scripted mock model: the mean of the branches, branch failures, the stored core,
a precomputed core, and the store cache (a second evaluation makes no call)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from dataclasses import replace

import pytest

from rhetorica.evaluation import Evaluator
from rhetorica.models.call import CallContext
from rhetorica.models.providers.mock import MockModel
from rhetorica.registry import evaluators
from rhetorica.reviewers.protocols import get_protocol, system_prompt
from rhetorica.reviewers.scicore import evaluator as _scicore  # noqa: F401  (registers the kind)
from rhetorica.reviewers.scicore.core import ScienceCore, core_document
from rhetorica.reviewers.scicore.extract import CoreResult, extract_core
from rhetorica.status import Status
from rhetorica.store.db import Store
from tests.reviewers.scicore.helpers import CORE, DOC, TARGET, core_json, review_json, store_log


def scicore(model: MockModel, **options):
    return evaluators.get("scicore")("sc", model=model, **options)


def evaluate(evaluator, context: CallContext | None = None, **kwargs):
    return asyncio.run(evaluator.evaluate(TARGET, context or CallContext(), **kwargs))


def test_overall_is_the_mean_of_the_branches_and_both_are_stored() -> None:
    model = MockModel(script=[review_json(6, soundness=4), core_json(), review_json(3, presentation=1, confidence=2)])
    sc = scicore(model)
    assert isinstance(sc, Evaluator) and sc.form.name == "scicore" and sc.form.primary.name == "overall"
    result = evaluate(sc)
    assert result.status == Status.OK
    assert result.scores == {"overall": 4.5,
                             "overall_full": 6.0, "soundness_full": 4.0, "presentation_full": 2.0,
                             "contribution_full": 3.0, "confidence_full": 4.0,
                             "overall_core": 3.0, "soundness_core": 3.0, "presentation_core": 1.0,
                             "contribution_core": 3.0, "confidence_core": 2.0, "core_valid": 1.0}
    assert result.payload["full"]["overall"] == 6 and result.payload["core"]["summary"] == "s"
    assert result.artefacts["science_core"]["core"] == CORE and result.artefacts["science_core"]["status"] == "ok"
    assert json.loads(json.dumps(result.artefacts)) == result.artefacts  # stored as JSON
    # the calls: full manuscript under strict-iclr, extraction, record under science-record
    full, extraction, record = model.calls
    assert full[0][0].content == system_prompt(get_protocol("strict-iclr")) and full[0][1].content == DOC.to_markdown()
    assert extraction[0][1].content == DOC.to_markdown()
    assert record[0][0].content == system_prompt(get_protocol("science-record"))
    assert record[0][1].content == result.artefacts["science_record"] == core_document(ScienceCore(**CORE),
                                                                                         DOC).to_markdown()
    assert json.loads(result.raw_text) == {"full": review_json(6, soundness=4),
                                           "core": review_json(3, presentation=1, confidence=2)}


def test_record_rendering_adds_headings_and_bullets_but_no_digits() -> None:
    text = core_document(ScienceCore(**CORE), DOC).to_markdown()
    assert text.startswith("# Science record: Spectral filters on graphs\n\n## Problem\n\n")
    assert "## Claims\n\n- The manuscript states that the proposed" in text
    assert "## Formulation" not in text  # empty fields are left out
    # the core's digits in record order: 99.14, 70000, 99.33 (results), 100, 0.5 (reproducibility)
    assert "".join(c for c in text if c.isdigit()) == "9914" "70000" "9933" "100" "05"


def test_a_malformed_full_branch_makes_the_assessment_malformed_without_extracting() -> None:
    model = MockModel(script=[review_json(11), review_json(11)])
    result = evaluate(scicore(model))
    assert result.status == Status.MALFORMED and result.scores == {}
    assert result.reason == ("full-manuscript branch: overall: 11 is outside its range 1..10 | "
                             "after repair: overall: 11 is outside its range 1..10")
    assert len(model.calls) == 2


def test_a_malformed_record_branch_makes_the_assessment_malformed() -> None:
    model = MockModel(script=[review_json(6), core_json(), review_json(5, soundness=2.5), "not json"])
    result = evaluate(scicore(model))
    assert (result.status, result.scores) == (Status.MALFORMED, {})
    assert result.reason == ("science-record branch: soundness: 2.5 is not a whole number | "
                             "after repair: no JSON object found in the model output")
    assert result.artefacts["science_core"]["core"] == CORE  # the core is kept for inspection


def test_a_core_that_fails_validation_fails_the_assessment_naming_the_number() -> None:
    model = MockModel(script=[review_json(6), core_json(results=["The manuscript reports 99.41% accuracy."])])
    result = evaluate(scicore(model))
    assert result.status == Status.MALFORMED and len(model.calls) == 2
    assert result.reason == ("science-core extraction: the science core fails its checks: "
                             "results[0]: the number 99.41% is not in the manuscript")


def test_a_core_that_fails_its_checks_is_reviewed_only_when_the_configuration_says_so() -> None:
    bad = core_json(results=["The manuscript reports 99.41% accuracy."])
    model = MockModel(script=[review_json(6), bad, review_json(4)])
    sc = scicore(model, require_valid_core=False)
    result = evaluate(sc)
    assert (result.status, result.reason) == (Status.OK, None)
    assert (result.scores["overall"], result.scores["core_valid"]) == (5.0, 0.0)
    stored = result.artefacts["science_core"]
    assert stored["status"] == "malformed" and stored["checks"]["problems"] == [
        "results[0]: the number 99.41% is not in the manuscript"]
    assert sc.spec() != scicore(model).spec()
    # a core that does not parse is never reviewed
    unparsed = evaluate(scicore(MockModel(script=[review_json(6), "{}", "{}"]), require_valid_core=False))
    assert unparsed.status == Status.MALFORMED and unparsed.reason.startswith("science-core extraction: problem:")


def test_a_failed_model_call_passes_its_status_through() -> None:
    result = evaluate(scicore(MockModel(script=[review_json(6), {"error": "context_overflow"}])))
    assert result.status == Status.ERROR
    assert result.reason == "science-core extraction: ContextOverflowError: mock context_overflow"


def test_a_precomputed_core_is_used_and_checked_against_the_target() -> None:
    extracted = asyncio.run(extract_core(DOC, MockModel(script=[core_json()]), None))
    core = CoreResult.from_artefact(extracted.artefact(), extracted.raw_text)  # as a stage stores and reads it
    assert core == extracted
    model = MockModel(script=[review_json(8), review_json(5)])
    result = evaluate(scicore(model), core=core)
    assert result.status == Status.OK and result.scores["overall"] == 6.5 and len(model.calls) == 2
    other = replace(TARGET, document=DOC.model_copy(update={"title": "Another paper"}))
    mismatch = asyncio.run(scicore(MockModel(script=[review_json(8)])).evaluate(other, CallContext(), core=core))
    assert (mismatch.status, mismatch.reason) == (
        Status.ERROR, "p1 (original): the science core given was extracted from another document")


def test_a_separate_extractor_model_extracts(tmp_path) -> None:
    reviewer, extractor = MockModel(script=[review_json(4), review_json(4)]), MockModel("ex", script=[core_json()])
    sc = scicore(reviewer, extractor=extractor)
    assert evaluate(sc).scores["overall"] == 4.0 and len(extractor.calls) == 1 and len(reviewer.calls) == 2
    assert sc.spec()["extract"]["extractor"] == "mock/ex" and sc.spec()["model"] == "mock/scripted"
    assert sc.extract_spec() == evaluators.get("reconstruct")("rr", model=reviewer, extractor=extractor).extract_spec()


def test_a_second_evaluation_is_served_from_the_store(tmp_path) -> None:
    model = MockModel(script=[review_json(6), core_json(), review_json(3)])
    store = Store.in_dir(tmp_path / "run")
    context = CallContext(log=store_log(store), unit_key="u1")
    first = evaluate(scicore(model), context)
    second = evaluate(scicore(model), context)
    assert first.status == second.status == Status.OK and first.scores == second.scores
    assert second.artefacts == first.artefacts
    assert len(model.calls) == 3  # the second evaluation made no call (the script is spent)
    conn = sqlite3.connect(store.path)
    rows = conn.execute("SELECT unit_key, status, cache_hit FROM model_calls ORDER BY call_id").fetchall()
    conn.close()
    assert rows == [("u1", "ok", 0)] * 3 + [("u1", "ok", 1)] * 3
    store.close()


def test_spec_names_both_protocols_and_changes_with_options() -> None:
    spec = scicore(MockModel()).spec()
    assert (spec["kind"], spec["full_protocol"], spec["core_protocol"], spec["form"]) == (
        "scicore", "strict-iclr", "science-record", "scicore@1")
    assert scicore(MockModel(), review={"temperature": 0.0}).spec() != spec
    assert scicore(MockModel(), extract={"support_threshold": 0.6}).spec() != spec


def test_a_protocol_off_the_iclr_form_is_refused() -> None:
    with pytest.raises(ValueError, match="protocol 'strict' is not on the 'iclr-2026' form; both branches"):
        scicore(MockModel(), full_protocol="strict")
