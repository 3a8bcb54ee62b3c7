"""``rhetorica run``, ``status``, ``report`` and ``schema``."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

console = Console()
err_console = Console(stderr=True, soft_wrap=True)


def _load(study: Path):  # noqa: ANN202 - returns (config, base_dir)
    from rhetorica.study.config import ConfigError, load_study

    try:
        return load_study(study)
    except ConfigError as exc:
        err_console.print(f"[red]error:[/red] {exc}", highlight=False)
        raise typer.Exit(2) from exc


def print_headline(run_dir: Path) -> None:
    """Print the comparison table of a run in the terminal (compact; the report has every column)."""
    from rhetorica.report.build import fmt
    from rhetorica.report.render import write_report

    data = write_report(run_dir)
    table = Table(title="Paired comparison, overall score (papers as units; full table in the report)")
    for name in ("Reviewer", "A vs B", "n", "A>B %", "B>A %", "Tie %", "Ratio", "p", "Flip A %", "Flip B %",
                 "Mean A", "Mean B"):
        table.add_column(name, justify="left" if name in ("Reviewer", "A vs B") else "right", no_wrap=True)
    for row in data.comparisons.itertuples(index=False):
        table.add_row(row.reviewer, f"{row.first} vs {row.second}", str(row.n_pairs),
                      fmt(row.pct_first_higher, 0), fmt(row.pct_second_higher, 0), fmt(row.pct_tie, 0),
                      fmt(row.preference_ratio), fmt(row.sign_test_p, 3), fmt(row.flips_first_accept_pct, 0),
                      fmt(row.flips_second_accept_pct, 0), fmt(row.mean_first), fmt(row.mean_second))
    wide = Console(width=max(console.width, 160))
    wide.print(table)
    assessments = data.tables.get("assessments")
    if assessments is not None and "variant_passed" in assessments.columns:
        failed = assessments.loc[assessments["variant_passed"].eq(0), ["document_id", "arm"]].drop_duplicates()
        if len(failed) and data.study.get("validation", {}).get("failed_variants") == "include":
            console.print(f"Note: {len(failed)} variant(s) in these comparisons failed validation and are included "
                          "because the study sets validation.failed_variants: include (see the report).")
    console.print(f"Failures: {len(data.failures)} unit(s) listed in the report. Report: {run_dir / 'report.html'}")


def execute_study(config, base_dir: Path, run_dir: Path | None = None,  # noqa: ANN001
                  retry_failed: bool = False) -> tuple[Path, int]:
    """Run a validated study with progress bars; returns the run dir and the number of problems.

    Raises:
        typer.Exit: 130 on Ctrl-C (finished units are kept), 1 when no document could be read.
    """
    from rhetorica.cli.progress import RichProgress
    from rhetorica.report.build import STUDY_FILE
    from rhetorica.study.runner import StudyRunner

    with RichProgress(console) as progress:
        runner = StudyRunner(config, base_dir, run_dir=run_dir, progress=progress)
        (runner.run_dir / STUDY_FILE).write_text(config.model_dump_json(indent=2), encoding="utf-8")
        try:
            summary = asyncio.run(runner.run(retry_failed=retry_failed))
        except KeyboardInterrupt:
            err_console.print("interrupted: every finished unit is saved; run the same command again to resume")
            raise typer.Exit(130) from None
        finally:
            runner.store.close()
    for stage, item, reason in summary.problems:
        err_console.print(f"[yellow]problem[/yellow] ({stage}) {item}: {reason}", highlight=False)
    for item, severity, count in summary.scan_flagged:
        err_console.print(f"scan: {item}: {count} hidden-text or instruction finding(s), highest {severity} "
                          "(see the report's hidden-instructions section)", markup=False, highlight=False)
    if summary.units_total == 0:
        err_console.print("[red]error:[/red] nothing to run: no document could be read (see the problems above)")
        raise typer.Exit(1)
    if summary.units_run == 0 and summary.model_calls == 0:
        console.print(f"Nothing to do: all {summary.units_skipped} units were already in the store; "
                      "0 model calls made.")
    else:
        stages = "; ".join(
            f"{stage} " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
            for stage, counts in summary.stage_statuses.items()) or "none"
        console.print(f"Ran {summary.units_run} units ({stages}); skipped {summary.units_skipped} already done; "
                      f"{summary.model_calls} model calls, {summary.cache_hits} cache hits; "
                      f"{summary.wall_time_s:.1f} s.")
    return runner.run_dir, len(summary.problems)


def run(
    study: Path = typer.Argument(..., help="Study YAML file."),
    retry_failed: bool = typer.Option(False, help="Also re-run units stored as error or timeout."),
) -> None:
    """Run a study declared in YAML (resumable: finished units are skipped)."""
    config, base_dir = _load(study)
    run_dir, problems = execute_study(config, base_dir, retry_failed=retry_failed)
    print_headline(run_dir)
    finish(problems)


def finish(problems: int) -> None:
    """Exit 1 when the study met problems (it still ran everything else and saved it)."""
    if problems:
        err_console.print(f"finished with {problems} problem(s) listed above and in the report")
        raise typer.Exit(1)


def status(study: Path = typer.Argument(..., help="Study YAML file.")) -> None:
    """Show what is done, pending and failed for a study, without running anything."""
    from rhetorica.study.status import study_status

    config, base_dir = _load(study)
    rows, problems = study_status(config, base_dir)
    table = Table(title=f"Study {config.name}")
    for col in ("stage", "units", "done", "pending", "failed"):
        table.add_column(col, justify="left" if col == "stage" else "right")
    for row in rows:
        table.add_row(row.stage, str(row.units), str(row.done), str(row.pending),
                      ", ".join(f"{k}: {v}" for k, v in sorted(row.failed.items())) or "0")
    console.print(table)
    for stage, item, reason in problems:
        err_console.print(f"[yellow]problem[/yellow] ({stage}) {item}: {reason}", highlight=False)


def report(run_dir: Path = typer.Argument(..., help="Run directory of a study.")) -> None:
    """Rebuild report.md, report.html and tables/ from a run's store (no model calls)."""
    try:
        print_headline(run_dir)
    except FileNotFoundError as exc:
        err_console.print(f"[red]error:[/red] {exc}", highlight=False)
        raise typer.Exit(2) from exc


def schema() -> None:
    """Print the JSON Schema of study YAML files."""
    from rhetorica.study.config import StudyConfig

    typer.echo(json.dumps(StudyConfig.model_json_schema(), indent=2))
