"""``rhetorica ingest``: per-document Markdown + JSON and a summary; a bad input never stops the batch."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from typer.testing import CliRunner

from rhetorica.cli.ingest import ingest
from rhetorica.documents.models import Document


def _app() -> typer.Typer:
    app = typer.Typer()
    app.command("ingest")(ingest)
    app.command("noop")(lambda: None)  # keeps "ingest" a sub-command, as in the real app
    return app


def test_ingest_batch_with_a_bad_input(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    (project / "main.tex").write_text(
        "\\documentclass{article}\n\\author{Ann Author}\n\\begin{document}\n\\begin{abstract}Short.\\end{abstract}\n"
        "\\section{Intro}\nBody $a+b$.\n\\input{gone}\n\\end{document}\n"
    )
    notes = tmp_path / "notes.md"
    notes.write_text("# Results\n\nAll good.\n")
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"")
    out = tmp_path / "out"
    result = CliRunner().invoke(_app(), ["ingest", str(project), str(bad), str(notes), "--out", str(out)])
    assert result.exit_code == 1, result.output
    assert sorted(p.name for p in out.iterdir()) == ["notes.json", "notes.md", "proj.json", "proj.md", "summary.json"]
    doc = Document.model_validate_json((out / "proj.json").read_text())
    assert [s.title for s in doc.sections] == ["Abstract", "Intro"]
    assert (out / "proj.md").read_text() == "## Abstract\n\nShort.\n\n## Intro\n\nBody $a+b$.\n"
    summary = json.loads((out / "summary.json").read_text())
    assert [(r["id"], r["status"]) for r in summary] == [("proj", "ok"), ("bad", "error"), ("notes", "ok")]
    assert summary[0]["warnings"] == ["main.tex:7: missing \\input file 'gone': the text it would bring in is absent "
                                      "from this document"]
    assert summary[0]["removed"] == 1 and summary[0]["words"] == 3
    assert summary[1]["error"] == "file is empty (0 bytes)"
    assert "Ingested 2 of 3 inputs" in result.output
