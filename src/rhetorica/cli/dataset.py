"""``rhetorica dataset …``: build a study corpus from OpenReview + arXiv, import review datasets,
and summarise a dataset folder. Each command parses, calls one function of
:mod:`rhetorica.datasets` and prints; exit 0 = done (warnings, if any, listed: nothing was left out),
1 = done with listed problems, 2 = unusable input.
"""

from __future__ import annotations

from pathlib import Path

import typer
from rhetorica.datasets.arxiv_match import ARXIV_QUERY_URL, ARXIV_SOURCE_URL, match_dataset
from rhetorica.datasets.importers import IMPORTERS, RatingScale, guess_layout, import_dataset, parse_scale
from rhetorica.datasets.info import dataset_info
from rhetorica.datasets.manifest import DatasetError, RatingBin
from rhetorica.datasets.openreview_build import build_openreview
from rhetorica.problems import is_warning
from rhetorica.wording import counted

dataset_app = typer.Typer(help="Build or import a dataset folder that a study names in one line.",
                          no_args_is_help=True)


def _problems(lines: list[str]) -> bool:
    """Print each problem (``problem: …``; a warning as ``warning: …``); True when one is not a
    warning (:func:`rhetorica.problems.is_warning`: something was left out, exit 1)."""
    for line in lines:
        typer.echo(line if is_warning(line) else f"problem: {line}", err=True)
    return any(not is_warning(line) for line in lines)


def _bins(spec: str | None) -> list[object] | None:
    """``"1-3,3-4,...,7-8.5]"`` → bins (a trailing ``]`` closes the last one); ``None`` = default."""

    if spec is None:
        return None
    bins = []
    for part in spec.split(","):
        closed = part.endswith("]")
        low, _, high = part.rstrip("]").partition("-")
        bins.append(RatingBin(low=float(low), high=float(high), closed=closed))
    return bins


@dataset_app.command("openreview")
def openreview_cmd(
    venue: str = typer.Argument(..., help="Venue id, e.g. ICLR.cc/2026/Conference."),
    out: Path = typer.Option(..., "--out", "-o", help="Dataset folder (resumed when it exists)."),
    api: str = typer.Option("v2", "--api", help="v2 (venues from 2024) or v1 (older venues)."),
    per_bin: int = typer.Option(20, "--per-bin", min=1, help="Papers sampled per human-rating bin."),
    bins: str | None = typer.Option(None, "--bins", help="e.g. '1-3,3-4,4-5,5-6,6-7,7-8.5]' (the default)."),
    seed: int = typer.Option(0, "--seed", help="Sampling seed."),
    download: bool = typer.Option(True, "--pdfs/--no-pdfs", help="Download the sampled papers' PDFs."),
    baseurl: str | None = typer.Option(None, "--baseurl", help="API base URL (default: the public API)."),
) -> None:
    """Sample a venue's reviewed submissions over human-rating bins into a dataset folder.

    Withdrawn and desk-rejected submissions are excluded; login (optional) from OPENREVIEW_USERNAME
    and OPENREVIEW_PASSWORD. Rate-limited PDF downloads are left for the next run of the same command.
    """

    if api not in ("v1", "v2"):
        typer.echo(f"--api: expected v1 or v2, got {api!r}", err=True)
        raise typer.Exit(2)
    try:
        build = build_openreview(venue, out, api=api, baseurl=baseurl, bins=_bins(bins),  # type: ignore[arg-type]
                                 per_bin=per_bin, seed=seed, download=download)
    except (DatasetError, ValueError) as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(2) from exc
    typer.echo("invitations used: " + ", ".join(f"{k}={v}" for k, v in build.invitations.items()))
    typer.echo(f"{build.submissions} usable submissions; excluded: "
               + (", ".join(f"{n} {k}" for k, n in sorted(build.excluded.items())) or "none"))
    typer.echo("sampled per bin: " + ", ".join(f"{k}: {n}" for k, n in build.per_bin.items()))
    d = build.downloads
    typer.echo(f"PDFs: {len(d.fetched)} downloaded, {len(d.cached)} already there, {len(d.pending)} pending, "
               f"{len(d.failed)} failed; {build.note_requests} note queries sent")
    _problems(build.problems)
    if build.problems:
        raise typer.Exit(1)


@dataset_app.command("arxiv-match")
def arxiv_match_cmd(
    root: Path = typer.Argument(..., help="Dataset folder."),
    min_cosine: float = typer.Option(0.9, "--min-cosine", min=0, max=1),
    min_jaccard: float = typer.Option(0.1, "--min-jaccard", min=0, max=1),
    redo: bool = typer.Option(False, "--redo", help="Match again papers already matched or unmatched."),
    query_url: str | None = typer.Option(None, "--arxiv-api", help="arXiv API query URL with '{}' (a mirror)."),
    source_url: str | None = typer.Option(None, "--arxiv-src", help="Base URL of arXiv source downloads."),
    delay: float = typer.Option(3.0, "--delay", min=0, help="Seconds between arXiv API requests (arXiv asks 3)."),
) -> None:
    """Match each paper's PDF to its arXiv LaTeX source (best version by token cosine and 5-gram Jaccard)."""

    try:
        run = match_dataset(root, query_url=query_url or ARXIV_QUERY_URL, source_url=source_url or ARXIV_SOURCE_URL,
                            delay_seconds=delay, min_cosine=min_cosine, min_jaccard=min_jaccard, redo=redo)
    except DatasetError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(2) from exc
    typer.echo(f"matched {len(run.matched)}, unmatched {len(run.unmatched)}; {run.requests} arXiv requests")
    _problems([f"{pid}: unmatched: {why}" for pid, why in run.unmatched.items()])
    if run.unmatched:
        raise typer.Exit(1)


@dataset_app.command("import")
def import_cmd(
    source: Path = typer.Argument(..., help="PeerRead folder, or a .jsonl file."),
    out: Path = typer.Option(..., "--out", "-o", help="Dataset folder to write: new, empty, or an earlier "
                             "import of the same source and layout (replaced); anything else is refused."),
    layout: str = typer.Option("auto", "--layout", help="peerread, papers (JSONL), pairs (JSONL) or auto."),
    rating_scale: str = typer.Option("1-10", "--rating-scale", help="LOW-HIGH of the overall rating; a rating "
                                     "outside it is a listed problem and left missing (confidence: 1-5)."),
) -> None:
    """Import a review dataset (PeerRead folder, JSONL of papers/reviews, JSONL of review rewrite pairs)."""

    chosen = guess_layout(source) if layout == "auto" else layout
    if chosen not in IMPORTERS:
        typer.echo(f"--layout: expected one of {', '.join(IMPORTERS)} or auto, got {layout!r}", err=True)
        raise typer.Exit(2)
    try:
        manifest = import_dataset(source, out, chosen, RatingScale(rating=parse_scale(rating_scale)))  # type: ignore[arg-type]
    except (DatasetError, OSError) as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(2) from exc
    reviews = sum(p.n_reviews for p in manifest.papers)
    typer.echo(f"imported {counted(len(manifest.papers), 'paper')}, {counted(reviews, 'review')} into {out}")
    if _problems(manifest.problems):
        raise typer.Exit(1)


@dataset_app.command("info")
def info_cmd(root: Path = typer.Argument(..., help="Dataset folder.")) -> None:
    """Print papers per human-rating bin and what is missing."""

    try:
        info = dataset_info(root)
    except DatasetError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(2) from exc
    m = info.manifest
    typer.echo(f"{m.name} ({m.source}): {counted(len(m.papers), 'paper')}")
    for label in [b.label for b in m.bins] + sorted(set(info.per_bin) - {b.label for b in m.bins}):
        typer.echo(f"  {label:>10}  {info.per_bin.get(label, 0)}")
    for what, ids in info.missing.items():
        if ids:
            typer.echo(f"missing {what}: {len(ids)} ({', '.join(ids[:10])}{' …' if len(ids) > 10 else ''})")
    if info.outside_bins and info.bins_span:
        ids, (low, high) = info.outside_bins, info.bins_span
        typer.echo(f"outside every bin: {len(ids)} (mean rating outside the bins [{low:g}, {high:g}]: "
                   f"{', '.join(ids[:10])}{' …' if len(ids) > 10 else ''})")
    _problems(m.problems)
