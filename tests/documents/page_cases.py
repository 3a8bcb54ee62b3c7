"""Page layouts a fresh user's trial broke, generated from LaTeX with TeX Live's classes and scored
against their source (issue 39).

Four families, each a grid of one-off papers whose every sentence carries an id (``Sentence S2N3
...``: section 2, sentence 3), so a sentence that is missing, cut apart or read out of order is
counted without any knowledge of the reader:

- ``front``: ``acmart`` papers with varied front matter (``sigconf`` two-column, ``acmsmall`` one
  column; with and without CCS concepts, keywords, a teaser figure, the ACM reference format and
  permission block) and an introduction of 1 or 6 sentences: the abstract and the introduction must
  be found under their headings;
- ``short``: two-column pages (``acmart`` ``sigconf``, ``article`` ``twocolumn``, ``IEEEtran``)
  whose columns hold only 1-12 lines each (a column break after the left one): read column by
  column, not row by row;
- ``headers``: multi-page ``acmart`` papers whose running headers (short title, authors, venue)
  sit above every page's text: no header word may reach a sentence, and the headers are in
  ``removed``;
- ``watermark``: ``draftwatermark`` stamps at 0, 30, 45 and 90 degrees and scales 0.6-3 on pages of
  3-40 lines (``article``): the stamp is removed and listed (as a watermark, or as hidden text
  where PDFium finds its characters off the page), no body word is lost.

The cases are compiled and scored by tests/documents/test_pdf_page_cases.py (its counts asserted)
and by benchmarks/fidelity/pagecases.py (a table of the counts per family).
"""

from __future__ import annotations

import random
import re
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from rhetorica.documents import Document, read_document
from rhetorica.documents.pdf.backends import extract_pdfium

WORDS = ("robust sparse signal noise channel estimation bound theory model data error method analysis result "
         "sample variance measure design").split()
AUTHOR = r"\author{Alice Smith}\affiliation{\institution{Secret University}\country{USA}}\email{alice@secret.edu}"
SHORT_TITLE = "Sparse Channels"
WATERMARK = "Under review at ICLR 2026"
SENTENCE = re.compile(r"Sentence (S\d+N\d+) ([a-z ]+)\.")


@dataclass
class Case:
    """One generated paper: its name, LaTeX source and what its reading must show."""

    name: str
    source: str
    family: str
    sections: dict[str, str] = field(default_factory=dict)  # heading -> first sentence id under it
    forbidden: tuple[str, ...] = ()  # strings no section may contain (headers, a watermark)
    removed_item: str = ""  # items of ``removed`` (``|`` between) one of which must hold a word of ``forbidden[0]``


def sentences(rng: random.Random, section: int, count: int, words: tuple[int, int] = (8, 16)) -> str:
    """``count`` sentences of section ``section``, each ``Sentence S<section>N<k> w w w.``."""
    return " ".join(f"Sentence S{section}N{k} " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(*words))) + "."
                    for k in range(count))


def front_cases(rng: random.Random) -> Iterator[Case]:
    """acmart papers with every mix of front matter (2 formats x 2 x 2 x 2 x 2 x 2 = 64)."""
    for fmt in ("sigconf", "acmsmall"):
        for nonacm in (True, False):
            for ccs in (False, True):
                for keywords in (False, True):
                    for teaser in (False, True):
                        for intro in (1, 6):
                            parts = [f"\\documentclass[{fmt}{',nonacm' if nonacm else ''}]{{acmart}}",
                                     "\\begin{document}", "\\title{Robust Sparse Estimation}", AUTHOR,
                                     f"\\begin{{abstract}}{sentences(rng, 0, 2)}\\end{{abstract}}"]
                            if ccs:
                                parts.append("\\begin{CCSXML}\n<ccs2012><concept><concept_id>10010147</concept_id>"
                                             "<concept_desc>Computing methodologies</concept_desc>"
                                             "<concept_significance>500</concept_significance></concept></ccs2012>\n"
                                             "\\end{CCSXML}\n\\ccsdesc[500]{Computing methodologies}")
                            if keywords:
                                parts.append("\\keywords{sparse estimation, robust statistics}")
                            if teaser:
                                parts.append("\\begin{teaserfigure}\\centering\\rule{0.6\\textwidth}{2cm}"
                                             "\\caption{A teaser figure of the setting.}\\end{teaserfigure}")
                            parts += ["\\maketitle", f"\\section{{Introduction}}{sentences(rng, 1, intro)}",
                                      f"\\section{{Conclusion}}{sentences(rng, 2, 2)}", "\\end{document}"]
                            name = (f"front-{fmt}-{'nonacm' if nonacm else 'acm'}-{'ccs' if ccs else 'noccs'}-"
                                    f"{'kw' if keywords else 'nokw'}-{'teaser' if teaser else 'plain'}-{intro}")
                            yield Case(name, "\n".join(parts), "front",
                                       {"Abstract": "S0N0", "Introduction": "S1N0", "Conclusion": "S2N0"})


SHORT_CLASSES = {"acm": "\\documentclass[sigconf,nonacm]{acmart}" + "\\title{Short Case}" + AUTHOR,
                 "art2c": "\\documentclass[twocolumn]{article}\\title{Short Case}\\author{Alice Smith}",
                 "ieee": "\\documentclass[conference]{IEEEtran}\\title{Short Case}\\author{Alice Smith}"}
LINE_CHARS = 48  # about the characters of one column line in these classes (9-10 pt, 3.3-3.5 in wide)


def _lines_of_text(rng: random.Random, section: int, lines: int) -> str:
    """Sentences of section ``section`` that fill about ``lines`` column lines."""
    out: list[str] = []
    k = 0
    while sum(len(s) + 1 for s in out) < lines * LINE_CHARS - 20 or not out:
        left = lines * LINE_CHARS - sum(len(s) + 1 for s in out)
        count = max(2, min(14, (left - 20) // 7))
        out.append(f"Sentence S{section}N{k} " + " ".join(rng.choice(WORDS) for _ in range(count)) + ".")
        k += 1
    return " ".join(out)


def short_cases(rng: random.Random) -> Iterator[Case]:
    """Two-column first pages whose columns hold about ``n`` lines each (3 classes x 12 = 36): the
    abstract and section 1 in the left column, a column break, sections 2 and 3 in the right."""
    for cls, head in SHORT_CLASSES.items():
        for n in range(1, 13):
            body = (f"\\begin{{document}}" + ("" if cls == "acm" else "\\maketitle")
                    + f"\\begin{{abstract}}{_lines_of_text(rng, 0, max(1, n // 3))}\\end{{abstract}}"
                    + ("\\maketitle" if cls == "acm" else "")
                    + f"\\section{{First Part}}{_lines_of_text(rng, 1, max(1, n - n // 3 - 2))}\\newpage"
                    + f"\\section{{Second Part}}{_lines_of_text(rng, 2, max(1, n // 2))}"
                    + f"\\section{{Third Part}}{_lines_of_text(rng, 3, max(1, n - n // 2 - 2))}\\end{{document}}")
            yield Case(f"short-{cls}-{n:02d}", head + "\n" + body, "short",
                       {"Abstract": "S0N0", "First part": "S1N0", "Second part": "S2N0", "Third part": "S3N0"})


def header_cases(rng: random.Random) -> Iterator[Case]:
    """Multi-page acmart papers with running headers (2 formats x 2 x 3 lengths = 12)."""
    for fmt in ("sigconf", "acmsmall"):
        for nonacm in (True, False):
            for count in (25, 45, 70):
                source = "\n".join([
                    f"\\documentclass[{fmt}{',nonacm' if nonacm else ''}]{{acmart}}", "\\begin{document}",
                    f"\\title[{SHORT_TITLE}]{{Robust Estimation of Sparse Signals in Noisy Channels}}", AUTHOR,
                    f"\\begin{{abstract}}{sentences(rng, 0, 3)}\\end{{abstract}}", "\\maketitle",
                    f"\\section{{Introduction}}{sentences(rng, 1, count)}",
                    f"\\section{{Method}}{sentences(rng, 2, count)}",
                    f"\\section{{Conclusion}}{sentences(rng, 3, 4)}", "\\end{document}"])
                yield Case(f"headers-{fmt}-{'nonacm' if nonacm else 'acm'}-{count}", source, "headers",
                           {"Abstract": "S0N0", "Introduction": "S1N0", "Method": "S2N0", "Conclusion": "S3N0"},
                           forbidden=(SHORT_TITLE,), removed_item="running header")


def watermark_cases(rng: random.Random) -> Iterator[Case]:
    """One-column pages of 3-40 lines under a watermark (4 angles x 3 scales x 4 lengths = 48)."""
    for angle in (0, 30, 45, 90):
        for scale in (0.6, 1, 2):
            for count in (3, 10, 20, 40):
                source = "\n".join([
                    "\\documentclass{article}\\usepackage{lmodern}\\usepackage{draftwatermark}",
                    f"\\SetWatermarkText{{{WATERMARK}}}\\SetWatermarkScale{{{scale}}}\\SetWatermarkAngle{{{angle}}}",
                    "\\title{Watermark Case}\\author{Anon}\\begin{document}\\maketitle",
                    f"\\begin{{abstract}}{sentences(rng, 0, 2)}\\end{{abstract}}",
                    f"\\section{{Introduction}}{sentences(rng, 1, max(1, count * 2 // 3))}",
                    f"\\section{{Conclusion}}{sentences(rng, 2, 2)}", "\\end{document}"])
                yield Case(f"watermark-a{angle}-s{scale}-{count}", source, "watermark",
                           {"Abstract": "S0N0", "Introduction": "S1N0", "Conclusion": "S2N0"},
                           forbidden=(WATERMARK,), removed_item="watermark|hidden text")


FAMILIES: dict[str, Callable[[random.Random], Iterator[Case]]] = {
    "front": front_cases, "short": short_cases, "headers": header_cases, "watermark": watermark_cases}


def compile_case(case: Case, folder: Path) -> Path | None:
    """Compile ``case`` with pdflatex (no shell escape) in ``folder``; the PDF, or ``None``."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "p.tex").write_text(case.source, encoding="utf-8")
    subprocess.run(["pdflatex", "-no-shell-escape", "-interaction=nonstopmode", "p.tex"], cwd=folder,
                   capture_output=True, check=False, timeout=120)
    pdf = folder / "p.pdf"
    return pdf if pdf.is_file() else None


@dataclass
class Score:
    """What the reading of one case got wrong (every count 0 for a right reading)."""

    sentences: int
    missing: int  # sentence ids not in the text
    broken: int  # sentences found but not whole and contiguous
    out_of_order: int  # adjacent ids read in the wrong order
    misplaced: int  # expected headings missing, or whose first sentence is not under them
    leaked: int  # forbidden strings (headers, watermark) found in the sections
    unlisted: int  # 1 when no entry of ``removed`` under its item holds a word of the forbidden text

    @property
    def ok(self) -> bool:
        return not (self.missing or self.broken or self.out_of_order or self.misplaced or self.leaked or self.unlisted)


def score(case: Case, document: Document, printed: str) -> Score:
    """Score the reading ``document`` of ``case`` against the case's source; ``printed``: all text
    of the PDF's pages (a forbidden string the PDF does not print need not be in ``removed``: a
    two-page acmart paper prints its short title nowhere)."""
    wanted = SENTENCE.findall(case.source)
    text = re.sub(r"\s+", " ", " ".join(f"{s.title}. {s.text}" for s in document.sections))
    found = re.findall(r"\bS\d+N\d+\b", text)
    number = {k: (int(k[1:].split("N")[0]), int(k.split("N")[1])) for k in found}
    misplaced = 0
    for heading, first in case.sections.items():
        section = next((s for s in document.sections if s.title.lower() == heading.lower()), None)
        misplaced += section is None or not re.search(rf"\bSentence {first}\b", section.text)
    words = {w for w in re.findall(r"\w{4,}", case.forbidden[0].lower())} if case.forbidden else set()
    listed = not case.removed_item or case.forbidden[0].lower() not in re.sub(r"\s+", " ", printed).lower() or any(
        any(item in r.item for item in case.removed_item.split("|")) and words & set(re.findall(r"\w{4,}", r.text.lower())) for r in document.removed)
    return Score(
        sentences=len(wanted),
        missing=sum(k not in number for k, _ in wanted),
        broken=sum(k in number and f"Sentence {k} {body}." not in text for k, body in wanted),
        out_of_order=sum(number[a] > number[b] for a, b in zip(found, found[1:])),
        misplaced=misplaced,
        leaked=sum(text.lower().count(f.lower()) for f in case.forbidden),
        unlisted=int(not listed),
    )


def read_family(family: str, out: Path, *, smoke: bool = False, step: int = 1) -> dict[str, Score | None]:
    """Compile, read and score every ``step``-th case of ``family`` (the first only with ``smoke``)
    in folders under ``out``: the score of each case by name, ``None`` for a case that did not
    compile."""
    cases = list(FAMILIES[family](random.Random(7)))
    out_scores: dict[str, Score | None] = {}
    for case in cases[:1] if smoke else cases[::step]:
        pdf = compile_case(case, out / case.name)
        if pdf is None:
            out_scores[case.name] = None
            continue
        printed = "\n".join(ln.text for page in extract_pdfium(pdf) for ln in page.lines)
        out_scores[case.name] = score(case, read_document(pdf), printed)
    return out_scores
