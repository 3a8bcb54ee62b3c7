"""The ``rhetorica`` command line (typer on click), loaded lazily.

A command's module is imported only when that command runs or its own ``--help`` is asked:
``rhetorica --help`` lists every command from :data:`COMMANDS` (name, module, one-line help)
without importing any of them, so answering it costs the interpreter, click, typer and rich, not
the numerical stack the study commands need (``benchmarks/bench_cli_start.py`` measures it).
A command whose module needs an extra that is not installed exits 2 with one line naming the extra
(:func:`rhetorica.extras.missing_extra_message`), never a traceback.
"""

from __future__ import annotations

import importlib
from typing import Any, NamedTuple

import typer
from typer.core import TyperCommand, TyperGroup

from rhetorica import __version__
from rhetorica.extras import missing_extra_message


class LazyCommand(NamedTuple):
    """Where a command lives (``module:attribute`` under ``rhetorica.cli``: a command function or a
    ``typer.Typer`` sub-app) and the one line ``rhetorica --help`` shows for it."""

    target: str
    short_help: str


#: every command, in the order ``rhetorica --help`` lists them
COMMANDS: dict[str, LazyCommand] = {
    "run": LazyCommand("study:run", "Run a study declared in YAML (resumable: finished units are skipped)."),
    "status": LazyCommand("status:status", "Show what is done (ok), failed, pending and superseded for a study "
                                          "(runs nothing, writes nothing)."),
    "report": LazyCommand("study:report", "Rebuild report.md, report.html and tables/ from a run's store "
                                          "(no model calls)."),
    "check": LazyCommand("check:check", "Judge every reviewer configuration of a run against the study's "
                                        "scorecard (no model calls)."),
    "schema": LazyCommand("study:schema", "Print the JSON Schema of study YAML files (each reviewer and "
                                          "rewriter kind with its options)."),
    "demo": LazyCommand("demo:demo", "Run a demo study with the embedded model (papers, judges or attack)."),
    "ingest": LazyCommand("ingest:ingest", "Read papers, blind them and write one Markdown and one JSON file "
                                           "per paper plus a summary."),
    "validate": LazyCommand("validate:validate", "Validate every variant in a run (no model calls)."),
    "plan": LazyCommand("plan:plan", "Papers needed to detect an effect, from a reviewer's variance or a "
                                     "pilot run."),
    "estimate": LazyCommand("estimate:estimate", "Print the calls, tokens and cost a study will need, before "
                                                 "anything runs (no model calls)."),
    "scan": LazyCommand("scan:scan", "Scan manuscripts for hidden text and for instructions aimed at an AI "
                                     "reviewer."),
    "list": LazyCommand("list:list_command", "List registered components (conditions, rewriters, evaluators, "
                                             "providers, …) with the package that registered each."),
    "view": LazyCommand("view:view", "Serve a read-only web viewer of RUN_DIR on 127.0.0.1 until Ctrl-C."),
    "batch": LazyCommand("batch:batch_app", "Run a study's calls through provider batch APIs (half price, "
                                            "within 24 h)."),
    "dataset": LazyCommand("dataset:dataset_app", "Build or import a dataset folder that a study names in "
                                                  "one line."),
    "audit": LazyCommand("audit:audit_app", "Human audit of (original, rewrite) review pairs."),
    "import": LazyCommand("importer:import_app", "Import results made by other tools as a run directory."),
    "calls": LazyCommand("calls:calls_app", "The call log of a run: calls that interrupted runs left "
                                            "unanswered."),
    "recipe": LazyCommand("recipe:recipe_app", "Reproduce a published study: build its corpus, run it, compare "
                                               "with the paper."),
}


def load_command(name: str) -> Any:
    """The click command ``name`` of :data:`COMMANDS`, its module imported now.

    Raises:
        ModuleNotFoundError: the module needs a package that is not installed.
    """
    entry = COMMANDS[name]
    module, attribute = entry.target.split(":")
    target: Any = getattr(importlib.import_module(f"rhetorica.cli.{module}"), attribute)
    if isinstance(target, typer.Typer):
        command = typer.main.get_group(target)
    else:
        single = typer.Typer(add_completion=False)
        single.command(name)(target)
        command = typer.main.get_command(single)
    command.name = name
    command.short_help = entry.short_help
    return command


class LazyGroup(TyperGroup):
    """The top-level group: commands from :data:`COMMANDS`, each imported on first use. While the
    group formats its own help, a command is a stand-in holding its name and one-line help.

    (Context and formatter are typer's click objects; typer 0.29 vendors click, earlier versions
    use the click package, hence ``Any`` in the signatures.)
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._listing = False

    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in COMMANDS:
            return None
        if self._listing:
            return TyperCommand(cmd_name, short_help=COMMANDS[cmd_name].short_help)
        try:
            return load_command(cmd_name)
        except ModuleNotFoundError as exc:
            _exit_naming_the_extra(ctx, exc, cmd_name)

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)
        # typer (0.29) coerces an option left unset through a pydantic adapter, which costs the
        # import of pydantic on every call of a subcommand; a bool default is passed through as is
        if option is not None and option.default is None:
            option.default = False
        return option

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except ModuleNotFoundError as exc:
            _exit_naming_the_extra(ctx, exc, ctx.invoked_subcommand)
        except Exception as exc:
            _exit_on_known_failure(exc)


def _exit_on_known_failure(exc: Exception) -> None:
    """Exit 2 with one line for a failure the user can act on wherever it was raised (a server that
    cannot be reached, :func:`rhetorica.cli.errors.known_failure`); re-raise anything else.

    Raises:
        typer.Exit: 2, after the line. Exception: ``exc``, not a known failure.
    """
    if type(exc).__module__.split(".")[0] in ("click", "typer"):  # --help, usage errors, Exit: click's own
        raise exc
    from rhetorica.cli.errors import fail, known_failure

    said = known_failure(exc)
    if said is None:
        raise exc
    try:
        fail(said)
    except typer.Exit as stop:
        raise stop from exc


def _exit_naming_the_extra(ctx: Any, exc: ModuleNotFoundError, command: str | None) -> None:
    """Exit 2 with one line naming the extra that brings the missing module; re-raise ``exc`` when
    it belongs to no extra (a broken install, whose traceback helps).

    Raises:
        typer.Exit: 2, after the line. ModuleNotFoundError: ``exc``, belonging to no extra.
    """
    said = missing_extra_message(exc, f"rhetorica {command}")
    if said is None:
        raise exc
    typer.echo(f"error: {said}", err=True)
    raise typer.Exit(2)


app = typer.Typer(
    name="rhetorica",
    cls=LazyGroup,
    help="Stress-test AI peer reviewers: rewrite papers rhetorically, review them, compare paired scores.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


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


if __name__ == "__main__":  # python -m rhetorica.cli.app: the same command line as python -m rhetorica
    main()
