"""The layout corpus of issue 39: generated papers that put each layout element on the pages of real
document classes, with the ground truth written down as the source is generated.

Every document has a title block (authors, affiliations, emails, an author footnote with a URL), an
abstract, an Introduction, long numbered headings that wrap to two lines (sections and
subsections), footnotes set in mid-sentence, a displayed equation with ``\\text{...}``, a
theorem or lemma with its proof, a vector plot or TikZ diagram with text (axis labels, tick labels,
legend entries, node labels), a table with row groups (``\\multirow``) and short rows, a code
listing with line numbers (``listings``, ``numbers=left``), an algorithm (``algorithm2e`` or
``algpseudocode``), captions, and a watermark. Variants rotate with the document's index, so each
class gets every element and every watermark position: diagonal (45 degrees over the page centre,
-30 degrees over its lower third), horizontal across the text ("For Peer Review Only"), a stamp at
the top or at the bottom of the page, vertical in the left margin.

Classes (all in Debian's TeX Live): ``acm-sigconf`` (acmart sigconf, two columns), ``acm-small``
(acmart acmsmall, one column), ``ieee-conf`` (IEEEtran conference, two columns), ``llncs`` (one
column), ``els-preprint`` (elsarticle preprint, one column), ``els-5p`` (elsarticle 5p, two
columns), ``article-2col`` (article twocolumn) and ``jmlr-pmlr`` (jmlr.cls, the PMLR proceedings
style of ML conferences such as COLT, AISTATS and ACML, one column).

Body prose: paragraphs of the shared LaTeX projects (``shared/data/papers``) whose sentences are
plain text once citations are removed (sentences with math, references or other commands are left
out); the titles, headings, footnotes, theorems, captions and every element's text are written
here. Ground truth (:class:`LayoutDoc`): sections ``(level, title, text)`` in the form of
rhetorica's LaTeX reading (paragraphs apart by blank lines, footnotes as ``^[...]`` where their mark
is, captions as ``Figure: ...`` lines, display math as LaTeX), heading levels section = 1,
subsection = 2 (the abstract 1); and apart from it the text of each figure, table, code listing and
algorithm (:class:`Element`), which is no running text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from corpus import DATA, _tex  # the harness's one data folder and one LaTeX escaping

ELEMENT_KINDS = ("figure", "table", "code", "algorithm")
FEATURES = ("watermark", "figure", "table", "code", "algorithm", "long heading", "footnote", "equation",
            "caption", "theorem")


@dataclass(frozen=True)
class Element:
    """A float's text as printed: ``items`` are its lines (code, algorithm), cells (table) or labels
    (figure: axis labels, tick labels, legend entries, node labels), each one string."""

    kind: str
    caption: str
    items: tuple[str, ...]


@dataclass(frozen=True)
class Person:
    """An author of the title block (invented: names, places and addresses are fiction)."""

    name: str
    affiliation: str
    city: str
    country: str
    email: str


@dataclass
class LayoutDoc:
    """One generated document: its LaTeX source and its ground truth.

    Attributes:
        name: ``<class>-<index>``.
        klass: class key (see the module docstring).
        columns: 1 or 2.
        source: the LaTeX file's text.
        title: the paper's title.
        sections: ``(level, title, text)`` of the running text (no element text).
        elements: figure, table, code and algorithm texts.
        footnotes: footnote texts set in the body (the author footnote is identity, not here).
        identity: names, emails, affiliations, author footnote text and its URL.
        headers: strings printed on the pages that are no text of the paper: watermark and running
            headers.
        watermark: the watermark variant.
        features: the layout elements on its pages (:data:`FEATURES`).
    """

    name: str
    klass: str
    columns: int
    source: str
    title: str
    sections: list[tuple[int, str, str]]
    elements: list[Element]
    footnotes: list[str]
    identity: list[str]
    headers: list[str]
    watermark: str
    features: set[str] = field(default_factory=set)


# ---------------------------------------------------------------- prose from the shared projects

_BAD = re.compile(r"\\(begin|end|item|section|subsection|paragraph|includegraphics|ref|eqref|autoref|cref|citet|citeauthor|"
                  r"footnote|label|url|href|input|caption)\b|[$&#_^]|\\\\")


def _clean_sentence(sentence: str) -> str | None:
    """A sentence as plain printed text, or ``None`` when it holds math, references or commands."""
    if _BAD.search(sentence):
        return None
    s = re.sub(r"[~ ]?\\cite[p]?\*?(\[[^\]]*\])*\{[^}]*\}", "", sentence)
    s = re.sub(r"\\(emph|textit|textbf|textsc)\{([^{}]*)\}", r"\2", s)
    s = s.replace("~", " ").replace("``", "\u201c").replace("''", "\u201d").replace("---", "\u2014").replace("--", "\u2013")
    s = re.sub(r"\s+([.,;:])", r"\1", s)
    if re.search(r"[\\{}%<>|]", s) or not re.match(r"[A-Z]", s):
        return None
    return s


@lru_cache(maxsize=1)
def prose_pool() -> tuple[str, ...]:
    """Plain paragraphs (45-150 words, three sentences or more) from the shared LaTeX projects,
    in a fixed order."""
    out: list[str] = []
    for path in sorted((DATA / "papers").rglob("*.tex")):
        text = re.sub(r"(?<!\\)%.*", "", path.read_text(encoding="utf-8", errors="replace"))
        for para in re.split(r"\n\s*\n", text):
            flat = " ".join(para.split())
            if not flat or flat.startswith("\\") and not flat.startswith(("\\emph", "\\textit", "\\textbf")):
                continue
            sentences = [_clean_sentence(s) for s in re.split(r"(?<=[.!?])\s+(?=[A-Z])", flat)]
            kept = [s for s in sentences if s]
            words = sum(len(s.split()) for s in kept)
            if len(kept) >= 3 and 45 <= words <= 150:
                out.append(" ".join(kept))
    return tuple(dict.fromkeys(out))


# ---------------------------------------------------------------- text written for the harness

PEOPLE = (
    Person("Ingrid Solheimsvik", "Quillfield Institute of Technology", "Bergen", "Norway", "ingrid.solheimsvik@quillfield.edu"),
    Person("Tomasz Wielgosz", "Harbourside Vision Group", "Gdansk", "Poland", "t.wielgosz@harbourside.org"),
    Person("Amara Oyelaran-Pike", "University of Lowmoor", "Leeds", "United Kingdom", "a.oyelaran-pike@lowmoor.ac.uk"),
    Person("Dmitri Kasparyan", "Institute for Document Sciences", "Yerevan", "Armenia", "dkasparyan@ids-yerevan.am"),
    Person("Lucía Fernández Ortubia", "Basque Centre for Reading Machines", "Bilbao", "Spain", "lfernandez@bcrm.eus"),
    Person("Kenji Arakawa-Bloom", "Northgate Laboratory for Text", "Sapporo", "Japan", "arakawa.bloom@northgate-lab.jp"),
    Person("Priya Venkataraghavan", "Deccan School of Computing", "Pune", "India", "priya.v@deccan-computing.in"),
    Person("Olumide Fashanu-Grey", "Harbourside Vision Group", "Gdansk", "Poland", "o.fashanu@harbourside.org"),
)
AUTHOR_NOTES = (
    "Work done during a visit to the Harbourside Vision Group. Code: https://github.com/isolheim/layoutbench",
    "Corresponding author; funded by the Lowmoor reading fellowship. Homepage https://people.lowmoor.ac.uk/aoyelaran",
    "Equal contribution with the second author. Data at https://gitlab.com/dkasparyan/pagesets",
    "Part of this work was done at Northgate. Profile https://github.com/kenji-arakawa",
)
TITLES = (
    "Reading Scholarly Pages as a Reviewer Would",
    "Layout Elements That Confuse Automatic Paper Readers",
    "Separating Floats from Running Text in Typeset Articles",
    "What Survives the Trip from Typeset Page to Plain Text",
    "Robust Heading Detection for Conference Proceedings",
    "A Study of Watermarks, Tables and Listings in Review Copies",
)
SECTION_HEADINGS = (
    "Separating the Running Text of a Paper from the Labels of the Figures and Tables Set Beside It",
    "Why Numbered Headings That Wrap onto a Second Line Must Still Be Read as One Single Heading",
    "Reading Order across Two Columns When Floats, Footnotes and Watermarks Share the Same Page",
    "A Layout-Driven Account of Which Printed Lines Belong to the Prose and Which Belong to Floats",
)
SUBSECTION_HEADINGS = (
    "Row Groups, Merged Cells and Short Rows in the Tables of Experimental Sections",
    "Code Listings with Line Numbers Next to Footnotes at the Bottom of the Same Page",
    "Tick Labels, Legends and Node Labels Drawn as Vector Text inside Plotted Figures",
    "Pseudocode Set as an Algorithm Float with Keywords in Bold and Numbered Steps",
)
FOOTNOTES = (
    "The pages were typeset twice so that every cross-reference settled before the text was extracted.",
    "We count a heading as wrapped when its title needs a second printed line in the class's heading font.",
    "A watermark is any text that the class or a package prints on every page over or beside the text.",
    "Listings were set with the default fixed-width font of the class and numbered every line.",
    "The two reading tools were run with their default settings and no per-document configuration.",
    "Short rows are rows whose cells do not fill the table, such as a group's final total.",
    "All plots were drawn as vector graphics, so their labels reach the text layer of the file.",
    "The merged cells of a row group print their label once, halfway down the group.",
)
THEOREMS = (
    ("theorem", "Bounded drift", "If every rewrite preserves the claims of a paper, then the expected score shift of an unbiased reviewer is zero.",
     "The score of an unbiased reviewer depends on the claims only, and the claims are the same in both versions."),
    ("lemma", "Paired variance", "The variance of a paired difference never exceeds the sum of the variances of its two scores.",
     "Expand the variance of the difference and bound the covariance term by zero from below."),
    ("theorem", "Single heading", "A heading printed on two lines in one font and at one indent is one heading of the document.",
     "Both lines share the heading's font and position, so no rule that reads layout can tell them apart."),
)
EQUATIONS = (
    r"\Delta_d = \frac{1}{R} \sum_{r=1}^{R} \left( s_{d,r}' - s_{d,r} \right) \quad \text{for every document } d",
    r"\mathrm{share}(e) = \frac{\left|\text{cells of } e \text{ in one block}\right|}{\left|\text{cells of } e\right|}",
    r"p(\text{heading} \mid \ell) \propto \exp\left( w^\top \phi(\ell) \right) \quad \text{for weights } w",
)
CAPTIONS = {
    "figure": ("Scores of the two readers as the number of pages grows.", "Time spent per document by each stage.",
               "The stages of the reading pipeline and the data passed between them."),
    "table": ("Extraction errors by layout element and document length.", "Heading levels found by each reader.",
              "Share of table cells kept in one block."),
    "code": ("The function that joins wrapped heading lines.", "Splitting a page into columns.",
             "Counting the cells of a table row."),
    "algorithm": ("Reading one page in layout order.", "Placing floats after the paragraph they interrupt.",
                  "Detecting a watermark from its drawing angle."),
}

WATERMARKS = ("diagonal", "horizontal", "top", "bottom", "vertical", "diagonal-low")
WATERMARK_TEXT = {
    "diagonal": "CONFIDENTIAL DRAFT",
    "horizontal": "For Peer Review Only",
    "top": "Manuscript under review at the Journal of Layout Studies, do not distribute",
    "bottom": "Review copy generated by the submission system, not for circulation",
    "vertical": "Preprint version 3 deposited in the Quillfield open archive",
    "diagonal-low": "UNDER REVIEW",
}


def _watermark_latex(kind: str) -> str:
    """eso-pic commands that print the watermark on every page (foreground for the horizontal one,
    which is set over the text as submission systems do)."""
    text = WATERMARK_TEXT[kind]
    pic = {
        "diagonal": ("BG", r"\AtPageCenter{\makebox(0,0){\rotatebox{45}{\scalebox{4}{\textcolor[gray]{0.85}{\textsf{%s}}}}}}"),
        "horizontal": ("FG", r"\AtPageCenter{\makebox(0,0){\textcolor[gray]{0.6}{\Large\textsf{%s}}}}"),
        "top": ("BG", r"\AtPageUpperLeft{\raisebox{-22pt}{\makebox[\paperwidth]{\textcolor[gray]{0.4}{\footnotesize\textsf{%s}}}}}"),
        "bottom": ("BG", r"\AtPageLowerLeft{\raisebox{14pt}{\makebox[\paperwidth]{\textcolor[gray]{0.4}{\footnotesize\textsf{%s}}}}}"),
        "vertical": ("BG", r"\AtPageLowerLeft{\put(28,200){\rotatebox{90}{\textcolor[gray]{0.5}{\small\textsf{%s}}}}}"),
        "diagonal-low": ("BG", r"\AtPageLowerLeft{\put(320,230){\makebox(0,0){\rotatebox{-30}{\scalebox{3}{\textcolor[gray]{0.85}{\textsf{%s}}}}}}}"),
    }[kind]
    return "\\usepackage{eso-pic}\n\\AddToShipoutPicture%s{%s}\n" % (pic[0], pic[1] % text)


# ---------------------------------------------------------------- elements

def _plot(variant: int) -> tuple[str, list[str]]:
    """``(LaTeX, printed labels)`` of a figure drawn with pgfplots or TikZ."""
    if variant == 0:
        xs, ys = (10, 20, 30, 40, 50), ("0.2", "0.4", "0.6", "0.8")
        labels = ["Number of pages", "Macro F1 score", "Baseline reader", "Layout-aware reader", "crossing point"]
        latex = (
            "\\begin{tikzpicture}\\begin{axis}[width=0.95\\linewidth,height=4.6cm,xlabel={Number of pages},"
            "ylabel={Macro F1 score},xtick={10,20,30,40,50},ytick={0.2,0.4,0.6,0.8},ymin=0.1,ymax=0.9,"
            "scaled y ticks=false,yticklabel style={/pgf/number format/fixed,/pgf/number format/precision=1},"
            "legend pos=south west,legend style={font=\\footnotesize}]\n"
            "\\addplot coordinates {(10,0.78) (20,0.66) (30,0.52) (40,0.41) (50,0.33)};\\addlegendentry{Baseline reader}\n"
            "\\addplot coordinates {(10,0.74) (20,0.72) (30,0.71) (40,0.69) (50,0.68)};\\addlegendentry{Layout-aware reader}\n"
            "\\node[font=\\footnotesize,anchor=south] at (axis cs:17,0.76) {crossing point};\n"
            "\\end{axis}\\end{tikzpicture}"
        )
        return latex, labels + [str(x) for x in xs] + list(ys)
    if variant == 1:
        bars = ("Extraction", "Ordering", "Headings", "Floats")
        labels = ["Seconds per document", *bars, "slowest stage"]
        latex = (
            "\\begin{tikzpicture}\\begin{axis}[width=0.95\\linewidth,height=4.6cm,ybar,ylabel={Seconds per document},"
            f"symbolic x coords={{{','.join(bars)}}},xtick=data,ymin=0,ymax=5,ytick={{1,2,3,4}},bar width=12pt]\n"
            "\\addplot coordinates {(Extraction,3.2) (Ordering,1.4) (Headings,0.8) (Floats,2.1)};\n"
            "\\node[font=\\footnotesize,anchor=south] at (axis cs:Extraction,3.4) {slowest stage};\n"
            "\\end{axis}\\end{tikzpicture}"
        )
        return latex, labels + ["1", "2", "3", "4"]
    boxes = ("Page renderer", "Line grouper", "Block classifier", "Section builder")
    labels = [*boxes, "positioned glyphs", "ordered blocks"]
    latex = (
        "\\begin{tikzpicture}[node distance=0.55cm,every node/.style={font=\\footnotesize},"
        "box/.style={draw,rounded corners,minimum width=2.6cm,minimum height=0.6cm}]\n"
        f"\\node[box] (a) {{{boxes[0]}}};\\node[box,below=of a] (b) {{{boxes[1]}}};\n"
        f"\\node[box,below=of b] (c) {{{boxes[2]}}};\\node[box,below=of c] (d) {{{boxes[3]}}};\n"
        "\\draw[->] (a) -- node[right] {positioned glyphs} (b);\\draw[->] (b) -- (c);"
        "\\draw[->] (c) -- node[right] {ordered blocks} (d);\n\\end{tikzpicture}"
    )
    return latex, labels


TABLES = (
    (("Length", "Element", "Errors", "Share"),
     (("Tiny", "Plot labels", "14", "0.31"), ("", "Table cells", "9", "0.20"), ("", "Total", "23", ""),
      ("Short", "Plot labels", "6", "0.12"), ("", "Listing lines", "11", "0.22"), ("", "Total", "17", ""),
      ("Long", "Watermarks", "4", "0.05"), ("", "Total", "4", ""))),
    (("Reader", "Level", "Found", "Missed"),
     (("Baseline", "Section", "41", "7"), ("", "Subsection", "28", "12"), ("", "All", "69", ""),
      ("Layout-aware", "Section", "47", "1"), ("", "Subsection", "38", "2"), ("", "All", "85", ""))),
    (("Class", "Columns", "Tables", "Kept"),
     (("Proceedings", "Two", "12", "0.92"), ("", "One", "7", "0.97"), ("", "Mean", "", "0.94"),
      ("Journal", "Two", "9", "0.88"), ("", "One", "15", "0.99"), ("", "Mean", "", "0.95"))),
)


def _table(variant: int, wide: bool) -> tuple[str, list[str]]:
    """``(LaTeX, cells)``: a booktabs table whose first column labels row groups with ``\\multirow``;
    a group's last row is short (empty cells)."""
    head, rows = TABLES[variant]
    groups: list[list[tuple[str, ...]]] = []
    for row in rows:
        if row[0]:
            groups.append([])
        groups[-1].append(row)
    body = ""
    for k, group in enumerate(groups):
        for j, row in enumerate(group):
            first = f"\\multirow{{{len(group)}}}{{*}}{{{_tex(row[0])}}}" if j == 0 else ""
            body += " & ".join([first, *(_tex(c) for c in row[1:])]) + " \\\\\n"
        body += "\\midrule\n" if k < len(groups) - 1 else ""
    size = "" if wide else "\\small"
    latex = (f"{size}\\begin{{tabular}}{{llrr}}\\toprule\n" + " & ".join(f"\\textbf{{{h}}}" for h in head)
             + " \\\\\n\\midrule\n" + body + "\\bottomrule\\end{tabular}")
    return latex, [*head, *(c for row in rows for c in row if c)]


LISTINGS = (
    ("def join_heading(lines):",
     "    title = lines[0].text",
     "    for line in lines[1:]:",
     "        if line.font != lines[0].font:",
     "            break",
     "        title = title + ' ' + line.text",
     "    return title"),
    ("def split_columns(page, gutter):",
     "    left = [ln for ln in page if ln.right < gutter]",
     "    right = [ln for ln in page if ln.left > gutter]",
     "    across = [ln for ln in page if ln not in left + right]",
     "    return left, right, across"),
    ("def count_cells(row, gap=3.0):",
     "    cells, start = [], 0",
     "    for k, space in enumerate(row.spaces):",
     "        if space.width > gap:",
     "            cells.append(row.text[start:k])",
     "            start = k + 1",
     "    return cells + [row.text[start:]]"),
)

ALGORITHMS = (
    ("positioned lines of one page", "labelled text blocks", "every line in reading order",
     ("drop lines drawn at an angle", "sort the remaining lines by column and height",
      "merge each line with the next when the gap is small", "label each merged block by its font")),
    ("paragraphs with their floats", "paragraphs in reading order", "every interrupted paragraph",
     ("find the float that cuts the paragraph", "cut the float out of the paragraph",
      "join the two halves of the paragraph", "append the float after the joined paragraph")),
    ("text runs with their angles", "a page without watermarks", "every run on the page",
     ("measure the angle of the run", "mark runs that are neither horizontal nor vertical",
      "remove the marked runs from the text", "record the removed runs in the audit")),
)


def _algorithm(variant: int, package: str, env: str) -> tuple[str, list[str]]:
    """``(LaTeX body of the float with a %s for its caption, statement texts)``: input, output, a
    loop over the steps but the last, the last step."""
    given, result, loop, steps = ALGORITHMS[variant]
    items = [given, result, loop, *steps]
    if package == "algorithm2e":
        body = f"\\ForEach{{{loop}}}{{\n" + "".join(f"{s}\\;\n" for s in steps[:-1]) + f"}}\n{steps[-1]}\\;\n"
        latex = (f"\\begin{{{env}}}[t]\\LinesNumbered\\caption{{%s}}\\KwIn{{{given}}}\\KwOut{{{result}}}\n{body}\\end{{{env}}}")
        return latex, items
    latex = ("\\begin{algorithm}[t]\\caption{%s}\\begin{algorithmic}[1]\n"
             f"\\Require {given}\n\\Ensure {result}\n\\For{{{loop}}}\n"
             + "".join(f"\\State {s}\n" for s in steps[:-1]) + f"\\EndFor\n\\State {steps[-1]}\n"
             "\\end{algorithmic}\\end{algorithm}")
    return latex, items


# ---------------------------------------------------------------- classes


@dataclass(frozen=True)
class ClassSpec:
    """A document class: its setup, how it sets the title block, what it defines already."""

    key: str
    columns: int
    documentclass: str
    theorems_defined: bool
    algorithm: str  # "algorithm2e" | "algpseudocode"
    algorithm_env: str = "algorithm"


CLASSES = (
    ClassSpec("acm-sigconf", 2, "\\documentclass[sigconf]{acmart}\n\\setcopyright{none}\n", True, "algorithm2e"),
    ClassSpec("acm-small", 1, "\\documentclass[acmsmall]{acmart}\n\\setcopyright{none}\n", True, "algpseudocode"),
    ClassSpec("ieee-conf", 2, "\\documentclass[conference]{IEEEtran}\n\\IEEEoverridecommandlockouts\n", False, "algpseudocode"),
    ClassSpec("llncs", 1, "\\documentclass{llncs}\n\\pagestyle{headings}\n", True, "algorithm2e"),
    ClassSpec("els-preprint", 1, "\\documentclass[preprint,12pt]{elsarticle}\n\\journal{Journal of Layout Studies}\n", False, "algorithm2e"),
    ClassSpec("els-5p", 2, "\\documentclass[5p,times]{elsarticle}\n\\journal{Journal of Layout Studies}\n", False, "algpseudocode"),
    ClassSpec("article-2col", 2, "\\documentclass[twocolumn,10pt]{article}\n\\usepackage[margin=0.8in]{geometry}\n", False, "algpseudocode"),
    ClassSpec("jmlr-pmlr", 1, "\\documentclass[pmlr]{jmlr}\n\\jmlrvolume{1}\\jmlryear{2026}\n"
              "\\jmlrproceedings{PMLR}{Proceedings of Machine Learning Research}\n", True, "algorithm2e", "algorithm2e"),
)
DOCS_PER_CLASS = 6


def _url_split(note: str) -> tuple[str, str]:
    url = re.search(r"https?://\S+", note)
    assert url is not None
    return note[: url.start()].strip(), url.group(0)


def _title_block(spec: ClassSpec, title: str, people: list[Person], note: str, abstract: str, short: str) -> tuple[str, str, list[str]]:
    """``(preamble part, part after \\begin{document}, running-header strings)``."""
    words, url = _url_split(note)
    # jmlr.cls expands \thanks in its author list: a URL command there breaks, so it is plain text
    foot = _tex(words) + (f" {url}" if spec.key == "jmlr-pmlr" else f" \\protect\\url{{{url}}}")
    ab = f"\\begin{{abstract}}\n{abstract}\n\\end{{abstract}}\n"
    if spec.key.startswith("acm"):
        block = "".join(f"\\author{{{p.name}}}" + (f"\\authornote{{{foot}}}" if i == 0 else "")
                        + f"\\affiliation{{\\institution{{{p.affiliation}}}\\city{{{p.city}}}\\country{{{p.country}}}}}"
                        f"\\email{{{p.email}}}\n" for i, p in enumerate(people))
        return (f"\\title{{{title}}}\n{block}\\renewcommand{{\\shorttitle}}{{{short}}}\n", ab + "\\maketitle\n", [short])
    if spec.key == "ieee-conf":
        block = "\\author{" + "\n\\and\n".join(
            f"\\IEEEauthorblockN{{{p.name}" + (f"\\thanks{{{foot}}}" if i == 0 else "") + "}"
            f"\\IEEEauthorblockA{{\\textit{{{p.affiliation}}}\\\\ {p.city}, {p.country}\\\\ {p.email}}}"
            for i, p in enumerate(people)) + "}\n"
        return f"\\title{{{title}}}\n{block}", "\\maketitle\n" + ab, []
    if spec.key == "llncs":
        affs = list(dict.fromkeys(p.affiliation for p in people))
        block = ("\\author{" + " \\and ".join(f"{p.name}\\inst{{{affs.index(p.affiliation) + 1}}}"
                                              + (f"\\thanks{{{foot}}}" if i == 0 else "") for i, p in enumerate(people))
                 + "}\n\\authorrunning{" + people[0].name.split()[-1] + " et al.}\n\\titlerunning{" + short + "}\n"
                 + "\\institute{" + " \\and ".join(
                     f"{aff}, {next(p.city for p in people if p.affiliation == aff)} "
                     f"\\email{{{', '.join(p.email for p in people if p.affiliation == aff)}}}" for aff in affs) + "}\n")
        return f"\\title{{{title}}}\n{block}", "\\maketitle\n" + ab, [short]
    if spec.key.startswith("els"):
        affs = list(dict.fromkeys(p.affiliation for p in people))
        block = "".join(f"\\author[a{affs.index(p.affiliation) + 1}]{{{p.name}" + ("\\corref{c1}" if i == 0 else "") + "}"
                        f"\\ead{{{p.email}}}\n" for i, p in enumerate(people))
        block += f"\\cortext[c1]{{{foot}}}\n" + "".join(
            f"\\affiliation[a{k + 1}]{{organization={{{aff}}},city={{{next(p.city for p in people if p.affiliation == aff)}}},"
            f"country={{{next(p.country for p in people if p.affiliation == aff)}}}}}\n" for k, aff in enumerate(affs))
        front = f"\\begin{{frontmatter}}\n\\title{{{title}}}\n{block}{ab}\\end{{frontmatter}}\n"
        return "", front, ["Preprint submitted to Journal of Layout Studies"]
    if spec.key == "jmlr-pmlr":
        block = "\\author{" + "\\AND ".join(
            f"\\Name{{{p.name}}}" + (f"\\thanks{{{foot}}}" if i == 0 else "") + f" \\Email{{{p.email}}}\\\\ \\addr {p.affiliation}, {p.city}"
            for i, p in enumerate(people)) + "}\n"
        return f"\\title[{short}]{{{title}}}\n{block}", "\\maketitle\n" + ab, [short]
    block = "\\author{" + " \\and ".join(
        f"{p.name}" + (f"\\thanks{{{foot}}}" if i == 0 else "") + f" \\\\ {p.affiliation} \\\\ \\texttt{{{p.email}}}"
        for i, p in enumerate(people)) + "}\n\\date{}\n"
    fancy = ("\\usepackage{fancyhdr}\\pagestyle{fancy}\\fancyhf{}"
             f"\\fancyhead[C]{{\\small {short}}}\\fancyfoot[C]{{\\thepage}}\\renewcommand{{\\headrulewidth}}{{0pt}}\n")
    return f"{fancy}\\title{{{title}}}\n{block}", "\\maketitle\n" + ab, [short]


def _footnoted(paragraph: str, note: str) -> tuple[str, str]:
    """``(LaTeX, truth)`` of a paragraph with a footnote after a word in the middle of its second
    sentence (or first, for a short paragraph), not at a sentence end."""
    sentences = re.split(r"(?<=[.!?])\s+(?=[A-Z])", paragraph)
    k = 1 if len(sentences) > 1 else 0
    words = sentences[k].split()
    cut = max(2, len(words) // 2)
    while cut < len(words) - 1 and not re.fullmatch(r"[A-Za-z]+", words[cut - 1]):
        cut += 1
    left, right = " ".join(words[:cut]), " ".join(words[cut:])
    latex = " ".join(sentences[:k] + [f"{left}\\footnote{{{_tex(note)}}} {right}"] + sentences[k + 1:])
    truth = " ".join(sentences[:k] + [f"{left}^[{note}] {right}"] + sentences[k + 1:])
    return latex, truth


def _theorem_defs(spec: ClassSpec) -> str:
    if spec.theorems_defined:
        return ""
    return "\\usepackage{amsthm}\n\\newtheorem{theorem}{Theorem}\n\\newtheorem{lemma}{Lemma}\n"


def _packages(spec: ClassSpec) -> str:
    algo = "" if spec.algorithm_env == "algorithm2e" else (
        "\\usepackage[ruled,linesnumbered]{algorithm2e}\n" if spec.algorithm == "algorithm2e"
        else "\\usepackage{algorithm}\n\\usepackage{algpseudocode}\n")
    fonts = "" if spec.key.startswith(("acm", "els-5p", "jmlr")) else "\\usepackage{lmodern}\\usepackage[T1]{fontenc}\n"
    ams = "" if spec.key.startswith("acm") else "\\usepackage{amsmath}\n"
    return (fonts + ams + "\\usepackage{url,booktabs,multirow,listings,xcolor,graphicx}\n\\usepackage{tikz}\n"
            "\\usetikzlibrary{positioning}\n\\usepackage{pgfplots}\n\\pgfplotsset{compat=1.16}\n" + algo
            + "\\lstset{numbers=left,numberstyle=\\tiny,basicstyle=\\ttfamily\\footnotesize,columns=fullflexible,"
              "keepspaces=true,frame=lines,xleftmargin=1.5em}\n")


def make_document(spec: ClassSpec, index: int) -> LayoutDoc:
    """The ``index``-th document of class ``spec`` (deterministic)."""
    pool = prose_pool()
    n = len(pool)
    seed = CLASSES.index(spec) * 7 + index * 11
    paras = [pool[(seed * 5 + 3 * k) % n] for k in range(12)]
    people = [PEOPLE[(seed + k) % len(PEOPLE)] for k in range(2 + index % 3)]
    note = AUTHOR_NOTES[(seed + index) % len(AUTHOR_NOTES)]
    title = TITLES[(index + CLASSES.index(spec)) % len(TITLES)]
    short = "Layout study " + "ABCDEFGH"[CLASSES.index(spec)] + str(index + 1)
    wm = WATERMARKS[index % len(WATERMARKS)]
    v = (index + CLASSES.index(spec)) % 3
    notes = [FOOTNOTES[(seed + k) % len(FOOTNOTES)] for k in range(3)]
    sec_heads = [SECTION_HEADINGS[(seed + k) % len(SECTION_HEADINGS)] for k in range(2)]
    sub_heads = [SUBSECTION_HEADINGS[(seed + k) % len(SUBSECTION_HEADINGS)] for k in range(2)]
    two = spec.columns == 2
    wide_table = two and index % 2 == 1

    plot, plot_items = _plot(v)
    table, table_items = _table(v, wide_table)
    code = LISTINGS[v]
    algo_latex, algo_items = _algorithm(v, spec.algorithm, spec.algorithm_env)
    kind, name, statement, proof = THEOREMS[v]
    equation = EQUATIONS[v]
    cap = {k: CAPTIONS[k][v] for k in CAPTIONS}
    elements = [Element("figure", cap["figure"], tuple(plot_items)), Element("table", cap["table"], tuple(table_items)),
                Element("code", cap["code"], tuple(line.strip() for line in code)),
                Element("algorithm", cap["algorithm"], tuple(algo_items))]

    fig_env = "figure*" if two and index % 3 == 2 else "figure"
    tab_env = "table*" if wide_table else "table"
    figure = f"\\begin{{{fig_env}}}[t]\\centering\n{plot}\n\\caption{{{cap['figure']}}}\n\\end{{{fig_env}}}\n"
    tab = f"\\begin{{{tab_env}}}[t]\\centering\\caption{{{cap['table']}}}\n{table}\n\\end{{{tab_env}}}\n"
    listing = (f"\\begin{{lstlisting}}[language=Python,caption={{{cap['code']}}},float=t]\n" + "\n".join(code) + "\n\\end{lstlisting}\n")
    algo = algo_latex % cap["algorithm"] + "\n"
    fn = [_footnoted(paras[1], notes[0]), _footnoted(paras[4], notes[1]), _footnoted(paras[9], notes[2])]
    thm_name = "Theorem" if kind == "theorem" else "Lemma"

    # (LaTeX, truth) per section: the floats are written where they are cited; the truth keeps
    # their captions in that place, as rhetorica's LaTeX reading does
    body = [
        (1, "Introduction", [(paras[0], paras[0]), fn[0]]),
        (1, sec_heads[0], [(paras[2], paras[2]), (figure, f"Figure: {cap['figure']}"), (paras[3], paras[3]), fn[1],
                           (f"\\begin{{equation}}\n{equation}\n\\end{{equation}}",
                            f"\\begin{{equation}}\n{equation}\n\\end{{equation}}"), (paras[5], paras[5])]),
        (2, sub_heads[0], [(paras[6], paras[6]), (tab, f"Table: {cap['table']}"), (paras[7], paras[7])]),
        (1, sec_heads[1], [(paras[8], paras[8]), (listing, f"Listing: {cap['code']}"),
                           (f"\\begin{{{kind}}}[{name}]\n{statement}\n\\end{{{kind}}}\n\\begin{{proof}}\n{proof}\n\\end{{proof}}",
                            f"**{thm_name} ({name}).** {statement}\n\n*Proof.* {proof}"), fn[2]]),
        (2, sub_heads[1], [(algo, f"Algorithm: {cap['algorithm']}"), (paras[10], paras[10])]),
        (1, "Conclusion", [(paras[11], paras[11])]),
    ]
    abstract = pool[(seed * 5 + 37) % n]
    head, opening, running = _title_block(spec, title, people, note, abstract, short)
    commands = {1: "section", 2: "subsection"}
    latex_body = "".join(f"\\{commands[level]}{{{t}}}\n" + "\n\n".join(src for src, _ in blocks) + "\n\n"
                         for level, t, blocks in body)
    source = (spec.documentclass + _packages(spec) + _theorem_defs(spec) + _watermark_latex(wm) + head
              + "\\begin{document}\n" + opening + latex_body + "\\end{document}\n")
    sections = [(1, "Abstract", abstract)] + [(level, t, "\n\n".join(tr for _, tr in blocks)) for level, t, blocks in body]
    words, url = _url_split(note)
    identity = [x for p in people for x in (p.name, p.email, p.affiliation)] + [words, url]
    return LayoutDoc(
        name=f"{spec.key}-{index + 1}", klass=spec.key, columns=spec.columns, source=source, title=title,
        sections=sections, elements=elements, footnotes=notes, identity=identity,
        headers=[WATERMARK_TEXT[wm], *running], watermark=wm,
        features={"watermark", *ELEMENT_KINDS, "long heading", "footnote", "equation", "caption", "theorem"},
    )


def documents(smoke: bool = False) -> list[LayoutDoc]:
    """Every layout document (:data:`DOCS_PER_CLASS` per class), or for ``smoke`` two of them: a
    two-column one (acm-sigconf-1, diagonal watermark) and a one-column one (llncs-2, "For Peer
    Review Only" across the text)."""
    if smoke:
        return [make_document(CLASSES[0], 0), make_document(CLASSES[3], 1)]
    return [make_document(spec, k) for spec in CLASSES for k in range(DOCS_PER_CLASS)]
