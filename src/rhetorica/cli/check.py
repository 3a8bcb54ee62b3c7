"""``rhetorica check RUN_DIR``: the scorecard as a CI gate (exit code = verdict)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape

from rhetorica.cli.errors import exit_on
from rhetorica.report.scorecard import check_run
from rhetorica.store.db import StoreError

console = Console(soft_wrap=True)


def check(run_dir: Path = typer.Argument(..., help="Run directory of a study.")) -> None:
    """Judge every reviewer configuration of a run against the study's scorecard (no model calls).

    Exit codes:
    0 every configuration passes;
    1 at least one configuration fails (a judge metric classified sensitive, or false robustness:
    stable but not telling reviews apart);
    3 none fails, but at least one has not enough data to decide (a judge metric not informative
    or inconclusive included);
    2 no store in RUN_DIR, not a rhetorica store, an unusable study.json, or invalid scorecard settings.
    """

    with exit_on(FileNotFoundError, StoreError, ValueError):
        result = check_run(run_dir)
    if result.problem:
        console.print(f"{escape(str(run_dir))}: not enough data: {escape(result.problem)}", highlight=False)
    for row in result.scorecard.itertuples(index=False):
        line = f"{row.reviewer}: {row.verdict}" + (f" ({row.reasons})" if row.reasons else "")
        console.print(escape(line), highlight=False)
    console.print(f"verdict: {result.verdict} (exit {result.exit_code})", highlight=False)
    raise typer.Exit(result.exit_code)
