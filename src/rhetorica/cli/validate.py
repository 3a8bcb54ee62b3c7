"""``rhetorica validate RUN_DIR``: validate a run's variants and show the Table-2 summary."""

from __future__ import annotations

import asyncio
from pathlib import Path

import typer


def validate(
    run_dir: Path = typer.Argument(..., help="Run directory of a study."),
    min_semantic_similarity: float = typer.Option(None, help="Override the study's threshold."),
    min_tfidf_cosine: float = typer.Option(None, help="Override the study's threshold."),
    max_length_ratio_deviation: float = typer.Option(None, help="Override the study's threshold."),
    require_protected_spans: bool = typer.Option(None, help="Override the study's setting."),
) -> None:
    """Validate every variant in a run (no model calls); overrides are saved in the run's study.json.
    Exit code 1 while another process runs the study, 2 for a folder that is not a run."""
    from rich.markup import escape
    from rich.table import Table

    from rhetorica.cli.errors import exit_on, fail
    from rhetorica.cli.study import console, err_console
    from rhetorica.report.data import display_table
    from rhetorica.report.render import write_report
    from rhetorica.store.lock import RunLockedError
    from rhetorica.study.config import ConfigError
    from rhetorica.study.execute import revalidate_run

    overrides = {"min_semantic_similarity": min_semantic_similarity, "min_tfidf_cosine": min_tfidf_cosine,
                 "max_length_ratio_deviation": max_length_ratio_deviation,
                 "require_protected_spans": require_protected_spans}
    try:
        with exit_on(FileNotFoundError, ValueError, ConfigError):
            summary = revalidate_run(run_dir, {k: v for k, v in overrides.items() if v is not None})
    except RunLockedError as exc:
        fail(str(exc), 1)
    for stage, item, reason in summary.problems:
        err_console.print(f"[yellow]problem[/yellow] {escape(f'({stage}) {item}: {reason}')}", highlight=False)
    data = write_report(run_dir)
    if data.validation_summary.empty:
        console.print("No validated variants in this run.")
        return
    headers, rows = display_table(data.validation_summary)
    table = Table(title="Validation by condition (Table 2 shape)")
    for header in headers:
        table.add_column(header)
    for row in rows:
        table.add_row(*(escape(str(v)) for v in row))
    from rich.console import Console

    from rhetorica.report.validation import failed_variants

    wide = Console(width=max(console.width, 160), soft_wrap=True)
    wide.print(table)
    for row in failed_variants(data.validation).itertuples(index=False):
        wide.print(f"[yellow]failed[/yellow] {escape(' / '.join(str(v) for v in row))}", highlight=False)
    console.print(f"Validated {summary.units_run} variant(s) now; report: {escape(str(run_dir / 'report.html'))}")
