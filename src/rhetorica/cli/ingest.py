"""``rhetorica ingest PATH... --out DIR``: read papers into normalised Markdown + JSON.

Registered by the app as ``app.command("ingest")(ingest)``. Heavy imports happen inside the
command so ``rhetorica --help`` stays fast.
"""

from __future__ import annotations

from pathlib import Path

import typer
from rhetorica.cli.errors import fail
from rhetorica.documents import DocumentReadError, ReadOptions, read_document
from rhetorica.documents.ids import path_id
from rhetorica.documents.latex.source import project_folders, several_projects_problem
from rich.console import Console
from rich.markup import escape
from rich.table import Table
import json


def ingest(
    paths: list[Path] = typer.Argument(..., help="Papers: LaTeX folders, .tex, .tar.gz/.zip, .pdf, .md or .txt."),
    out: Path = typer.Option(..., "--out", "-o", help="Folder for <id>.md, <id>.json and summary.json."),
    cut_after_references: bool = typer.Option(
        True, "--cut/--no-cut", help="Drop the bibliography and everything after it (appendices)."
    ),
    blind: bool = typer.Option(True, "--blind/--no-blind", help="Remove authors, affiliations, acknowledgements."),
    timeout: float = typer.Option(120.0, "--timeout", min=0.001, help="Seconds to read one PDF before giving up on it."),
    max_words: int | None = typer.Option(None, "--max-words", min=1, help="Keep leading sections within this budget."),
    hidden_text: str = typer.Option(
        "drop", "--hidden-text", help="Text no human reader sees (white, invisible, off-page, tiny): drop or keep; "
        "each span is listed in the warnings either way."),
) -> None:
    """Read papers, blind them and write one Markdown and one JSON file per paper plus a summary.

    One bad input never stops the batch: it is reported in the summary and the exit code is 1.
    Exit 2: ``--out`` is a file or cannot be created, or a folder given holds several LaTeX projects
    rather than being one (name each, e.g. ``papers/*``); nothing is read then.
    """
    console = Console()
    if hidden_text not in ("keep", "drop"):
        fail(f"--hidden-text {hidden_text}: choose keep or drop")
    for path in paths:
        projects = project_folders(path) if path.is_dir() else []
        if projects:
            fail(f"{path}: {several_projects_problem(path, projects)}")
    options = ReadOptions(
        cut_after_references=cut_after_references, blind=blind, parse_timeout_s=timeout, max_words=max_words,
        hidden_text=hidden_text,  # type: ignore[arg-type]
    )
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        problem = "exists and is not a folder" if out.exists() else f"cannot be created ({exc.strerror})"
        fail(f"--out {out}: {problem}")
    rows: list[dict[str, object]] = []
    used: set[str] = set()
    for path in paths:
        doc_id = path_id(path)
        base, k = doc_id, 2
        while doc_id in used:
            doc_id, k = f"{base}-{k}", k + 1
        used.add(doc_id)
        row: dict[str, object] = {"input": str(path), "id": doc_id}
        try:
            document = read_document(path, doc_id=doc_id, options=options)
        except DocumentReadError as exc:
            row.update(status="error", error=exc.problem)
        except Exception as exc:  # one bad input never stops the batch
            row.update(status="error", error=f"unexpected {type(exc).__name__}: {exc}")
        else:
            (out / f"{doc_id}.md").write_text(document.to_markdown(), encoding="utf-8")
            (out / f"{doc_id}.json").write_text(document.model_dump_json(indent=2), encoding="utf-8")
            row.update(
                status="ok", sections=len(document.sections), words=document.word_count,
                parser=document.source.parser, removed=len(document.removed), warnings=document.warnings,
            )
        rows.append(row)


    (out / "summary.json").write_text(json.dumps(rows, indent=2, ensure_ascii=False), encoding="utf-8")
    table = Table(title=f"Ingested {sum(r['status'] == 'ok' for r in rows)} of {len(rows)} inputs into "
                        f"{escape(str(out))}")
    for column in ("id", "status", "sections", "words", "parser", "removed", "warnings / error"):
        table.add_column(column, justify="right" if column in {"sections", "words", "removed"} else "left")
    for row in rows:
        note = row.get("error") or "; ".join(row.get("warnings", []))  # type: ignore[arg-type]
        table.add_row(
            escape(str(row["id"])), "[green]ok[/green]" if row["status"] == "ok" else "[red]error[/red]",
            str(row.get("sections", "")), str(row.get("words", "")), str(row.get("parser", "")),
            str(row.get("removed", "")), escape(str(note)),
        )
    console.print(table)
    if any(row["status"] != "ok" for row in rows):
        raise typer.Exit(1)
