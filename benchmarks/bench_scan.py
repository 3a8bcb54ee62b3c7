"""Time the hidden-instruction scan on the shared real documents (PDFs, LaTeX projects).

Run: ``PYTHONPATH=src .venv/bin/python benchmarks/bench_scan.py [--repeat 3]``.
Prints, per input, the fastest of ``--repeat`` runs (wall-clock and process CPU seconds), the
number of pages or files, and characters per second for PDFs. The PDF scan reads every character
through pdfium (several ctypes calls per character), so its cost grows with the text on the page.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--smoke", action="store_true", help="a few seconds: the smallest shared PDF, one run")
    args = parser.parse_args()
    import pypdfium2 as pdfium

    from rhetorica.documents.scan import scan_path

    inputs = sorted((DATA / "pdfs").glob("*.pdf")) + sorted(p for p in (DATA / "papers").iterdir() if p.is_dir())
    if args.smoke:
        args.repeat, inputs = 1, [min((DATA / "pdfs").glob("*.pdf"), key=lambda p: p.stat().st_size)]
    for path in inputs:
        best_wall, best_cpu = float("inf"), float("inf")
        for _ in range(args.repeat):
            wall, cpu = time.perf_counter(), time.process_time()
            report = scan_path(path)
            best_wall = min(best_wall, time.perf_counter() - wall)
            best_cpu = min(best_cpu, time.process_time() - cpu)
        extra = ""
        if path.suffix == ".pdf":
            pdf = pdfium.PdfDocument(str(path))
            chars = sum(pdf[i].get_textpage().count_chars() for i in range(len(pdf)))
            extra = f"{len(pdf)} pages, {chars} chars, {chars / best_wall:,.0f} chars/s"
            pdf.close()
        print(f"{path.name:40s} wall {best_wall:6.2f} s  cpu {best_cpu:6.2f} s  findings {len(report.findings):3d}  {extra}")


if __name__ == "__main__":
    main()
