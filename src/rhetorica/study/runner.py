"""Runner: executes a study's work units against the store, resumably.

- Units already in the store are skipped, so a re-run of a finished study makes zero model calls.
- Each unit's result is committed in one transaction when the unit ends; each paid model call is
  cached as soon as it returns. A run killed at any point resumes with nothing lost or duplicated.
- Only the event-loop thread writes to the store (one writer); model calls run concurrently.
- Failures are data: a unit's failure is stored with its status and reason; problems that are not a
  unit's result (unreadable document, unknown provider, budget reached) go to the ``problems`` table.
- Transient is not final: a unit one of whose calls ended in transient failures only (rate limits,
  server errors, resets, timeouts; ``ModelOutput.transient``) is not stored but left pending, said
  as a problem of its configuration (the run exits 1), and a plain re-run runs it again.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from rhetorica.documents.inputs import ReviewerInput
from rhetorica.documents.models import Document
from rhetorica.hashing import content_hash
from rhetorica.kinds import RunContext
from rhetorica.models.api import GenerateConfig, ModelAPI, ModelOutput
from rhetorica.models.breaker import EndpointDownError
from rhetorica.models.budget import Budget, BudgetExceededError
from rhetorica.models.cache import Caller
from rhetorica.models.call import ConnectionLimits
from rhetorica.models.endpoints import build_pool
from rhetorica.models.errors import ModelError
from rhetorica.models.redaction import redact_urls
from rhetorica.models.registry import get_model
from rhetorica.models.store_log import StoreCallLog
from rhetorica.status import Status
from rhetorica.store import plan, runs
from rhetorica.store.db import Store
from rhetorica.store.lock import lock_holder
from rhetorica.study import graph, planner, scheduling
from rhetorica.study.scheduling import PROMPT_CACHE_EVENT, configuration_name as _configuration_name
from rhetorica.study.config import StudyConfig
from rhetorica.study.inputs import load_documents, resolve_run_dir
from rhetorica.study.model_warnings import option_warnings
from rhetorica.study.stages import Stage, reference_warnings
from rhetorica.registry import stages
from rhetorica.study.scanning import StoreScanCache, scan_inputs
from rhetorica.validation.embeddings import load_embedder
from rhetorica.wording import counted

ModelFactory = Callable[[str, dict[str, Any]], ModelAPI]


class ProgressSink(Protocol):
    """Receives progress events (the CLI shows them as rich progress bars). A sink may also have
    ``note(text)``: one line about what the run is doing (an endpoint paused or resumed, calls
    waiting out a 429); the runner calls it when present."""

    def start(self, stage: str, total: int) -> None: ...
    def advance(self, stage: str) -> None: ...


class _NoProgress:
    def start(self, stage: str, total: int) -> None:
        pass

    def advance(self, stage: str) -> None:
        pass


@dataclass
class RunSummary:
    """What one ``run`` did.

    Attributes:
        units_total: units in the study matrix that could be planned.
        units_skipped: units already in the store before this run.
        units_run: units executed now.
        model_calls: provider requests made now (cache hits excluded; a retried call counts once per attempt;
            structured-output probes included).
        model_retries: of those, requests of a retried attempt (after a transient failure or a 429),
            counted once per attempt.
        cache_hits: calls answered from the response cache.
        statuses: count of unit results by status, this run.
        stage_statuses: the same counts split by stage (rewrite, validate, review).
        problems: (stage, item, reason) of problems met this run.
        scan_flagged: (input, max severity, count) of inputs whose hidden-instruction scan has
            findings at or above medium (:mod:`rhetorica.study.scanning`).
        units_pending: units of this run's stages left pending: not run because their
            configuration stopped or the budget was reached, or run but ended in transient
            failures only (a later run resumes them).
        units_transient: of ``units_pending``, the units left pending after transient failures.
        endpoint_events: ``(endpoint, event, detail)`` of each pause and resume of an endpoint
            by its circuit breaker this run.
        probes: of ``model_calls``, requests sent to find an endpoint's structured-output mode.
        abandoned_calls: calls of earlier runs that never came back (left in flight by a process
            that ended), as ``(calls, reserved USD, counted USD)``: the reserved worst case, and
            the input cost the budget counts for them; the provider may still bill them in full.
        budget_stopped: True when the budget stopped new calls.
        spent_usd: money the store's call log counts as spent after the run (US dollars).
        stopped_configurations: reviewer/rewriter name -> why its remaining units were not run
            (a configuration error such as an unknown model or a rejected key, or every review
            malformed, see :data:`MALFORMED_STOP_MIN`); a non-empty dict is a failed run.
        wall_time_s: seconds.
    """

    units_total: int = 0
    units_skipped: int = 0
    units_run: int = 0
    model_calls: int = 0
    model_retries: int = 0
    cache_hits: int = 0
    units_pending: int = 0
    units_transient: int = 0
    probes: int = 0
    abandoned_calls: tuple[int, float, float] = (0, 0.0, 0.0)
    statuses: Counter[str] = field(default_factory=Counter)
    stage_statuses: dict[str, Counter[str]] = field(default_factory=dict)
    problems: list[tuple[str, str, str]] = field(default_factory=list)
    scan_flagged: list[tuple[str, str, int]] = field(default_factory=list)
    budget_stopped: bool = False
    spent_usd: float = 0.0
    stopped_configurations: dict[str, str] = field(default_factory=dict)
    endpoint_events: list[tuple[str, str, str]] = field(default_factory=list)
    wall_time_s: float = 0.0


#: A reviewer configuration whose first this-many reviews of a run are all ``malformed`` is stopped:
#: its form or protocol does not work with its model, and further calls would only repeat that.
MALFORMED_STOP_MIN = 5

#: Seconds between two terminal notices that calls to one endpoint wait out 429s.
WAIT_NOTICE_S = 10.0


def stopped_earlier(statuses: dict[str, str], units: list[Any]) -> dict[str, str]:
    """Configurations stopped by the malformed rule in an earlier run, name -> why: at least
    :data:`MALFORMED_STOP_MIN` of its ``units`` are stored and every stored one is ``malformed``.
    Such a configuration is not asked again on a re-run (it would only repeat the answers that
    stopped it); ``--retry-failed`` asks again."""
    stored: dict[str, list[str]] = {}
    for unit in units:
        if unit.key in statuses:
            stored.setdefault(_configuration_name(unit), []).append(statuses[unit.key])
    return {name: (f"stopped in an earlier run: all {len(found)} stored reviews are malformed (rule: the first "
                   f"{MALFORMED_STOP_MIN} or more reviews of a configuration all malformed); not asked again, "
                   "--retry-failed asks again")
            for name, found in stored.items()
            if len(found) >= MALFORMED_STOP_MIN and all(s == str(Status.MALFORMED) for s in found)
            and len(found) < sum(1 for u in units if _configuration_name(u) == name)}


class _CountingLog:
    """Wraps the store's call log to count this run's real calls, retries and cache hits, and notes
    the units whose calls met a configuration error or ended in transient failures only."""

    def __init__(self, store: Store, summary: RunSummary) -> None:
        self.store = StoreCallLog(store)
        self._rows = store
        self.summary = summary
        #: unit key -> reason of a configuration error met by one of its calls
        self.configuration_errors: dict[str, str] = {}
        #: unit key -> reason of the last transient failure that ended one of its calls
        self.transient: dict[str, str] = {}
        self._units: dict[int, str | None] = {}
        self._retried: set[tuple[str | None, str, int]] = set()  # (unit key, cache key, attempt) of retries sent
        self._kept_inputs: set[str] = set()  # input hashes whose text this log has stored

    def cache_get(self, key: str) -> ModelOutput | None:
        return self.store.cache_get(key)

    def cache_put(self, key: str, output: ModelOutput) -> None:
        self.store.cache_put(key, output)

    def _note(self, unit_key: str | None, output: ModelOutput) -> None:
        if output.stops_configuration and unit_key is not None:
            self.configuration_errors.setdefault(unit_key, output.error or "configuration error")
        if output.transient and unit_key is not None:
            self.transient[unit_key] = output.error or "transient failure"

    def record_call(self, unit_key: str | None, key: str, output: ModelOutput, config: GenerateConfig) -> None:
        if output.cache_hit:
            self.summary.cache_hits += 1
        else:
            self.summary.model_calls += 1
        self._note(unit_key, output)
        self.store.record_call(unit_key, key, output, config)

    def begin_call(self, unit_key: str | None, key: str, model: Caller, config: GenerateConfig,
                   reserved_usd: float, *, input_usd: float = 0.0, probe: bool = False, attempt: int = 1) -> int:
        self.summary.model_calls += 1
        self.summary.probes += int(probe)
        if attempt > 1 and (unit_key, key, attempt) not in self._retried:  # an attempt's probes: one retry
            self.summary.model_retries += 1
            self._retried.add((unit_key, key, attempt))
        call_id = self.store.begin_call(unit_key, key, model, config, reserved_usd, input_usd=input_usd, probe=probe,
                                        attempt=attempt)
        self._units[call_id] = unit_key
        return call_id

    def finish_call(self, call_id: int, output: ModelOutput, config: GenerateConfig,
                    cache_key: str | None = None) -> None:
        self._note(self._units.get(call_id), output)
        self.store.finish_call(call_id, output, config, cache_key)

    def record_input(self, unit_key: str, item: ReviewerInput) -> None:
        """Keep a text a unit sends, with its blinding audit (:mod:`rhetorica.documents.inputs`);
        a text this run kept already (the next replicate's) is only linked to the unit."""
        input_hash = item.input_hash
        if input_hash in self._kept_inputs:
            self._rows.link_input(unit_key, item.role, input_hash)
            return
        self._rows.record_input(unit_key, {
            "role": item.role, "input_hash": input_hash, "text": item.text, "truncated": item.truncated,
            "removed_json": json.dumps([r.model_dump() for r in item.removed])})
        self._kept_inputs.add(input_hash)  # committed: the store holds its text from now on

    def accepted_mode(self, endpoint: str) -> str | None:
        return self.store.accepted_mode(endpoint)

    def save_accepted_mode(self, endpoint: str, mode: str) -> None:
        self.store.save_accepted_mode(endpoint, mode)



class StudyRunner:
    """Plans and runs one study.

    Args:
        config: the validated study.
        base_dir: folder that relative paths in the study are resolved against.
        run_dir: override of ``config.output_dir``.
        progress: progress sink.
        model_factory: ``(model_id, options) -> ModelAPI``; tests inject mock models here.
        embedder: embedding model for the validation stage (default: loaded from
            ``config.validation.embedding_model`` when first needed).
    """

    def __init__(
        self,
        config: StudyConfig,
        base_dir: Path,
        *,
        run_dir: Path | None = None,
        progress: ProgressSink | None = None,
        model_factory: ModelFactory | None = None,
        embedder: Any = None,
    ) -> None:
        self.config = config
        self.base_dir = base_dir
        self.run_dir = resolve_run_dir(config, base_dir, run_dir)
        self.progress = progress or _NoProgress()
        self.model_factory = model_factory or (lambda model_id, options: get_model(model_id, **options))
        self.store = Store.in_dir(self.run_dir)
        self._models: dict[str, ModelAPI | ModelError] = {}
        self._embedder: Any = embedder
        self.budget: Budget | None = None
        self.limits = ConnectionLimits(breaker=config.circuit_breaker, retry=config.retries,
                                       on_event=self._endpoint_event)
        self._summary: RunSummary | None = None  # the summary of the run in progress
        self._said_waiting: dict[str, float] = {}  # endpoint -> when the terminal last said it waits
        self._probed: dict[str, scheduling.CacheModel] = {}  # model -> its server's cache, probed in the current run
        self._ctx = self._run_context(None)  # each run makes its own, with its call log and budget
        #: (stage, its units) of each step the last :meth:`run` walked: the study's current units by stage
        self.walked: list[tuple[Stage, list[Any]]] = []

    # -- inputs ----------------------------------------------------------------------------------
    def load_documents(self, problems: list[tuple[str, str, str]]) -> list[Document]:
        """Read every document of the study (see :func:`rhetorica.study.inputs.load_documents`)."""

        return load_documents(self.config, self.base_dir, problems, self.run_dir, scan_cache=StoreScanCache(self.store))

    def _store_documents(self, documents: list[Document]) -> None:
        for doc in documents:
            scores = doc.human_scores
            human = sum(scores) / len(scores) if scores else None
            self.store.insert("documents", {
                "document_id": doc.id, "content_hash": doc.content_hash, "kind": doc.kind, "title": doc.title,
                "human_score": human, "document_json": doc.model_dump_json(),
            })

    def model(self, model_id: str, options: dict[str, Any]) -> ModelAPI:
        """Shared model instance per (model id, options); raises the setup error again if it failed.

        ``model_id`` is an inline id (built by the model factory) or the name of a declared model
        of the study's ``models:`` section: a pool of its endpoints, each built by the model
        factory (:func:`rhetorica.models.endpoints.build_pool`).
        """
        key = content_hash(model_id, options)
        if key not in self._models:
            declared = self.config.models.get(model_id)
            try:
                if declared is None:
                    self._models[key] = self.model_factory(model_id, options)
                else:
                    self._models[key] = build_pool(
                        model_id, declared.provider, declared.model, declared.options.as_kwargs(),
                        [e.settings() for e in declared.endpoints], self.model_factory,
                        cooldown_s=declared.cooldown_s)
            except ModelError as exc:
                self._models[key] = exc
        found = self._models[key]
        if isinstance(found, ModelError):
            raise found
        return found

    def _endpoint_event(self, endpoint: str, event: str, detail: str) -> None:
        """An endpoint paused, resumed or rate-limited (:class:`ConnectionLimits`): said on the
        terminal (a wait at most once per :data:`WAIT_NOTICE_S` per endpoint) and, for a pause or
        resume, kept in the store's ``endpoint_events`` and the run's summary."""
        note = getattr(self.progress, "note", None)  # a ProgressSink may not print notes
        if event == "waiting":
            now = time.monotonic()
            if now - self._said_waiting.get(endpoint, -WAIT_NOTICE_S) < WAIT_NOTICE_S:
                return
            self._said_waiting[endpoint] = now
        else:
            self.store.record_endpoint_event(endpoint, event, detail)
            if self._summary is not None:
                self._summary.endpoint_events.append((endpoint, event, detail))
        if note is not None:
            note(detail)

    # -- stages ----------------------------------------------------------------------------------
    def _spent_usd(self) -> float:
        return self.store.spent_usd()

    def _over_budget(self) -> bool:
        return self.config.budget_usd is not None and self._spent_usd() >= self.config.budget_usd

    def _run_context(self, log: _CountingLog | None) -> RunContext:
        """The typed context every unit of this run gets (never the runner itself)."""
        return RunContext(config=self.config, base_dir=self.base_dir, run_dir=self.run_dir, store=self.store,
                          log=log, models=self.model, limits=self.limits, budget=self.budget,
                          embedder=self._embedder)

    def load_embedder(self, problems: list[tuple[str, str, str]]) -> bool:
        """Load the embedding model once; a missing extra or model is a problem, not a crash."""
        if self._embedder is None:
            try:
                self._embedder = self._ctx.embedder = load_embedder(self.config.validation.embedding_model)
            except (ImportError, OSError) as exc:
                problems.append(("validate", self.config.validation.embedding_model,
                                 f"validation skipped, variants are reviewed unvalidated: {exc} "
                                 "(install with: pip install 'rhetorica[validation]')"))
                return False
        return True

    async def _probe_caches(self, units: list[Any]) -> None:
        """Probe, once per run, the servers of the models among ``units`` whose cache model is asked of
        the server (:func:`rhetorica.study.scheduling.probe_caches`); each answer is said on the
        terminal and kept in the store's ``endpoint_events`` (event ``prompt-cache``, the report's
        usage table reads it)."""
        found = await scheduling.probe_caches(units, self.config.models, self._probed)
        note = getattr(self.progress, "note", None)
        for model, cache in found.items():
            self._probed[model] = cache
            self.store.record_endpoint_event(redact_urls(model), PROMPT_CACHE_EVENT, cache.label())
            if note is not None:
                note(f"prompt cache of {redact_urls(model)}: {cache.label()}")

    async def _execute(self, stage: Stage, units: list[Any], ctx: RunContext, summary: RunSummary,
                       retry_failed: bool) -> None:
        log: _CountingLog = ctx.log
        stage_name = stage.name
        done = stage.finished(self.store, retry_failed)
        todo = [u for u in units if u.key not in done]
        summary.units_total += len(units)
        summary.units_skipped += len(units) - len(todo)
        self.progress.start(stage_name, len(todo))
        await self._probe_caches(todo)
        caches = {u.key: scheduling.prompt_cache(u, self.config.models, self._probed) for u in todo}
        schedule = scheduling.Schedule(todo, caches, self.config.concurrency)
        stopped: set[str] = set()  # configurations of this stage whose remaining units are not run
        finished: dict[str, Counter[str]] = {}
        transient: dict[str, list[str]] = {}  # configuration -> reasons of its units left pending after transient failures

        def stop(name: str, reason: str, *, setup: bool = False) -> None:
            if name not in stopped:  # said once, however many units were in flight
                stopped.add(name)
                summary.stopped_configurations[name] = reason
                said = reason if setup else f"configuration stopped, its remaining units were not run: {reason}"
                summary.problems.append((stage_name, name, said))

        async def one(unit: Any) -> None:
            async with schedule.turn(unit):
                await run_one(unit)

        async def run_one(unit: Any) -> None:
            name = _configuration_name(unit)
            # a unit left pending is not advanced: the progress bar counts units that ran
            if name in stopped:  # left pending: a re-run after fixing the configuration runs them
                summary.units_pending += 1
                return
            if self._over_budget():
                summary.budget_stopped = True
                summary.units_pending += 1
                return
            try:
                row = await stage.execute(unit, ctx)
            except BudgetExceededError as exc:  # the unit stays pending
                if not summary.budget_stopped:
                    summary.problems.append(("budget", self.config.name, str(exc)))
                summary.budget_stopped = True
                summary.units_pending += 1
                return
            except EndpointDownError as exc:  # the circuit breaker gave up: pending, not failed
                stop(name, f"{exc}; its units are left pending, run the study again when the endpoint is back")
                summary.units_pending += 1
                return
            except ModelError as exc:  # setup failure (unknown provider, missing extra, bad option)
                stop(name, str(exc), setup=True)
                summary.units_pending += 1
                return
            except Exception as exc:  # noqa: BLE001 - one bad unit never stops the study
                summary.problems.append((stage_name, unit.label, f"{type(exc).__name__}: {exc}"))
                self.progress.advance(stage_name)
                return
            why = log.transient.pop(unit.key, None)
            if why is not None:  # not final: left pending, a plain re-run runs it again
                transient.setdefault(name, []).append(why)
                summary.units_pending += 1
                summary.units_transient += 1
                log.configuration_errors.pop(unit.key, None)
                return
            status = stage.save(self.store, row)  # one transaction per unit
            summary.units_run += 1
            summary.statuses[status] += 1
            summary.stage_statuses.setdefault(stage_name, Counter())[status] += 1
            reason = log.configuration_errors.pop(unit.key, None)
            if reason is not None:
                stop(name, reason)
            counts = finished.setdefault(name, Counter())
            counts[status] += 1
            total = sum(counts.values())
            if (stage.stops_when_malformed and total >= MALFORMED_STOP_MIN
                    and counts[str(Status.MALFORMED)] == total):
                stop(name, f"all {counted(total, 'review')} so far are malformed (rule: the first {MALFORMED_STOP_MIN} "
                           "or more reviews of a configuration in a run all malformed)")
            self.progress.advance(stage_name)

        if stage.stops_when_malformed and not retry_failed:
            for name, reason in stopped_earlier(stage.statuses(self.store), units).items():
                stop(name, reason)
        await asyncio.gather(*(one(u) for u in todo))
        for name, reasons in transient.items():
            summary.problems.append((stage_name, name, (
                f"{len(reasons)} unit(s) left pending: a call ended in transient failures only (last: {reasons[-1]}); "
                "not stored as failures, `rhetorica run` again runs them")))

    async def run(self, *, retry_failed: bool = False,
                  before_stage: Callable[[Stage], bool] | None = None) -> RunSummary:
        """Run every pending unit, walking the study's unit graph; returns what was done.

        Args:
            retry_failed: also re-run units stored as a failure (any status but ``ok``; checks
                that could not be made).
            before_stage: called with each stage before it runs; returning False ends the run
                there (``rhetorica batch`` stops after the first stage whose calls it captured).

        Each stage's units are recorded as the current plan before they run
        (:func:`rhetorica.store.plan.record_plan`); stored units outside it are superseded.
        """
        started = time.perf_counter()
        summary = self._summary = RunSummary()
        self._probed = {}  # each run asks the servers again (one may have been restarted with other slots)
        holder = lock_holder(self.run_dir)
        if holder is None or holder == os.getpid():  # no other process can still be waiting for an answer
            self.store.abandon_in_flight()
        summary.abandoned_calls = self.store.abandoned_calls()
        summary.problems += option_warnings(self.config)
        if self.config.budget_usd is not None:
            self.budget = Budget(self.config.budget_usd, spent_usd=self._spent_usd())
        self._ctx = self._run_context(_CountingLog(self.store, summary))
        run_id = runs.open_run(self.store, self.config.name, content_hash(self.config.model_dump()))
        documents = self.load_documents(summary.problems)
        summary.problems += reference_warnings(self.config, documents)
        self._store_documents(documents)
        planned: dict[str, list[str]] = {}
        self.walked = []
        for step in graph.walk(self.config, documents, self.store, retry_failed=retry_failed):
            stage = step.stage
            if before_stage is not None and not before_stage(stage):
                break
            self.walked.append((stage, step.units))
            if stage.plan is not None:
                planned.setdefault(stage.plan, []).extend(u.key for u in step.units)
                plan.record_plan(self.store, stage.plan, planned[stage.plan], run_id)
            done = stage.finished(self.store, retry_failed)
            if not stage.prepare(self, step.inputs, [u for u in step.units if u.key not in done], summary):
                step.skipped = True  # e.g. no embedding model: variants are reviewed unvalidated
                continue
            if step.units or stage.plan is not None:
                await self._execute(stage, step.units, self._ctx, summary, retry_failed)
        if summary.budget_stopped and not any(stage == "budget" for stage, _, _ in summary.problems):
            summary.problems.append(("budget", self.config.name,
                                     f"budget of ${self.config.budget_usd} reached; remaining units not run"))
        summary.wall_time_s = time.perf_counter() - started
        summary.spent_usd = self._spent_usd()
        runs.close_run(self.store, run_id, units_run=summary.units_run, model_calls=summary.model_calls,
                       wall_time_s=summary.wall_time_s, problems=summary.problems)
        return summary

    def scan(self, inputs: list[tuple[Document, str, str, Any]], summary: RunSummary) -> None:
        """The hidden-instruction scan of every review input (stored, reported, nothing removed)."""

        outcome = scan_inputs(self.store, [(doc, condition, rewriter) for doc, condition, rewriter, _ in inputs])
        self._ctx.source_findings = outcome.source_findings
        summary.scan_flagged += outcome.flagged
        summary.problems += outcome.problems

    async def validate_stored(self) -> RunSummary:
        """Validate every stored variant that has no check under the current settings (used by
        ``rhetorica validate RUN_DIR``); makes no model call."""

        summary = RunSummary()
        self._ctx = self._run_context(_CountingLog(self.store, summary))
        originals = {d.id: d for d in (Document.model_validate_json(j) for j in runs.document_jsons(self.store))}
        stored = [(key, condition, rewriter, Document.model_validate_json(doc))
                  for key, condition, rewriter, doc in plan.ok_variants(self.store)]
        variants = [planner.Variant(doc, originals[doc.id], condition, rewriter, key)
                    for key, condition, rewriter, doc in stored if doc.id in originals]
        if variants and self.load_embedder(summary.problems):
            units = planner.validate_units(variants, self.config.validation)
            await self._execute(stages.get("validate"), units, self._ctx, summary, retry_failed=False)
        return summary
