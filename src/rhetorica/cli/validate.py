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
    """Validate every variant in a run (no model calls); overrides are saved in the run's study.json."""
    from rich.markup import escape
    from rich.table import Table

    from rhetorica.cli.errors import exit_on, fail
    from rhetorica.cli.study import console, err_console
    from rhetorica.report.data import display_table
    from rhetorica.store.runs import STUDY_FILE, read_run_study
    from rhetorica.report.render import write_report
    from rhetorica.study.config import ConfigError, parse_study
    from rhetorica.study.runner import StudyRunner

    study_file = run_dir / STUDY_FILE
    if not study_file.exists():
        fail(f"{run_dir}: no {STUDY_FILE} here; is this a rhetorica run directory?")
    with exit_on(ValueError):
        spec = read_run_study(run_dir)
    overrides = {"min_semantic_similarity": min_semantic_similarity, "min_tfidf_cosine": min_tfidf_cosine,
                 "max_length_ratio_deviation": max_length_ratio_deviation,
                 "require_protected_spans": require_protected_spans}
    spec.setdefault("validation", {}).setdefault("thresholds", {}).update(
        {k: v for k, v in overrides.items() if v is not None})
    spec["validation"]["enabled"] = True
    with exit_on(ConfigError):
        config = parse_study(spec, source=str(study_file))
    study_file.write_text(config.model_dump_json(indent=2), encoding="utf-8")
    runner = StudyRunner(config, run_dir, run_dir=run_dir)
    try:
        summary = asyncio.run(runner.validate_stored())
    finally:
        runner.store.close()
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
