"""``rhetorica batch submit|collect STUDY.yaml``: a study's paid calls through provider batch APIs.

Workflow (batch calls cost half; results arrive within 24 hours)::

    rhetorica batch submit STUDY.yaml     # the pending calls of the next stage go into batches
    rhetorica batch collect STUDY.yaml    # from any later process (add --wait to poll until done)
    rhetorica batch submit STUDY.yaml     # studies with LLM rewriters: now the review calls
    rhetorica batch collect STUDY.yaml
    rhetorica run STUDY.yaml              # builds every unit from the cache: no paid call is repeated

Which calls a stage needs is found by running the study against a throw-away copy of its store
with a stand-in for each model that records the calls instead of sending them. The runner itself
builds every prompt, so batch calls are exactly the calls ``rhetorica run`` would make, and each
request is checked against the cache key the runner logged for it before it is submitted. Reviews
of LLM-rewritten variants are only submitted once those rewrites are in the cache (their text is
not known before). Repair calls after malformed output are made live by ``rhetorica run``.
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape

from rhetorica.models.api import ChatMessage, GenerateConfig, ModelAPI, ModelOutput
from rhetorica.status import Status

batch_app = typer.Typer(help="Run a study's calls through provider batch APIs (half price, within 24 h).")


@dataclass
class CapturedCalls:
    """Calls recorded by a capture run.

    Attributes:
        stage: ``rewrite`` when LLM rewrites are pending (only they are submitted), else ``review``.
        calls: (model id, options JSON) -> (the real model, recorded (messages, config) pairs).
        skipped: recorded calls whose cache key could not be confirmed (never submitted).
        stopped: reviewer/rewriter name -> why its calls could not be captured (a setup error
            such as a missing API key, an unknown model or a missing extra).
    """

    stage: str = "review"
    calls: dict[tuple[str, str], tuple[ModelAPI, list[tuple[list[ChatMessage], GenerateConfig]]]] = field(
        default_factory=dict
    )
    skipped: int = 0
    stopped: dict[str, str] = field(default_factory=dict)
    _current: str = "rewrite"


class _StageSink:
    """Progress sink that tells the capturing models which stage the runner is in."""

    def __init__(self, captured: CapturedCalls) -> None:
        self.captured = captured

    def start(self, stage: str, total: int) -> None:
        self.captured._current = stage

    def advance(self, stage: str) -> None:
        return None


class _CapturingModel(ModelAPI):
    """Stands in for a real model during a capture run: records each call instead of sending it.

    Rewrite calls answer with the unchanged input text so that every chunk of a section is
    recorded; review calls answer with an ``error`` output (nothing of a capture run is kept).
    """

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
        from rhetorica.models.providers.mock import TEXT_MARKER

        captured = self._captured
        if captured._current == "review" and captured.stage == "rewrite":
            return ModelOutput(provider=self.provider, model=self.model, status=Status.ERROR, error="not captured")
        if captured._current == "rewrite":
            captured.stage = "rewrite"
        captured.calls.setdefault(self._key, (self.real, []))[1].append((messages, config))
        if captured._current == "rewrite":
            last = next((m.content for m in reversed(messages) if m.role == "user"), "")
            return ModelOutput(provider=self.provider, model=self.model, text=last.rpartition(TEXT_MARKER)[2])
        return ModelOutput(provider=self.provider, model=self.model, status=Status.ERROR, error="captured for batch")


def capture_calls(config: Any, base_dir: Path, run_dir: Path) -> tuple[CapturedCalls, dict[str, list[Any]]]:
    """Run the study against a copy of its store with capturing models.

    Returns:
        The captured calls, and the copy's call log as cache key -> [unit key, replicate candidates].
    """
    import asyncio

    from rhetorica.models.registry import get_model
    from rhetorica.store.db import STORE_FILENAME
    from rhetorica.study.runner import StudyRunner

    captured = CapturedCalls()

    def factory(model_id: str, options: dict[str, Any]) -> ModelAPI:
        key = (model_id, json.dumps(options, sort_keys=True))
        return _CapturingModel(get_model(model_id, **options), key, captured)

    with tempfile.TemporaryDirectory(prefix="rhetorica-batch-") as tmp:
        source = run_dir / STORE_FILENAME
        if source.exists():
            src, dst = sqlite3.connect(source), sqlite3.connect(Path(tmp) / STORE_FILENAME)
            try:
                src.backup(dst)
            finally:
                src.close()
                dst.close()
        runner = StudyRunner(config, base_dir, run_dir=Path(tmp), progress=_StageSink(captured), model_factory=factory)
        try:
            first = runner.store.rows("SELECT COALESCE(MAX(call_id), 0) FROM model_calls")[0][0]
            captured.stopped = asyncio.run(runner.run()).stopped_configurations
            logged = {  # the keys the runner computed for the calls of this capture run
                row[0]: row[1]
                for row in runner.store.rows(
                    "SELECT cache_key, unit_key FROM model_calls WHERE cache_hit = 0 AND call_id > ?", (first,)
                )
            }
        finally:
            runner.store.close()
    return captured, logged


def _requests_for(
    model: ModelAPI, calls: list[tuple[list[ChatMessage], GenerateConfig]], logged: dict[str, Any], replicates: int
) -> tuple[list[Any], int]:
    """Batch requests with confirmed cache keys (the runner logged each), and how many were skipped."""
    from rhetorica.models.batch import BatchRequest
    from rhetorica.models.cache import model_cache_key

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


def _load(study: Path) -> tuple[Any, Path, Path]:
    from rich.console import Console

    from rhetorica.study.config import ConfigError, load_study
    from rhetorica.study.inputs import resolve_run_dir

    try:
        config, base_dir = load_study(study)
        return config, base_dir, resolve_run_dir(config, base_dir)
    except ConfigError as exc:
        Console(stderr=True, soft_wrap=True).print(f"[red]error:[/red] {escape(str(exc))}", highlight=False)
        raise typer.Exit(2) from exc


@batch_app.command("submit")
def submit(study: Path = typer.Argument(..., help="Study YAML file.", exists=True, dir_okay=False)) -> None:
    """Submit the pending calls of the study's next stage to the providers' batch APIs."""
    import asyncio

    from rich.console import Console

    from rhetorica.models.batch import submit_batch, supports_batch
    from rhetorica.models.errors import ModelError
    from rhetorica.store.db import Store

    console = Console()
    config, base_dir, run_dir = _load(study)
    captured, logged = capture_calls(config, base_dir, run_dir)
    for name, reason in captured.stopped.items():  # its calls are not known, so not submitted
        Console(stderr=True).print(f"[red]error:[/red] {name}: {reason}; none of its calls were submitted",
                                   highlight=False)
    failed = bool(captured.stopped)
    if not captured.calls:
        if failed:
            raise typer.Exit(1)
        console.print("Nothing to submit: every call of the study is already cached or waiting in a batch.")
        return
    store = Store.in_dir(run_dir)
    try:
        for (model_id, options_json), (model, calls) in captured.calls.items():
            if not supports_batch(model):
                console.print(
                    f"[yellow]{model_id}[/yellow]: provider {model.provider!r} has no batch API; "
                    f"its {len(calls)} calls will run live with `rhetorica run`.",
                    highlight=False,
                )
                continue
            requests, skipped = _requests_for(model, calls, logged, config.replicates)
            try:
                batch_id = asyncio.run(submit_batch(model, requests, store, options=json.loads(options_json)))
            except ModelError as exc:
                failed = True
                console.print(f"[red]{escape(model_id)}[/red]: {escape(f'submission failed: {exc}')}", highlight=False)
                continue
            note = (
                f" ({skipped} calls could not be matched to the runner's cache keys and were left out)"
                if skipped
                else ""
            )
            if batch_id is None:
                console.print(f"{model_id}: all {len(requests)} {captured.stage} calls already cached or in a batch.",
                              markup=False, highlight=False)
            else:
                sent = store.rows("SELECT COUNT(*) FROM batch_requests WHERE batch_id = ?", (batch_id,))[0][0]
                console.print(
                    f"{model_id}: {captured.stage} stage, {sent} calls submitted as batch {batch_id}{note}.",
                    markup=False, highlight=False,
                )
    finally:
        store.close()
    later = " then `rhetorica batch submit` again for the review stage," if captured.stage == "rewrite" else ""
    console.print(f"Next: `rhetorica batch collect {study}` (any later process),{later} then `rhetorica run {study}`.",
                  markup=False, highlight=False)
    if failed:
        raise typer.Exit(1)


@batch_app.command("collect")
def collect(
    study: Path = typer.Argument(..., help="Study YAML file.", exists=True, dir_okay=False),
    wait: bool = typer.Option(False, "--wait", help="Poll until every batch has ended."),
    poll_s: float = typer.Option(60.0, "--poll", min=0.1, help="Seconds between polls with --wait."),
    timeout_s: float | None = typer.Option(None, "--timeout", help="Stop waiting after this many seconds."),
) -> None:
    """Collect finished batches of the study into its response cache (resumable, idempotent)."""
    import asyncio

    from rich.console import Console
    from rich.table import Table

    from rhetorica.models.batch import collect_batches
    from rhetorica.models.registry import get_model
    from rhetorica.store.db import Store

    console = Console()
    _, _, run_dir = _load(study)
    store = Store.in_dir(run_dir)
    try:
        reports = asyncio.run(
            collect_batches(
                store,
                lambda model_id, options: get_model(model_id, **options),
                wait=wait,
                poll_interval_s=poll_s,
                timeout_s=timeout_s,
            )
        )
    finally:
        store.close()
    if not reports:
        console.print("No open batches.")
        return
    table = Table(title="Batches")
    for column in ("Batch", "Model", "State", "Requests", "Results"):
        table.add_column(column)
    for r in reports:
        results = ", ".join(f"{k}: {v}" for k, v in sorted(r.statuses.items())) or (r.detail or "")
        table.add_row(*(escape(str(v)) for v in (r.batch_id, r.model_id, r.state, r.requests, results)))
    console.print(table)
    if any(r.state == "submitted" for r in reports):
        console.print("Some batches are still running: collect again later (or use --wait).")
