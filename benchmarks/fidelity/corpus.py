"""The fidelity harness's documents: LaTeX projects compiled with real publisher classes, the
shared PDFs, and generated edge cases.

Each LaTeX case rewrites only the preamble of a shared project (in a copy under the cache folder):
the document class is replaced by a publisher class from Debian's TeX Live, the conference
``.sty`` files that are not shipped are dropped, and a title block is injected with the paper's
authors, affiliations and emails as the class typesets them, an author footnote carrying a
personal code-hosting URL, running headers and page numbers. Figures become empty boxes (image
files are not all shipped). The body is untouched, so the text rhetorica reads from the original
LaTeX project is the ground truth for the compiled PDF.

Compilation: ``latexmk -pdf`` with ``pdflatex -no-shell-escape`` (never shell escape), in
``$RHETORICA_FIDELITY_CACHE`` (default ``$TMPDIR/rhetorica-fidelity``); a PDF is rebuilt only when
its wrapper or its project changes. Needs TeX Live: ``texlive-latex-base texlive-latex-recommended
texlive-latex-extra texlive-publishers texlive-fonts-recommended texlive-science latexmk``.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


def cache_dir() -> Path:
    """Folder for compiled PDFs (outside git)."""
    root = os.environ.get("RHETORICA_FIDELITY_CACHE") or str(Path(tempfile.gettempdir()) / "rhetorica-fidelity")
    path = Path(root)
    path.mkdir(parents=True, exist_ok=True)
    return path


@dataclass(frozen=True)
class Author:
    name: str
    affiliation: str
    email: str


@dataclass(frozen=True)
class LatexCase:
    """A shared LaTeX project compiled with a publisher class.

    Attributes:
        name: harness document name.
        project: folder under ``shared/data/papers``.
        main: main file relative to the project.
        layout: ``acmart`` (sigconf) | ``acmsmall`` (ACM journal: no abstract heading, authors in
            the even pages' running header) | ``ieee`` | ``llncs`` | ``twocolumn`` | ``neurips`` | ``iclr``.
        authors: injected title block (the paper's own authors).
        footnote: author footnote text (an identity leak if it survives).
        drop_inputs: ``\\input`` files of the original title block, left out.
        header: running-header text the wrapper prints on every page.
        truth_drop: titles of the truth's sections that the compiled PDF does not print (their
            ``\\input`` is among ``drop_inputs``): left out of the truth.
    """

    name: str
    project: str
    main: str
    layout: str
    authors: tuple[Author, ...]
    footnote: str
    header: str
    drop_inputs: tuple[str, ...] = ()
    truth_drop: tuple[str, ...] = ()

    @property
    def source(self) -> Path:
        return DATA / "papers" / self.project


@dataclass(frozen=True)
class PdfCase:
    """A PDF with its ground truth: a LaTeX project and/or hand-checked facts of the printed PDF
    (title, headings, first words of the abstract and introduction)."""

    name: str
    pdf: Path
    latex: Path | None
    identity: tuple[str, ...] = ()
    headers: tuple[str, ...] = ()
    notes: str = ""
    facts: dict = field(default_factory=dict)
    truth_drop: tuple[str, ...] = ()


EPFL = "EPFL, Lausanne, Switzerland"
CASES: tuple[LatexCase, ...] = (
    LatexCase(
        "chebnet-acmart", "chebnet_nips2016", "nips2016.tex", "acmart",
        (Author("Michaël Defferrard", "EPFL", "michael.defferrard@epfl.ch"),
         Author("Xavier Bresson", "EPFL", "xavier.bresson@epfl.ch"),
         Author("Pierre Vandergheynst", "EPFL", "pierre.vandergheynst@epfl.ch")),
        "Work done during an internship at Lemanic Signal Lab. Code at https://github.com/mdeff/cnn_graph",
        "Fast Localized Spectral Filtering",
    ),
    LatexCase(
        "fma-ieee", "fma_ismir2017", "fma.tex", "ieee",
        (Author("Michaël Defferrard", "LTS2, EPFL", "michael.defferrard@epfl.ch"),
         Author("Kirell Benzi", "LTS2, EPFL", "kirell.benzi@epfl.ch"),
         Author("Pierre Vandergheynst", "LTS2, EPFL", "pierre.vandergheynst@epfl.ch"),
         Author("Xavier Bresson", "SCSE, NTU Singapore", "xbresson@ntu.edu.sg")),
        "Work conducted while Xavier Bresson visited Lemanic Signal Lab. Homepage https://people.epfl.ch/michael.defferrard",
        "FMA dataset paper",
    ),
    LatexCase(
        "gcrn-llncs", "gcrn_iclr2017", "paper.tex", "llncs",
        (Author("Youngjoo Seo", "LTS2, EPFL", "youngjoo.seo@epfl.ch"),
         Author("Michaël Defferrard", "LTS2, EPFL", "michael.defferrard@epfl.ch"),
         Author("Pierre Vandergheynst", "LTS2, EPFL", "pierre.vandergheynst@epfl.ch"),
         Author("Xavier Bresson", "SCSE, NTU Singapore", "xbresson@ntu.edu.sg")),
        "Corresponding author; supported by the Lemanic Signal Lab fellowship. See https://github.com/youngjoo-epfl/gconvRNN",
        "Graph Convolutional Recurrent Networks",
    ),
    LatexCase(
        "gcrn-acmsmall", "gcrn_iclr2017", "paper.tex", "acmsmall",
        (Author("Youngjoo Seo", "LTS2, EPFL", "youngjoo.seo@epfl.ch"),
         Author("Michaël Defferrard", "LTS2, EPFL", "michael.defferrard@epfl.ch"),
         Author("Xavier Bresson", "SCSE, NTU Singapore", "xbresson@ntu.edu.sg")),
        "Corresponding author; supported by the Lemanic Signal Lab fellowship. See https://github.com/youngjoo-epfl/gconvRNN",
        "Graph Convolutional Recurrent Networks",
    ),
    LatexCase(
        "scipy-twocolumn", "scipy-1.0/scipy-1.0", "paper.tex", "twocolumn",
        (Author("Pauli Virtanen", "University of Jyväskylä", "pauli.virtanen@iki.fi"),
         Author("Ralf Gommers", "Quansight LLC", "ralf.gommers@gmail.com"),
         Author("Travis E. Oliphant", "Quansight LLC", "teoliphant@gmail.com"),
         Author("Matt Haberland", "California Polytechnic State University", "mhaberla@calpoly.edu")),
        "Equal contribution from the Lemanic Signal Lab writing sprint. Profile https://github.com/pv",
        "SciPy 1.0 overview",
        drop_inputs=("core-dev", "consortium"), truth_drop=("Consortium", "SciPy 1.0 Contributors"),
    ),
    LatexCase(
        "cheblienet-neurips", "cheblienet_neurips2021", "neurips_2021.tex", "neurips",
        (Author("Hugo Aguettaz", "EPFL, Lausanne, Switzerland", "hugo.aguettaz@epfl.ch"),
         Author("Erik J Bekkers", "UvA, Amsterdam, Netherlands", "e.j.bekkers@uva.nl"),
         Author("Michaël Defferrard", "EPFL, Lausanne, Switzerland", "michael.defferrard@epfl.ch")),
        "Work done during an internship at Lemanic Signal Lab. Code: https://github.com/haguettaz/ChebLieNet",
        "Preprint. Under review.",
    ),
    LatexCase(
        "stable-nalu-iclr", "stable-nalu_iclr2020", "main.tex", "iclr",
        (Author("Andreas Madsen", "Computationally Demanding", "amwebdk@gmail.com"),
         Author("Alexander Rosenberg Johansen", "Technical University of Denmark", "aler@dtu.dk")),
        "Work done during an internship at Lemanic Signal Lab. Homepage https://andreasmadsen.github.io",
        "Published as a conference paper at ICLR 2020",
    ),
)

PDF_CASES: tuple[PdfCase, ...] = (
    PdfCase("stable-nalu-pdf", DATA / "pdfs" / "stable-nalu_iclr2020_main.pdf", None,
            identity=("Andreas Madsen", "Alexander Rosenberg Johansen", "amwebdk@gmail.com", "aler@dtu.dk",
                      "Computationally Demanding", "Technical University of Denmark", "github.com/AndreasMadsen"),
            headers=("Published as a conference paper at ICLR 2020",),
            notes=("the shared PDF was built from an earlier revision of the LaTeX project (PDF created 2019-09-24; "
                   "its abstract, 'Exact arithmetic operations of real numbers present a unique learning "
                   "challenge ...', is nowhere in the project; other section 2 structure; 27 % of the reading's "
                   "8-word runs are in the project's text against 68 % for stable-nalu-iclr, compiled from it): "
                   "no LaTeX truth, so no body F1 and no numbers; abstract, introduction and headings are "
                   "scored against the printed PDF (headings checked with pdfminer.six's independent extraction)"),
            facts={
                "title": "Neural Arithmetic Units",
                "headings": ["Abstract", "Introduction", "Learning a 10 parameter function",
                             "Introducing differentiable binary arithmetic operations", "Introducing NALU",
                             "Challenges of gating between NAC+ and NAC•", "Weight matrix construction",
                             "Challenges of division", "Initialization of NAC•", "Neural multiplication unit",
                             "Moments and initialization", "Regularizer scaling", "Related work",
                             "Experimental results", "Arithmetic datasets", "Model evaluation",
                             "Arithmetic operation comparison", "Evaluating theoretical claims",
                             "Product of sequential MNIST", "Conclusion"],
                "abstract_start": "Exact arithmetic operations of real numbers present a unique learning challenge",
                "intro_start": "When studying intelligence, insects, reptiles, and humans have been found to possess neurons",
            }),
    PdfCase("scipy-pdf", DATA / "pdfs" / "scipy-1.0_paper.pdf", DATA / "papers" / "scipy-1.0",
            identity=("Pauli Virtanen", "Ralf Gommers", "Travis E. Oliphant", "Matt Haberland", "Tyler Reddy",
                      "Quansight", "University of Jyväskylä", "github.com/scipy/scipy"),
            headers=(), truth_drop=("Consortium", "SciPy 1.0 Contributors"),
            notes="truth = the LaTeX project (Nature Methods layout of the same text)"),
    PdfCase("acl-s2orc-pdf", DATA / "pdfs" / "2020.acl-main.447.pdf", None,
            identity=("Kyle Lo", "Lucy Lu Wang", "Mark Neumann", "Rodney Kinney", "Daniel S. Weld",
                      "Allen Institute for Artificial Intelligence", "Paul G. Allen School", "allenai.org",
                      "github.com/allenai/s2orc"),
            headers=("Association for Computational Linguistics",),
            notes="no LaTeX source: truth checked by hand on the printed PDF (title, 9 numbered sections + 6 subsections, abstract first sentence)",
            facts={
                "title": "S2ORC: The Semantic Scholar Open Research Corpus",
                "headings": ["Abstract", "Introduction", "Constructing the corpus", "Processing PDFs",
                             "Processing LATEX source", "Selecting canonical metadata", "Assembling the corpus",
                             "Filtering paper clusters", "Linking bibliographies to papers", "The S2ORC dataset",
                             "Evaluation", "Pretraining BERT on S2ORC", "Applications of S2ORC",
                             "Related work", "Conclusion"],
                "abstract_start": "a large corpus of 81.1M English-language academic papers spanning many academic disciplines",
                "intro_start": "Academic papers are an increasingly important textual domain",
            }),
)


# ---------------------------------------------------------------- wrapper

_MISSING_PACKAGES = {"neurips_2021", "nips2016", "nips_2017", "ismir", "iclr2020_conference", "wlscirep", "nth"}
_CLASS_OWNED = {
    "acm": {"hyperref", "natbib", "inputenc", "fontenc", "amsmath", "amssymb", "amsfonts", "graphicx",
               "xcolor", "color", "booktabs", "caption", "subcaption", "url", "babel", "titlesec"},
    "ieee": {"titlesec", "caption", "subcaption", "sidecap"},
    "llncs": {"titlesec", "hyperref", "caption", "subcaption", "amsthm"},
}


def _family(layout: str) -> str:
    """``acm`` for both ACM layouts, else the layout."""
    return "acm" if layout.startswith("acm") else layout


def _strip_packages(preamble: str, layout: str) -> str:
    drop = _MISSING_PACKAGES | _CLASS_OWNED.get(_family(layout), set())

    def fix(m: re.Match[str]) -> str:
        names = [n.strip() for n in m.group(2).split(",")]
        kept = [n for n in names if n and n not in drop]
        return f"\\usepackage{m.group(1) or ''}{{{','.join(kept)}}}" if kept else ""

    return re.sub(r"\\usepackage(\[[^\]]*\])?\{([^}]*)\}", fix, preamble)


def _remove_command(text: str, name: str, args: int) -> str:
    """Remove ``\\name[opt]{a}{b}`` (``args`` brace groups) everywhere."""
    out: list[str] = []
    pos = 0
    pattern = re.compile(r"\\" + name + r"(?![a-zA-Z])\*?")
    while True:
        m = pattern.search(text, pos)
        if not m:
            break
        k = m.end()
        while k < len(text) and text[k].isspace():
            k += 1
        if k < len(text) and text[k] == "[":
            k = text.index("]", k) + 1
        for _ in range(args):
            while k < len(text) and text[k].isspace():
                k += 1
            if k >= len(text) or text[k] != "{":
                break
            depth = 0
            for j in range(k, len(text)):
                if text[j] == "{":
                    depth += 1
                elif text[j] == "}":
                    depth -= 1
                    if depth == 0:
                        k = j + 1
                        break
        out.append(text[pos:m.start()])
        pos = k
    out.append(text[pos:])
    return "".join(out)


def _tex(text: str) -> str:
    return text.replace("_", "\\_").replace("#", "\\#").replace("%", "\\%").replace("&", "\\&")


def _footnote(case: LatexCase) -> str:
    url = re.search(r"https?://\S+", case.footnote)
    words = case.footnote[: url.start()] if url else case.footnote
    return _tex(words) + (f"\\protect\\url{{{url.group(0)}}}" if url else "")


def title_block(case: LatexCase) -> tuple[str, str]:
    """``(documentclass line + class setup, author block)`` for the case's layout."""
    a = case.authors
    note = _footnote(case)
    header = _tex(case.header)
    fancy = (
        "\\usepackage{fancyhdr}\\pagestyle{fancy}\\fancyhf{}"
        f"\\fancyhead[C]{{\\small {header}}}\\fancyfoot[C]{{\\thepage}}\\renewcommand{{\\headrulewidth}}{{0pt}}\n"
    )
    if _family(case.layout) == "acm":
        option = "sigconf" if case.layout == "acmart" else case.layout
        klass = f"\\documentclass[{option}]{{acmart}}\n\\setcopyright{{none}}\n"
        block = "".join(
            f"\\author{{{x.name}}}" + (f"\\authornote{{{note}}}" if i == 0 else "")
            + f"\\affiliation{{\\institution{{{x.affiliation}}}\\city{{Lausanne}}\\country{{Switzerland}}}}"
            f"\\email{{{x.email}}}\n" for i, x in enumerate(a)
        ) + f"\\renewcommand{{\\shorttitle}}{{{header}}}\n"
        return klass, block
    if case.layout == "ieee":
        klass = "\\documentclass[conference]{IEEEtran}\n\\IEEEoverridecommandlockouts\n" + fancy
        block = "\\author{" + "\n\\and\n".join(
            f"\\IEEEauthorblockN{{{x.name}" + (f"\\thanks{{{note}}}" if i == 0 else "") + "}"
            f"\\IEEEauthorblockA{{\\textit{{{x.affiliation}}}\\\\ {x.email}}}" for i, x in enumerate(a)
        ) + "}\n"
        return klass, block
    if case.layout == "llncs":
        klass = "\\documentclass{llncs}\n\\pagestyle{headings}\n"
        affs = list(dict.fromkeys(x.affiliation for x in a))
        block = "\\author{" + " \\and ".join(
            f"{x.name}\\inst{{{affs.index(x.affiliation) + 1}}}" + (f"\\thanks{{{note}}}" if i == 0 else "")
            for i, x in enumerate(a)
        ) + "}\n\\authorrunning{" + a[0].name.split()[-1] + " et al.}\n\\titlerunning{" + header + "}\n"
        block += "\\institute{" + " \\and ".join(
            f"{aff} \\email{{{', '.join(x.email for x in a if x.affiliation == aff)}}}" for aff in affs
        ) + "}\n"
        return klass, block
    plain = "\\author{" + " \\and ".join(
        f"{x.name}" + (f"\\thanks{{{note}}}" if i == 0 else "") + f" \\\\ {x.affiliation} \\\\ \\texttt{{{x.email}}}"
        for i, x in enumerate(a)
    ) + "}\n"
    if case.layout == "twocolumn":
        klass = ("\\documentclass[twocolumn,10pt]{article}\n\\usepackage[margin=0.8in]{geometry}\n" + fancy)
        return klass, plain
    if case.layout == "neurips":
        klass = ("\\documentclass[10pt]{article}\n\\usepackage[textwidth=5.5in,textheight=9in,top=1in]{geometry}\n"
                 "\\usepackage{fancyhdr}\\pagestyle{fancy}\\fancyhf{}\\fancyfoot[C]{\\thepage}"
                 "\\renewcommand{\\headrulewidth}{0pt}\n\\providecommand{\\And}{\\and}\\providecommand{\\AND}{\\and}\n")
        plain = plain.replace("}\n", "}\n", 1) + f"\\date{{{header}}}\n"
        return klass, plain
    if case.layout == "iclr":
        klass = ("\\documentclass[10pt]{article}\n\\usepackage[textwidth=5.5in,textheight=9in,top=1in]{geometry}\n"
                 "\\usepackage{times}\n" + fancy + "\\providecommand{\\iclrfinalcopy}{}\\providecommand{\\And}{\\and}\n")
        return klass, plain
    raise ValueError(f"unknown layout {case.layout}")


def wrapper_source(case: LatexCase) -> str:
    """The wrapped main file's text."""
    text = (case.source / case.main).read_text(encoding="utf-8", errors="replace")
    text = re.sub(r"(?<!\\)%.*", "", text)
    preamble, body = text.split("\\begin{document}", 1)
    preamble = re.sub(r"\\documentclass(\[[^\]]*\])?\{[^}]*\}", "", preamble, count=1)
    preamble = _strip_packages(preamble, case.layout)
    for name, args in (("author", 1), ("multauthor", 2), ("date", 1), ("tikzexternalize", 0),
                       ("usepgfplotslibrary", 1), ("patchcmd", 4), ("keywords", 1), ("def\\\\authorname", 1)):
        preamble = _remove_command(preamble, name, args)
    if "titlesec" in _CLASS_OWNED.get(_family(case.layout), set()):
        preamble = re.sub(r"\\titlespacing\*?\\\w+(\{[^}]*\}){3,4}", "", preamble)
    preamble = re.sub(r"\\def\\authorname\{[^}]*\}", "", preamble)
    preamble = re.sub(r"\\makeatletter\s*\\makeatother", "", preamble)
    for dropped in case.drop_inputs:
        preamble = re.sub(r"\\input\{" + dropped + r"\}", "", preamble)
        body = re.sub(r"\\input\{" + dropped + r"\}", "", body)
    abstract = re.search(r"\\begin\{abstract\}.*?\\end\{abstract\}", preamble, re.S)
    if abstract:  # some classes want the abstract in the body
        preamble = preamble.replace(abstract.group(0), "")
        body = body.replace("\\maketitle", "\\maketitle\n" + abstract.group(0), 1)
    klass, block = title_block(case)
    if _family(case.layout) == "acm":
        abstract_m = re.search(r"\\begin\{abstract\}.*?\\end\{abstract\}", body, re.S)
        if abstract_m:  # acmart typesets the abstract from before \maketitle, then CCS concepts
            body = body.replace(abstract_m.group(0), "").replace("\\maketitle", abstract_m.group(0) + "\n"
                    "\\ccsdesc[500]{Computing methodologies~Neural networks}\n\\keywords{graphs, spectral filtering}\n\\maketitle", 1)
    stub = (
        "\\makeatletter\\AtBeginDocument{\\renewcommand{\\includegraphics}[2][]{\\fbox{\\rule{0pt}{1.2in}\\hspace{1.6in}}}}\\makeatother\n"
        "\\usepackage{url,calc,amssymb,enumitem}\\providecommand{\\tabref}[1]{Table~\\ref{#1}}\\providecommand{\\figref}[1]{Figure~\\ref{#1}}\n"
        "\\providecommand{\\citen}{\\cite}\\providecommand{\\affil}[2][]{}\\providecommand{\\nth}[1]{#1th}\n"
    )
    bst = {"acm": "ACM-Reference-Format", "ieee": "IEEEtran", "llncs": "splncs04"}.get(_family(case.layout), "plainnat")
    body = re.sub(r"\\bibliographystyle\{[^}]*\}", f"\\\\bibliographystyle{{{bst}}}", body)
    if _family(case.layout) in {"ieee", "llncs", "acm"}:
        body = re.sub(r"\\citep?\b", r"\\cite", body)
        body = re.sub(r"\\citet\b", r"\\cite", body)
    # numeric citations everywhere: the truth has \cite commands, not author names
    natbib = "" if _family(case.layout) == "acm" else "\\PassOptionsToPackage{numbers}{natbib}\\usepackage{natbib}\n"
    fonts = "" if case.layout == "iclr" else "\\usepackage{lmodern}\n"
    return klass + fonts + natbib + preamble + stub + block + "\\begin{document}" + body


def _digest(case: LatexCase, wrapper: str) -> str:
    h = hashlib.sha256(wrapper.encode())
    for path in sorted(case.source.rglob("*")):
        if path.is_file():
            h.update(str(path.relative_to(case.source)).encode())
            h.update(str(path.stat().st_size).encode())
    return h.hexdigest()[:16]


def compile_case(case: LatexCase, *, verbose: bool = False) -> Path:
    """Compile ``case`` (cached); returns the PDF path.

    Raises:
        RuntimeError: no PDF came out (the log tail is in the message).
    """
    wrapper = wrapper_source(case)
    digest = _digest(case, wrapper)
    out = cache_dir() / f"{case.name}-{digest}.pdf"
    if out.is_file():
        return out
    build = cache_dir() / f"build-{case.name}"
    if build.exists():
        shutil.rmtree(build)
    shutil.copytree(case.source, build)
    for path in build.rglob("*"):
        if path.is_file():
            path.chmod(0o644)
        elif path.is_dir():
            path.chmod(0o755)
    main = build / Path(case.main).parent / "rhetorica_harness.tex"
    main.write_text(wrapper, encoding="utf-8")
    _latexmk(main, verbose=verbose)
    pdf = main.with_suffix(".pdf")
    if not pdf.is_file():
        log = main.with_suffix(".log")
        tail = log.read_text(errors="replace")[-2000:] if log.is_file() else ""
        raise RuntimeError(f"{case.name}: no PDF produced\n{tail}")
    shutil.copy(pdf, out)
    return out


def _latexmk(main: Path, *, verbose: bool = False) -> None:
    """Compile with latexmk + pdflatex, shell escape disabled, errors tolerated (``-f``)."""
    cmd = [
        "latexmk", "-pdf", "-f", "-interaction=nonstopmode", "-no-shell-escape",
        "-pdflatex=pdflatex -no-shell-escape -interaction=nonstopmode %O %S", main.name,
    ]
    env = {**os.environ, "openout_any": "p", "shell_escape": "f"}
    subprocess.run(cmd, cwd=main.parent, env=env, check=False, timeout=600,
                   stdout=None if verbose else subprocess.DEVNULL, stderr=None if verbose else subprocess.DEVNULL)


def compile_source(name: str, source: str) -> Path:
    """Compile a generated single-file LaTeX document (cached by content)."""
    digest = hashlib.sha256(source.encode()).hexdigest()[:16]
    out = cache_dir() / f"{name}-{digest}.pdf"
    if out.is_file():
        return out
    build = cache_dir() / f"build-{name}"
    build.mkdir(exist_ok=True)
    main = build / f"{name}.tex"
    main.write_text(source, encoding="utf-8")
    _latexmk(main)
    pdf = main.with_suffix(".pdf")
    if not pdf.is_file():
        raise RuntimeError(f"{name}: no PDF produced (see {main.with_suffix('.log')})")
    shutil.copy(pdf, out)
    return out
