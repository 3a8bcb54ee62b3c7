"""``rhetorica recipe list | show NAME | init NAME DIR | run DIR``: the published studies in one command.

Exit codes: 0 done; 1 done with listed problems (papers the data step could not use, failed units);
2 unusable input (unknown recipe or parameter, a folder holding something else, a data step that
cannot start).
"""

from __future__ import annotations

from pathlib import Path

import typer
import yaml
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from rhetorica.cli import study
from rhetorica.cli.errors import exit_on
from rhetorica.recipes.init import Estimate, get_recipe, init_recipe, recipe_study
from rhetorica.recipes.model import RecipeError
from rhetorica.registry import recipes

recipe_app = typer.Typer(help="Reproduce a published study: build its corpus, run it, compare with the paper.",
                         no_args_is_help=True)
console = Console()


@recipe_app.command("list")
def list_recipes() -> None:
    """List the recipes (built-in and from installed plug-ins), one line each."""
    for entry in recipes.entries():
        typer.echo(f"{entry.name}  (study {entry.value.study_id}, from {entry.source}): {entry.description}")


@recipe_app.command("show")
def show(name: str = typer.Argument(..., help="Recipe name (rhetorica recipe list).")) -> None:
    """Show a recipe: its parameters, data step, design, published numbers and study template."""
    with exit_on(RecipeError):
        recipe = get_recipe(name)
    console.print(f"[bold]{escape(recipe.name)}[/bold] (study {escape(recipe.study_id)}): {escape(recipe.title)}")
    console.print(escape(recipe.citation))
    for key, spec in recipe.parameters.items():
        console.print(f"  --{key.replace('_', '-')} (default {escape(str(spec.default))}): {escape(spec.help)}")
    console.print(f"Data step: {escape(recipe.data.kind)} {escape(str(recipe.data.options))}; the paper's corpus: "
                  f"{recipe.data.full_size} {escape(recipe.data.unit)}")
    for aspect, text in recipe.design.items():
        console.print(f"  {escape(aspect)}: {escape(text)}")
    tables: dict[str, int] = {}
    for row in recipe.published:
        tables[row.table] = tables.get(row.table, 0) + len(row.values)
    console.print("Published values: " + ", ".join(f"{escape(t)} {n}" for t, n in tables.items()))
    console.print("Study template:")
    console.print(escape(recipe.study), highlight=False)


def _print_estimate(estimate: Estimate) -> None:
    table = Table(title=f"Estimate, {escape(estimate.label)}")
    for column in ("Stage", "Model", "Calls", "Input tokens", "Output tokens", "Cost (list)", "With cache", "Batch"):
        table.add_column(column, justify="left" if column in ("Stage", "Model") else "right")
    money = (lambda v: "n/a" if v is None else f"${v:,.2f}")
    for row in estimate.rows:
        table.add_row(escape(str(row["stage"])), escape(str(row["model"])), f"{row['calls']:,}",
                      f"{row['input_tokens']:,}", f"{row['output_tokens']:,}", money(row["cost_usd"]),
                      money(row["cached_cost_usd"]), money(row["batch_cost_usd"]))
    console.print(table)
    for model, minutes in estimate.minutes_at_limits.items():
        console.print(f"  {escape(model)}: {minutes:,.0f} min of calls at its declared requests_per_minute")
    if not estimate.minutes_at_limits:
        console.print("  wall time: no rate limit declared (set endpoints' requests_per_minute under models: to see it)")


def _pairs(option: str, items: list[str]) -> dict[str, str]:
    """``NAME=VALUE`` items as a mapping (``-`` in a name read as ``_``); a malformed one exits 2."""
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            typer.echo(f"{option} {item!r}: expected NAME=VALUE", err=True)
            raise typer.Exit(2)
        out[key.strip().replace("-", "_")] = value.strip()
    return out


@recipe_app.command("init")
def init(
    name: str = typer.Argument(..., help="Recipe name (rhetorica recipe list)."),
    folder: Path = typer.Argument(..., help="Recipe folder to create (or resume)."),
    sample: int | None = typer.Option(None, "--sample", min=1, help="A pilot of N papers (or reviews) of the same design."),
    source: Path | None = typer.Option(None, "--source", help="Your local copy of data the recipe cannot download."),
    reviewer: str | None = typer.Option(None, "--reviewer", help="Reviewer model, e.g. openai/gpt-5-mini."),
    rewriter: str | None = typer.Option(None, "--rewriter", help="Rewriting model."),
    judge: str | None = typer.Option(None, "--judge", help="Primary judge model."),
    second_judge: str | None = typer.Option(None, "--second-judge", help="Replication judge model."),
    sets: list[str] = typer.Option([], "--set", help="Any other parameter as NAME=VALUE (repeatable)."),
    venue: str | None = typer.Option(None, "--venue", help="Another OpenReview venue for the same design."),
    data_sets: list[str] = typer.Option([], "--data-option", help="A data-step option as NAME=VALUE (repeatable; "
                                        "e.g. arxiv_delay_s=5, per_bin=30)."),
    openreview_url: str | None = typer.Option(None, "--openreview-url", help="OpenReview API base URL (a mirror)."),
    arxiv_api: str | None = typer.Option(None, "--arxiv-api", help="arXiv API query URL with '{}' (a mirror)."),
    arxiv_src: str | None = typer.Option(None, "--arxiv-src", help="Base URL of arXiv source downloads."),
) -> None:
    """Build the paper's corpus, write the study (models as parameters) and print its bill at both scales."""
    given = {k: v for k, v in (("reviewer", reviewer), ("rewriter", rewriter), ("judge", judge),
                                ("second_judge", second_judge)) if v is not None}
    given.update(_pairs("--set", sets))
    options: dict[str, object] = {k: yaml.safe_load(v) for k, v in _pairs("--data-option", data_sets).items()}
    if venue:
        options["venue"] = venue
    endpoints = {k: v for k, v in (("openreview", openreview_url), ("arxiv_query", arxiv_api),
                                   ("arxiv_source", arxiv_src)) if v}
    with exit_on(RecipeError):
        result = init_recipe(name, folder, parameters=given, sample=sample, source=source, endpoints=endpoints,
                             data_options=options)
    for line in result.data.summary:
        console.print(escape(line))
    console.print(f"Study written: {escape(str(result.study))} (run it: rhetorica recipe run {escape(str(folder))})")
    for estimate in result.estimates:
        _print_estimate(estimate)
    for warning in result.warnings:
        console.print(f"[yellow]warning[/yellow] {escape(warning)}")
    for problem in result.data.problems:
        typer.echo(f"problem: {problem}", err=True)
    if result.data.problems:
        raise typer.Exit(1)


@recipe_app.command("run")
def run(
    folder: Path = typer.Argument(..., help="Recipe folder written by 'rhetorica recipe init'."),
    retry_failed: bool = typer.Option(False, "--retry-failed", help="Also re-run units stored as a failure."),
) -> None:
    """Run the recipe's study (resumable) and write its report, which opens with published vs this run."""
    with exit_on(RecipeError):
        path = recipe_study(folder)
    study.run(path, retry_failed=retry_failed, wait=False)
