"""Generated harness documents for the edge cases of issue 11 §7 and issue 24 (LaTeX sources
written here).

- ``watermark``: a diagonal "CONFIDENTIAL" watermark on every page (``draftwatermark``);
- ``line-numbers``: ``lineno`` line numbers on pages less than half full;
- ``hyphens``: two columns full of real hyphenated compounds, several of them broken at a line end;
- ``figure-labels``: a 74-word Introduction next to a figure drawn with 2,000 text labels;
- ``acm-abstract``: ACM's journal layout (``acmart``, ``acmsmall``), whose abstract has no heading
  and is followed by CCS concepts, keywords and the "ACM Reference Format" block;
- ``numbers``: exponents and subscripts in running text (``n ≈ 10^6``, ``n = 4b^2 = 16,384``,
  ``3 × 10^-4``, ``x_1``), footnotes in paragraphs that run over a page break, and a running
  header of two lines;
- ``structure``: two columns with bold run-in paragraph openings (``\\paragraph``, ``\\textbf``),
  tables with short rows and a bold header row, numbered subsections (``4.1``), captions next to
  running text, footnotes and a missing figure drawn as a box with its file name (as
  ``rhetorica.documents.latex.substitutes`` draws it).

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


NUMBER_SENTENCES = (
    "The corpus holds $n \\approx 10^6$ sentences drawn from 2,417 documents written between 1998 and 2021.",
    "With a block size of $b = 64$ the lookup table has $n = 4b^2 = 16{,}384$ entries, which fits in 2.5 MB.",
    "The learning rate decays from $3 \\times 10^{-4}$ to $10^{-6}$ over 120 epochs on 8 accelerators.",
    "We write $x_1$ and $x_2$ for the two inputs and $h_t$ for the state at step $t$ of the recurrence.",
    "A code of $2^{16} = 65{,}536$ symbols covers 99.7\\% of the tokens in the held-out split.",
    "Training emitted about 12.4 kg of CO$_2$ and took 31 hours on a cluster of 16 nodes.",
    "The error of the estimate shrinks like $m^{-1/2}$ with $m$ samples, so 400 samples give about 0.05.",
    "Each of the 3 annotators labelled 1,250 pairs, and 87.5\\% of the labels agreed.",
)
FOOTNOTES = (
    "A sentence that occurs in 3 documents is counted once.",
    "The accelerators were shared with 2 other projects during the 120 epochs.",
    "We thank nobody in this footnote; it only has to be long enough to take two lines at the foot of the page in this layout.",
)


def _numbers_paragraph(k: int, n: int = 5, note: int | None = None) -> str:
    parts = [NUMBER_SENTENCES[(k + i) % len(NUMBER_SENTENCES)] for i in range(n)]
    if note is not None:  # mid-paragraph footnote
        parts[1] = parts[1][:-1] + f"\\footnote{{{FOOTNOTES[note]}}}."
    return " ".join(parts)


def numbers() -> str:
    header = ("\\usepackage{fancyhdr}\\pagestyle{fancy}\\fancyhf{}\\setlength{\\headheight}{26pt}"
              "\\fancyhead[C]{\\small Workshop on Robust Reviewing, Lisbon, 2026\\\\ Submission 17, anonymous preprint}"
              "\\fancyfoot[C]{\\thepage}\\renewcommand{\\headrulewidth}{0pt}")
    sections = ("Introduction", "Data", "Method", "Experiments", "Conclusion")
    body = ""
    for k, title in enumerate(sections):
        body += f"\\section{{{title}}}\n{_numbers_paragraph(k, 5, k if k < len(FOOTNOTES) else None)}\n\n"
        body += f"{_paragraph(k, 3)} {_numbers_paragraph(k + 3, 4)}\n\n{_paragraph(k + 4, 5)}\n\n"
    return _head(header, "\\documentclass[11pt]{article}") + body + "\\end{document}\n"


ACM_ABSTRACT = (
    "We ask whether a reviewing model scores the same science differently when only its wording changes. "
    "Across 1,200 rewrites of 40 papers, scores moved by up to 1.5 points on a 10-point scale, while 92\\% "
    "of the human raters saw no difference in content."
)


def acm_abstract() -> str:
    name, aff, email, note = AUTHOR
    url = note.split("Code: ")[1]
    head = (
        "\\documentclass[acmsmall]{acmart}\n\\setcopyright{none}\n"
        "\\title{Measuring Reviewer Robustness on Edge-Case Layouts}\n"
        f"\\author{{{name}}}\\authornote{{Work done while visiting the Harbourside Vision Group. Code: \\url{{{url}}}}}"
        f"\\affiliation{{\\institution{{{aff}}}\\city{{Quillfield}}\\country{{Norway}}}}\\email{{{email}}}\n"
        f"\\begin{{abstract}}\n{ACM_ABSTRACT}\n\\end{{abstract}}\n"
        "\\ccsdesc[500]{Computing methodologies~Natural language processing}\n"
        "\\keywords{peer review, robustness, language models}\n"
        "\\begin{document}\n\\maketitle\n"
    )
    body = "".join(f"\\section{{{t}}}\n{_paragraph(k)}\n\n{_paragraph(k + 3)}\n\n{_paragraph(k + 5)}\n\n"
                   for k, t in enumerate(("Introduction", "Method", "Experiments", "Conclusion")))
    return head + body + "\\end{document}\n"


RUN_INS = ("Data collection", "Annotation", "Quality control", "Model choice")
TABLE = (
    ("Barrier", "Description", "Share"),
    (("Tiny", "under 50 words", "3.1"), ("Short", "50 to 300 words", "41.7"), ("Long", "over 300 words", "55.2")),
)


def structure() -> str:
    head_row, rows = TABLE
    tabular = ("\\begin{table}[t]\\centering\\caption{Length classes of the rewritten paragraphs.}\n"
               "\\begin{tabular}{llr}\\hline\n" + " & ".join(f"\\textbf{{{c}}}" for c in head_row) + " \\\\\\hline\n"
               + "".join(" & ".join(r) + " \\\\\n" for r in rows) + "\\hline\\end{tabular}\\end{table}\n")
    figure = ("\\begin{figure}[t]\\centering\\fbox{\\rule{0pt}{3em}\\texttt{\\detokenize{figures/score_shift_by_length.pdf}}}"
              "\\caption{Score shifts by paragraph length.}\\end{figure}\n")
    method = "".join(
        (f"\\paragraph{{{t}.}} " if k % 2 == 0 else f"\\textbf{{{t}.}} ") + _paragraph(k + 1) + "\n\n"
        for k, t in enumerate(RUN_INS)
    )
    body = (
        f"\\section{{Introduction}}\n{_paragraph(0)}\n\n{_paragraph(2)}\\footnote{{{FOOTNOTES[0]}}} {_paragraph(4, 2)}\n\n"
        f"\\section{{Related work}}\n{_paragraph(1)}\n\n{_paragraph(5)}\n\n"
        f"\\section{{Method}}\n{method}{tabular}"
        f"\\section{{Experiments}}\n\\subsection{{Setup}}\n{_paragraph(3)}\\footnote{{{FOOTNOTES[1]}}} {_paragraph(6)}\n\n{figure}"
        f"\\subsection{{Results}}\n{_paragraph(2)}\n\n{_paragraph(7)}\n\n"
        f"\\section{{Conclusion}}\n{_paragraph(4)}\n\n{_paragraph(0, 3)}\n"
    )
    return _head("\\usepackage[margin=0.9in]{geometry}", "\\documentclass[twocolumn,10pt]{article}") + body + "\\end{document}\n"


HEADERS = {
    "gen-watermark": ["CONFIDENTIAL"],
    "gen-numbers": ["Workshop on Robust Reviewing, Lisbon, 2026", "Submission 17, anonymous preprint"],
    "gen-acm-abstract": ["Measuring Reviewer Robustness on Edge-Case Layouts", "Vol. 1, No. 1, Article . Publication date"],
}
"""Running-header strings of each generated document (residual lines are counted from them)."""

GENERATED = {
    "gen-watermark": watermark,
    "gen-line-numbers": line_numbers,
    "gen-hyphens": hyphens,
    "gen-figure-labels": figure_labels,
    "gen-acm-abstract": acm_abstract,
    "gen-numbers": numbers,
    "gen-structure": structure,
}
