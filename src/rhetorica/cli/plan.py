"""``rhetorica plan``: how many papers does a study need to detect a preference ratio?"""

from __future__ import annotations

import typer


def plan(
    ratio: float = typer.Option(
        ..., "--ratio", "-r", help="Preference ratio R to detect (e.g. 1.5)."
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
) -> None:
    """Papers needed to detect preference ratio R at alpha with this reviewer's variance."""
    from rich.console import Console
    from rich.table import Table

    from rhetorica.cli.errors import exit_on, fail

    import math

    from rhetorica.analysis.power import plan_study

    bad = [f"--ratio must be a finite number > 0 and != 1 (got {ratio})"
           if not (math.isfinite(ratio) and ratio > 0 and ratio != 1) else "",
           f"--alpha must be in (0, 1) (got {alpha})" if not 0 < alpha < 1 else "",
           f"--power must be in (0, 1) (got {power})" if not 0 < power < 1 else "",
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
        "Papers needed", "> 5000" if result.papers_needed is None else str(result.papers_needed)
    )
    table.add_row("Analytic power at that size", fmt(result.analytic_power))
    sim = (
        "n/a"
        if result.simulated_power is None
        else (f"{result.simulated_power:.3f} ± {result.simulated_power_se:.3f}")
    )
    table.add_row(f"Simulated power ({simulations} studies)", sim)
    table.add_row("Equivalent mean shift (points)", fmt(result.mean_shift))
    table.add_row("Probability a pair ties", fmt(result.tie_prob))
    Console().print(table)
