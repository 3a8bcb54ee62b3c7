"""``rhetorica calls release RUN_DIR``: stop counting a run's abandoned calls in its budget."""

from __future__ import annotations

from pathlib import Path

import typer
from rhetorica.cli.errors import exit_on, fail
from rhetorica.cli.study import console
from rhetorica.store.db import StoreError
from rhetorica.store.lock import RunLockedError
from rhetorica.study.execute import release_abandoned_calls

calls_app = typer.Typer(help="The call log of a run: calls that interrupted runs left unanswered.",
                        no_args_is_help=True)


@calls_app.command("release")
def release(run_dir: Path = typer.Argument(..., help="Run directory of a study.")) -> None:
    """Release the abandoned calls of a run: calls an interrupted run sent and never got an answer
    for count in the budget at their input cost; once the provider's bill shows they were not
    charged, this sets them to 'released' (cost 0). They stay in the call log.

    Exit 0: released (or none to release); 1: another process runs the study; 2: no store here.
    """

    try:
        with exit_on(FileNotFoundError, StoreError):
            count, usd = release_abandoned_calls(run_dir)
    except RunLockedError as exc:
        fail(str(exc), 1)
    console.print(f"released {count} abandoned call(s): ${usd:.4f} no longer counted in the budget"
                  if count else "no abandoned calls to release", markup=False, highlight=False)
