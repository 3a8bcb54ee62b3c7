"""Papers set without a title block (no ``\\maketitle``): title, headings and page numbers.

A fresh user's trial found that a PDF opening with "1 Introduction" lost its Introduction: the
heading was taken for the title and its first paragraph for the abstract, and the page number of
the short page was left in the text. This script generates the cases from LaTeX with the real
classes of TeX Live: 6 classes (article, article twocolumn, article a4 11 pt, llncs, IEEEtran
conference, amsart) x with and without ``\\maketitle`` x numbered and unnumbered sections x a short
(2 paragraphs a section) and a multi-page body (14) = 48 PDFs, with the same four sections and
random prose. Per PDF it prints whether the title is right (the title when ``\\maketitle`` sets it,
none otherwise), whether the headings are the four sections in order (case-folded: IEEE sets them
in small capitals), the body words missing and the page-number paragraphs left.

Run:
    PYTHONPATH=src python benchmarks/fidelity/untitled.py [--out DIR]
    PYTHONPATH=src python benchmarks/fidelity/untitled.py --smoke   # 2 PDFs
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import tempfile
from pathlib import Path

from rhetorica.documents import read_document

CLASSES = {
    "article": r"\documentclass{article}", "article-2col": r"\documentclass[twocolumn]{article}",
    "llncs": r"\documentclass{llncs}", "ieee": r"\documentclass[conference]{IEEEtran}",
    "amsart": r"\documentclass{amsart}", "article-a4": r"\documentclass[a4paper,11pt]{article}",
}
WORDS = ("model review paper score judge study reviewer rewrite claim evidence method result data confidence "
         "novelty framing baseline measure effect sample variant condition protocol").split()
HEADINGS = ["Introduction", "Related Work", "Method", "Results"]
TITLE = "Rhetoric and Review Scores of Language Models"


def case(folder: Path, cls: str, maketitle: bool, star: bool, paragraphs: int, rng: random.Random) -> dict:
    """Compile one case in ``folder`` and read it; returns its row."""
    prose = {h: [" ".join(rng.choice(WORDS) for _ in range(rng.randint(30, 70))).capitalize() + "."
                 for _ in range(paragraphs // 2 + 1)] for h in HEADINGS}
    body = "\n".join(f"\\section{'*' if star else ''}{{{h}}}\n" + "\n\n".join(prose[h]) for h in HEADINGS)
    source = (CLASSES[cls] + f"\n\\title{{{TITLE}}}\n" + ("\\author{A. Person}\n" if maketitle else "")
              + "\\begin{document}\n" + ("\\maketitle\n" if maketitle else "") + body + "\n\\end{document}\n")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "a.tex").write_text(source, encoding="utf-8")
    subprocess.run(["pdflatex", "-interaction=nonstopmode", "a.tex"], cwd=folder, capture_output=True, check=False)
    doc = read_document(folder / "a.pdf")
    found = [s.title for s in doc.sections]
    text = "\n\n".join(s.text for s in doc.sections)
    words = set(re.findall(r"[a-z]+", text.lower()))
    wanted = " ".join(p for h in HEADINGS for p in prose[h]).lower().replace(".", "").split()
    return {"title_ok": doc.title == (TITLE if maketitle else ""), "title": doc.title,
            "headings_ok": [h.lower() for h in found] == [h.lower() for h in HEADINGS], "headings": found,
            "missing": sum(w not in words for w in wanted),
            "page_numbers": sum(bool(re.fullmatch(r"\s*\d+\s*", p)) for p in text.split("\n\n"))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="keep the generated projects here (default: a temporary folder)")
    parser.add_argument("--smoke", action="store_true", help="2 PDFs")
    args = parser.parse_args()
    rng = random.Random(1)
    grid = [(c, m, s, p) for c in CLASSES for m in (False, True) for s in (False, True) for p in (2, 14)]
    if args.smoke:
        grid = [("article", False, False, 2), ("llncs", True, True, 2)]
    with tempfile.TemporaryDirectory() as tmp:
        out = args.out or Path(tmp)
        rows = []
        for cls, maketitle, star, paragraphs in grid:
            name = f"{cls}-{'mt' if maketitle else 'nomt'}-{'star' if star else 'num'}-{paragraphs}"
            row = case(out / name, cls, maketitle, star, paragraphs, rng)
            rows.append(row)
            print(f"{name:26} title {'ok' if row['title_ok'] else 'NO':2} headings {'ok' if row['headings_ok'] else 'NO':2} "
                  f"missing {row['missing']:>3} page numbers left {row['page_numbers']}  title={row['title'][:30]!r} "
                  f"headings={row['headings']}")
    print(f"{len(rows)} PDFs: title right {sum(r['title_ok'] for r in rows)}, headings right "
          f"{sum(r['headings_ok'] for r in rows)}, body words missing {sum(r['missing'] for r in rows)}, "
          f"page numbers left {sum(r['page_numbers'] for r in rows)}")


if __name__ == "__main__":
    main()
