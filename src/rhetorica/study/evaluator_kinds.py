"""The built-in evaluator kinds (``kind:`` of a reviewer), each one class registered in
:data:`rhetorica.registry.evaluators` (:mod:`rhetorica.kinds`).

========  =====================================================================  ==================
kind      evaluator                                                              options model
========  =====================================================================  ==================
llm       a model reviews under a protocol (:mod:`rhetorica.reviewers.llm_reviewer`)  provider options
control   simulated reviewer, no model (:mod:`rhetorica.reviewers.control`)       ``ControlReviewer``
scicore   dual-branch SciCore reviewer (:mod:`rhetorica.reviewers.scicore`)         ``SciCoreOptions``
reconstruct  ReconstructReview (:mod:`rhetorica.reviewers.scicore.reconstruct`)     ``ReconstructOptions``
command   an external command (:mod:`rhetorica.reviewers.external.command`)        ``CommandOptions``
http      an HTTP service (:mod:`rhetorica.reviewers.external.http`)               ``HttpOptions``
python    a Python function (:mod:`rhetorica.reviewers.external.python_entry`)     ``PythonOptions``
========  =====================================================================  ==================

The evaluators themselves know nothing of studies; these classes adapt a study's reviewer
configuration to them (checks at load, planned calls, the build for a run). The judge kind is
registered by the judges package (:mod:`rhetorica.judges.kind`), as a plug-in would.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import ValidationError

from rhetorica.evaluation import Evaluation, Evaluator, Target
from rhetorica.forms import Form
from rhetorica.kinds import EvaluatorKind, RunContext, options_error
from rhetorica.models.api import ChatMessage
from rhetorica.registry import evaluators
from rhetorica.reviewers.control import CONTROL_OPTIONS, ControlEvaluator
from rhetorica.reviewers.control_settings import ControlReviewer
from rhetorica.reviewers.external.command import CommandOptions, command_reviewer
from rhetorica.reviewers.external.http import HttpOptions, http_reviewer
from rhetorica.reviewers.external.python_entry import PythonOptions, python_reviewer
from rhetorica.reviewers.llm_reviewer import DEFAULT_REVIEW_TOKENS, LLMReviewer, manuscript_text
from rhetorica.reviewers.form import output_schema
from rhetorica.reviewers.protocols import get_protocol, system_prompt
from rhetorica.reviewers.scicore.base import CoreOptions
from rhetorica.reviewers.scicore.evaluator import SciCoreOptions, scicore
from rhetorica.reviewers.scicore.reconstruct import ReconstructOptions, reconstruct_review
from rhetorica.study.config import ModelOptions, _check_model_options, _option_problems
from rhetorica.study.extraction import stored_core
from rhetorica.study.planned_calls import PlannedCall, with_repair


def review_calls(unit: Any, protocol: str, count: int) -> list[PlannedCall]:
    """``count`` review calls of ``unit``'s reviewer under ``protocol`` (system prompt and the
    manuscript cut to the reviewer's input limit, the protocol's form as the output schema;
    output: its token cap), and the repair call each may get (:func:`with_repair`)."""
    rv = unit.reviewer
    text, _ = manuscript_text(unit.document, rv.max_input_words)
    chosen = get_protocol(protocol)
    messages = [ChatMessage(role="system", content=system_prompt(chosen)),
                ChatMessage(role="user", content=text)]
    return with_repair([PlannedCall(rv.served_model, messages, rv.sampling.max_tokens or DEFAULT_REVIEW_TOKENS,
                                    schema=output_schema(chosen.form))] * count)


class LLMKind(EvaluatorKind):
    """A model reviewing under a protocol (system prompt + form); ``options`` are provider options."""

    factory = LLMReviewer
    options_model = ModelOptions
    provider_options = True
    soft_ratings = True

    def check(self, spec: Any) -> None:
        if not spec.model:
            raise ValueError(f"reviewer {spec.name!r} of kind 'llm' needs a 'model'")
        _check_model_options(spec.model, spec.options)

    def declared_form(self, spec: Any) -> Form:
        return get_protocol(spec.protocol).form

    def build(self, spec: Any, ctx: RunContext) -> Evaluator:
        return LLMReviewer(spec.name, model=ctx.model(spec.model, spec.options.as_kwargs()), protocol=spec.protocol,
                           model_id=spec.model_id, temperature=spec.sampling.temperature, top_p=spec.sampling.top_p,
                           max_tokens=spec.sampling.max_tokens, max_input_words=spec.max_input_words,
                           soft_ratings=spec.soft_ratings)

    def planned_calls(self, unit: Any) -> list[PlannedCall]:
        return review_calls(unit, unit.reviewer.protocol, 1)


class ControlKind(EvaluatorKind):
    """Simulated null or injected-bias reviewer (no model call); ``options`` are its settings."""

    factory = ControlEvaluator
    options_model = ControlReviewer
    simulated = True
    #: options fields the study sets from elsewhere (the configuration's name)
    study_fields: ClassVar[tuple[str, ...]] = ("name",)

    def check(self, spec: Any) -> None:
        if spec.defence != "none":
            raise ValueError(f"reviewer {spec.name!r}: a control reviewer reads no text, so 'defence' does not apply")
        _option_problems(spec.options, "control reviewers", CONTROL_OPTIONS)
        try:
            ControlReviewer(name=spec.name, **spec.options.as_kwargs())
        except ValidationError as exc:  # named as the study file writes it: options.<setting>
            raise ValueError(options_error(exc)) from None

    def declared_form(self, spec: Any) -> Form:
        return ControlEvaluator.form

    def build(self, spec: Any, ctx: RunContext) -> Evaluator:
        return ControlEvaluator(spec.name, replicates=ctx.config.replicates, **spec.options.as_kwargs())


class CoreKind(EvaluatorKind):
    """A reviewer reading the science core the extract stage stores (:mod:`rhetorica.study.extraction`):
    its planned calls are two reviews (the extraction is the extract stage's unit); its options
    model is a :class:`~rhetorica.reviewers.scicore.base.CoreOptions` (the extractor and the
    extraction's options, read by the extract stage)."""

    reads_core = True
    options_model: ClassVar[type[CoreOptions]] = CoreOptions

    def review_protocol(self, options: Any) -> str:
        """The protocol of the two reviews a unit is planned with, from its typed options."""
        raise NotImplementedError

    def planned_calls(self, unit: Any) -> list[PlannedCall]:
        if unit.reviewer.model is None:
            return []
        options = self.options_model.model_validate(unit.reviewer.options.as_kwargs())
        return review_calls(unit, self.review_protocol(options), 2)

    async def evaluate(self, evaluator: Evaluator, target: Target, unit: Any, ctx: RunContext) -> Evaluation:
        core = stored_core(ctx.store, ctx.config, unit)
        if core is not None and core.source_hash == target.document.content_hash:  # the extract stage's unit
            return await evaluator.evaluate(target, ctx.calls(unit.key), core=core)  # type: ignore[call-arg]
        return await evaluator.evaluate(target, ctx.calls(unit.key))


class SciCoreKind(CoreKind):
    """Dual-branch reviewer: strict full review and a science-core review, overall = their mean."""

    factory = scicore
    options_model = SciCoreOptions

    def review_protocol(self, options: Any) -> str:
        return options.full_protocol  # the record is about as long as the text: two reviews of that size


class ReconstructKind(CoreKind):
    """ReconstructReview: rebuild a manuscript from its science core and review that under standard."""

    factory = reconstruct_review
    options_model = ReconstructOptions

    def review_protocol(self, options: Any) -> str:
        return options.protocol  # the rebuild and its review


class ExternalKind(EvaluatorKind):
    """An external system: one call per review unit, at the reviewer's ``cost_per_call_usd``."""

    billed_per_call = True

    def planned_calls(self, unit: Any) -> list[PlannedCall]:
        rv = unit.reviewer
        return [PlannedCall(f"{rv.kind}:{rv.name}", [], 0, fixed_cost_usd=rv.cost_per_call_usd)]


class CommandKind(ExternalKind):
    """An external command that reads the manuscript and prints a review."""

    factory = command_reviewer
    options_model = CommandOptions


class HttpKind(ExternalKind):
    """An HTTP endpoint that receives the manuscript and returns a review."""

    factory = http_reviewer
    options_model = HttpOptions


class PythonKind(ExternalKind):
    """A Python function package.module:function that returns a review."""

    factory = python_reviewer
    options_model = PythonOptions


for _name, _kind, _description in (
    ("llm", LLMKind(), "a model reviewing under a protocol (system prompt + form)"),
    ("control", ControlKind(), "simulated null or injected-bias reviewer (no model call)"),
    ("scicore", SciCoreKind(), "dual-branch reviewer: strict full review and a science-core review, "
                               "overall = their mean"),
    ("reconstruct", ReconstructKind(), "ReconstructReview: rebuild a manuscript from its science core and "
                                       "review that under standard"),
    ("command", CommandKind(), "an external command that reads the manuscript and prints a review"),
    ("http", HttpKind(), "an HTTP endpoint that receives the manuscript and returns a review"),
    ("python", PythonKind(), "a Python function package.module:function that returns a review"),
):
    evaluators.add(_name, _kind, description=_description)
