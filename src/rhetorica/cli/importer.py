"""``rhetorica import diagnostics BASELINE PERTURBED --out RUN_DIR``: results made elsewhere as a run.

Registered by the app as the ``import`` command group. The import itself is
:func:`rhetorica.analysis.interop.import_diagnostics_run`; this module parses, calls it and prints.
Exit codes: 0 imported without problems, 1 imported with problems (listed, and in the report), 2
nothing imported (bad arguments, unreadable file, run directory not empty).
"""

from __future__ import annotations

import shlex
from pathlib import Path

import typer

from rhetorica.scorecard_thresholds import DECISION_THRESHOLD
from rhetorica.analysis.interop import DEFAULT_FIELD_MAP, import_diagnostics_run
from rhetorica.cli.errors import exit_on
from rich.console import Console
from rich.markup import escape
from rhetorica.wording import counted

import_app = typer.Typer(help="Import results made by other tools as a run directory.", no_args_is_help=True)


@import_app.callback()
def _group() -> None:
    """Import results made by other tools as a run directory that `rhetorica report` reads."""


def _field_map(values: list[str] | None) -> dict[str, str] | None:
    if not values:
        return None
    out: dict[str, str] = {}
    for value in values:
        source, sep, target = value.partition("=")
        if not sep or not source.strip() or not target.strip():
            raise typer.BadParameter(f"{value!r}: expected FIELD=SCORE, e.g. overall_score=overall", param_hint="--map")
        out[source.strip()] = target.strip()
    return out


@import_app.command("diagnostics")
def diagnostics(
    baseline: Path = typer.Argument(..., help="Baseline JSONL of ai-reviewer-diagnostics (one object per line, with 'id')."),
    perturbed: Path = typer.Argument(..., help="Perturbed JSONL with the same ids (an id in one file only "
                                     "is a listed problem; no shared id at all is refused)."),
    out: Path = typer.Option(..., "--out", "-o", help="New (or empty) run directory to write; nothing is "
                             "written when the import fails."),
    condition: str = typer.Option("perturbed", help="Arm label of the perturbed file, e.g. 'soundness:-'."),
    reviewer: str = typer.Option("external", help="Reviewer label of the imported scores."),
    field_map: list[str] = typer.Option(None, "--map", help="FIELD=SCORE, repeatable; default "
                                        "overall_score=overall and soundness_score=soundness."),
    decision_threshold: float = typer.Option(DECISION_THRESHOLD, help="Acceptance threshold on the overall score (for flips), "
                                             "from 1 to 10."),
) -> None:
    """Import an ai-reviewer-diagnostics baseline/perturbed pair; then `rhetorica report RUN_DIR`."""


    console, err = Console(soft_wrap=True), Console(stderr=True, soft_wrap=True)
    with exit_on(FileExistsError, OSError, ValueError):
        result = import_diagnostics_run(baseline, perturbed, out, reviewer=reviewer, condition=condition,
                                        field_map=_field_map(field_map) or DEFAULT_FIELD_MAP,
                                        decision_threshold=decision_threshold)
    counts = result.table.groupby(["arm", "status"]).size()
    summary = "; ".join(f"{arm}: " + ", ".join(f"{status} {n}" for status, n in group.droplevel(0).items())
                        for arm, group in counts.groupby(level=0))
    console.print(f"Imported {counted(len(result.table), 'assessment')} into {result.run_dir} ({summary}).", markup=False, highlight=False)
    for problem in result.problems:
        err.print(f"[yellow]problem[/yellow] {escape(str(problem))}", highlight=False)
    console.print(f"Report: rhetorica report {shlex.quote(str(result.run_dir))}", markup=False, highlight=False)
    if result.problems:
        err.print(f"imported with {len(result.problems)} problem(s) listed above and in the report")
        raise typer.Exit(1)
