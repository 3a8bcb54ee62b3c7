"""Fidelity harness: ingest PDFs whose ground truth is known and print how close the reading is.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/fidelity/run.py [--only NAME ...] [--json OUT] [--details]

Documents (see ``corpus.py`` and ``generated.py``): the six shared LaTeX projects compiled with
publisher classes (acmart sigconf, IEEEtran conference, llncs, article two-column, NeurIPS-like and
ICLR-like one-column), the three shared PDFs, and seven generated edge cases. Needs TeX Live
(``scripts/install-test-system-deps.sh`` installs it); compiled PDFs are cached outside git.

Per document (measures defined in ``metrics.py``): ``abs``/``intro`` present, heading recall and
precision, body word F1, reading-order errors, identity leaks, residual header/page-number lines
per 10 pages, glued words, title correct, numbers preserved, body text read as headings, footnotes
and captions read mid-sentence, identity leaks in the blinded copy of the PDF that an evaluator
reading PDF files receives (``pdf_lk``, :func:`rhetorica.documents.inputs.pdf_input`); then totals. Targets (issue 11 §2, issue 24): abstract and
introduction present, heading recall >= 0.95, F1 >= 0.97, 0 leaks, <= 1 residual per 10 pages,
title correct, numbers preserved >= 0.99, 0 body text read as headings.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus  # noqa: E402
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
    error: str = ""


def _truth_from_latex(path: Path, identity: list[str], headers: list[str], drop: tuple[str, ...] = ()) -> Truth:
    from rhetorica.documents import read_document

    doc = read_document(path)
    urls = [r.text for r in doc.removed if r.item == "identity URL"]
    sections = [(s.level, s.title, s.text) for s in doc.sections if s.title not in drop]
    return Truth(doc.title, sections, identity + urls, headers)


def cases(only: set[str] | None) -> list[tuple[str, Path, Truth]]:
    """``(name, pdf, truth)`` for every harness document (compiling what is needed)."""
    out: list[tuple[str, Path, Truth]] = []
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


def score(name: str, pdf: Path, truth: Truth) -> Row:
    """Read ``pdf`` with rhetorica's defaults and score it against ``truth``."""
    from rhetorica.documents import DocumentReadError, read_document
    from rhetorica.documents.inputs import pdf_input

    row = Row(name=name)
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
        row.f1 = metrics.f1(metrics.words(metrics.truth_prose("\n".join(x for _, _, x in truth.sections))),
                            metrics.words(metrics.pdf_prose(reading)))[2]
        paragraphs = [p for _, _, text in truth.sections for p in metrics.truth_prose(text).split("\n\n")]
        row.order = metrics.order_errors(paragraphs, reading)[0]
        vocabulary = set(metrics.words(truth_text, 1))
        truth_body = "\n\n".join(x for _, _, x in truth.sections)
        row.numbers, row.missing_numbers = metrics.numbers_preserved(truth_body, reading)
        row.mid = metrics.mid_sentence(metrics.floats(truth_body), reading)
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
    return row


def _fmt(row: Row) -> str:
    f1 = "   -" if row.f1 is None else f"{row.f1:.3f}"
    nums = "   -" if row.numbers is None else f"{row.numbers:.3f}"
    yes = {True: "yes", False: " NO"}
    return (f"{row.name:<20}{row.pages:>4} {yes[row.abstract]:>4} {yes[row.intro]:>5} {row.h_recall:>6.2f} {row.h_precision:>6.2f} "
            f"{f1:>6} {row.order:>5} {len(row.leaks):>5} {row.residual_per10:>6.1f} {len(row.glued):>6} {yes[row.title_ok]:>5} "
            f"{nums:>6} {len(row.body_headings):>6} {len(row.mid):>4} {len(row.pdf_leaks):>6}")


HEADER = (f"{'document':<20}{'pp':>4} {'abs':>4} {'intro':>5} {'h_rec':>6} {'h_prec':>6} {'F1':>6} {'order':>5} {'leaks':>5} "
          f"{'res/10':>6} {'glued':>6} {'title':>5} {'nums':>6} {'body_h':>6} {'mid':>4} {'pdf_lk':>6}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--details", action="store_true", help="print misses, leaks and glued words per document")
    parser.add_argument("--smoke", action="store_true", help="a few seconds: one shared PDF, nothing to compile")
    args = parser.parse_args()
    if args.smoke:
        args.only = [corpus.PDF_CASES[0].name]
    rows = [score(name, pdf, truth) for name, pdf, truth in cases(set(args.only) if args.only else None)]
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
    if args.details:
        for row in rows:
            print(f"\n## {row.name} ({row.seconds:.1f} s, audit {row.removed_words} words)")
            for key in ("missed", "spurious", "leaks", "pdf_leaks", "residual", "glued", "warnings", "missing_numbers",
                        "body_headings", "mid"):
                value = getattr(row, key)
                if value:
                    print(f"  {key}: {value if isinstance(value, dict) else value[:25]}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps([asdict(r) for r in rows], indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
