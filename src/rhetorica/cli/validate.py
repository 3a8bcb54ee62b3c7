"""``rhetorica validate RUN_DIR | STUDY.yaml``: validate a run's variants and show the Table-2 summary."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import typer
from rhetorica.cli.errors import exit_on, fail
from rhetorica.cli.study import console, err_console
from rhetorica.report.data import display_table
from rhetorica.report.render import write_report
from rhetorica.report.validation import failed_variants
from rhetorica.store.lock import RunLockedError
from rhetorica.study.config import ConfigError, load_study
from rhetorica.study.execute import revalidate_run
from rhetorica.study.inputs import resolve_run_dir
from rich.console import Console
from rich.markup import escape
from rich.table import Table


def _not_passed(checked: pd.DataFrame) -> list[str]:
    """``document / condition / rewriter / reasons`` of each checked variant of a run without
    Table-2 measures that did not pass: a review variant whose checks failed or could not be made
    (its reasons say which), and a manuscript variant as :func:`failed_variants` lists it. A review
    variant that passed has no style measures by design and is not listed."""
    review = (checked["review"].fillna(False).astype(bool) if "review" in checked
              else pd.Series(False, index=checked.index))
    failed = checked[review & ~checked["passed"].astype(bool)].sort_values(["document_id", "condition", "rewriter"])
    lines = [" / ".join(str(v) for v in (r.document_id, r.condition, r.rewriter, r.reasons))
             for r in failed.itertuples(index=False)]
    return lines + [" / ".join(str(v) for v in row) for row in failed_variants(checked[~review]).itertuples(index=False)]


def validate(
    run_dir: Path = typer.Argument(..., help="Run directory of a study, or the study file (its output_dir is used)."),
    min_semantic_similarity: float = typer.Option(None, help="Override the study's threshold."),
    min_tfidf_cosine: float = typer.Option(None, help="Override the study's threshold."),
    max_length_ratio_deviation: float = typer.Option(None, help="Override the study's threshold."),
    require_protected_spans: bool = typer.Option(None, help="Override the study's setting."),
) -> None:
    """Validate every variant in a run (no model calls); overrides are saved in the run's study.json.
    Given a study file, validates the run in its output_dir. Exit code 1 while another process runs
    the study, 2 for a folder that is not a run (or a study file never run)."""


    overrides = {"min_semantic_similarity": min_semantic_similarity, "min_tfidf_cosine": min_tfidf_cosine,
                 "max_length_ratio_deviation": max_length_ratio_deviation,
                 "require_protected_spans": require_protected_spans}
    if run_dir.is_file():  # a study file: the run directory it declares

        with exit_on(ConfigError):
            config, base_dir = load_study(run_dir)
            study, run_dir = run_dir, resolve_run_dir(config, base_dir)
        if not (run_dir / "study.json").is_file():
            fail(f"{study}: not run yet (its output_dir {run_dir} holds no run); run it first", 2)
    try:
        with exit_on(FileNotFoundError, ValueError, ConfigError):
            summary, data = revalidate_run(run_dir, {k: v for k, v in overrides.items() if v is not None},
                                           report=write_report)
    except RunLockedError as exc:
        fail(str(exc), 1)
    for stage, item, reason in summary.problems:
        err_console.print(f"[yellow]problem[/yellow] {escape(f'({stage}) {item}: {reason}')}", highlight=False)

    if data.validation_summary.empty:
        checked = data.validation
        if checked.empty:
            console.print("No validated variants in this run.")
            return
        passed = int(checked["passed"].sum())
        console.print(f"Checked {len(checked)} variant(s): {passed} passed, {len(checked) - passed} failed "
                      "(review variants are checked for points, scores and recommendation; Table 2's style "
                      "measures are for manuscripts).")
        for line in _not_passed(checked):
            console.print(f"[yellow]failed[/yellow] {escape(line)}", highlight=False)
        console.print(f"Report: {escape(str(run_dir / 'report.html'))}")
        return
    headers, rows = display_table(data.validation_summary)
    table = Table(title="Validation by condition (Table 2 shape)")
    for header in headers:
        table.add_column(header)
    for row in rows:
        table.add_row(*(escape(str(v)) for v in row))

    wide = Console(width=max(console.width, 160), soft_wrap=True)
    wide.print(table)
    for row in failed_variants(data.validation).itertuples(index=False):
        wide.print(f"[yellow]failed[/yellow] {escape(' / '.join(str(v) for v in row))}", highlight=False)
    console.print(f"Validated {summary.units_run} variant(s) now; report: {escape(str(run_dir / 'report.html'))}")
