"""Time the LaTeX-project pipeline on every shared project: baseline compile, variant compile, checker.

Run: ``PYTHONPATH=src /work/main/.venv/bin/python benchmarks/latex_project.py [--checks 5]``
(needs TeX Live: ``scripts/install-test-system-deps.sh``). For each project under
``../shared/data/papers`` it prints one row:

- ``baseline s``: the baseline compile, substitute discovery included (one ``pdflatex -draftmode``
  pass per missing package or class, then latexmk with its reruns and BibTeX);
- ``variant s``: a wording-only variant compiled with the baseline's substitutes (one latexmk run);
- ``check ms``: the anchor checker on that variant, fastest of ``--checks`` runs;
- the number of editable paragraphs and of baseline anchors, the status and what was substituted.

Compiles are wall-clock times on whatever machine runs it (the development machine has 2 shared
cores, so expect noise of several seconds); the checker is pure Python and single-threaded.
"""

from __future__ import annotations

import argparse
import re
import tempfile
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def _wording(project: object) -> None:
    from rhetorica.documents.latex.project import apply_replacements

    edits = {}
    for p in project.paragraphs():  # type: ignore[attr-defined]
        stripped = p.text.lstrip()
        if re.match(r"[A-Z][a-z]+ ", stripped):
            edits[p] = p.text[: len(p.text) - len(stripped)] + "In short, " + stripped[0].lower() + stripped[1:]
    apply_replacements(project, edits)  # type: ignore[arg-type]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checks", type=int, default=5, help="checker runs per project (fastest is shown)")
    parser.add_argument("--smoke", action="store_true", help="a few seconds: the smallest project, checker only")
    args = parser.parse_args()
    if args.smoke:
        args.checks = 1
        print("smoke: the smallest project, no compiles (baseline and variant seconds shown as -)")
    from rhetorica.rewriting.latex_project.anchors import check_anchors
    from rhetorica.documents.latex.compile import compile_project, compile_variant, new_errors
    from rhetorica.documents.latex.project import copy_project, load_project

    header = f"{'project':24} {'paragraphs':>10} {'anchors':>8} {'baseline s':>10} {'variant s':>9} {'check ms':>8} {'new err':>7}  status / substitutes"
    print(header)
    print("-" * len(header))
    folders = sorted(p for p in (DATA / "papers").iterdir() if p.is_dir())
    if args.smoke:
        folders = [min(folders, key=lambda f: sum(p.stat().st_size for p in f.rglob("*.tex")))]
    for folder in folders:
        project = load_project(folder)
        if args.smoke:
            with tempfile.TemporaryDirectory() as tmp:
                variant = copy_project(project, Path(tmp) / "variant")
                _wording(variant)
                variant = load_project(variant.root, variant.main)
                started = time.perf_counter()
                report = check_anchors(project, variant)
                best = time.perf_counter() - started
            print(f"{folder.name:24} {len(project.paragraphs()):>10} {sum(report.baseline_counts.values()):>8} "
                  f"{'-':>10} {'-':>9} {best * 1000:>8.0f}")
            continue
        base = compile_project(project)
        with tempfile.TemporaryDirectory() as tmp:
            variant = copy_project(project, Path(tmp) / "variant")
            _wording(variant)
            variant = load_project(variant.root, variant.main)
            compiled = compile_variant(variant, base)
            best = float("inf")
            for _ in range(args.checks):
                started = time.perf_counter()
                report = check_anchors(project, variant)
                best = min(best, time.perf_counter() - started)
        substitutes = base.substitutes
        said = (f"{len(substitutes.packages)} sty, {len(substitutes.classes)} cls, {len(substitutes.bibstyles)} bst, "
                f"{len(substitutes.graphics)} figures, {len(substitutes.plot_data)} plot tables")
        print(
            f"{folder.name:24} {len(project.paragraphs()):>10} {sum(report.baseline_counts.values()):>8} "
            f"{base.seconds:>10.1f} {compiled.seconds:>9.1f} {best * 1000:>8.0f} {len(new_errors(base, compiled)):>7}  "
            f"{base.status} ({len(base.errors)} errors); {said}"
        )


if __name__ == "__main__":
    main()
