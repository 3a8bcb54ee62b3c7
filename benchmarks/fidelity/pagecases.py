"""Page layouts a fresh user's trial broke (issue 39), generated from LaTeX with TeX Live's classes:
the counts per family of what the reader gets wrong (the cases and their scoring:
tests/documents/page_cases.py).

Run:
    PYTHONPATH=src python benchmarks/fidelity/pagecases.py [--family NAME] [--out DIR] [-v]
    PYTHONPATH=src python benchmarks/fidelity/pagecases.py --smoke   # one PDF per family
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root, for tests.documents

from tests.documents.page_cases import FAMILIES, read_family  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", choices=sorted(FAMILIES), action="append", help="one family (repeatable)")
    parser.add_argument("--out", type=Path, help="keep the compiled cases here (default: a temporary folder)")
    parser.add_argument("--smoke", action="store_true", help="one PDF per family")
    parser.add_argument("-v", "--verbose", action="store_true", help="a line for every case, not only wrong ones")
    args = parser.parse_args()
    if shutil.which("pdflatex") is None:
        print("pdflatex not found: TeX Live is needed to compile the cases; nothing run")
        return
    with tempfile.TemporaryDirectory() as tmp:
        for family in args.family or list(FAMILIES):
            scores = read_family(family, args.out or Path(tmp), smoke=args.smoke)
            for name, result in scores.items():
                if result is None or args.verbose or not result.ok:
                    print(f"{name:40} {'did not compile' if result is None else 'ok' if result.ok else 'WRONG'} "
                          f"{result or ''}")
            read = [s for s in scores.values() if s is not None]
            print(f"{family:10} {len(read):3} PDFs, {sum(s.ok for s in read):3} right; sentences "
                  f"{sum(s.sentences for s in read)}, missing {sum(s.missing for s in read)}, broken "
                  f"{sum(s.broken for s in read)}, out of order {sum(s.out_of_order for s in read)}, headings wrong "
                  f"{sum(s.misplaced for s in read)}, leaked {sum(s.leaked for s in read)}, not listed "
                  f"{sum(s.unlisted for s in read)}")


if __name__ == "__main__":
    main()
