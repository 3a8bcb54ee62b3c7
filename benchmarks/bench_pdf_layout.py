"""Cost of reading a PDF page as the number of glyphs grows: should be near-linear (issue 11 §7).

Usage: ``PYTHONPATH=src python benchmarks/bench_pdf_layout.py [--glyphs 10000 25000 50000 100000]``

Each PDF has one page of body text plus a "figure" of N glyphs drawn as 4-character labels
(``n123``) in dense rows that the layout pass joins into long paragraphs, the case that was
quadratic (50k glyphs took 30.7 s in the issue's trial). Printed per
size: PDFium extraction and layout pass seconds (in process, best of 2) and microseconds per glyph;
near-linear means the per-glyph cost stays flat as N grows.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root, for tests.documents

from tests.documents.pdf_factory import write_objects  # noqa: E402


def write_labels_pdf(path: Path, glyphs: int) -> Path:
    """One US-letter page: 20 body lines and ``glyphs / 4`` labels of four characters."""
    ops = [f"BT /F1 10 Tf 72 {720 - 12 * k} Td (Body line {k} of the page describes the method in words.) Tj ET"
           for k in range(20)]
    for k in range(glyphs // 4):  # rows of 40 labels, 3 pt apart: they read as one long paragraph
        ops.append(f"BT /F1 2.5 Tf {72 + (k % 40) * 11.5} {460 - 3 * ((k // 40) % 120)} Td (n{k % 1000:03d}) Tj ET")
    stream = "\n".join(ops).encode("latin-1")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    return write_objects(path, objects)


def main() -> None:
    from rhetorica.documents.pdf.backends import extract_pdfium
    from rhetorica.documents.pdf.layout import analyse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--glyphs", type=int, nargs="*", default=[10_000, 25_000, 50_000, 100_000])
    parser.add_argument("--smoke", action="store_true", help="a few seconds: 1,000 and 2,000 glyphs")
    args = parser.parse_args()
    if args.smoke:
        args.glyphs = [1_000, 2_000]
    print(f"{'glyphs':>8} {'extract s':>10} {'layout s':>9} {'extract us/glyph':>17} {'layout us/glyph':>16}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.glyphs:
            pdf = write_labels_pdf(Path(tmp) / f"labels-{n}.pdf", n)
            best_e = best_l = float("inf")
            for _ in range(2):
                start = time.perf_counter()
                pages = extract_pdfium(pdf)
                mid = time.perf_counter()
                analyse(pages)
                end = time.perf_counter()
                best_e, best_l = min(best_e, mid - start), min(best_l, end - mid)
            print(f"{n:>8} {best_e:>10.2f} {best_l:>9.2f} {1e6 * best_e / n:>17.1f} {1e6 * best_l / n:>16.1f}")


if __name__ == "__main__":
    main()
