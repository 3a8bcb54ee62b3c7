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

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from rhetorica.documents.models import Document
from rhetorica.models.api import ChatMessage
from rhetorica.registry import stages as registry
from rhetorica.store import plan
from rhetorica.study import planner
from rhetorica.study.config import StudyConfig
from rhetorica.study.project_settings import PROJECT_KINDS

if TYPE_CHECKING:
    from rhetorica.store.db import Store


@dataclass(frozen=True)
class PlannedCall:
    """One model call a unit will make (estimate and batch).

    Attributes:
        model: model id as in the study file.
        messages: the messages, built by the same functions the runner uses.
        output_tokens: tokens expected back (rewrites: about the chunk's length) or the cap (reviews).
        upper_bound: a call that may not be made (a project rewrite's repair round): the estimate
            counts it apart, as an upper bound.
    """

    model: str
    messages: list[ChatMessage]
    output_tokens: int
    upper_bound: bool = False


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

    async def execute(self, runner: Any, unit: Any, log: Any) -> dict[str, Any]:
        """Run one unit; returns its result row."""
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


def approximate_tokens(text: str) -> int:
    """The model layer's token approximation (:meth:`rhetorica.models.api.ModelAPI.count_tokens`)."""
    from rhetorica.models.api import ModelAPI

    return ModelAPI.count_tokens(None, text)  # type: ignore[arg-type]  # the default uses no state


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

    async def execute(self, runner: Any, unit: Any, log: Any) -> dict[str, Any]:
        return await runner._rewrite(unit, log)

    def calls(self, unit: Any) -> list[PlannedCall]:
        from rhetorica.rewriting.llm import chunk_messages, split_chunks

        rw = unit.rewriter
        if rw.kind == "review" and rw.model is not None:  # one call rewrites the whole review
            from rhetorica.judges.study import review_messages

            return [PlannedCall(rw.served_model, review_messages(unit.document, unit.condition),
                                approximate_tokens(unit.document.to_markdown()))]
        if rw.kind in PROJECT_KINDS:  # paragraphs of a LaTeX project (rhetorica.study.project_rewrite)
            from rhetorica.study.project_rewrite import planned_calls

            return planned_calls(unit)
        if rw.kind != "llm" or rw.model is None:
            return []
        return [PlannedCall(rw.served_model, chunk_messages(unit.condition, chunk), approximate_tokens(chunk))
                for section in unit.document.sections if section.text.strip()
                for chunk in split_chunks(section.text, rw.max_chunk_words)]

    def stand_in_reply(self, messages: list[ChatMessage]) -> str | None:
        from rhetorica.rewriting.marker import TEXT_MARKER

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
        return not pending or runner._load_embedder(summary.problems)

    async def execute(self, runner: Any, unit: Any, log: Any) -> dict[str, Any]:
        return await runner._validate(unit, log)

    def save(self, store: Store, row: dict[str, Any]) -> str:
        status = row.pop("status")
        store.replace_check(row)  # the one current check of its variant
        return str(status)


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
        runner._scan(planner.review_targets(inputs["document"], inputs.get("variant") or []), summary)
        return True

    async def execute(self, runner: Any, unit: Any, log: Any) -> dict[str, Any]:
        return await runner._review(unit, log)

    def save(self, store: Store, row: dict[str, Any]) -> str:
        status = str(row["status"])
        scores, artefacts = row.pop("scores"), row.pop("artefacts", None)
        store.save_assessment(row, scores, artefacts)  # the row, its long scores, its artefacts: one transaction
        return status

    def calls(self, unit: Any) -> list[PlannedCall]:
        from rhetorica.reviewers.llm_reviewer import DEFAULT_REVIEW_TOKENS, manuscript_text
        from rhetorica.reviewers.protocols import get_protocol, system_prompt

        rv = unit.reviewer
        if rv.kind == "control" or rv.model is None:  # simulated: no model call
            return []
        if rv.kind == "judge":  # the judge's own calls (a family per call, or one per metric/point)
            from rhetorica.judges.judge import DEFAULT_JUDGE_TOKENS
            from rhetorica.judges.study import planned_judge_calls

            return [PlannedCall(rv.served_model, call.messages(), rv.sampling.max_tokens or DEFAULT_JUDGE_TOKENS)
                    for call in planned_judge_calls(rv, unit.target)]
        text, _ = manuscript_text(unit.document, rv.max_input_words)
        # SciCore: two reviews (the record about as long as the text); ReconstructReview: the rebuild
        # and its review (the extraction is the extract stage's unit)
        protocol, count = {"scicore": ("strict-iclr", 2), "reconstruct": ("standard", 2)}.get(rv.kind, (rv.protocol, 1))
        messages = [ChatMessage(role="system", content=system_prompt(get_protocol(protocol))),
                    ChatMessage(role="user", content=text)]
        return [PlannedCall(rv.served_model, messages, rv.sampling.max_tokens or DEFAULT_REVIEW_TOKENS)] * count


def _with_reference(unit: planner.ReviewUnit, documents: list[Document]) -> planner.ReviewUnit:
    """A judge's review unit with its target's paired reference review
    (:func:`rhetorica.judges.study.reference_review`; ``None`` when the paper has no other review)."""
    if unit.reviewer.kind != "judge":
        return unit
    from dataclasses import replace

    from rhetorica.judges.study import is_review, reference_review

    if not is_review(unit.document):
        return unit
    return replace(unit, target=replace(unit.target, reference=reference_review(unit.document, documents)))


for _stage in (RewriteStage(), ValidateStage(), ReviewStage()):
    registry.add(_stage.name, _stage, description=(type(_stage).__doc__ or "").strip().splitlines()[0])


