"""The ``rhetorica`` command line (typer). Commands import their heavy dependencies lazily."""

from __future__ import annotations

import typer

from rhetorica import __version__
from rhetorica.cli import audit, batch, dataset, demo, estimate, study, validate, plan as plan_cmd
from rhetorica.cli.calls import calls_app
from rhetorica.cli.importer import import_app
from rhetorica.cli.check import check
from rhetorica.cli.ingest import ingest
from rhetorica.cli.list import list_command
from rhetorica.cli.recipe import recipe_app
from rhetorica.cli.scan import scan
from rhetorica.cli.view import view

app = typer.Typer(
    name="rhetorica",
    help="Stress-test AI peer reviewers: rewrite papers rhetorically, review them, compare paired scores.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command("run")(study.run)
app.command("status")(study.status)
app.command("report")(study.report)
app.command("check")(check)
app.command("schema")(study.schema)
app.command("demo")(demo.demo)
app.command("ingest")(ingest)
app.command("validate")(validate.validate)
app.command("plan")(plan_cmd.plan)
app.command("estimate")(estimate.estimate)
app.command("scan")(scan)
app.command("list")(list_command)
app.command("view")(view)
app.add_typer(batch.batch_app, name="batch")
app.add_typer(dataset.dataset_app, name="dataset")
app.add_typer(audit.audit_app, name="audit")
app.add_typer(import_app, name="import")
app.add_typer(calls_app, name="calls")
app.add_typer(recipe_app, name="recipe")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"rhetorica {__version__}")
        raise typer.Exit()


@app.callback()
def _main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="Print the version and exit.")) -> None:
    """rhetorica command line."""


def main() -> None:
    """Console-script entry point."""
    app()
