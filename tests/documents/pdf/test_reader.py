"""Reading PDFs into documents: what a reviewer reads keeps its numbers and its abstract, through
both PDF paths (issue 24 items 2 and 4): ingest of a PDF, and the compiled PDF of a LaTeX project
that a study's reviewers read. Real data: the shared PDFs; the LaTeX project is written here."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rhetorica.documents import ReadOptions, read_document
from rhetorica.documents.pdf.reader import NO_ABSTRACT


@pytest.fixture(scope="module")
def nalu(pdfs_dir: Path):
    return read_document(pdfs_dir / "stable-nalu_iclr2020_main.pdf")


def test_shared_pdf_keeps_exponents_and_subscripts(nalu) -> None:
    markdown = nalu.to_markdown()
    # "for ε = 10^{-5}" and "(x_1 + x_2)" as printed; PDFium's plain text reads "10−5" and "x1"
    assert "for ε = 10^−5." in markdown
    assert "The problem is (x_1 + x_2) · (x_1 + x_2 + x_3 + x_4) for x = (1, 1.2, 1.8, 2)." in markdown
    # Table 1's cells, its intervals stacked above and below a value: 13% (+8%, −5%) and
    # 5.9 · 10^4 (+7.8 · 10^3, −6.6 · 10^3)
    assert "| NAC_• | 13% ^{+8%}_{−5%} | 5.5 · 10^4 | 5.9 · 10^4 ^{+7.8·10^3}_{−6.6·10^3} |" in markdown
    assert NO_ABSTRACT not in nalu.warnings and nalu.sections[0].title == "Abstract"


def test_the_pdfium_backend_reads_every_pdf(pdfs_dir: Path) -> None:
    doc = read_document(pdfs_dir / "2020.acl-main.447.pdf")
    assert doc.source.parser == "rhetorica-pdf/pdfium"
    with pytest.raises(ValueError, match="pdf_backend"):
        ReadOptions(pdf_backend="pdfminer")


TEX = r"""\documentclass{article}
\title{Numbers in a Compiled Paper}
\author{Jane Roe \\ Quillfield Institute of Technology}
\date{}
\begin{document}
\maketitle
\begin{abstract}
We read $n \approx 10^6$ sentences from 2,417 documents and keep every number of the paper as it is printed.
\end{abstract}
\section{Introduction}
With a block size of $b = 64$ the lookup table has $n = 4b^2 = 16{,}384$ entries. The learning rate decays
from $3 \times 10^{-4}$ to $10^{-6}$, and we write $x_1$ and $x_2$ for the two inputs of the model.
\end{document}
"""


@pytest.mark.skipif(shutil.which("latexmk") is None, reason="TeX Live is not installed (scripts/install-test-system-deps.sh)")
def test_a_latex_projects_compiled_pdf_keeps_its_numbers(tmp_path: Path) -> None:
    from rhetorica.study.config import parse_study
    from rhetorica.study.inputs import load_documents

    project = tmp_path / "paper"
    project.mkdir()
    (project / "main.tex").write_text(TEX, encoding="utf-8")
    config = parse_study({"name": "s", "output_dir": str(tmp_path / "run"), "documents": [{"latex_project": str(project)}],
                          "reviewers": [{"name": "c", "kind": "control"}]})
    problems: list[tuple[str, str, str]] = []
    [document] = load_documents(config, tmp_path, problems, tmp_path / "run")
    assert problems == []
    assert [s.title for s in document.sections] == ["Abstract", "Introduction"]
    assert document.sections[0].text == (
        "We read n ≈ 10^6 sentences from 2,417 documents and keep every number of the paper as it is printed.")
    assert document.sections[1].text == (
        "With a block size of b = 64 the lookup table has n = 4b^2 = 16,384 entries. The learning rate decays "
        "from 3 × 10^−4 to 10^−6, and we write x_1 and x_2 for the two inputs of the model.")
