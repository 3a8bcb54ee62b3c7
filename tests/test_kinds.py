"""Evaluator and rewriter kinds (rhetorica.kinds): lookup, a bare factory as a kind, the options a
kind lists, the run context's call context."""

from __future__ import annotations

from pathlib import Path

import pytest

from rhetorica.kinds import EvaluatorKind, RunContext, evaluator_kind, option_lines, rewriter_kind
from rhetorica.models.call import ConnectionLimits
from rhetorica.registry import Entry, UnknownComponentError, evaluators


def _factory(name: str, **options: object) -> tuple[str, dict[str, object]]:
    return name, options


def test_a_bare_factory_is_looked_up_as_the_base_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(evaluators._entries, "bare-test", Entry("evaluator", "bare-test", _factory, "test", "tests"))
    kind = evaluator_kind("bare-test")
    assert type(kind) is EvaluatorKind and kind.factory is _factory
    assert kind("n", a=1) == ("n", {"a": 1})
    assert (kind.simulated, kind.reads_core, kind.reads_reference, kind.planned_calls(None)) == (False, False, False, [])
    assert option_lines(kind) == {}


def test_built_in_kinds_and_their_flags() -> None:
    assert evaluator_kind("control").simulated and not evaluator_kind("llm").simulated
    assert evaluator_kind("scicore").reads_core and evaluator_kind("reconstruct").reads_core
    assert evaluator_kind("judge").document_entries == ("reviews", "pairs")
    assert rewriter_kind("agent").agent and rewriter_kind("agent").uses_project
    assert rewriter_kind("latex-project").uses_project and not rewriter_kind("latex-project").agent
    assert rewriter_kind("imported").document_entries == ("pairs",)
    assert rewriter_kind("rule-based").prompt_version("confidence:+") == rewriter_kind("rule-based").prompt_version(
        "confidence:-")  # one rules table for both directions
    with pytest.raises(UnknownComponentError, match="unknown rewriter 'nope'"):
        rewriter_kind("nope")


def test_option_lines_state_type_default_and_description() -> None:
    lines = option_lines(evaluator_kind("judge"))
    assert list(lines) == ["family", "rubric_file", "metric_rubrics", "packing", "per_point_calls", "model_options"]
    assert lines["family"] == "str (required): a registered metric family (rhetorica list --kind 'metric family')"
    assert lines["packing"] == "Literal['family', 'metric'] (default 'family'): one call per family or per metric"
    assert "name" not in option_lines(evaluator_kind("control"))  # set from the configuration's name
    scicore = option_lines(evaluator_kind("scicore"))
    assert list(scicore) == ["extractor", "model_id", "extractor_id", "review", "extract", "require_valid_core",
                             "full_protocol", "core_protocol"]
    assert scicore["full_protocol"] == "str (default 'strict-iclr'): branch (a)'s protocol: the full manuscript"
    assert option_lines(evaluator_kind("reconstruct"))["protocol"] == (
        "str (default 'standard'): protocol of the review of the rebuilt manuscript")


def test_the_run_context_gives_each_unit_its_call_context() -> None:
    limits = ConnectionLimits()
    log = object()
    ctx = RunContext(config=None, base_dir=Path("."), run_dir=Path("."), store=None, log=log,
                     models=lambda model_id, options: (model_id, options), limits=limits)  # type: ignore[arg-type,return-value]
    calls = ctx.calls("unit-1")
    assert (calls.log, calls.unit_key, calls.limits, calls.budget) == (log, "unit-1", limits, None)
    assert ctx.model("mock/x") == ("mock/x", {})


def test_the_declared_form_of_each_built_in_kind_is_known_at_load() -> None:
    """An llm reviewer's form is its protocol's; a control's control-000; an external system's its
    adapter's; a built kind on stand-in models (scicore); a judge's its family's, without reading a
    rubric file (this one does not exist)."""
    from rhetorica.study.config import parse_study

    reviewers = parse_study({"name": "k", "documents": [{"path": "p.pdf"}], "reviewers": [
        {"name": "strict", "model": "mock/r", "protocol": "strict-iclr"},
        {"name": "bare", "model": "mock/r", "protocol": "bare"},
        {"name": "ctl", "kind": "control"},
        {"name": "py", "kind": "python", "options": {"entry": "tests.cli.test_exit_codes:odd_replicates_fail"}},
        {"name": "sc", "kind": "scicore", "model": "mock/r"}]}).reviewers
    judge = parse_study({"name": "j", "documents": [{"reviews": "x/*.htm"}], "reviewers": [
        {"name": "j", "kind": "judge", "model": "mock/j", "options": {"family": "remor", "rubric_file": "nowhere.txt"}}]
    }).reviewers[0]
    forms = {r.name: evaluator_kind(r.kind).declared_form(r) for r in [*reviewers, judge]}
    iclr = ("overall", "soundness", "presentation", "contribution", "confidence")
    assert {n: (f.label, f.metric_names) for n, f in forms.items() if n != "sc"} == {
        "strict": ("iclr-2026@1", iclr),
        "bare": ("review-000-overall@1", ("overall",)),
        "ctl": ("control-000@1", ("overall", "soundness", "significance", "evidence", "clarity")),
        "py": ("iclr-2026@1", iclr),
        "j": ("judge-remor@1", ("criticism", "examples", "importance_relevance", "materials_methods", "praise",
                                "results_discussion", "suggestions_solutions", "presentation_reporting")),
    }
    assert forms["sc"].label == "scicore@1" and forms["sc"].primary.name == "overall"
    assert {"overall_full", "overall_core", "core_valid"} <= set(forms["sc"].metric_names)
