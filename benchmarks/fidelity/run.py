"""Fidelity harness: ingest PDFs whose ground truth is known and print how close the reading is.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/fidelity/run.py [--set all|earlier|layouts] [--only NAME ...]
        [--json OUT] [--details] [--smoke]

Documents: ``earlier`` (``corpus.py`` and ``generated.py``): the six shared LaTeX projects compiled
with publisher classes (acmart sigconf, IEEEtran conference, llncs, article two-column, NeurIPS-like
and ICLR-like one-column), the three shared PDFs, and seven generated edge cases; ``layouts``
(``layouts.py``, issue 39): 48 generated papers, 6 in each of 8 classes, that put figures with
vector text, tables with row groups, numbered code listings, algorithms, wrapped headings,
mid-sentence footnotes, equations, theorems and watermarks on the page. Needs TeX Live
(``scripts/install-test-system-deps.sh`` installs it); compiled PDFs are cached outside git, layout
documents compiled two at a time.

Per document (measures defined in ``metrics.py``): ``abs``/``intro`` present, heading recall and
precision, body word F1, reading-order errors, identity leaks, residual header/page-number lines
per 10 pages, glued words, title correct, numbers preserved, body text read as headings, footnotes
and captions read mid-sentence, identity leaks in the blinded copy of the PDF that an evaluator
reading PDF files receives (``pdf_lk``, :func:`rhetorica.documents.inputs.pdf_input`); issue 39's
element text outside element blocks (``el_txt``), tables and code kept as blocks (``kept``),
headings not at their source level (``lvl``), words split in two (``split``), sentences split by
a footnote (``fn_sp``) and watermark text left (``wm``); then totals, a summary per document class
and the documents that miss most targets. Targets (issue 11 §2, issues 24 and 39): abstract and
introduction present, heading recall >= 0.95, F1 >= 0.97, 0 leaks, <= 1 residual per 10 pages,
title correct, numbers preserved >= 0.99, 0 body text read as headings, 0 element text outside
its blocks, 0 level mismatches, 0 split words, 0 footnote splits, 0 watermark text.
``--smoke``: one shared PDF (nothing to compile) and, where TeX Live is installed, two layout
documents.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus  # noqa: E402
import layouts  # noqa: E402
import metrics  # noqa: E402
from generated import AUTHOR, GENERATED, HEADERS  # noqa: E402


# keywords lines kept with an abstract (rhetorica.documents.pdf.layout.KEYWORDS), written here so
# that the harness also scores code from before that rule
KEYWORDS = re.compile(r"^(CCS Concepts|Additional Key Words and Phrases|Key\s?words|Index Terms)\b", re.I)


@dataclass
class Truth:
    """What the reading should give: title, sections (level, title, text), identity, headers."""

    title: str
    sections: list[tuple[int, str, str]] | None
    identity: list[str]
    headers: list[str]
    facts: dict = field(default_factory=dict)
    elements: list[layouts.Element] | None = None  # layout corpus: figure/table/code/algorithm texts
    group: str = "earlier"  # the layout corpus's document class, else "earlier"
    watermark: str | None = None


@dataclass
class Row:
    name: str
    pages: int = 0
    abstract: bool = False
    intro: bool = False
    h_recall: float = 0.0
    h_precision: float = 0.0
    f1: float | None = None
    order: int = 0
    leaks: list[str] = field(default_factory=list)
    pdf_leaks: list[str] = field(default_factory=list)
    residual_per10: float = 0.0
    residual: dict[str, int] = field(default_factory=dict)
    glued: list[str] = field(default_factory=list)
    title_ok: bool = False
    numbers: float | None = None
    missing_numbers: list[str] = field(default_factory=list)
    body_headings: list[str] = field(default_factory=list)
    mid: list[str] = field(default_factory=list)
    seconds: float = 0.0
    removed_words: int = 0
    warnings: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)
    spurious: list[str] = field(default_factory=list)
    group: str = "earlier"
    element_text: list[str] | None = None
    kept: float | None = None
    not_kept: list[str] = field(default_factory=list)
    levels: list[str] | None = None
    split: list[str] | None = None
    note_splits: list[str] | None = None
    watermark: int | None = None
    error: str = ""

    def failed(self) -> list[str]:
        """The issue 11/24/39 targets this row misses (empty when it meets them all)."""
        checks = {
            "abstract": self.abstract, "introduction": self.intro, "title": self.title_ok, "leaks": not self.leaks,
            "F1 >= 0.97": self.f1 is None or self.f1 >= 0.97,
            "numbers >= 0.99": self.numbers is None or self.numbers >= 0.99,
            "element text 0": not self.element_text, "tables/code kept 1.0": self.kept is None or self.kept >= 1.0,
            "levels 0": not self.levels, "split words 0": not self.split, "footnote splits 0": not self.note_splits,
            "watermark 0": not self.watermark,
        }
        return [name for name, ok in checks.items() if not ok] if not self.error else ["error"]


def _truth_from_latex(path: Path, identity: list[str], headers: list[str], drop: tuple[str, ...] = ()) -> Truth:
    from rhetorica.documents import read_document

    doc = read_document(path)
    urls = [r.text for r in doc.removed if r.item == "identity URL"]
    sections = [(s.level, s.title, s.text) for s in doc.sections if s.title not in drop]
    return Truth(doc.title, sections, identity + urls, headers)


SETS = ("all", "earlier", "layouts")


def cases(only: set[str] | None, which: str = "all", smoke: bool = False) -> list[tuple[str, Path | Exception, Truth]]:
    """``(name, pdf or the compile error, truth)`` for the harness documents of set ``which``
    (``earlier``: the issue 11/24 documents; ``layouts``: the layout corpus of issue 39), compiling
    what is needed (layout documents two at a time)."""
    out: list[tuple[str, Path | Exception, Truth]] = []
    if which in {"all", "earlier"}:
        out += _earlier_cases(only)
    if which in {"all", "layouts"}:
        docs = [d for d in layouts.documents(smoke) if not only or d.name in only or d.klass in only]
        out += layout_cases(docs)
    return out


def layout_cases(docs: list[layouts.LayoutDoc]) -> list[tuple[str, Path | Exception, Truth]]:
    """Compile ``docs`` (at most two at a time: the machine's two cores are shared) with their truth."""
    from concurrent.futures import ThreadPoolExecutor

    def build(doc: layouts.LayoutDoc) -> Path | Exception:
        try:
            return corpus.compile_source(doc.name, doc.source)
        except RuntimeError as exc:  # a failure is a row of the table, not the end of the run
            return exc

    with ThreadPoolExecutor(max_workers=2) as pool:
        pdfs = list(pool.map(build, docs))
    return [(d.name, pdf, Truth(d.title, d.sections, d.identity, d.headers, elements=d.elements, group=d.klass,
                                watermark=layouts.WATERMARK_TEXT[d.watermark])) for d, pdf in zip(docs, pdfs)]


def _earlier_cases(only: set[str] | None) -> list[tuple[str, Path | Exception, Truth]]:
    """The issue 11/24 documents: publisher-class projects, generated edge cases, shared PDFs."""
    out: list[tuple[str, Path | Exception, Truth]] = []
    for case in corpus.CASES:
        if only and case.name not in only:
            continue
        identity = [x for a in case.authors for x in (a.name, a.email, a.affiliation)]
        url = re.search(r"https?://\S+", case.footnote)
        identity += [case.footnote[: url.start()].strip() if url else case.footnote]
        identity += [url.group(0)] if url else []
        truth = _truth_from_latex(case.source, identity, [case.header], case.truth_drop)
        out.append((case.name, corpus.compile_case(case), truth))
    for name, make in GENERATED.items():
        if only and name not in only:
            continue
        pdf = corpus.compile_source(name, make())
        tex = corpus.cache_dir() / f"build-{name}" / f"{name}.tex"
        person, aff, email, note = AUTHOR
        identity = [person, aff, email, note.split(" Code:")[0], note.split("Code: ")[1]]
        out.append((name, pdf, _truth_from_latex(tex, identity, HEADERS.get(name, []))))
    for pcase in corpus.PDF_CASES:
        if only and pcase.name not in only:
            continue
        if pcase.latex is not None:
            truth = _truth_from_latex(pcase.latex, list(pcase.identity), list(pcase.headers), pcase.truth_drop)
            truth.facts = dict(pcase.facts)
        else:
            truth = Truth(pcase.facts["title"], None, list(pcase.identity), list(pcase.headers), facts=pcase.facts)
        out.append((pcase.name, pcase.pdf, truth))
    return out


def _section(sections: list[tuple[int, str, str]], title: str) -> str | None:
    return next((text for _, t, text in sections if metrics.title_key(t) == title), None)


def score(name: str, pdf: Path | Exception, truth: Truth) -> Row:
    """Read ``pdf`` with rhetorica's defaults and score it against ``truth`` (a compile error
    becomes the row's error)."""
    from rhetorica.documents import DocumentReadError, read_document
    from rhetorica.documents.inputs import pdf_input

    row = Row(name=name, group=truth.group)
    if isinstance(pdf, Exception):
        row.error = str(pdf).splitlines()[0]
        return row
    start = time.perf_counter()
    try:
        doc = read_document(pdf)
    except DocumentReadError as exc:
        row.error = str(exc)
        return row
    row.seconds = time.perf_counter() - start
    pages = int(doc.metadata.get("pages", 0))
    row.pages = pages
    row.warnings = list(doc.warnings)
    row.removed_words = sum(len(r.text.split()) for r in doc.removed if r.item not in {"page number"})
    found = [(s.level, s.title, s.text) for s in doc.sections]
    reading = "\n\n".join(text for _, _, text in found)
    everything = doc.to_markdown()
    row.title_ok = metrics.title_key(doc.title) == metrics.title_key(truth.title)
    truth_text = None
    facts = truth.facts
    if facts:  # hand-checked facts of the printed PDF
        truth_heads = [(1, t) for t in facts["headings"]]
        abstract, intro = _section(found, "abstract"), _section(found, "introduction")
        row.abstract = abstract is not None and metrics._phrase(facts["abstract_start"]) in metrics._phrase(abstract)
        row.intro = intro is not None and metrics._phrase(facts["intro_start"]) in metrics._phrase(intro)
        vocabulary = None
    if truth.sections is not None:
        truth_text = "\n\n".join(f"{t}\n\n{text}" for _, t, text in truth.sections)
        abstract, intro = _section(truth.sections, "abstract"), _section(truth.sections, "introduction")
        for attr, ref, key in (("abstract", abstract, "abstract"), ("intro", intro, "introduction")):
            got = _section(found, key)
            if got is not None and key == "abstract":  # keywords and CCS concepts kept with it are no abstract
                got = "\n\n".join(p for p in got.split("\n\n") if not KEYWORDS.match(p))
            ok = got is not None and ref is not None and metrics.f1(
                metrics.words(metrics.truth_prose(ref)), metrics.words(metrics.pdf_prose(got)))[2] >= 0.9
            if not facts:
                setattr(row, attr, ok)
        if not facts:
            truth_heads = [(level, t) for level, t, _ in truth.sections if t]
        # the layout corpus's truth holds no element text, so its F1 compares running text (with
        # captions and footnotes) on both sides: the reading's element blocks are left out
        prose = reading if truth.elements is None else "\n\n".join(
            b for _, text in found_blocks(found) for kind, b in metrics.blocks(text) if kind not in metrics.ELEMENT_BLOCKS)
        row.f1 = metrics.f1(metrics.words(metrics.truth_prose("\n".join(x for _, _, x in truth.sections))),
                            metrics.words(metrics.pdf_prose(prose)))[2]
        paragraphs = [p for _, _, text in truth.sections for p in metrics.truth_prose(text).split("\n\n")]
        row.order = metrics.order_errors(paragraphs, reading)[0]
        vocabulary = set(metrics.words(truth_text, 1))
        truth_body = "\n\n".join(x for _, _, x in truth.sections)
        row.numbers, row.missing_numbers = metrics.numbers_preserved(truth_body, reading)
        row.mid = metrics.mid_sentence(metrics.floats(truth_body), reading)
        row.levels = metrics.heading_level_mismatches([(level, t) for level, t, _ in truth.sections if t],
                                                      [(level, t) for level, t, _ in found if t])
        items = [i for e in truth.elements or [] for i in e.items]
        truth_all = "\n\n".join([*(t for _, t, _ in truth.sections), truth_body, *items])
        row.split = metrics.split_words(truth_all, "\n\n".join([*(t for _, t, _ in found), reading]))
        row.note_splits = metrics.footnote_splits(truth_body, reading)
        if truth.elements is not None:
            pairs = found_blocks(found)
            row.element_text = metrics.element_text_outside(
                [(e.kind, list(e.items)) for e in truth.elements], [x for _, t, text in truth.sections for x in (t, text)], pairs)
            row.kept, row.not_kept = metrics.kept_as_blocks(
                [(e.kind, f"{e.kind}: {e.caption}", list(e.items)) for e in truth.elements if e.kind in metrics.ELEMENT_BLOCKS],
                pairs)
    row.body_headings = metrics.body_as_heading(
        truth_heads, [(level, t) for level, t, _ in found if t],
        None if facts else "\n\n".join(x for _, _, x in truth.sections or []))
    row.h_recall, row.h_precision, row.missed, row.spurious = metrics.heading_scores(
        truth_heads, [(level, t) for level, t, _ in found if t])
    row.leaks = metrics.leaks(truth.identity, everything, truth_text)
    # the blinded copy an evaluator that reads PDF files receives (its text layer, as PDFium reads it)
    sent = pdf_input(doc, pdf, corpus.cache_dir() / "blinded")
    row.pdf_leaks = metrics.leaks(truth.identity, sent.sent.text, truth_text)
    row.residual = metrics.residual_lines(truth.headers, metrics.page_number_lines(pdf), reading, truth_text)
    row.residual_per10 = 10 * sum(row.residual.values()) / max(pages, 1)
    row.glued = metrics.glued(reading, vocabulary)
    if truth.watermark is not None:
        row.watermark = metrics.watermark_left(truth.watermark, everything, truth_text or "")
    return row


def found_blocks(found: list[tuple[int, str, str]]) -> list[tuple[str, str]]:
    """``(heading, section text)`` of a reading's sections."""
    return [(t, text) for _, t, text in found]


def _n(values: list | None) -> str:
    return "-" if values is None else str(len(values))


def _fmt(row: Row) -> str:
    f1 = "   -" if row.f1 is None else f"{row.f1:.3f}"
    nums = "   -" if row.numbers is None else f"{row.numbers:.3f}"
    kept = "-" if row.kept is None else f"{row.kept:.2f}"
    yes = {True: "yes", False: " NO"}
    return (f"{row.name:<20}{row.pages:>4} {yes[row.abstract]:>4} {yes[row.intro]:>5} {row.h_recall:>6.2f} {row.h_precision:>6.2f} "
            f"{f1:>6} {row.order:>5} {len(row.leaks):>5} {row.residual_per10:>6.1f} {len(row.glued):>6} {yes[row.title_ok]:>5} "
            f"{nums:>6} {len(row.body_headings):>6} {len(row.mid):>4} {len(row.pdf_leaks):>6} "
            f"{_n(row.element_text):>6} {kept:>5} {_n(row.levels):>4} {_n(row.split):>5} {_n(row.note_splits):>5} "
            f"{'-' if row.watermark is None else row.watermark:>3} {yes[not row.failed()]:>4}")


HEADER = (f"{'document':<20}{'pp':>4} {'abs':>4} {'intro':>5} {'h_rec':>6} {'h_prec':>6} {'F1':>6} {'order':>5} {'leaks':>5} "
          f"{'res/10':>6} {'glued':>6} {'title':>5} {'nums':>6} {'body_h':>6} {'mid':>4} {'pdf_lk':>6} "
          f"{'el_txt':>6} {'kept':>5} {'lvl':>4} {'split':>5} {'fn_sp':>5} {'wm':>3} {'ok':>4}")
LEGEND = (
    "columns (metrics.py): abs/intro/title found; h_rec/h_prec heading recall/precision; F1 body words; order errors; "
    "leaks identity strings; res/10 residual header/page-number lines per 10 pages; glued words; nums share of "
    "numbers kept; body_h body text read as headings; mid footnotes/captions inside a sentence; pdf_lk leaks in the "
    "blinded PDF; el_txt figure/table/code/algorithm items outside element blocks; kept share of table cells and "
    "code lines in one block of their kind (Markdown table, fenced code); lvl headings not at their source level; split words cut in two; fn_sp "
    "sentences cut by a footnote; wm watermark text left; ok every target met (- = not measured for this document)"
)


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


def summary(rows: list[Row]) -> list[str]:
    """One line per document class (``group``): documents, pages, passes and sums of the measures."""
    head = (f"{'class':<14}{'docs':>5}{'pp':>5}{'abs':>5}{'intro':>6}{'title':>6}{'F1':>7}{'F1min':>7}{'nums':>7}"
            f"{'leaks':>6}{'el_txt':>7}{'kept':>6}{'lvl':>5}{'split':>6}{'fn_sp':>6}{'wm':>4}{'ok':>5}")
    lines = [head, "-" * len(head)]
    groups = list(dict.fromkeys(r.group for r in rows))
    for group in groups + ["ALL"]:
        rs = [r for r in rows if (group == "ALL" or r.group == group)]
        ok = [r for r in rs if not r.error]
        f1s = [r.f1 for r in ok if r.f1 is not None]
        nums = [r.numbers for r in ok if r.numbers is not None]
        kept = [r.kept for r in ok if r.kept is not None]

        def total(attr: str) -> str:
            values = [getattr(r, attr) for r in ok if getattr(r, attr) is not None]
            return str(sum(len(v) if isinstance(v, list) else v for v in values)) if values else "-"

        lines.append(
            f"{group:<14}{len(rs):>5}{sum(r.pages for r in ok):>5}{sum(r.abstract for r in ok):>5}{sum(r.intro for r in ok):>6}"
            f"{sum(r.title_ok for r in ok):>6}{_mean(f1s):>7.3f}{min(f1s, default=float('nan')):>7.3f}{_mean(nums):>7.3f}"
            f"{sum(len(r.leaks) for r in ok):>6}{total('element_text'):>7}{(f'{_mean(kept):.2f}' if kept else '-'):>6}"
            f"{total('levels'):>5}{total('split'):>6}{total('note_splits'):>6}{total('watermark'):>4}"
            f"{sum(not r.failed() for r in rs):>5}")
    lines.append("(abs/intro/title/ok = documents passing; F1/nums/kept = means, F1min the lowest; the rest are sums)")
    kinds = Counter(item.split(":")[0] for r in rows for item in r.element_text or [])
    if kinds:
        lines.append("el_txt by element: " + ", ".join(f"{k} {kinds[k]}" for k in layouts.ELEMENT_KINDS))
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=None,
                        help="document names, or layout classes (acm-sigconf, els-5p, ...) for all their documents")
    parser.add_argument("--set", choices=SETS, default="all", dest="which",
                        help="earlier: the issue 11/24 documents; layouts: the layout corpus of issue 39")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--details", action="store_true", help="print misses, leaks and glued words per document")
    parser.add_argument("--smoke", action="store_true",
                        help="a few seconds: one shared PDF and, with TeX Live, two layout documents")
    args = parser.parse_args()
    if args.smoke:
        found = _earlier_cases({corpus.PDF_CASES[0].name})
        if shutil.which("latexmk"):
            found += layout_cases(layouts.documents(smoke=True))
    else:
        found = cases(set(args.only) if args.only else None, args.which)
    rows = [score(name, pdf, truth) for name, pdf, truth in found]
    print(HEADER)
    print("-" * len(HEADER))
    for row in rows:
        print(_fmt(row) if not row.error else f"{row.name:<20} ERROR {row.error}")
    ok = [r for r in rows if not r.error]
    f1s = [r.f1 for r in ok if r.f1 is not None]
    nums = [r.numbers for r in ok if r.numbers is not None]
    print("-" * len(HEADER))
    print(f"{'TOTAL (' + str(len(ok)) + ' docs)':<20}{sum(r.pages for r in ok):>4} {sum(r.abstract for r in ok):>4} {sum(r.intro for r in ok):>5} "
          f"{sum(r.h_recall for r in ok) / max(len(ok), 1):>6.2f} {sum(r.h_precision for r in ok) / max(len(ok), 1):>6.2f} "
          f"{(sum(f1s) / len(f1s) if f1s else 0):>6.3f} {sum(r.order for r in ok):>5} {sum(len(r.leaks) for r in ok):>5} "
          f"{10 * sum(r.residual_per10 * r.pages / 10 for r in ok) / max(sum(r.pages for r in ok), 1):>6.1f} "
          f"{sum(len(r.glued) for r in ok):>6} {sum(r.title_ok for r in ok):>5} "
          f"{(sum(nums) / len(nums) if nums else 0):>6.3f} {sum(len(r.body_headings) for r in ok):>6} {sum(len(r.mid) for r in ok):>4} "
          f"{sum(len(r.pdf_leaks) for r in ok):>6}")
    print("(abs/intro/title totals = documents passing; h_rec/h_prec/F1/nums = means; order/leaks/glued/body_h/mid/pdf_lk = sums; "
          "res/10 over all pages)")
    print(LEGEND)
    print()
    print("\n".join(summary(rows)))
    worst = sorted((r for r in rows if r.failed()), key=lambda r: (-len(r.failed()), r.f1 or 0))
    if worst:
        print("\nworst documents (targets missed):")
        for r in worst[:12]:
            print(f"  {r.name:<20} {', '.join(r.failed())}")
    if args.details:
        for row in rows:
            print(f"\n## {row.name} ({row.seconds:.1f} s, audit {row.removed_words} words)")
            for key in ("missed", "spurious", "leaks", "pdf_leaks", "residual", "glued", "warnings", "missing_numbers",
                        "body_headings", "mid", "element_text", "not_kept", "levels", "split", "note_splits"):
                value = getattr(row, key)
                if value:
                    print(f"  {key}: {value if isinstance(value, dict) else value[:25]}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps([asdict(r) for r in rows], indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
