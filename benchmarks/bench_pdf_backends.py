"""Speed and quality of each PDF backend on the shared PDFs; the basis of the default choice.

Set-up: ``make install-demo && .venv/bin/pip install -e ".[bench]"`` (pdfplumber, the extra backend).
Usage: ``.venv/bin/python benchmarks/bench_pdf_backends.py [--repeat N] [--json OUT]``

Speed: pages per second of the backend's extraction alone (in process, best of N runs), and of
the whole ``read_document`` (child process + layout pass + blinding).

Quality (same layout pass for every backend, so only extraction differs):
- ``titles``: share of the reference top-level section titles found, in order (reference = the
  LaTeX reader's titles for stable-nalu and scipy-1.0; the ACL paper's printed section list);
- ``jaccard`` / ``contain``: token-set Jaccard and containment of the LaTeX prose vocabulary in the
  PDF reading (``rhetorica.documents.compare``); ACL has no LaTeX source, so ``-``;
- ``order``: for the two-column ACL paper, 1 when four known passages of pages 1-2 come in reading
  order and the known paragraph is read whole, else 0.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
ACL_TITLES = [
    "Abstract", "Introduction", "Constructing the corpus", "The S2ORC dataset", "Evaluation",
    "Pretraining BERT on S2ORC", "Applications of S2ORC", "Related work", "Conclusion",
]
ACL_PARAGRAPH = (
    "In this paper, we describe the construction of S2ORC (§2). We provide summary statistics of the corpus "
    "(§3) and evaluate the data quality (§4)."
)
ACL_ANCHORS = [
    "Different types of resources have been used to support research over academic papers.",
    "PubMed Central,3 CiteSeerX (Giles et al., 1998),4 and the ACL Anthology",
    "Yet, existing corpora are not without their limitations.",
    ACL_PARAGRAPH,
]
LATEX_OF = {"stable-nalu_iclr2020_main.pdf": "stable-nalu_iclr2020", "scipy-1.0_paper.pdf": "scipy-1.0"}


def _titles_in_order(reference: list[str], found: list[str]) -> float:
    """Share of reference titles matched (case-insensitive) as a subsequence of ``found``."""
    found_cf = [t.casefold() for t in found]
    k = 0
    hits = 0
    for title in reference:
        try:
            k = found_cf.index(title.casefold(), k) + 1
            hits += 1
        except ValueError:
            continue
    return hits / len(reference)


def _cell(row: dict, key: str, width: int) -> str:
    return f"{row[key]:>{width}.3f}" if key in row else f"{'-':>{width}}"


def main() -> None:
    from rhetorica.documents import ReadOptions, read_document
    from rhetorica.documents.compare import containment, jaccard, prose_tokens
    from rhetorica.documents.pdf.backends import BACKENDS, available_backends, backend_version

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--smoke", action="store_true", help="a few seconds: the smallest PDF, the default backend, one run")
    args = parser.parse_args()

    pdfs = sorted((DATA / "pdfs").glob("*.pdf"))
    if args.smoke:
        args.repeat, pdfs = 1, [min(pdfs, key=lambda p: p.stat().st_size)]
    latex = {name: read_document(DATA / "papers" / folder) for name, folder in LATEX_OF.items()
             if name in {p.name for p in pdfs}}
    backends = available_backends()[:1] if args.smoke else available_backends()
    rows = []
    for backend in backends:
        for pdf in pdfs:
            best = float("inf")
            for _ in range(args.repeat):
                start = time.perf_counter()
                pages = BACKENDS[backend](pdf)
                best = min(best, time.perf_counter() - start)
            start = time.perf_counter()
            doc = read_document(pdf, options=ReadOptions(pdf_backend=backend))
            total = time.perf_counter() - start
            found = [s.title for s in doc.sections if s.level == 1]
            row = {
                "backend": backend, "version": backend_version(backend), "pdf": pdf.name, "pages": len(pages),
                "extract_pages_per_s": len(pages) / best, "read_pages_per_s": len(pages) / total,
                "words": doc.word_count,
            }
            if pdf.name in latex:
                ref = latex[pdf.name]
                a, b = prose_tokens(ref.to_markdown()), prose_tokens(doc.to_markdown())
                row |= {
                    "titles": _titles_in_order([s.title for s in ref.sections if s.level == 1], found),
                    "jaccard": jaccard(a, b), "containment": containment(a, b),
                }
            else:
                text = "\n\n".join(s.text for s in doc.sections)
                positions = [text.find(anchor) for anchor in ACL_ANCHORS]
                row |= {
                    "titles": _titles_in_order(ACL_TITLES, found),
                    "order": float(-1 not in positions and positions == sorted(positions)),
                }
            rows.append(row)

    header = f"{'backend':<11}{'version':<10}{'pdf':<32}{'pages':>6}{'extract p/s':>13}{'read p/s':>10}" \
             f"{'titles':>8}{'jaccard':>9}{'contain':>9}{'order':>7}"
    print(header)
    print("-" * len(header))
    for r in rows:
        print(f"{r['backend']:<11}{r['version']:<10}{r['pdf']:<32}{r['pages']:>6}{r['extract_pages_per_s']:>13.1f}"
              f"{r['read_pages_per_s']:>10.1f}{_cell(r, 'titles', 8)}{_cell(r, 'jaccard', 9)}"
              f"{_cell(r, 'containment', 9)}{_cell(r, 'order', 7)}")
    print()
    for backend in backends:
        mine = [r for r in rows if r["backend"] == backend]
        pages = sum(r["pages"] for r in mine)
        extract = pages / sum(r["pages"] / r["extract_pages_per_s"] for r in mine)
        quality = sum(r["titles"] for r in mine) / len(mine)
        contain = [r["containment"] for r in mine if "containment" in r]
        print(f"{backend:<11} all PDFs: {extract:7.1f} pages/s extraction, mean title recall {quality:.3f}, "
              f"mean containment {sum(contain) / len(contain):.3f}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
