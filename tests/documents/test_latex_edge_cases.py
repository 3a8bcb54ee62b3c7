"""LaTeX reader edge cases of issue 11 §6: absolute \\input, \\write18, macro argument joins."""

from __future__ import annotations

import re
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


def test_every_ref_has_its_label_in_the_markdown(tmp_path: Path) -> None:
    # issue 24 §10: labels were dropped while refs were kept; now both are kept, each label where its
    # target is (section start, inside the equation, end of the float's caption line)
    (tmp_path / "p.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\n"
        "\\section{Intro}\\label{sec:intro}\nSee Section~\\ref{sec:m} and Eq.~\\eqref{eq:a}.\n"
        "\\begin{equation}\\label{eq:a}\nE = m c^2\n\\end{equation}\n"
        "\\section{Method\\label{sec:m}}\nSee Figure~\\ref{fig:x}.\n"
        "\\begin{figure}\\includegraphics{x.png}\\caption{A plot.}\\label{fig:x}\\end{figure}\n"
        "\\end{document}\n")
    doc = read_document(tmp_path / "p.tex")
    assert [s.title for s in doc.sections] == ["Intro", "Method"]
    assert doc.sections[0].text == ("\\label{sec:intro} See Section \\ref{sec:m} and Eq. \\eqref{eq:a}.\n\n"
                                    "\\begin{equation}\\label{eq:a}\nE = m c^2\n\\end{equation}")
    assert doc.sections[1].text == "\\label{sec:m} See Figure \\ref{fig:x}.\n\nFigure: A plot. \\label{fig:x}"
    markdown = doc.to_markdown()
    for key in re.findall(r"\\(?:eq)?ref\{([^}]*)\}", markdown):
        assert f"\\label{{{key}}}" in markdown


def test_a_macro_spanning_lines_leaves_inline_math_on_one_line(tmp_path: Path) -> None:
    # issue 24 §10: \linefrac's body spans three lines; inline math must not hold line breaks
    (tmp_path / "p.tex").write_text(
        "\\documentclass{article}\n\\newcommand{\\linefrac}[2]{%\n  \\left. #1\n  \\middle/ #2\n  \\right.%\n}\n"
        "\\begin{document}\n\\section{Intro}\nThe ratio $\\linefrac{a}{b}$ is small and $x\n+ y$ too.\n"
        "\\[\n a \\\\\n b\n\\]\n\\end{document}\n")
    doc = read_document(tmp_path / "p.tex")
    assert doc.sections[0].text == ("The ratio $\\left. a \\middle/ b \\right.$ is small and $x + y$ too.\n\n"
                                    "\\[\n a \\\\\n b\n\\]")
