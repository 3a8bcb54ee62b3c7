"""``rhetorica list``: every registered component (built-in or from a plug-in) with its kind, name,
source package and one-line description; an evaluator or rewriter kind that declares an options
model also lists its options (name -> ``type (default): description``, :func:`rhetorica.kinds.option_lines`),
a provider the options its class takes (:func:`rhetorica.models.registry.provider_option_lines`).

Exit status: 0 on success; 2 for an unknown ``--kind``; 1 when an installed plug-in fails to load.
"""

from __future__ import annotations

import json

import typer
from rhetorica.kinds import option_lines
from rhetorica.models.registry import provider_option_lines
from rhetorica.registry import PluginError, UnknownComponentError, list_components
from rich.console import Console
from rich.table import Table


def list_command(
    kind: str | None = typer.Option(None, "--kind", help="Only this kind (condition, dimension, evaluator, "
                                                         "form, protocol, provider, rewriter, …)."),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON array of {kind, name, source, description} "
                                                       "(and options, for kinds that declare them)."),
) -> None:
    """List registered components: conditions, dimensions, rewriters, protocols, forms, evaluators,
    metric families, providers and stages, with the package that registered each."""


    err = Console(stderr=True, soft_wrap=True)
    try:
        entries = list_components(kind)
    except UnknownComponentError as exc:
        err.print(f"error: {exc}", markup=False, highlight=False)
        raise typer.Exit(2) from None
    except PluginError as exc:
        err.print(f"error: {exc}", markup=False, highlight=False)
        raise typer.Exit(1) from None
    rows: list[dict[str, object]] = []
    for e in entries:
        options = (option_lines(e.value) if e.kind in ("evaluator", "rewriter")
                   else provider_option_lines(e.name) if e.kind == "provider" else {})
        rows.append({"kind": e.kind, "name": e.name, "source": e.source, "description": e.description}
                    | ({"options": options} if options else {}))
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    widths = {key: max([len(key)] + [len(str(r[key])) for r in rows]) for key in ("kind", "name", "source", "description")}
    table = Table()
    for key in ("kind", "name", "source"):  # whole, never cut: names are copied into study files
        table.add_column(key.capitalize(), no_wrap=True, min_width=widths[key])
    table.add_column("Description", min_width=20)
    for row in rows:
        options = row.get("options") or {}
        said = "".join(f"\n  options.{name}: {text}" for name, text in options.items())  # type: ignore[union-attr]
        table.add_row(str(row["kind"]), str(row["name"]), str(row["source"]), f"{row['description']}{said}")
    console = Console()
    if not console.is_terminal:  # a pipe or a file: the whole table, one line per component
        console = Console(width=sum(widths.values()) + 13)
    console.print(table, markup=False, highlight=False)
