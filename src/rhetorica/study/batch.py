"""A study's paid calls through provider batch APIs (``rhetorica batch submit|collect STUDY.yaml``).

Workflow (batch calls cost half; results arrive within 24 hours)::

    rhetorica batch submit STUDY.yaml     # the pending calls of the next stage go into batches
    rhetorica batch collect STUDY.yaml    # from any later process (add --wait to poll until done)
    rhetorica batch submit STUDY.yaml     # studies with LLM rewriters: now the review calls
    rhetorica batch collect STUDY.yaml
    rhetorica run STUDY.yaml              # builds every unit from the cache: no paid call is repeated

Which calls a stage needs is found by running the study against a throw-away copy of its store
with a stand-in for each model that records the calls instead of sending them; the run walks the
study's unit graph and stops before the stage after the first one whose calls were recorded (the
stage is the graph's, never guessed). The runner itself builds every prompt, so batch calls are
exactly the calls ``rhetorica run`` would make, and each request is checked against the cache key
the runner logged for it before it is submitted. Reviews
of LLM-rewritten variants are only submitted once those rewrites are in the cache (their text is
not known before). Repair calls after malformed output are made live by ``rhetorica run``.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rhetorica.models.api import ChatMessage, GenerateConfig, ModelAPI, ModelOutput
from rhetorica.status import Status
from rhetorica.study.config import StudyConfig
from rhetorica.study.stages import Stage
from rhetorica.models.batch import BatchRequest, collect_batches, submit_batch, supports_batch
from rhetorica.models.cache import model_cache_key
from rhetorica.models.errors import ModelError
from rhetorica.models.registry import get_model
from rhetorica.store import runs
from rhetorica.store.db import STORE_FILENAME, Store, copy_store
from rhetorica.study.graph import study_stages
from rhetorica.study.runner import StudyRunner
from rhetorica.study.status import study_status


@dataclass
class CapturedCalls:
    """Calls recorded by a capture run.

    Attributes:
        stage: the stage whose calls were recorded (the first with calls to make), else ``None``.
        calls: (model id, options JSON) -> (the real model, recorded (messages, config) pairs).
        stopped: reviewer/rewriter name -> why its calls could not be captured (a setup error
            such as a missing API key, an unknown model or a missing extra).
    """

    stage: Stage | None = None
    calls: dict[tuple[str, str], tuple[ModelAPI, list[tuple[list[ChatMessage], GenerateConfig]]]] = field(
        default_factory=dict
    )
    stopped: dict[str, str] = field(default_factory=dict)

    @property
    def stage_name(self) -> str:
        return self.stage.name if self.stage is not None else "none"


class _StandInModel(ModelAPI):
    """Stands in for a real model during a capture run: records each call instead of sending it and
    answers with the current stage's stand-in reply (:meth:`rhetorica.study.stages.Stage.stand_in_reply`)."""

    def __init__(self, real: ModelAPI, key: tuple[str, str], captured: CapturedCalls) -> None:
        self.real = real
        self.provider = real.provider
        self.model = real.model
        self.max_concurrency = 64
        self._key = key
        self._captured = captured

    @property
    def connection_key(self) -> str:
        return f"capture:{self.real.connection_key}"

    @property
    def cache_model_name(self) -> str:
        return self.real.cache_model_name

    def output_options(self) -> dict[str, Any]:
        return self.real.output_options()

    def count_tokens(self, text: str) -> int:
        return self.real.count_tokens(text)

    async def generate(self, messages: list[ChatMessage], config: GenerateConfig) -> ModelOutput:
        captured = self._captured
        captured.calls.setdefault(self._key, (self.real, []))[1].append((messages, config))
        reply = captured.stage.stand_in_reply(messages) if captured.stage is not None else None
        if reply is None:
            return ModelOutput(provider=self.provider, model=self.model, status=Status.ERROR, error="captured for batch")
        return ModelOutput(provider=self.provider, model=self.model, text=reply)


def capture_calls(config: StudyConfig, base_dir: Path, run_dir: Path) -> tuple[CapturedCalls, dict[str, Any]]:
    """Run the study against a copy of its store with stand-in models, up to the first stage that
    makes model calls.

    Returns:
        The captured calls, and the copy's call log as cache key -> unit key.
    """

    captured = CapturedCalls()

    def factory(model_id: str, options: dict[str, Any]) -> ModelAPI:
        key = (model_id, json.dumps(options, sort_keys=True))
        return _StandInModel(get_model(model_id, **options), key, captured)

    def before(stage: Stage) -> bool:
        if captured.calls:  # the calls of an earlier stage were recorded: they go first
            return False
        captured.stage = stage
        return True

    with tempfile.TemporaryDirectory(prefix="rhetorica-batch-") as tmp:
        source = run_dir / STORE_FILENAME
        if source.exists():
            copy_store(source, Path(tmp) / STORE_FILENAME)
        runner = StudyRunner(config, base_dir, run_dir=Path(tmp), model_factory=factory)
        try:
            first = runs.last_call_id(runner.store)
            captured.stopped = asyncio.run(runner.run(before_stage=before)).stopped_configurations
            logged = runs.calls_since(runner.store, first)  # the keys the runner computed for its calls
        finally:
            runner.store.close()
    if not captured.calls:
        captured.stage = None
    return captured, logged


def _requests_for(
    model: ModelAPI, calls: list[tuple[list[ChatMessage], GenerateConfig]], logged: dict[str, Any], replicates: int
) -> tuple[list[Any], int]:
    """Batch requests with confirmed cache keys (the runner logged each), and how many were skipped."""

    requests, skipped = [], 0
    for messages, config in calls:
        candidates = [config.seed] if isinstance(config.seed, int) and config.seed >= 0 else []
        candidates += [r for r in range(max(replicates, 1)) if r not in candidates]
        for replicate in candidates:
            key = model_cache_key(model, messages, config, replicate)
            if key in logged:
                requests.append(
                    BatchRequest(
                        messages=messages, config=config, replicate=replicate, unit_key=logged[key], cache_key=key
                    )
                )
                break
        else:
            skipped += 1
    return requests, skipped


@dataclass
class ModelSubmission:
    """What happened to one model's calls.

    Attributes:
        model_id: the model id.
        calls: calls captured for it.
        batch_id: the batch submitted (``None``: nothing new to submit, or no batch API, or failed).
        sent: requests in that batch.
        skipped: calls whose cache key could not be confirmed (never submitted).
        no_batch_api: the provider has no batch API (its calls run live with ``rhetorica run``).
        provider: the provider's name.
        error: why the submission failed (``None`` when it did not).
    """

    model_id: str
    calls: int
    provider: str
    batch_id: str | None = None
    sent: int = 0
    skipped: int = 0
    no_batch_api: bool = False
    error: str | None = None


@dataclass
class Submission:
    """The outcome of :func:`submit_study`.

    Attributes:
        stage: the stage whose calls were captured (``none`` when no call was).
        models: per model.
        stopped: configuration name -> why its calls could not be captured.
        later_stages: stages after ``stage`` remain (submit again once this batch is collected).
        units: units of the study's plan (as ``rhetorica status`` counts them).
        units_pending: of those, not done yet.
        problems: (stage, item, reason) of the input problems met while planning (e.g. an
            unreadable document); any makes the submission failed, as it makes a run failed.
    """

    stage: str
    models: list[ModelSubmission]
    stopped: dict[str, str]
    later_stages: bool
    units: int
    units_pending: int
    problems: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return bool(self.stopped) or bool(self.problems) or any(m.error for m in self.models)

    @property
    def submitted(self) -> bool:
        """Whether any batch was submitted (something to collect)."""
        return any(m.batch_id is not None for m in self.models)


def submit_study(config: StudyConfig, base_dir: Path, run_dir: Path) -> Submission:
    """Submit the pending calls of the study's next stage that makes model calls to batch APIs.

    Raises nothing for a model whose submission fails: its error is in the result.
    """

    found = study_status(config, base_dir)
    planned = found.stages
    captured, logged = capture_calls(config, base_dir, run_dir)
    names = [s.name for s in study_stages(config)]
    later = captured.stage is not None and names.index(captured.stage.name) < len(names) - 1
    result = Submission(captured.stage_name, [], captured.stopped, later, sum(s.units for s in planned),
                        sum(s.pending for s in planned), found.problems)
    if not captured.calls:
        return result
    store = Store.in_dir(run_dir)
    try:
        for (model_id, options_json), (model, calls) in captured.calls.items():
            entry = ModelSubmission(model_id, len(calls), model.provider)
            result.models.append(entry)
            if not supports_batch(model):
                entry.no_batch_api = True
                continue
            requests, entry.skipped = _requests_for(model, calls, logged, config.replicates)
            try:
                entry.batch_id = asyncio.run(submit_batch(model, requests, store, options=json.loads(options_json)))
            except ModelError as exc:
                entry.error = f"submission failed: {exc}"
                continue
            entry.sent = store.batch_request_count(entry.batch_id) if entry.batch_id is not None else len(requests)
    finally:
        store.close()
    return result


def collect_study(run_dir: Path, *, wait: bool, poll_s: float, timeout_s: float | None) -> list[Any]:
    """Collect the run's finished batches into its response cache (see
    :func:`rhetorica.models.batch.collect_batches`); returns one report per batch."""

    store = Store.in_dir(run_dir)
    try:
        return asyncio.run(collect_batches(store, lambda model_id, options: get_model(model_id, **options),
                                           wait=wait, poll_interval_s=poll_s, timeout_s=timeout_s))
    finally:
        store.close()
