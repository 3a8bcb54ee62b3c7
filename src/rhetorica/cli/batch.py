"""``rhetorica batch submit|collect STUDY.yaml``: prints :mod:`rhetorica.study.batch`'s outcome."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape

from rhetorica.cli.errors import exit_on
from rhetorica.study.batch import collect_study, submit_study
from rhetorica.study.config import ConfigError, load_study
from rhetorica.study.inputs import resolve_run_dir
from rich.table import Table
from rhetorica.wording import counted

batch_app = typer.Typer(help="Run a study's calls through provider batch APIs (half price, within 24 h).")


def _load(study: Path) -> tuple[Any, Path, Path]:

    with exit_on(ConfigError):
        config, base_dir = load_study(study)
        return config, base_dir, resolve_run_dir(config, base_dir)


@batch_app.command("submit")
def submit(study: Path = typer.Argument(..., help="Study YAML file.", exists=True, dir_okay=False)) -> None:
    """Submit the pending calls of the study's next stage to the providers' batch APIs."""

    console = Console(soft_wrap=True)  # one line per model: errors are read whole
    result = submit_study(*_load(study))
    console.print(f"Plan: {counted(result.units, 'unit')}, {result.units_pending} pending.", markup=False, highlight=False)
    for stage, item, reason in result.problems:
        Console(stderr=True, soft_wrap=True).print(f"[yellow]problem[/yellow] {escape(f'({stage}) {item}: {reason}')}",
                                                   highlight=False)
    for name, reason in result.stopped.items():  # its calls are not known, so not submitted
        Console(stderr=True, soft_wrap=True).print(
            f"[red]error:[/red] {escape(f'{name}: {reason}')}; none of its calls were submitted", highlight=False)
    if not result.models:
        if result.failed:
            raise typer.Exit(1)
        console.print("Nothing to submit: every call of the study is already cached or waiting in a batch.")
        return
    for m in result.models:
        if m.no_batch_api:
            console.print(f"[yellow]{m.model_id}[/yellow]: provider {m.provider!r} has no batch API; "
                          f"its {counted(m.calls, 'call')} will run live with `rhetorica run`.", highlight=False)
        elif m.error is not None:
            console.print(f"[red]{escape(m.model_id)}[/red]: {escape(m.error)}", highlight=False)
        elif m.batch_id is None:
            console.print(f"{m.model_id}: all {counted(m.sent, result.stage + ' call')} already cached or in a batch.",
                          markup=False, highlight=False)
        else:
            note = (f" ({counted(m.skipped, 'call')} could not be matched to the runner's cache keys and were left out)"
                    if m.skipped else "")
            console.print(f"{m.model_id}: {result.stage} stage, {counted(m.sent, 'call')} submitted as batch {m.batch_id}{note}.",
                          markup=False, highlight=False)
    if result.submitted:
        later = " then `rhetorica batch submit` again for the next stage," if result.later_stages else ""
        console.print(f"Next: `rhetorica batch collect {study}` (any later process),{later} "
                      f"then `rhetorica run {study}`.", markup=False, highlight=False)
    if result.failed:
        raise typer.Exit(1)


@batch_app.command("collect")
def collect(
    study: Path = typer.Argument(..., help="Study YAML file.", exists=True, dir_okay=False),
    wait: bool = typer.Option(False, "--wait", help="Poll until every batch has ended."),
    poll_s: float = typer.Option(60.0, "--poll", min=0.1, help="Seconds between polls with --wait."),
    timeout_s: float | None = typer.Option(None, "--timeout", help="Stop waiting after this many seconds."),
) -> None:
    """Collect finished batches of the study into its response cache (resumable, idempotent)."""


    console = Console()
    _, _, run_dir = _load(study)
    reports = collect_study(run_dir, wait=wait, poll_s=poll_s, timeout_s=timeout_s)
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
