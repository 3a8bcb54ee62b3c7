"""Generated harness documents for the edge cases of issue 11 §7 (LaTeX sources written here).

- ``watermark``: a diagonal "CONFIDENTIAL" watermark on every page (``draftwatermark``);
- ``line-numbers``: ``lineno`` line numbers on pages less than half full;
- ``hyphens``: two columns full of real hyphenated compounds, several of them broken at a line end;
- ``figure-labels``: a 74-word Introduction next to a figure drawn with 2,000 text labels.

Each has a title block (author, affiliation, email, footnote) so leaks are measured too.
The prose is written for this harness.
"""

from __future__ import annotations

AUTHOR = ("Jane Roe", "Quillfield Institute of Technology", "jane.roe@quillfield.edu",
          "Work done while visiting the Harbourside Vision Group. Code: https://github.com/janeroe/edgecase")

SENTENCES = (
    "We study how a reviewing model reacts when the wording of a manuscript changes while its content stays fixed.",
    "Each rewrite keeps the claims, the numbers and the citations of the original paper.",
    "A paired design compares every variant with its own original, which removes most of the variance between papers.",
    "The evaluation uses held-out papers that no configuration saw while it was being tuned.",
    "Scores are collected several times per document so that the sampling noise of the model can be estimated.",
    "We report effect sizes with bootstrap intervals and a sign test over the paired differences.",
    "The method needs no access to the weights of the model and works with any chat interface.",
    "Long documents are cut at a paragraph boundary so that every excerpt reads as complete prose.",
)
COMPOUNDS = (
    "out-of-distribution", "state-of-the-art", "long-range", "well-known", "data-driven", "fine-grained",
    "large-scale", "zero-shot", "task-specific", "end-to-end", "real-world", "high-dimensional",
)


def _paragraph(k: int, n: int = 4) -> str:
    return " ".join(SENTENCES[(k + i) % len(SENTENCES)] for i in range(n))


def _head(extra: str, klass: str = "\\documentclass[11pt]{article}") -> str:
    name, aff, email, note = AUTHOR
    url = note.split("Code: ")[1]
    return (
        f"{klass}\n\\usepackage{{lmodern}}\\usepackage[T1]{{fontenc}}\\usepackage{{url}}\n{extra}\n"
        "\\title{Measuring Reviewer Robustness on Edge-Case Layouts}\n"
        f"\\author{{{name}\\thanks{{Work done while visiting the Harbourside Vision Group. Code: \\protect\\url{{{url}}}}} \\\\ {aff} \\\\ \\texttt{{{email}}}}}\n"
        "\\date{}\n\\begin{document}\n\\maketitle\n"
        f"\\begin{{abstract}}\n{_paragraph(0, 3)}\n\\end{{abstract}}\n"
    )


def watermark() -> str:
    body = "".join(f"\\section{{{t}}}\n{_paragraph(k)}\n\n{_paragraph(k + 3)}\n\n{_paragraph(k + 5)}\n\n"
                   for k, t in enumerate(("Introduction", "Method", "Experiments", "Conclusion")))
    return _head("\\usepackage{draftwatermark}\\SetWatermarkText{CONFIDENTIAL}\\SetWatermarkScale{0.9}"
                 "\\SetWatermarkAngle{45}") + body + "\\end{document}\n"


def line_numbers() -> str:
    body = "".join(f"\\section{{{t}}}\n{_paragraph(k)}\n\n{_paragraph(k + 2, 2)}\n\\clearpage\n"
                   for k, t in enumerate(("Introduction", "Related work", "Method", "Experiments", "Conclusion")))
    return _head("\\usepackage{lineno}") .replace("\\maketitle", "\\maketitle\n\\linenumbers") + body + "\\end{document}\n"


def hyphens() -> str:
    paras = []
    for k in range(10):
        words = " ".join(f"the {COMPOUNDS[(k + i) % len(COMPOUNDS)]} setting" for i in range(12))
        paras.append(f"{SENTENCES[k % len(SENTENCES)]} We compare {words} across several benchmarks. {SENTENCES[(k + 1) % len(SENTENCES)]}")
    sections = ("Introduction", "Background", "Method", "Results", "Conclusion")
    body = "".join(f"\\section{{{t}}}\n" + "\n\n".join(paras[2 * k:2 * k + 2]) + "\n\n" for k, t in enumerate(sections))
    return _head("\\usepackage[margin=0.9in]{geometry}", "\\documentclass[twocolumn,10pt]{article}") + body + "\\end{document}\n"


def figure_labels(n: int = 2000) -> str:
    puts = "".join(f"\\put({(k * 37) % 400},{(k * 53) % 300}){{\\tiny n{k}}}" for k in range(n))
    intro = ("Peer review at scale depends on models whose judgments should follow the content of a paper "
             "and not its surface. We test this by rewriting papers along one rhetorical dimension at a time "
             "and measuring how scores move. Figure 1 shows a graph with many labelled nodes that we use as a "
             "running example in this paper, and the rest of the paper explains the method and the experiments "
             "in detail.")
    body = (f"\\section{{Introduction}}\n{intro}\n\n\\begin{{figure}}[h]\\setlength{{\\unitlength}}{{1pt}}\\centering"
            f"\\begin{{picture}}(400,300){puts}\\end{{picture}}\\caption{{A graph with many labelled nodes.}}\\end{{figure}}\n"
            f"\\section{{Method}}\n{_paragraph(1)}\n\n\\section{{Conclusion}}\n{_paragraph(4)}\n")
    return _head("") + body + "\\end{document}\n"


GENERATED = {
    "gen-watermark": watermark,
    "gen-line-numbers": line_numbers,
    "gen-hyphens": hyphens,
    "gen-figure-labels": figure_labels,
}
