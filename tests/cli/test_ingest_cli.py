"""``rhetorica ingest``: an unusable --out is one error line (exit 2); ids are shown literally."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from rhetorica.cli.app import app

runner = CliRunner()

PAPER = "# A paper\n\n## Abstract\n\nWe study a method and report its accuracy on three tasks.\n"


def test_out_that_is_a_file(tmp_path: Path) -> None:
    paper = tmp_path / "p.md"
    paper.write_text(PAPER, encoding="utf-8")
    taken = tmp_path / "afile"
    taken.write_text("x")
    result = runner.invoke(app, ["ingest", str(paper), "--out", str(taken)])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.output.strip() == f"error: --out {taken}: exists and is not a folder"


def test_document_id_with_brackets_is_shown_literally(tmp_path: Path) -> None:
    paper = tmp_path / "paper[v2].md"
    paper.write_text(PAPER, encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(paper), "--out", str(tmp_path / "out")], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "paper[v2].md").is_file()
    assert "paper[v2]" in result.output


MAIN = "\\documentclass{article}\\title{T}\\begin{document}\\begin{abstract}We study x.\\end{abstract}" \
       "\\section{Intro}We report accuracy on three tasks.\\end{document}\n"


def test_a_folder_of_several_projects_is_one_error_naming_them(tmp_path: Path) -> None:
    for name in ("alpha", "beta", "gamma"):
        (tmp_path / "papers" / name).mkdir(parents=True)
        (tmp_path / "papers" / name / "main.tex").write_text(MAIN, encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(tmp_path / "papers"), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert result.stderr == (f"error: {tmp_path}/papers: holds 3 LaTeX projects, not one (alpha, beta, gamma); name "
                             f"each project folder, or the glob '{tmp_path}/papers/*' for one document each\n")
    assert not (tmp_path / "out").exists()
    each = runner.invoke(app, ["ingest", *(str(tmp_path / "papers" / n) for n in ("alpha", "beta", "gamma")),
                               "--out", str(tmp_path / "out")])
    assert each.exit_code == 0, each.output
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "alpha.json", "alpha.md", "beta.json", "beta.md", "gamma.json", "gamma.md", "summary.json"]


def test_the_current_folder_is_named_by_its_resolved_name(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "my-paper").mkdir()
    (tmp_path / "my-paper" / "main.tex").write_text(MAIN, encoding="utf-8")
    monkeypatch.chdir(tmp_path / "my-paper")
    result = runner.invoke(app, ["ingest", ".", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["my-paper.json", "my-paper.md", "summary.json"]
