"""``rhetorica estimate STUDY.yaml``: prints :func:`rhetorica.study.estimate.estimate_study`."""

from __future__ import annotations

from pathlib import Path

import typer

from rhetorica.cli.errors import exit_on
from rhetorica.study.config import ConfigError
from rhetorica.study.estimate import estimate_study
from rich.console import Console
from rich.markup import escape
from rich.measure import Measurement
from rich.table import Table
from rhetorica.wording import counted


def _money(value: float | None) -> str:
    if value is None:
        return "n/a"
    return f"${value:,.2f}" if value >= 1 or value == 0 else f"${value:.4f}"


def estimate(
    study: Path = typer.Argument(..., help="Study YAML file.", exists=True, dir_okay=False),
    prices: Path | None = typer.Option(None, "--prices", help="Price override file (JSON or YAML)."),
    as_json: bool = typer.Option(False, "--json", help="Print the estimate as JSON."),
) -> None:
    """Print the calls, tokens and cost a study will need, before anything runs (no model calls).

    Exit 0: estimated; 1: input problems (an unreadable document or dataset) left part of the study
    unplanned, as ``rhetorica run`` would exit; 2: invalid study file."""


    console = Console()
    with exit_on(ConfigError, ValueError):
        result = estimate_study(study, prices)
    if as_json:
        typer.echo(result.model_dump_json(indent=2))
        if result.problems:
            raise typer.Exit(1)
        return
    rows = [(row.stage, row.model, f"{row.calls:,}", f"{row.input_tokens:,}", f"{row.output_tokens:,}",
             _money(row.cost_usd), _money(row.cached_cost_usd), _money(row.batch_cost_usd),
             _money(row.batch_cached_cost_usd) if row.batch_cached_cost_usd is not None or row.cost_usd is None
             else "n/a") for row in result.rows]
    rows.append(("total", "", f"{sum(r.calls for r in result.rows):,}",
                 f"{sum(r.input_tokens for r in result.rows):,}", f"{sum(r.output_tokens for r in result.rows):,}",
                 _money(result.total_cost_usd), _money(result.total_cached_cost_usd),
                 _money(result.total_batch_cost_usd), _money(result.total_batch_cached_cost_usd)))
    table = Table(title=f"Estimate for study '{escape(result.study)}' (pending work only)")
    for k, column in enumerate(("Stage", "Model", "Calls", "Input tokens", "Output tokens", "Cost (list)",
                                "With cache", "Batch", "Batch + cache")):
        table.add_column(column, justify="left" if k < 2 else "right")
    for row in rows:
        table.add_row(*(escape(cell) for cell in row))
    # the table at its full width, whatever the terminal's: a narrow one wraps lines, never cuts a
    # model name or a number to "…"
    full = Measurement.get(console, console.options.update(width=10_000), table).maximum
    Console(width=max(console.width, full), soft_wrap=True).print(table)
    terms = " + ".join(f"{n:,} {term}" for term, n in result.bound_terms.items())
    console.print(
        f"Units pending: {result.units_pending}; already done: {result.units_done}. An upper bound: "
        f"{counted(sum(result.bound_terms.values()), 'call', grouped=True)} = {terms} (rows '(at most)' are calls made only when an answer "
        "calls for them; transport retries are not counted); output at each call's cap; input tokens are the "
        "requests as sent, counted as the budget reserves them (the model's own tokenizer where one is at hand, "
        "else a calibrated ratio). "
        "With cache: replicates of a prompt read it from the provider's prompt cache. Batch + cache: n/a "
        "where the provider does not document that the two discounts combine (the total then counts batch)."
    )
    for warning in result.warnings:
        console.print(f"[yellow]warning[/yellow] {escape(warning)}", highlight=False)
    for problem in result.problems:
        console.print(f"[yellow]problem[/yellow] {escape(str(problem))}", highlight=False)
    if result.budget_usd is not None:
        verdict = "within" if result.total_cost_usd <= result.budget_usd else "OVER"
        console.print(f"Budget {_money(result.budget_usd)}: estimate is {verdict} budget.")
    if result.problems:
        raise typer.Exit(1)
