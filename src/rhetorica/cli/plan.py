"""``rhetorica plan``: how many papers does a study need to detect a preference ratio, or (from a
pilot run, ``--pilot RUN_DIR --shift X``) a mean shift of X points with soft and integer scores?"""

from __future__ import annotations

from pathlib import Path

import typer
from rhetorica.analysis.power import MAX_PAPERS, plan_study
from rhetorica.analysis.soft import pilot_plan
from rhetorica.analysis.tidy import primary_metric
from rhetorica.cli.errors import exit_on, fail
from rhetorica.report.selection import analysed_assessments
from rhetorica.store.db import StoreError
from rhetorica.store.export import assessments_table
from rhetorica.store.runs import open_run_store
from rhetorica.study.run_study import load_run_study
from rich.console import Console
from rich.table import Table
import math


def pilot_assessments(run_dir: Path):  # noqa: ANN201 - pandas is imported lazily
    """The tidy assessments a run's analysis uses (as its report does).

    Raises:
        FileNotFoundError, rhetorica.store.db.StoreError, ValueError: as
        :func:`rhetorica.store.runs.open_run_store` and :func:`rhetorica.study.run_study.load_run_study`.
    """

    store = open_run_store(run_dir)
    try:
        return analysed_assessments(assessments_table(store), load_run_study(run_dir))
    finally:
        store.close()


#: How ``plan --pilot`` shows an SD its pilot cannot give (no degree of freedom left).
NOT_ESTIMABLE = "not estimable"


def _level_problems(alpha: float, power: float) -> list[str]:
    """The messages for an ``--alpha`` or ``--power`` outside (0, 1) (NaN included); ``""`` where fine."""
    return [f"--alpha must be in (0, 1) (got {alpha})" if not 0 < alpha < 1 else "",
            f"--power must be in (0, 1) (got {power})" if not 0 < power < 1 else ""]


def _pilot_plan(run_dir: Path, shift: float | None, alpha: float, power: float, as_json: bool,
                metric: str | None = None) -> None:
    """Print :func:`rhetorica.analysis.soft.pilot_plan` for the run ``run_dir``."""



    bad = [f"--pilot needs --shift, a finite number of score points > 0 (got {shift})"
           if shift is None or not (math.isfinite(shift) and shift > 0) else "", *_level_problems(alpha, power)]
    if any(bad):
        fail("; ".join(b for b in bad if b))
    with exit_on(ValueError, FileNotFoundError, StoreError):
        df = pilot_assessments(run_dir)
        if df.empty:
            raise ValueError(f"{run_dir}: the run has no assessments to plan from")
        if metric is not None and metric not in df.columns:
            raise ValueError(f"--metric {metric!r}: the pilot run {run_dir} has no score of that name")
        try:
            metric = metric or primary_metric(df)
        except ValueError as exc:
            raise ValueError(f"{exc} with --metric NAME") from None
        result = pilot_plan(df, shift, score=metric, alpha=alpha, power=power)
    if as_json:
        typer.echo(result.to_json(orient="records", indent=2))
        return
    table = Table(title=f"Papers needed for a mean shift of {shift:g} points at alpha = {alpha:g}, "
                        f"power {power:g} (pilot: {run_dir})")
    for column in ("Reviewer", "Pilot pairs", "SD d (integer)", "SD d (soft)", "Papers: sign test",
                   "Papers: Wilcoxon on soft", "Ratio"):
        table.add_column(column, justify="left" if column == "Reviewer" else "right")

    def fmt(value: object, spec: str = ".3f") -> str:
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return "n/a"
        return format(value, spec) if isinstance(value, float) else str(value)

    notes = []
    for row in result.to_dict("records"):
        # one paper per compared pair: no difference is left once each pair's mean is removed
        alone = bool(row["n_pairs"]) and not row["df_integer"]
        sds = [NOT_ESTIMABLE] * 2 if alone else [fmt(row["sd_integer"]), fmt(row["sd_soft"])]
        table.add_row(str(row["reviewer"]), str(row["n_pairs"]), *sds, fmt(row["papers_integer"]),
                      fmt(row["papers_soft"]), fmt(row["ratio"], ".2f"))
        if row["why"] and not alone:  # every n/a cell explained (the SD note below covers `alone`)
            notes.append(f"{row['reviewer']}: n/a where not computable: {row['why']}")
        if alone:
            notes.append(f"{row['reviewer']}: the SD of paired differences is {NOT_ESTIMABLE}: each of its "
                         f"{row['n_pairs']} difference(s) is the only paper of its compared pair, and each pair's "
                         "own mean is removed; a pilot needs at least 2 papers in a compared pair")
    console = Console()
    console.print(table)
    for note in notes:
        console.print(note, markup=False, highlight=False)


def plan(
    ratio: float | None = typer.Option(
        None, "--ratio", "-r", help="Preference ratio R to detect (e.g. 1.5); required without --pilot."
    ),
    alpha: float = typer.Option(0.05, help="Two-sided significance level of the sign test."),
    power: float = typer.Option(0.8, help="Target power."),
    sd: float = typer.Option(
        0.5, "--sd", help="SD of one review on the 1-10 scale (the reviewer's pooled SD)."
    ),
    replicates: int = typer.Option(1, min=1, max=1000,
                                   help="Reviews averaged per paper and condition (1-1000, as in a study)."),
    integer_scores: bool = typer.Option(
        True, "--integer/--continuous", help="Reviews are integers (ties occur) or continuous."
    ),
    simulations: int = typer.Option(
        2000, min=0, help="Simulated studies confirming the analytic power (0 skips)."
    ),
    seed: int = typer.Option(0, help="Seed of the simulation."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    pilot: Path | None = typer.Option(
        None, "--pilot", help="A pilot run's directory: plan from its own variances, soft and integer scores."),
    shift: float | None = typer.Option(None, "--shift", help="With --pilot: the mean shift to detect (points)."),
    metric: str | None = typer.Option(
        None, "--metric", help="With --pilot: the score planned for (default: the forms' primary; needed when "
                               "the pilot mixes forms, e.g. judges of several families)."),
) -> None:
    """Papers needed to detect preference ratio R at alpha with this reviewer's variance; with
    --pilot RUN_DIR --shift X, papers needed for a mean shift of X points with soft ratings
    (Wilcoxon on expected scores) and with integer scores (sign test), from the pilot's variances."""




    if pilot is not None:
        if ratio is not None:
            fail(f"--ratio ({ratio:g}) does not apply with --pilot, which plans for a mean shift: give --shift "
                 "(points), or drop --pilot to plan for a preference ratio")
        _pilot_plan(pilot, shift, alpha, power, as_json, metric)
        return
    if ratio is None:
        fail("--ratio is required (or plan from a pilot run with --pilot RUN_DIR --shift X)")
    bad = [f"--ratio must be a finite number > 0 and != 1 (got {ratio})"
           if not (math.isfinite(ratio) and ratio > 0 and ratio != 1) else "",
           *_level_problems(alpha, power),
           f"--sd must be a finite number > 0 (got {sd})" if not (math.isfinite(sd) and sd > 0) else ""]
    if any(bad):
        fail("; ".join(b for b in bad if b))
    with exit_on(ValueError):
        result = plan_study(
            ratio,
            alpha=alpha,
            power=power,
            noise_sd=sd,
            replicates=replicates,
            integer_scores=integer_scores,
            n_studies=simulations,
            seed=seed,
        )
    if as_json:
        typer.echo(result.model_dump_json(indent=2))
        return
    table = Table(title=f"Sign-test plan: detect R = {ratio:g} at alpha = {alpha:g}")
    table.add_column("Quantity")
    table.add_column("Value", justify="right")

    def fmt(value: float | None, spec: str = ".3f") -> str:
        return "n/a" if value is None else format(value, spec)

    table.add_row(
        "Papers needed", f"> {MAX_PAPERS}" if result.papers_needed is None else str(result.papers_needed)
    )
    over = f"n/a: more than {MAX_PAPERS} papers needed"
    table.add_row("Analytic power at that size", over if result.papers_needed is None else fmt(result.analytic_power))
    if result.simulated_power is not None:
        sim = f"{result.simulated_power:.3f} ± {result.simulated_power_se:.3f}"
    else:
        sim = "n/a: not simulated (--simulations 0)" if simulations == 0 else over
    table.add_row(f"Simulated power ({simulations} studies)", sim)
    table.add_row("Equivalent mean shift (points)", fmt(result.mean_shift))
    table.add_row("Probability a pair ties", fmt(result.tie_prob))
    Console().print(table)
