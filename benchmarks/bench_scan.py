"""Time the hidden-text and instruction scan on the shared real documents (issue 26 item 1).

Run: ``PYTHONPATH=src .venv/bin/python benchmarks/bench_scan.py [--repeat 3] [--smoke]``.

Prints, fastest of ``--repeat`` runs, in process CPU seconds:

1. ``papers``: each shared LaTeX paper as a study scans an original: its text as a reviewer reads it
   (the Markdown of every section) and its source project (every ``.tex``/``.sty``/``.cls``), with
   the characters scanned and the characters per CPU second;
2. ``linear``: :func:`~rhetorica.documents.scan.instructions.find_instructions` on the first 10k
   characters of a real paper's text, repeated to 10k, 100k and 1M characters, with microseconds
   per character (a linear scan keeps this flat);
3. ``cached``: the same papers scanned again through a scan cache (the store's ``scan_cache`` in a
   study): how many texts and sources were scanned again (0 expected) and the time;
4. ``pdfs`` (not with ``--smoke``): each shared PDF, character by character through pdfium.

``--smoke`` (a few seconds, run by the test suite): two papers, the linear check to 100k characters.
The full run takes about a minute on a shared two-core machine.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def _best_cpu(repeat: int, work: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best


class _CountingCache:
    """An in-memory scan cache that counts misses (scans done) and hits."""

    def __init__(self) -> None:
        self.reports: dict[str, object] = {}
        self.hits = 0
        self.misses = 0

    def get(self, key: str):  # noqa: ANN201 - ScanCache protocol
        found = self.reports.get(key)
        self.hits += found is not None
        self.misses += found is None
        return found

    def put(self, key: str, report) -> None:  # noqa: ANN001 - ScanCache protocol
        self.reports[key] = report


def _papers(names: list[str], repeat: int) -> list:
    from rhetorica.documents import read_document
    from rhetorica.documents.scan import scan_document
    from rhetorica.documents.scan.latex import LATEX_SUFFIXES

    documents = [read_document(DATA / "papers" / name) for name in names]
    scan_document(documents[0], include_source=True)  # imports and compiled patterns, not timed
    total = 0.0
    for document in documents:
        source = Path(document.source.path)
        chars = sum(len(s.text) for s in document.sections) + sum(
            len(p.read_text(errors="replace")) for p in source.rglob("*") if p.suffix.lower() in LATEX_SUFFIXES)
        cpu = _best_cpu(repeat, lambda d=document: scan_document(d, include_source=True))
        total += cpu
        print(f"papers  {document.id:28s} cpu {cpu:6.3f} s  {chars:8,d} chars  {chars / cpu:12,.0f} chars/s")
    print(f"papers  total ({len(documents)} papers){'':8s} cpu {total:6.3f} s  per paper {total / len(documents):6.3f} s")
    return documents


def _linear(sizes: list[int], repeat: int) -> None:
    from rhetorica.documents import read_document
    from rhetorica.documents.scan.instructions import find_instructions

    document = read_document(DATA / "papers" / "gcrn_iclr2017")
    block = "\n\n".join(s.text for s in document.sections)[:10_000]
    rates = []
    for size in sizes:
        text = block * (size // len(block))
        cpu = _best_cpu(repeat, lambda t=text: find_instructions(t))
        rates.append(cpu / size * 1e6)
        print(f"linear  {size:>9,d} chars  cpu {cpu:7.3f} s  {rates[-1]:6.3f} us/char")
    print(f"linear  us/char at {sizes[-1]:,d} / at {sizes[0]:,d}: {rates[-1] / rates[0]:.2f}")


def _cached(documents: list) -> None:
    from rhetorica.documents.scan import scan_document

    cache = _CountingCache()
    for document in documents:
        scan_document(document, include_source=True, cache=cache)
    first = cache.misses
    cache.hits = cache.misses = 0
    start = time.process_time()
    for document in documents:
        scan_document(document, include_source=True, cache=cache)
    cpu = time.process_time() - start
    print(f"cached  first run: {first} scans; re-run: {cache.misses} scans, {cache.hits} cache hits, cpu {cpu:.3f} s")


def _pdfs(repeat: int) -> None:
    import pypdfium2 as pdfium

    from rhetorica.documents.scan import scan_path

    for path in sorted((DATA / "pdfs").glob("*.pdf")):
        cpu = _best_cpu(repeat, lambda p=path: scan_path(p))
        pdf = pdfium.PdfDocument(str(path))
        chars = sum(pdf[i].get_textpage().count_chars() for i in range(len(pdf)))
        pages = len(pdf)
        pdf.close()
        print(f"pdfs    {path.name:28s} cpu {cpu:6.3f} s  {pages} pages  {chars:,d} chars  {chars / cpu:,.0f} chars/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement; the fastest is shown")
    parser.add_argument("--smoke", action="store_true", help="a few seconds: two papers, linear check to 100k")
    args = parser.parse_args()
    names = sorted(p.name for p in (DATA / "papers").iterdir() if p.is_dir())
    if args.smoke:
        documents = _papers(names[:2], 1)
        _linear([10_000, 100_000], 1)
        _cached(documents)
        return
    documents = _papers(names, args.repeat)
    _linear([10_000, 100_000, 1_000_000], args.repeat)
    _cached(documents)
    _pdfs(args.repeat)


if __name__ == "__main__":
    main()
