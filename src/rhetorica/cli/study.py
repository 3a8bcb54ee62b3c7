"""``rhetorica run``, ``report`` and ``schema`` (``status``: :mod:`rhetorica.cli.status`)."""

from __future__ import annotations

import json
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pandas as pd
import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from rhetorica.cli.errors import exit_on, fail
from rhetorica.cli.output import console, err_console, print_abandoned, print_problems
from rhetorica.problems import WARNING_PREFIX, is_warning
from rhetorica.cli.progress import RichProgress
from rhetorica.analysis.equivalence import CLASSES
from rhetorica.analysis.paired import no_test_reasons
from rhetorica.judges.analysis import NOT_COMPUTABLE
from rhetorica.report.data import ReportData, fmt, fmt_p
from rhetorica.report.render import rebuild_report, write_report
from rhetorica.store.db import StoreError
from rhetorica.store.lock import RunLockedError
from rhetorica.study.config import ConfigError, load_study
from rhetorica.study.execute import execute_study
from rhetorica.study.model_warnings import option_warnings
from rhetorica.study.schema import study_schema
from rhetorica.wording import counted

@contextmanager
def _sigterm_as_interrupt() -> Iterator[list[int]]:
    """Within the block, SIGTERM stops the run as Ctrl-C does (``KeyboardInterrupt`` where the
    process is: the event loop cancels the pending calls, every finished unit is already saved);
    the list it yields records the signal, so that the command can tell the two apart. Outside the
    main thread (no signal handler can be set there) SIGTERM keeps its default."""
    received: list[int] = []

    def stop(signum: int, frame: object) -> None:
        received.append(signum)
        raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield received
        return
    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield received
    finally:
        signal.signal(signal.SIGTERM, previous)


def _load(study: Path):  # noqa: ANN202 - returns (config, base_dir)

    with exit_on(ConfigError):
        return load_study(study)


def print_headline(data: ReportData, run_dir: Path, failed_units: int | None = None) -> None:
    """Print in the terminal the comparison table of a run from the ``data`` of the report just
    written (compact; the report has every column); without a comparison row (a judge study), the
    judges' classification counts instead (:func:`judge_headline`), or no table. ``failed_units``:
    the units stored as a failure that ``rhetorica run`` counted (every stage's, the validation
    checks that could not be made included), so that the last line agrees with its 'failed N
    unit(s)' line."""

    wide = Console(width=max(console.width, 160))
    if not data.comparisons.empty:
        table = Table(title="Paired comparison, overall score (papers as units; full table in the report)")
        for name in ("Reviewer", "A vs B", "n", "A>B %", "B>A %", "Tie %", "Ratio", "p", "Flip A %", "Flip B %",
                     "Mean A", "Mean B"):
            table.add_column(name, justify="left" if name in ("Reviewer", "A vs B") else "right", no_wrap=True)
        for row in data.comparisons.itertuples(index=False):
            table.add_row(escape(str(row.reviewer)), escape(f"{row.first} vs {row.second}"), str(row.n_pairs),
                          fmt(row.pct_first_higher, 0), fmt(row.pct_second_higher, 0), fmt(row.pct_tie, 0),
                          fmt(row.preference_ratio), fmt_p(row.sign_test_p), fmt(row.flips_first_accept_pct, 0),
                          fmt(row.flips_second_accept_pct, 0), fmt(row.mean_first), fmt(row.mean_second))
        wide.print(table)
        for reason in no_test_reasons(data.comparisons):
            wide.print(escape(f"p –: {reason}"), highlight=False)
    elif not data.analysis.get("judges", pd.DataFrame()).empty:
        wide.print(judge_headline(data.analysis["judges"]))
    assessments = data.tables.get("assessments")
    if assessments is not None and "variant_passed" in assessments.columns:
        failed = assessments.loc[assessments["variant_passed"].eq(0), ["document_id", "arm"]].drop_duplicates()
        if len(failed) and data.study.validation.failed_variants == "include":
            console.print(f"Note: {len(failed)} variant(s) in these comparisons failed validation and are included "
                          "because the study sets validation.failed_variants: include (see the report).")
    if not data.superseded.empty:
        console.print(f"Superseded: {int(data.superseded['units'].sum())} stored unit(s) from earlier declarations "
                      "of the study are left out of these tables (listed in the report).")
    console.print(f"{escape(data.failures_line(failed_units))} Report: {escape(str(run_dir / 'report.html'))}")


def judge_headline(table1: pd.DataFrame) -> Table:
    """Table 1 of a judge study in the terminal: per rewrite condition and judge, its declared
    metrics counted by classification (``sensitive``, ``robust``, ``sensitive_and_robust``,
    ``inconclusive``, ``not_informative``, ``false_robustness``, ``not computable``: the columns
    present)."""
    counts = table1.groupby(["condition", "judge"], sort=False)["classification"].value_counts().unstack(fill_value=0)
    order = [c for c in (*CLASSES, NOT_COMPUTABLE) if c in counts.columns]
    table = Table(title="Review-quality judges: metrics per classification (Table 1; full table in the report)")
    for name in ("Condition", "Judge", "Metrics", *order):
        table.add_column(name.replace("_", " "), justify="left" if name in ("Condition", "Judge") else "right",
                         no_wrap=True)
    for (condition, judge), row in counts.iterrows():
        table.add_row(escape(str(condition)), escape(str(judge)), str(int(row.sum())), *(str(int(row[c])) for c in order))
    return table


def _failure_counts(counts: dict[tuple[str, str], int]) -> str:
    """``review: malformed 2, refused 1; rewrite: error 1`` from (stage, status) counts."""
    stages: dict[str, list[str]] = {}
    for (stage, status), n in sorted(counts.items()):
        stages.setdefault(stage, []).append(f"{status} {n}")
    return "; ".join(f"{stage}: {', '.join(parts)}" for stage, parts in stages.items())


def waiting(pid: int | None) -> None:
    """Say that another process holds the run lock and this one waits for it (``--wait``)."""
    err_console.print(f"waiting: process {pid if pid is not None else '(unknown pid)'} is running this study; "
                      "starting when it ends", highlight=False)


def run_with_progress(config, base_dir: Path, run_dir: Path | None = None,  # noqa: ANN001
                      retry_failed: bool = False, wait: bool = False,
                      retry_hint: str = "rhetorica run STUDY --retry-failed",
                      count_failed_units: bool = True) -> tuple[Path, int, int, ReportData]:
    """Run a validated study with progress bars (:func:`rhetorica.study.execute.execute_study`),
    write its report before the run lock is released, and print its problems and summary.

    Args:
        count_failed_units: count the study's units stored as a failure among the problems (the
            demo, whose tiny model is expected to fail some outputs, only lists them).

    Returns:
        ``(run dir, problems, failed units, report data)``: problems counts the input/setup problems of this run,
        the configurations stopped by a permanent error and (with ``count_failed_units``) the
        study's current units stored as a failure (this run's or an earlier one's; failed units
        counts them, every stage's); 0 means everything ran; the report's data
        (:func:`rhetorica.report.render.write_report`).

    Raises:
        typer.Exit: 130 on Ctrl-C, 143 on SIGTERM (finished units are kept; one line says so); 1 when no document could be read or
            when another process is running the study (unless ``wait``); 2 when the run directory
            is a file or cannot be created.
    """

    for _, item, said in option_warnings(config):  # at load, before any call (listed again with the problems)
        err_console.print(f"[cyan]warning[/cyan] {escape(f'{item}: {said[len(WARNING_PREFIX):]}')}", highlight=False)
    try:
        with _sigterm_as_interrupt() as terminated, exit_on(ConfigError), RichProgress(console) as progress:
            done = execute_study(config, base_dir, run_dir=run_dir, retry_failed=retry_failed, wait=wait,
                                 on_wait=waiting, progress=progress,
                                 report=lambda run: write_report(run.run_dir) if run.summary.units_total else None)
    except KeyboardInterrupt:
        said = "terminated (SIGTERM)" if terminated else "interrupted"
        err_console.print(f"{said}: every finished unit is saved; run the same command again to resume")
        raise typer.Exit(128 + signal.SIGTERM if terminated else 130) from None
    except RunLockedError as exc:
        fail(str(exc), 1)
    summary, failures = done.summary, done.failures
    print_problems(summary.problems)
    listed = {item for _, item, _ in summary.problems}
    stops = {name: why for name, why in summary.stopped_configurations.items() if name not in listed}
    for name, reason in stops.items():  # a stop not already listed among the problems
        err_console.print(f"[red]stopped[/red] {escape(f'{name}: {reason}')}; its remaining units were not run",
                          highlight=False)
    for item, severity, count in summary.scan_flagged:
        err_console.print(f"scan: {item}: {count} hidden-text or instruction finding(s), highest {severity} "
                          "(see the report's hidden-instructions section)", markup=False, highlight=False)
    print_abandoned(*summary.abandoned_calls, run_dir=str(done.run_dir))
    if summary.units_total == 0:
        fail("nothing to run: no document could be read (see the problems above)", 1)
    probes = f" and {summary.probes} structured-output probe(s)" if summary.probes else ""
    requests = (f"{summary.model_calls} model requests ({summary.model_retries} retries){probes}, "
                f"{summary.cache_hits} cache hits")
    if summary.budget_stopped:
        console.print(f"Stopped by the budget: budget_usd {config.budget_usd} reached (${summary.spent_usd:.4f} "
                      f"counted as spent); {summary.units_pending} unit(s) left pending, {summary.units_run} ran; "
                      f"{requests}. Raise budget_usd and run again to resume.", markup=False, highlight=False)
    elif summary.units_run == 0 and summary.model_calls == 0 and summary.units_pending == 0:
        console.print(f"Nothing to do: all {counted(summary.units_skipped, 'unit')} were already in the store; "
                      "0 model calls made.")
    else:
        stages = "; ".join(
            f"{stage} " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
            for stage, counts in summary.stage_statuses.items()) or "none"
        transient = (f" ({summary.units_transient} after transient failures only: run again to resume them)"
                     if summary.units_transient else "")
        pending = f"; {summary.units_pending} left pending{transient}" if summary.units_pending else ""
        console.print(f"Ran {counted(summary.units_run, 'unit')} ({stages}); skipped {summary.units_skipped} already done"
                      f"{pending}; {requests}; {summary.wall_time_s:.1f} s.", markup=False, highlight=False)
    failed = sum(failures.values())
    if failed:
        err_console.print(f"[yellow]failed[/yellow] {failed} unit(s) of this study are stored as failures "
                          f"({_failure_counts(failures)}); `{escape(retry_hint)}` runs them again", highlight=False)
    problems = sum(not is_warning(reason) for _, _, reason in summary.problems)
    return done.run_dir, problems + len(stops) + (failed if count_failed_units else 0), failed, done.report


def run(
    study: Path = typer.Argument(..., help="Study YAML file."),
    retry_failed: bool = typer.Option(
        False, "--retry-failed",
        help="Also re-run units stored as a failure (malformed, truncated, refused, empty, timeout, error; "
             "validation checks that could not be made)."),
    wait: bool = typer.Option(
        False, "--wait", help="If another process is running this study, wait for it to end instead of exiting 1."),
) -> None:
    """Run a study declared in YAML (resumable: finished units are skipped).

    Exit 0: every unit of the study ran and succeeded.
    Exit 1: failed units, a stopped configuration, unreadable inputs, the budget reached, or another run.
    Warnings (a substitute class, a skipped \\input) are printed and reported but do not change the exit code.
    Exit 2: invalid study file (an output_dir that is a file or cannot be created included). Exit 130: interrupted, 143: terminated (SIGTERM); run again to resume.
    """
    config, base_dir = _load(study)
    run_dir, problems, failed, data = run_with_progress(config, base_dir, retry_failed=retry_failed, wait=wait,
                                                        retry_hint=f"rhetorica run {study} --retry-failed")
    print_headline(data, run_dir, failed_units=failed)
    finish(problems)


def finish(problems: int) -> None:
    """Exit 1 when the study met problems (it still ran everything else and saved it)."""
    if problems:
        err_console.print(f"finished with {problems} problem(s) listed above and in the report")
        raise typer.Exit(1)


def report(run_dir: Path = typer.Argument(..., help="Run directory of a study."),
           appendix_papers: int | None = typer.Option(
               None, "--appendix-papers", min=0,
               help="Papers shown in the report's per-paper appendix (default 3; 0: none)."),
           wait: bool = typer.Option(
               False, "--wait", help="If a run of this study is running, wait for it to end instead of exiting 1.")) -> None:
    """Rebuild report.md, report.html and tables/ from a run's store (no model calls), under the run
    lock; every file is replaced atomically (a killed rebuild leaves the old file or the new one).

    Exit 1: another process (a run of the study, or another rebuild) holds the run lock; its
    process id is named (``--wait`` waits for it instead). Exit 2: no store, a file that is not a
    rhetorica store, or an unusable ``study.json``.
    """

    try:
        with exit_on(FileNotFoundError, StoreError, ValueError):
            data = rebuild_report(run_dir, wait=wait, on_wait=waiting, appendix_papers=appendix_papers)
    except RunLockedError as exc:
        fail(str(exc), 1)
    print_headline(data, run_dir)


def schema() -> None:
    """Print the JSON Schema of study YAML files (each reviewer and rewriter kind with its options)."""

    typer.echo(json.dumps(study_schema(), indent=2))
