"""Evaluator and rewriter kinds: each kind a study names (``kind:`` of a reviewer or a rewriter) is
one class registered in :data:`rhetorica.registry.evaluators` or :data:`rhetorica.registry.rewriters`.

A kind owns everything the study machinery needs to know about it, so the runner, planner, stages,
estimate, batch and status look the kind up and never dispatch on its name:

- its options model (``options_model``: the ``options:`` of a configuration of this kind, shown
  by ``rhetorica schema`` and ``rhetorica list``);
- the checks of a configuration when the study loads (:meth:`EvaluatorKind.check`,
  :meth:`RewriterKind.check`; a ``ValueError`` whose message the study file error shows);
- the model calls a unit will make (``planned_calls``: ``rhetorica estimate`` and ``batch``);
- a rewriter kind's prompt version (part of its variants' unit keys);
- ``execute(unit, ctx)``: runs one unit with the typed :class:`RunContext` and returns its row
  (a rewriter kind's made by :meth:`RewriterKind.variant_row`).

A plug-in adds a kind with one registration and no edit to rhetorica::

    from rhetorica.kinds import EvaluatorKind
    from rhetorica.registry import evaluators

    class LexiconKind(EvaluatorKind):
        options_model = LexiconOptions
        factory = LexiconReviewer

    evaluators.add("lexicon", LexiconKind(), description="scores by counted words")

A bare factory ``factory(name, **options) -> Evaluator`` registered as before is looked up as the
base :class:`EvaluatorKind` around it (:func:`evaluator_kind`): built with the configuration's
name, ``options`` and, when the configuration names one, its ``model``; no planned calls.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ValidationError, create_model

from rhetorica.evaluation import Evaluation, Evaluator, Target
from rhetorica.models.api import ModelAPI
from rhetorica.models.budget import Budget
from rhetorica.models.call import CallContext, ConnectionLimits
from rhetorica.registry import UnknownComponentError, evaluators, rewriters
from rhetorica.reviewers.defence import defend
from rhetorica.status import Status
from rhetorica.models.registry import get_model
from rhetorica.forms import Form
from rhetorica.rewriting.conditions import Condition
from rhetorica.store.rows import VariantRow



@dataclass
class RunContext:
    """What a unit of a run may use (never the runner itself).

    Attributes:
        config: the validated study (:class:`rhetorica.study.config.StudyConfig`).
        base_dir: folder relative paths of the study are resolved against.
        run_dir: the run directory (store, variant folders).
        store: the run's store (:class:`rhetorica.store.db.Store`); only the event-loop thread writes.
        log: the run's call log (response cache, call rows, recorded inputs).
        models: ``(model id or declared name, provider options) -> ModelAPI``, shared per run;
            raises the model's setup error (:class:`rhetorica.models.errors.ModelError`).
        limits: the run's per-connection limits and calls in flight.
        budget: the study budget (``None``: unlimited).
        embedder: the validation stage's embedding model (``None`` until loaded).
        validation_gate: one embedding job at a time.
        source_findings: document id -> hidden-instruction findings of its source (the scan).
        defended: (document id, content hash, defence) -> the defended input, one scan per input.
    """

    config: Any
    base_dir: Path
    run_dir: Path
    store: Any
    log: Any
    models: Callable[[str, dict[str, Any]], ModelAPI]
    limits: ConnectionLimits | None = None
    budget: Budget | None = None
    embedder: Any = None
    validation_gate: asyncio.Lock = field(default_factory=asyncio.Lock)
    source_findings: dict[str, list[Any]] = field(default_factory=dict)
    defended: dict[tuple[str, str, str], Any] = field(default_factory=dict)

    def model(self, model_id: str, options: dict[str, Any] | None = None) -> ModelAPI:
        """The run's shared model for ``model_id`` with provider ``options``.

        Raises:
            rhetorica.models.errors.ModelError: the model cannot be built (unknown provider, missing extra).
        """
        return self.models(model_id, dict(options or {}))

    def calls(self, unit_key: str) -> CallContext:
        """The call context of one unit: the run's call log, limits and budget."""
        return CallContext(log=self.log, unit_key=unit_key, limits=self.limits, budget=self.budget)


def options_error(exc: ValidationError) -> str:
    """``options.<where>: <problem>`` of the first error, as the study file writes the key."""
    first = exc.errors()[0]
    where, msg = ".".join(str(p) for p in first["loc"]), first["msg"].removeprefix("Value error, ")
    return f"options.{where}: {msg}" if where else msg


def stand_in_models(options: dict[str, Any]) -> dict[str, Any]:
    """``options`` plus ``model=`` (and ``extractor=`` when it names a model) as stand-in models:
    what a kind that takes a model is built with at load time to check its other options (the run
    builds it again with the real models)."""

    out = dict(options, model=get_model("mock/stand-in"))  # the registered mock provider, never called
    if isinstance(out.get("extractor"), str):
        out["extractor"] = get_model("mock/stand-in")
    return out


class EvaluatorKind:
    """A kind of evaluator (reviewer, judge, external system).

    Class attributes a kind sets:
        factory: ``factory(name, **options) -> Evaluator``.
        options_model: pydantic model of its ``options`` (``None``: not declared).
        simulated: reads no text and calls no model (``control``): the defence does not apply and
            its assessments store the kind as their model.
        reads_reference: its targets carry the paired reference review (judges).
        reads_core: reads the science core the extract stage stores (:mod:`rhetorica.study.extraction`).
        soft_ratings: it can return soft ratings (``soft_ratings: true``, :mod:`rhetorica.reviewers.soft_ratings`);
            a configuration of another kind asking for them is refused.
        provider_options: its ``options`` are the model provider's (``llm``): refused beside a
            declared model, whose options hold them.
        document_entries: the ``documents:`` entries it can read (``None``: any); with
            ``document_need``, the refusal's wording.
    """

    factory: ClassVar[Callable[..., Evaluator]]
    options_model: ClassVar[type[BaseModel] | None] = None
    simulated: ClassVar[bool] = False
    reads_reference: ClassVar[bool] = False
    reads_core: ClassVar[bool] = False
    provider_options: ClassVar[bool] = False
    soft_ratings: ClassVar[bool] = False
    #: an external system whose calls cost the reviewer's ``cost_per_call_usd`` each (not tokens)
    billed_per_call: ClassVar[bool] = False
    document_entries: ClassVar[tuple[str, ...] | None] = None
    document_need: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        found = cls.__dict__.get("factory")
        if inspect.isfunction(found):  # a plain function as the factory is not bound as a method
            cls.factory = staticmethod(found)  # type: ignore[assignment]

    def __init__(self, factory: Callable[..., Evaluator] | None = None) -> None:
        if factory is not None:
            self.factory = factory  # type: ignore[misc]

    def __call__(self, name: str, **options: Any) -> Evaluator:
        """Build an evaluator (the registry's factory protocol)."""
        return self.factory(name, **options)

    def reference_need(self, spec: Any) -> str | None:
        """Why every review ``spec`` judges needs a paired reference review (another review of its
        paper), in words naming what needs it (``family scholarpeer``); ``None``: it needs none."""
        return None

    def check(self, spec: Any) -> None:
        """Check a reviewer configuration (:class:`~rhetorica.study.config.ReviewerSpec`) when the
        study loads: built once with its options (on stand-in models when it names a model).

        Raises:
            ValueError: a bad option, named as the study file writes it.
        """
        options = spec.options.as_kwargs()
        if spec.model is not None:  # e.g. scicore, reconstruct: built on a stand-in to check the options
            options = stand_in_models(options)
        try:
            self.factory(spec.name, **options)
        except ValidationError as exc:  # one sentence, named as the study file writes it
            raise ValueError(f"reviewer {spec.name!r} of kind {spec.kind!r}: {options_error(exc)}") from None
        except (TypeError, ValueError) as exc:
            raise ValueError(f"reviewer {spec.name!r} of kind {spec.kind!r}: bad options: {exc}") from None

    def declared_form(self, spec: Any) -> Form:
        """The form of a configuration's assessments, known when the study loads (what other
        configurations that name it, e.g. an ``attack`` rewriter's ``metric``, are checked
        against): its evaluator built as :meth:`check` builds it, on stand-in models."""
        options = spec.options.as_kwargs()
        if spec.model is not None:
            options = stand_in_models(options)
        return self.factory(spec.name, **options).form

    def build(self, spec: Any, ctx: RunContext) -> Evaluator:
        """The evaluator of a configuration for a run: its options, and its model (and an
        ``extractor`` option naming a model, that model) from ``ctx``."""
        options = spec.options.as_kwargs()
        if spec.model is None:
            return self.factory(spec.name, **options)
        if isinstance(options.get("extractor"), str):  # SciCore/ReconstructReview: a second model by id
            options["extractor"] = ctx.model(options["extractor"])
        return self.factory(spec.name, model=ctx.model(spec.model), **options)

    def planned_calls(self, unit: Any) -> list[Any]:
        """The calls a review unit may make (:class:`~rhetorica.study.planned_calls.PlannedCall`:
        model calls with their repairs, or an external system's calls; transport retries not
        counted); none unless the kind declares them."""
        return []

    async def evaluate(self, evaluator: Evaluator, target: Target, unit: Any, ctx: RunContext) -> Evaluation:
        """Assess ``target`` once (a kind that reads more than the target overrides this)."""
        return await evaluator.evaluate(target, ctx.calls(unit.key))

    async def execute(self, unit: Any, ctx: RunContext) -> dict[str, Any]:
        """Run one review unit (:class:`~rhetorica.study.planner.ReviewUnit`): build the
        evaluator, defend its input as configured (every kind that reads text), assess; returns
        the ``assessments`` row with its scores and artefacts."""
        rv = unit.reviewer
        target = unit.target
        evaluator = self.build(rv, ctx)
        if not self.simulated:  # every evaluator that reads the text gets the configured defence
            memo = (unit.document_id, unit.document.content_hash, rv.defence)
            if memo not in ctx.defended:  # one scan per input, not per replicate and reviewer
                ctx.defended[memo] = defend(unit.document, rv.defence,
                                            source_findings=ctx.source_findings.get(unit.document_id))
            defended = ctx.defended[memo]
            target = replace(target, document=defended.document, notice=defended.notice)
        return review_row(unit, evaluator.form, await self.evaluate(evaluator, target, unit, ctx))


def review_row(unit: Any, form: Form, evaluation: Evaluation) -> dict[str, Any]:
    """The ``assessments`` row of ``evaluation``; its scores ride along under ``scores`` for the
    store (:meth:`rhetorica.store.db.Store.save_assessment`)."""
    rv = unit.reviewer
    ok = evaluation.status == Status.OK
    return {
        "unit_key": unit.key, "document_id": unit.document_id, "variant_key": unit.variant_key,
        "input_hash": unit.document.content_hash, "condition": unit.condition, "rewriter": unit.rewriter,
        "reviewer": rv.name, "model": rv.model_id, "protocol": rv.protocol, "form": form.label,
        "replicate": unit.replicate, "status": str(evaluation.status), "reason": evaluation.reason,
        "input_truncated": int(evaluation.input_truncated),
        "review_json": json.dumps(evaluation.payload) if ok and evaluation.payload else None,
        "raw_text": evaluation.raw_text, "scores": dict(evaluation.scores) if ok else {},
        "artefacts": dict(evaluation.artefacts),
    }


class RewriterKind:
    """A kind of rewriter.

    Class attributes a kind sets:
        needs_model: a rewriter of this kind must name a ``model``.
        options_model: pydantic model of its ``options`` (``None``: not declared).
        provider_options: its ``options`` are the model provider's (checked against the provider).
        uses_project: reads ``project`` settings and rewrites LaTeX projects (``latex_project``
            documents only); its follow-up conditions (``recursive:<n>``, ``guided``) are units of
            :mod:`rhetorica.study.workflow_stages`.
        agent: an external agent command edits the project (no paragraph model).
        project_settings: for a kind without ``uses_project``, the ``project`` settings it reads
            (when it rewrites a ``latex_project`` document); any other given is refused.
        document_entries: the ``documents:`` entries it can rewrite (``None``: any); with
            ``document_need``, the refusal's wording.
        own_stage: its units are planned and run by a stage of its own (registered beside the
            kind, e.g. :mod:`rhetorica.attack.stage`), not by the ``rewrite`` stage.
    """

    needs_model: ClassVar[bool] = False
    own_stage: ClassVar[bool] = False
    options_model: ClassVar[type[BaseModel] | None] = None
    provider_options: ClassVar[bool] = True
    uses_project: ClassVar[bool] = False
    agent: ClassVar[bool] = False
    project_settings: ClassVar[frozenset[str]] = frozenset()
    document_entries: ClassVar[tuple[str, ...] | None] = None
    document_need: ClassVar[str] = ""

    def refuses(self, condition: Condition) -> str | None:
        """Why this kind cannot produce ``condition`` (one sentence completing "rewriter <name> of
        kind <kind> ..."), or ``None`` when it can."""
        return None

    def check(self, spec: Any) -> None:
        """Check a rewriter configuration (:class:`~rhetorica.study.config.RewriterSpec`) beyond its
        model, conditions and ``project`` settings (which the study config checks by the attributes).

        Raises:
            ValueError: a bad option, named as the study file writes it.
        """

    def check_study(self, spec: Any, config: Any) -> None:
        """Check a rewriter configuration against the rest of the study
        (:class:`~rhetorica.study.config.StudyConfig`, e.g. the reviewers it names) when it loads.

        Raises:
            ValueError: the problem, named as the study file writes it.
        """

    def prompt_version(self, condition: str) -> str:
        """Version of what produces a variant of ``condition`` (hashed into its unit key)."""
        raise NotImplementedError

    def planned_calls(self, unit: Any) -> list[Any]:
        """The model calls a rewrite unit may make (repairs and truncation retries in their
        :attr:`~rhetorica.study.planned_calls.PlannedCall.term`); none by default."""
        return []

    def input_problems(self, spec: Any, documents: list[Any]) -> list[str]:
        """What makes a configuration unable to rewrite the study's loaded ``documents``
        (:class:`~rhetorica.documents.models.Document`), each problem one line naming the fix;
        reported with the inputs' problems before anything runs. None by default."""
        return []

    def variant_row(self, unit: Any, status: Status | str, variant: Any = None, reason: str | None = None) -> VariantRow:
        """The ``variants`` row of a rewrite unit (the one place a variant row is made): the unit's
        keys, this kind's prompt version for its condition, and the outcome (``status``, the
        variant :class:`~rhetorica.documents.models.Document` or ``None``, why it failed)."""
        return VariantRow(unit_key=unit.key, document_id=unit.document.id, condition=unit.condition,
                          rewriter=unit.rewriter.name, prompt_version=self.prompt_version(unit.condition),
                          original_hash=unit.document.content_hash, status=str(status), reason=reason,
                          content_hash=variant.content_hash if variant is not None else None,
                          document_json=variant.model_dump_json() if variant is not None else None)

    async def execute(self, unit: Any, ctx: RunContext) -> VariantRow:
        """Run one rewrite unit; returns its ``variants`` row (:meth:`variant_row`)."""
        raise NotImplementedError


def evaluator_kind(name: str) -> EvaluatorKind:
    """The evaluator kind registered as ``name`` (a bare factory is wrapped in :class:`EvaluatorKind`).

    Raises:
        UnknownComponentError: no evaluator of that name (the message lists the known ones).
    """
    found = evaluators.get(name)
    return found if isinstance(found, EvaluatorKind) else EvaluatorKind(found)


def rewriter_kind(name: str) -> RewriterKind:
    """The rewriter kind registered as ``name``.

    Raises:
        UnknownComponentError: no rewriter kind of that name, or a registration that is not a
            :class:`RewriterKind`.
    """
    found = rewriters.get(name)
    if not isinstance(found, RewriterKind):
        raise UnknownComponentError(f"rewriter {name!r} is registered as a {type(found).__name__}, "
                                    "not a rhetorica.kinds.RewriterKind")
    return found


def options_of(kind: Any) -> type[BaseModel] | None:
    """The options model of a registered evaluator or rewriter kind, without the fields the study
    sets from elsewhere (``study_fields``, e.g. a control's name); ``None`` when the kind declares none."""
    model = getattr(kind, "options_model", None)
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        return None
    hidden = set(getattr(kind, "study_fields", ()))
    if not hidden:
        return model
    fields: dict[str, Any] = {n: (f.annotation, f) for n, f in model.model_fields.items() if n not in hidden}
    return create_model(model.__name__ + "Options", __doc__=model.__doc__, **fields)


def option_lines(kind: Any) -> dict[str, str]:
    """Option name -> ``type (default …): description`` of a kind's options model (``rhetorica
    list``); empty when the kind declares none."""
    model = options_of(kind)
    if model is None:
        return {}
    out = {}
    for name, info in model.model_fields.items():
        annotation = info.annotation
        kind_text = annotation.__name__ if isinstance(annotation, type) else str(annotation).replace("typing.", "")
        default = "required" if info.is_required() else f"default {info.get_default(call_default_factory=True)!r}"
        out[name] = f"{kind_text} ({default})" + (f": {info.description}" if info.description else "")
    return out
