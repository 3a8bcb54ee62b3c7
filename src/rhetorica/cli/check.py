"""``rhetorica check RUN_DIR``: the scorecard as a CI gate (exit code = verdict)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape

from rhetorica.analysis.scorecard import UNDECIDED
from rhetorica.cli.errors import exit_on, fail
from rhetorica.report.scorecard import CHECK_EXIT_CODES, check_run
from rhetorica.store.lock import LOCK_FILENAME, RunLockedError
from rhetorica.store.db import StoreError

console = Console(soft_wrap=True)


def check(run_dir: Path = typer.Argument(..., help="Run directory of a study.")) -> None:
    """Judge every reviewer configuration of a run against the study's scorecard (no model calls).

    Exit codes:
    0 every configuration passes;
    1 at least one configuration fails (a judge metric classified sensitive, or false robustness:
    stable but not telling reviews apart);
    3 no verdict: none fails, but at least one has not enough data to decide (a judge metric not
    informative or inconclusive included); or the run is incomplete (planned units not run: the
    count is printed; the configurations' lines are of the units run so far); or a run of the
    study is in progress (it holds the run lock; its process id is named);
    2 no store in RUN_DIR, not a rhetorica store, an unusable study.json, or invalid scorecard settings.
    """

    try:
        with exit_on(FileNotFoundError, StoreError, ValueError):
            result = check_run(run_dir)
    except RunLockedError as exc:
        holder = f"process {exc.pid}" if exc.pid is not None else "another process"
        fail(f"{run_dir}: {holder} is running this study (lock file {run_dir / LOCK_FILENAME}); no verdict on a "
             "run in progress: check it when the run ends", CHECK_EXIT_CODES[UNDECIDED])
    if result.problem:
        console.print(f"{escape(str(run_dir))}: {escape(result.problem)}", highlight=False)
    for row in result.scorecard.itertuples(index=False):
        line = f"{row.reviewer}: {row.verdict}" + (f" ({row.reasons})" if row.reasons else "")
        console.print(escape(line), highlight=False)
    console.print(f"verdict: {result.verdict} (exit {result.exit_code})", highlight=False)
    raise typer.Exit(result.exit_code)
