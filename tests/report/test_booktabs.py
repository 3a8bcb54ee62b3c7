"""LaTeX table cells (:func:`rhetorica.report.booktabs.escape`) compile with pdfLaTeX.

The corpus: every non-ASCII character of rhetorica's own sources (the symbols its tables and notes
print: minus, dashes, ≥, Δ, α ...), the Greek alphabet, invisible format characters, accented Latin
letters and LaTeX's special characters, each in a cell of a booktabs table compiled by pdfLaTeX with
its default input encoding.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pandas as pd
import pytest

from rhetorica.report.booktabs import Column, booktabs, escape

SRC = Path(__file__).resolve().parents[2] / "src" / "rhetorica"


def test_hand_cases() -> None:
    assert escape("scale ≥ 0") == r"scale \ensuremath{\geq} 0"
    assert escape("Δ −0.3, α") == r"\ensuremath{\Delta} \ensuremath{-}0.3, \ensuremath{\alpha}"
    assert escape("Α Ω") == r"A \ensuremath{\Omega}"  # a capital alpha prints as A; LaTeX has no \Alpha
    assert escape("a\u200bb\u202ec") == "abc"
    assert escape("café 1–2 §3 50%_x") == r"café 1–2 §3 50\%\_x"  # pdfLaTeX prints – and § as written
    assert escape("Dąbrowska «Ж» [1]") == "Dabrowska ``[U+0416]'' [1]"
    assert escape("[1] first") == "{[}1] first" and escape("Ж") == "{[}U+0416]"  # no ogonek, no Cyrillic in OT1


def _corpus() -> str:
    own = {ch for path in SRC.rglob("*.py") for ch in path.read_text("utf-8") if not ch.isascii()}
    greek = {chr(c) for c in range(0x391, 0x3CA) if unicodedata.name(chr(c), "").startswith("GREEK")}
    extra = set("\u200b\u200d\u202e\u2066\ufeff") | set("\\&%$#_{}~^<>|[]") | set("Жж中文한국어")
    return "".join(sorted(own | greek | extra))


def test_the_corpus_holds_the_symbols_of_the_report() -> None:
    corpus = _corpus()
    assert all(ch in corpus for ch in "−–—…≥≤→Δ×∞↑↓θ·≈αδ§")
    assert len(corpus) >= 80


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="TeX Live is not installed")
def test_every_character_of_the_corpus_compiles(tmp_path: Path) -> None:
    printable = _corpus() + "".join(chr(c) for c in range(0xA0, 0x250))  # and every Latin letter of Unicode 1.1
    cells = [printable[i:i + 8] for i in range(0, len(printable), 8)]
    table = booktabs(pd.DataFrame({"text": cells}), [Column("Text", lambda row: escape(row["text"]), "l")],
                     caption="Corpus", label="tab:corpus")
    (tmp_path / "t.tex").write_text("\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n"
                                    + table + "\n\\end{document}\n", encoding="utf-8")
    done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "t.tex"], cwd=tmp_path,
                          capture_output=True, text=True, errors="replace", timeout=120)
    log = (tmp_path / "t.log").read_text(errors="replace")
    assert re.findall(r"Unicode character .{1,3} \(U\+[0-9A-F]+\)", log) == []
    assert done.returncode == 0, log[-2000:]
    assert len(printable) >= 80
