"""``rhetorica status``: what is done, failed, pending and superseded for a study.

The study, store and analysis modules are imported when the command runs, not when its module
loads: ``rhetorica status --help`` (shell completion, CI gates) answers without them.
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.markup import escape
from rich.table import Table

from rhetorica.cli.errors import exit_on
from rhetorica.cli.output import console, print_abandoned, print_problems


def status(study: Path = typer.Argument(..., help="Study YAML file.")) -> None:
    """Show what is done (ok), failed, pending and superseded for a study (runs nothing, writes nothing).

    Exit 0: shown; 1: input problems (an unreadable document or dataset) left part of the study
    unplanned, as ``rhetorica run`` would exit; 2: invalid study file or store."""

    from rhetorica.problems import is_warning
    from rhetorica.store.db import StoreError
    from rhetorica.study.config import ConfigError, load_study
    from rhetorica.study.status import study_status

    with exit_on(ConfigError):
        config, base_dir = load_study(study)
    with exit_on(StoreError, ConfigError):
        found = study_status(config, base_dir)
    table = Table(title=f"Study {escape(config.name)}")
    for col in ("stage", "units", "ok", "failed", "pending"):  # ok + failed + pending = units
        table.add_column(col, justify="left" if col == "stage" else "right")
    for row in found.stages:
        failed = sum(row.failed.values())
        table.add_row(row.stage, str(row.units), str(row.done - failed),
                      f"{failed} ({', '.join(f'{k}: {v}' for k, v in sorted(row.failed.items()))})" if failed else "0",
                      str(row.pending))
    console.print(table)
    print_problems(found.problems)
    if not found.store_found:
        console.print(f"No run yet: {found.run_dir} holds no store; `rhetorica run {study}` creates it. "
                      "(status wrote nothing.)", markup=False, highlight=False)
    print_abandoned(*found.abandoned_calls, run_dir=str(found.run_dir))
    if found.calls_in_flight:
        console.print(f"{found.calls_in_flight} call(s) in flight now (a run holds the study's lock).",
                      markup=False, highlight=False)
    if found.failed_units:
        console.print(f"{found.failed_units} unit(s) are stored as failures; `rhetorica run {study} --retry-failed` "
                      "runs them again.", markup=False, highlight=False)
    if not found.superseded.empty:
        console.print(f"Superseded: {int(found.superseded['units'].sum())} stored unit(s) from earlier declarations "
                      "of this study are kept in the store and left out of analysis and reports:")
        old = Table()
        for col in ("stage", "rewriter / reviewer", "model / prompt version", "condition / protocol", "units", "last"):
            old.add_column(col, justify="right" if col == "units" else "left")
        for row in found.superseded.itertuples(index=False):
            old.add_row(*(escape(str(v)) for v in (row.stage, row.configuration, row.model, row.detail)),
                        str(row.units), str(row.last_created))
        console.print(old)
    if any(not is_warning(reason) for _, _, reason in found.problems):
        raise typer.Exit(1)
