"""The built-in stages of a study, registered in :data:`rhetorica.registry.stages`.

A stage is one kind of work unit (ARCHITECTURE.md, "Stages are pure functions over a store"): it
declares the kinds it *consumes* and the kind it *produces*, plans its units from its inputs, runs
one unit, stores its result, reads its outputs back for the stages after it, and lists the model
calls a unit will make (for ``rhetorica estimate`` and ``rhetorica batch``). The unit graph
(:func:`rhetorica.study.graph.walk`) orders the stages by these kinds; no other module names the
stage list.

Kinds: ``document`` (the study's documents), ``variant`` (:class:`~rhetorica.study.planner.Variant`),
``checks`` (:class:`~rhetorica.study.planner.Check`), ``assessment``
(:class:`~rhetorica.study.planner.Assessment`); stages over assessments (``annotation``) and
documents (``extract``) declare their own.

=========  ==========================  ==========  ============
stage      consumes                    produces    table
=========  ==========================  ==========  ============
rewrite    document                    variant     variants
validate   variant                     checks      checks
extract    document, variant, checks   extract     extracts (:mod:`.extraction`; before review by
                                                               order, review reads its cores)
review     document, variant, checks   assessment  assessments
annotate   assessment                  annotation  annotations (:mod:`.annotation`)
=========  ==========================  ==========  ============
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from typing import Any, Protocol, runtime_checkable

from rhetorica.documents.models import Document
from rhetorica.documents.reviews.model import is_review, reference_review
from rhetorica.kinds import RunContext, evaluator_kind, rewriter_kind
from rhetorica.models.api import ChatMessage
from rhetorica.problems import WARNING_PREFIX
from rhetorica.registry import stages as registry, variant_validators
from rhetorica.store import plan
from rhetorica.study import planner
from rhetorica.study.config import StudyConfig
from rhetorica.study.planned_calls import PlannedCall
from rhetorica.validation.validate import CheckVerdict, validate_variant
from rhetorica.marker import TEXT_MARKER
from rhetorica.store.db import Store
from rhetorica.store.rows import CheckRow, VariantRow



@runtime_checkable
class Stage(Protocol):
    """A registered stage.

    Attributes:
        name: the stage's name (progress, problems, summaries, the plan).
        consumes: kinds it plans its units from.
        produces: the kind of its outputs.
        table: the store table its unit results go to (its units' ``unit_key`` column).
        plan: name under which its unit keys are recorded as the current plan
            (:func:`rhetorica.store.plan.record_plan`); stages storing into one table share it;
            ``None`` when its results are current with their inputs (checks).
        order: tie-break among stages ready at the same point of the walk (lower first).
        stops_when_malformed: a configuration whose first units of a run are all ``malformed``
            is stopped (:data:`rhetorica.study.runner.MALFORMED_STOP_MIN`).
    """

    name: str
    consumes: tuple[str, ...]
    produces: str
    table: str
    plan: str | None
    order: int
    stops_when_malformed: bool

    def applies(self, config: StudyConfig) -> bool:
        """Whether the study has this stage at all."""
        ...

    def units(self, config: StudyConfig, inputs: dict[str, Any]) -> list[Any]:
        """Every unit of the study for the inputs available (kind -> typed inputs)."""
        ...

    def outputs(self, store: Store | None, units: list[Any], assume_pending: bool) -> list[Any]:
        """The typed outputs of ``units`` read from ``store`` (only ``ok`` results); with
        ``assume_pending``, an assumed output for each unit not stored yet."""
        ...

    def statuses(self, store: Store) -> dict[str, str]:
        """Stored status of every unit of this stage's table by key."""
        ...

    def finished(self, store: Store, retry_failed: bool) -> set[str]:
        """Keys of stored units a run skips (failures excluded with ``retry_failed``)."""
        ...

    def prepare(self, runner: Any, inputs: dict[str, Any], pending: list[Any], summary: Any) -> bool:
        """Runner only (``runner`` is the :class:`~rhetorica.study.runner.StudyRunner`, ``summary``
        its run summary): set up before the pending units run; False skips the stage."""
        ...

    async def execute(self, unit: Any, ctx: RunContext) -> dict[str, Any]:
        """Run one unit in the run context ``ctx``; returns its result row."""
        ...

    def save(self, store: Store, row: dict[str, Any]) -> str:
        """Store one result row in one transaction; returns the unit's status."""
        ...

    def calls(self, unit: Any) -> list[PlannedCall]:
        """The model calls ``unit`` will make (repairs and retries not counted)."""
        ...

    def stand_in_reply(self, messages: list[ChatMessage]) -> str | None:
        """What a batch capture run's stand-in model answers to a call of this stage: text that
        lets the unit go on making its calls, or ``None`` for an error (nothing more is asked)."""
        ...


class TableStage:
    """Defaults shared by stages whose results are rows of one table with a ``status`` column."""

    plan: str | None = None
    order = 100
    stops_when_malformed = False

    def statuses(self, store: Store) -> dict[str, str]:
        return plan.unit_statuses(store, self.table)  # type: ignore[attr-defined]

    def finished(self, store: Store, retry_failed: bool) -> set[str]:
        return plan.finished_keys(store, self.table, retry_failed)  # type: ignore[attr-defined]

    def prepare(self, runner: Any, inputs: dict[str, Any], pending: list[Any], summary: Any) -> bool:
        return True

    def save(self, store: Store, row: dict[str, Any]) -> str:
        store.insert(self.table, row)  # type: ignore[attr-defined]
        return str(row["status"])

    def calls(self, unit: Any) -> list[PlannedCall]:
        return []

    def stand_in_reply(self, messages: list[ChatMessage]) -> str | None:
        return None


class RewriteStage(TableStage):
    """document -> variant: every (document, rewriter, condition) cell."""

    name = "rewrite"
    consumes = ("document",)
    produces = "variant"
    table = "variants"
    plan = "rewrite"
    order = 10

    def applies(self, config: StudyConfig) -> bool:
        return True

    def units(self, config: StudyConfig, inputs: dict[str, Any]) -> list[Any]:
        return planner.rewrite_units(inputs["document"], config.rewriters)

    def outputs(self, store: Store | None, units: list[Any], assume_pending: bool) -> list[planner.Variant]:
        by_key = {u.key: u for u in units}
        stored = plan.ok_variants(store, set(by_key)) if store is not None else []
        found = [planner.Variant(Document.model_validate_json(doc), by_key[key].document, condition, rewriter, key)
                 for key, condition, rewriter, doc in stored]
        if not assume_pending:
            return found
        done = set(store and self.statuses(store) or {})
        return found + [planner.Variant(u.document, u.document, u.condition, u.rewriter.name, u.key, assumed=True)
                        for u in units if u.key not in done]

    async def execute(self, unit: Any, ctx: RunContext) -> VariantRow:
        return await rewriter_kind(unit.rewriter.kind).execute(unit, ctx)

    def save(self, store: Store, row: VariantRow | dict[str, Any]) -> str:
        """Store the unit's ``variants`` row (:meth:`rhetorica.kinds.RewriterKind.variant_row`; a
        project rewrite's row, still a mapping, is validated as a :class:`VariantRow` here) under
        this stage (:meth:`stage_row`)."""
        variant = self.stage_row(row)
        store.insert(self.table, variant.model_dump())
        return variant.status

    def stage_row(self, row: VariantRow | dict[str, Any]) -> VariantRow:
        """``row`` validated as a :class:`VariantRow` whose ``stage`` is this stage's :attr:`name`:
        the one record of which stage of the unit graph made a variant (the report's failures and
        the study flow read it; ``rhetorica run`` counts the same stages as it walks them).

        Raises:
            pydantic.ValidationError: ``row`` is not a valid ``variants`` row.
        """
        fields = row.model_dump() if isinstance(row, VariantRow) else dict(row)
        return VariantRow.model_validate({**fields, "stage": self.name})

    def calls(self, unit: Any) -> list[PlannedCall]:
        return rewriter_kind(unit.rewriter.kind).planned_calls(unit)

    def stand_in_reply(self, messages: list[ChatMessage]) -> str | None:

        last = next((m.content for m in reversed(messages) if m.role == "user"), "")
        return last.rpartition(TEXT_MARKER)[2]  # the chunk unchanged: every chunk's call is made


class ValidateStage(TableStage):
    """variant -> checks: each variant against its original (no model call)."""

    name = "validate"
    consumes = ("variant",)
    produces = "checks"
    table = "checks"
    order = 20

    def applies(self, config: StudyConfig) -> bool:
        return config.validation.enabled

    def units(self, config: StudyConfig, inputs: dict[str, Any]) -> list[Any]:
        return planner.validate_units(inputs.get("variant") or [], config.validation)

    def outputs(self, store: Store | None, units: list[Any], assume_pending: bool) -> list[planner.Check]:
        passed = plan.passed_variant_keys(store) if store is not None else set()
        done = self.statuses(store) if store is not None and assume_pending else {}
        return [planner.Check(u.variant_key, None if (assume_pending and u.key not in done)
                              else u.variant_key in passed) for u in units]

    def statuses(self, store: Store) -> dict[str, str]:
        return plan.check_statuses(store)

    def finished(self, store: Store, retry_failed: bool) -> set[str]:
        return plan.finished_checks(store, retry_failed)

    def prepare(self, runner: Any, inputs: dict[str, Any], pending: list[Any], summary: Any) -> bool:
        return not pending or runner.load_embedder(summary.problems)

    async def execute(self, unit: Any, ctx: RunContext) -> tuple[CheckRow, str]:
        """Check one variant against its original (a review variant: points, scores, length,
        shift); returns its ``checks`` row and the unit's status (:attr:`CheckVerdict.status`; a
        variant that cannot be checked is an ``error``)."""
        settings = ctx.config.validation
        try:
            async with ctx.validation_gate:  # one embedding job at a time
                if unit.original.kind in variant_validators:  # e.g. review variants (the judges package)
                    verdict = await asyncio.to_thread(variant_validators.get(unit.original.kind), unit.original,
                                                      unit.variant.document, unit.condition, ctx.embedder, settings)
                else:
                    result = await asyncio.to_thread(validate_variant, unit.original, unit.variant.document,
                                                     settings.thresholds, embedder=ctx.embedder,
                                                     condition=unit.condition)
                    verdict = CheckVerdict(passed=result.passed, reasons=result.reasons,
                                           result_json=result.model_dump_json())
        except ValueError as exc:  # e.g. a variant whose sections do not match its original
            reason = f"could not validate: {exc}"
            verdict = CheckVerdict(passed=False, reasons=[reason], result_json=json.dumps({"error": reason}), error=True)
        row = CheckRow(unit_key=unit.key, variant_key=unit.variant_key, document_id=unit.variant.document.id,
                       condition=unit.condition, rewriter=unit.rewriter, passed=int(verdict.passed),
                       reasons_json=json.dumps(verdict.reasons), result_json=verdict.result_json)
        return row, verdict.status

    def save(self, store: Store, row: tuple[CheckRow, str]) -> str:
        check, status = row
        store.replace_check(check.model_dump())  # the one current check of its variant
        return status


class ReviewStage(TableStage):
    """target -> assessment: every (original or variant, reviewer, replicate) cell.

    Variants that failed validation are left out under ``validation.failed_variants: exclude``
    (a variant whose check is pending is assumed to pass; when the validation stage was skipped,
    every variant is reviewed).
    """

    name = "review"
    consumes = ("document", "variant", "checks")
    produces = "assessment"
    table = "assessments"
    plan = "review"
    order = 30
    stops_when_malformed = True

    def applies(self, config: StudyConfig) -> bool:
        return True

    def units(self, config: StudyConfig, inputs: dict[str, Any]) -> list[Any]:
        variants = inputs.get("variant") or []
        checks = inputs.get("checks")
        if checks is not None and config.validation.failed_variants == "exclude":
            passing = {c.variant_key for c in checks if c.passed is not False}
            variants = [v for v in variants if v.key in passing]
        units = planner.review_units(inputs["document"], variants, config.reviewers, config.replicates)
        return [_with_reference(u, inputs["document"]) for u in units]

    def outputs(self, store: Store | None, units: list[Any], assume_pending: bool) -> list[planner.Assessment]:
        by_key = {u.key: u for u in units}
        rows = plan.ok_rows(store, self.table, set(by_key)) if store is not None else []
        found = [planner.Assessment(r["unit_key"], by_key[r["unit_key"]].target, r["reviewer"], r) for r in rows]
        if not assume_pending:
            return found
        done = set(store and self.statuses(store) or {})
        return found + [planner.Assessment(u.key, u.target, u.reviewer.name, {}, assumed=True)
                        for u in units if u.key not in done]

    def prepare(self, runner: Any, inputs: dict[str, Any], pending: list[Any], summary: Any) -> bool:
        runner.scan(planner.review_targets(inputs["document"], inputs.get("variant") or []), summary)
        return True

    async def execute(self, unit: Any, ctx: RunContext) -> dict[str, Any]:
        return await evaluator_kind(unit.reviewer.kind).execute(unit, ctx)

    def save(self, store: Store, row: dict[str, Any]) -> str:
        status = str(row["status"])
        scores, artefacts = row.pop("scores"), row.pop("artefacts", None)
        store.save_assessment(row, scores, artefacts)  # the row, its long scores, its artefacts: one transaction
        return status

    def calls(self, unit: Any) -> list[PlannedCall]:
        return evaluator_kind(unit.reviewer.kind).planned_calls(unit)


def _with_reference(unit: planner.ReviewUnit, documents: list[Document]) -> planner.ReviewUnit:
    """The review unit of a kind that reads a reference (a judge) with its target's paired reference
    review (:func:`rhetorica.documents.reviews.model.reference_review`; ``None`` when the paper has no other review)."""
    if not evaluator_kind(unit.reviewer.kind).reads_reference or not is_review(unit.document):
        return unit
    return replace(unit, target=replace(unit.target, reference=reference_review(unit.document, documents)))


def reference_warnings(config: StudyConfig, documents: list[Document]) -> list[tuple[str, str, str]]:
    """``("study", "reviewer <name>", "warning: …")`` for each reviewer whose kind needs a reference
    review (:meth:`rhetorica.kinds.EvaluatorKind.reference_need`) when some of the study's reviews have
    none (:func:`rhetorica.documents.reviews.model.reference_review`): those reviews' judgements, and
    their rewrites', will be ``error`` units. Found before any call (``rhetorica estimate``, a run's start)."""
    reviews = [d for d in documents if is_review(d)]
    missing = sum(reference_review(d, reviews) is None for d in reviews)
    if not missing:
        return []
    out = []
    for spec in config.reviewers:
        need = evaluator_kind(spec.kind).reference_need(spec)
        if need:
            out.append(("study", f"reviewer {spec.name}", (
                f"{WARNING_PREFIX}{need} compares each review with another review of its paper: {missing} of "
                f"{len(reviews)} reviews have none (their paper has one review in the study); their judgements "
                "and their rewrites' will fail")))
    return out


for _stage in (RewriteStage(), ValidateStage(), ReviewStage()):
    registry.add(_stage.name, _stage, description=(type(_stage).__doc__ or "").strip().splitlines()[0])


