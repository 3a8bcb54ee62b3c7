"""Layout elements of issue 39 on pages compiled with real publisher classes: one LaTeX source with
a pgfplots plot (tick labels, axis titles, a legend), a TikZ diagram with node labels, a booktabs
table with row-group labels, a numbered code listing, a numbered heading that wraps, a footnote
called mid-sentence and a horizontal "For Peer Review Only" watermark, compiled with pdflatex
(``-no-shell-escape``) in six classes. Skipped without TeX Live or a class.

The expectations come from the source below: its label, cell and code text, its headings."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from rhetorica.documents import Document, read_document
from tests.documents.pdf.markdown_oracle import tables

pytestmark = pytest.mark.skipif(shutil.which("pdflatex") is None, reason="TeX Live is not installed")

PROSE = ("We study how a reviewing model reacts when the wording of a manuscript changes while its content stays "
         "fixed. Each rewrite keeps the claims, the numbers and the citations of the original paper. A paired design "
         "compares every variant with its own original, which removes most of the variance between papers. ")
LABELS = ["Quillbank", "Harbour corpus", "Training steps", "Encoder", "Decoder", "Memory bank"]
CODE = ["from quillfield import reader", 'doc = reader.open("paper.pdf")', "for block in doc.blocks:",
        "    print(block.kind, block.text)"]
TABLE = [("Model", "Recall", "F1"), ("Tiny",), ("Base", "0.41", "0.52"), ("Large", "0.47", "0.58"), ("Long",),
         ("Base", "0.31", "0.42"), ("Large", "0.37", "0.48")]
HEADING = "[D3] A Rather Long Section Heading on Personalized Paper Cards with Context and Many More Words"
NOTE = "We release the annotations of every rater."
BODY = r"""
\begin{abstract}PROSE\end{abstract}
\section{Introduction}PROSE PROSE
\begin{figure}[t]\centering
\begin{tikzpicture}\begin{axis}[width=0.9\columnwidth,height=4cm,xlabel={Training steps},ylabel={Accuracy},
legend pos=south east]
\addplot coordinates {(0,0.2)(10,0.5)(20,0.7)(30,0.8)}; \addlegendentry{Quillbank}
\addplot coordinates {(0,0.1)(10,0.3)(20,0.6)(30,0.75)}; \addlegendentry{Harbour corpus}
\end{axis}\end{tikzpicture}
\caption{Accuracy of the two models over training steps.}\end{figure}
PROSE The results on the held-out set\footnote{NOTE} were computed twice. PROSE
\begin{table}[t]\centering\caption{Scores by length group and model.}
\begin{tabular}{lrr}\toprule
Model & Recall & F1 \\ \midrule
\multicolumn{3}{l}{\textbf{Tiny}} \\ Base & 0.41 & 0.52 \\ Large & 0.47 & 0.58 \\
\multicolumn{3}{l}{\textbf{Long}} \\ Base & 0.31 & 0.42 \\ Large & 0.37 & 0.48 \\ \bottomrule
\end{tabular}\end{table}
PROSE

PROSE
\section{HEADING}PROSE
\begin{lstlisting}[language=Python,numbers=left,basicstyle=\ttfamily\small]
CODE
\end{lstlisting}
PROSE
\begin{figure}[t]\centering
\begin{tikzpicture}[every node/.style={draw,rounded corners,font=\small}]
\node (a) at (0,0) {Encoder}; \node (b) at (3,0) {Decoder}; \node (c) at (1.5,-1.5) {Memory bank};
\draw[->] (a) -- (b); \draw[->] (a) -- (c); \draw[->] (c) -- (b);
\end{tikzpicture}
\caption{The architecture of the pipeline with its three parts.}\end{figure}
\subsection{Details}PROSE PROSE
\section{Conclusion}PROSE PROSE
\end{document}
"""
PREAMBLE = (r"\usepackage{pgfplots}\pgfplotsset{compat=1.16}\usepackage{booktabs,listings}\usepackage{draftwatermark}"
            r"\SetWatermarkText{For Peer Review Only}\SetWatermarkAngle{0}\SetWatermarkScale{0.3}"
            r"\title{Measuring Reviewer Robustness on Layouts}")
CLASSES = {
    "article": (r"\documentclass{article}", r"\author{Jane Roe}\begin{document}\maketitle"),
    "article-twocolumn": (r"\documentclass[twocolumn]{article}", r"\author{Jane Roe}\begin{document}\maketitle"),
    "IEEEtran": (r"\documentclass[conference]{IEEEtran}", r"\author{Jane Roe}\begin{document}\maketitle"),
    "acmart": (r"\documentclass[sigconf]{acmart}",
               r"\author{Jane Roe}\affiliation{\institution{Quillfield}\country{UK}}\begin{document}"),
    "llncs": (r"\documentclass{llncs}", r"\author{Jane Roe}\institute{Quillfield}\begin{document}\maketitle"),
    "elsarticle": (r"\documentclass{elsarticle}", r"\begin{document}\begin{frontmatter}\author{Jane Roe}"),
}


def _source(name: str) -> str:
    klass, opening = CLASSES[name]
    body = BODY.replace("PROSE", PROSE).replace("NOTE", NOTE).replace("HEADING", HEADING).replace("CODE", "\n".join(CODE))
    if name == "acmart":  # ACM's abstract goes before \maketitle
        body = body.replace(r"\end{abstract}", r"\end{abstract}\maketitle", 1)
    if name == "elsarticle":
        body = body.replace(r"\end{abstract}", r"\end{abstract}\end{frontmatter}", 1)
    return f"{klass}\n{PREAMBLE}\n{opening}\n{body}"


@pytest.fixture(scope="module", params=list(CLASSES))
def document(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Document:
    name = request.param
    cls = re.search(r"\{(\w+)\}", CLASSES[name][0]).group(1)  # type: ignore[union-attr]
    if subprocess.run(["kpsewhich", f"{cls}.cls"], capture_output=True, text=True).stdout.strip() == "":
        pytest.skip(f"{cls}.cls is not installed")
    folder = tmp_path_factory.mktemp(name)
    (folder / "paper.tex").write_text(_source(name))
    subprocess.run(["pdflatex", "-no-shell-escape", "-interaction=nonstopmode", "paper.tex"], cwd=folder,
                   capture_output=True, timeout=300, check=False)
    return read_document(folder / "paper.pdf")


def test_figure_text_is_removed_and_audited(document: Document) -> None:
    markdown = document.to_markdown()
    assert [label for label in LABELS if label in markdown] == []
    audited = " ".join(r.text for r in document.removed if r.item == "figure text")
    assert [label for label in LABELS if label not in audited] == []
    assert "Accuracy of the two models over training steps." in markdown  # the caption stays


def test_a_ruled_table_is_one_block_its_group_labels_rows(document: Document) -> None:
    blocks = [b for s in document.sections for b in s.text.split("\n\n")]
    [table] = [b for b in blocks if b.startswith("| Model")]
    # one GFM table, each row one line, its cells in order (llncs sets columns 6 pt apart, a word
    # space and a half, so its cells are not told apart: a row there is one cell)
    [parsed] = tables(table)
    assert [" ".join(" ".join(row).split()) for row in parsed] == [" ".join(r) for r in TABLE]
    assert len({len(row) for row in parsed}) == 1
    assert [s.title for s in document.sections if s.title in ("Tiny", "Long")] == []
    cells = {c for row in TABLE for c in row if c[0].isdigit()}
    assert [b for b in blocks if not b.startswith("|") and any(c in b for c in cells)] == []


def test_a_numbered_listing_is_one_fenced_block(document: Document) -> None:
    blocks = [b for s in document.sections for b in s.text.split("\n\n")]
    assert "```\n" + "\n".join(CODE) + "\n```" in blocks
    assert not [b for b in blocks if b.startswith("[^") and "quillfield" in b + "reader"]


def test_the_horizontal_watermark_is_removed_and_audited(document: Document) -> None:
    assert "Peer Review" not in document.to_markdown()
    assert [r.text for r in document.removed if r.item.startswith("watermark")] == ["For Peer Review Only"]


def test_headings_are_whole_and_at_the_levels_of_the_source(document: Document) -> None:
    levels = {s.title.lower(): s.level for s in document.sections if s.title}
    assert levels == {"abstract": 1, "introduction": 1, HEADING.lower(): 1, "details": 2, "conclusion": 1}


def test_the_footnote_is_a_footnote_and_its_sentence_whole(document: Document) -> None:
    text = "\n\n".join(s.text for s in document.sections)
    assert "The results on the held-out set^1 were computed twice." in text
    assert f"[^1]: {NOTE}" in text.split("\n\n")
