"""``rhetorica audit …``: human check of review rewrites — export annotation sheets, summarise
the filled ones (means per annotator, within-one-point and exact agreement, Cohen's kappa,
Krippendorff's alpha). Exit 0 = done, 1 = done with listed problems, 2 = unusable input."""

from __future__ import annotations

from pathlib import Path

import typer
from rhetorica.datasets.manifest import DatasetError
from rhetorica.judges.audit import audit_summary, pairs_from_dataset, read_sheets, write_sheets
from rhetorica.wording import counted, fixed

audit_app = typer.Typer(help="Human audit of (original, rewrite) review pairs.", no_args_is_help=True)


@audit_app.command("export")
def export_cmd(
    dataset: Path = typer.Argument(..., help="Dataset folder with imported review rewrite pairs."),
    out: Path = typer.Option(..., "--out", "-o", help="Folder for one CSV sheet per annotator."),
    n: int = typer.Option(50, "--n", min=1, help="Pairs to sample."),
    seed: int = typer.Option(0, "--seed"),
    annotators: str = typer.Option("A,B", "--annotators", help="Comma-separated annotator names (>= 2, distinct; "
                                   "ASCII letters, digits, '_' and '-' only: each names a file)."),
) -> None:
    """Sample pairs and write blank sheets (faithfulness 1-5, equivalent feedback yes/no)."""

    names = tuple(a.strip() for a in annotators.split(",") if a.strip())
    try:
        paths = write_sheets(pairs_from_dataset(dataset), out, n=n, seed=seed, annotators=names)
    except (DatasetError, ValueError) as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(2) from exc
    typer.echo("wrote " + ", ".join(str(p) for p in paths))


@audit_app.command("summary")
def summary_cmd(sheets: list[Path] = typer.Argument(..., help="Filled sheets (CSV), one per annotator.")) -> None:
    """Means per annotator and agreement between the first two annotators.

    Exit 1 when some answer or sheet was unusable (each listed; a sheet without the pair_id,
    faithfulness and equivalent columns, or without rows, is skipped); exit 2 when fewer than two
    usable sheets remain.
    """

    answers, problems = read_sheets(sheets)
    for line in problems:
        typer.echo(f"problem: {line}", err=True)
    try:
        result = audit_summary(answers)
    except (ValueError, KeyError) as exc:
        typer.echo(f"audit: {exc}", err=True)
        raise typer.Exit(2) from exc
    for _, row in result["per_annotator"].iterrows():  # type: ignore[attr-defined]
        typer.echo(f"annotator {row['annotator']}: {counted(int(row['rows']), 'row')}, faithfulness rated on "
                   f"{row['rated_faithfulness']} (mean {row['mean_faithfulness']:.2f}), equivalent rated on "
                   f"{row['rated_equivalent']} ({row['pct_equivalent']:.0f}%)")
    a, b = result["annotators"]  # type: ignore[misc]
    typer.echo(f"{a} vs {b}: within one point {100 * result['within_one']:.0f}%, exact faithfulness "
               f"{100 * result['exact_faithfulness']:.0f}%, exact 'equivalent' {100 * result['exact_equivalent']:.0f}%")
    typer.echo(f"Cohen's kappa: equivalent {fixed(result['kappa_equivalent'], 3)}, faithfulness (linear) "
               f"{fixed(result['kappa_faithfulness'], 3)}; Krippendorff's alpha: faithfulness (ordinal) "
               f"{fixed(result['alpha_faithfulness'], 3)}, equivalent (nominal) {fixed(result['alpha_equivalent'], 3)}")
    if problems:
        raise typer.Exit(1)
