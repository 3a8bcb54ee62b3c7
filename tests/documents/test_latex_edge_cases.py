"""LaTeX reader edge cases of issue 11 §6: absolute \\input, \\write18, macro argument joins."""

from __future__ import annotations

from pathlib import Path

from rhetorica.documents import read_document
from rhetorica.documents.latex.macros import substitute


def _project(tmp_path: Path, body: str, preamble: str = "") -> Path:
    project = tmp_path / "paper"
    project.mkdir()
    (project / "main.tex").write_text(
        f"\\documentclass{{article}}\n{preamble}\n\\begin{{document}}\n\\section{{Intro}}\n{body}\n\\end{{document}}\n"
    )
    return project


def test_absolute_input_refused_as_outside_the_project(tmp_path: Path) -> None:
    outside = tmp_path / "secret.tex"
    outside.write_text("Secret outside text.\n")
    doc = read_document(_project(tmp_path, f"Inside text.\n\\input{{{outside}}}\n\\input{{../secret}}\n"))
    assert "Secret" not in doc.to_markdown()
    assert doc.warnings == [
        f"\\input file '{outside}' (referenced from main.tex) is outside the project; refused",
        "\\input file '../secret' (referenced from main.tex) is outside the project; refused",
    ]


def test_write18_leaves_no_text(tmp_path: Path) -> None:
    doc = read_document(_project(tmp_path, "Before.\n\\immediate\\write18{touch pwned-by-latex}\nAfter.\n"))
    assert doc.sections[0].text.split() == ["Before.", "After."]


def test_macro_argument_not_joined_to_a_control_word(tmp_path: Path) -> None:
    assert substitute(r"\left\lVert#1\right\rVert", ["x"]) == r"\left\lVert x\right\rVert"
    assert substitute(r"#1x", [r"\alpha"]) == r"\alpha x"
    assert substitute(r"\mathbf{#1}", ["x"]) == r"\mathbf{x}"
    doc = read_document(_project(
        tmp_path, r"A norm $\norm{x}$ here.", preamble=r"\newcommand{\norm}[1]{\left\lVert#1\right\rVert}"
    ))
    assert r"$\left\lVert x\right\rVert$" in doc.sections[0].text
