"""PDFium backend: superscripts and subscripts read from glyph sizes and baselines (issue 24 item 4).

The PDFs are written here operator by operator: a script is a run in a 7 pt font raised (``Ts 4``)
or lowered (``Ts -2``) from 10 pt text, as TeX sets ``10^6`` and ``x_1``.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from rhetorica.documents.pdf.backends import extract_pdfium
from tests.documents.pdf.content import write


def _lines(tmp_path: Path, runs: list[tuple[str, float, float, str]]) -> list[str]:
    pdf = write(tmp_path / "s.pdf", [[(72, 700, runs)]])
    return [ln.text for ln in extract_pdfium(pdf)[0].lines]


def test_exponents_keep_their_digits(tmp_path: Path) -> None:
    runs = [("F1", 10, 0, "The corpus holds n = 10"), ("F1", 7, 4, "6"), ("F1", 10, 0, " sentences and n = 4b"),
            ("F1", 7, 4, "2"), ("F1", 10, 0, " = 16,384 entries.")]
    assert _lines(tmp_path, runs) == ["The corpus holds n = 10^6 sentences and n = 4b^2 = 16,384 entries."]


def test_subscripts_negative_exponents_and_longer_scripts(tmp_path: Path) -> None:
    runs = [("F1", 10, 0, "We write x"), ("F1", 7, -2, "1"), ("F1", 10, 0, " and 3 x 10"), ("F1", 7, 4, "-4"),
            ("F1", 10, 0, " and W"), ("F1", 7, -2, "l-1"), ("F1", 10, 0, " here.")]
    assert _lines(tmp_path, runs) == ["We write x_1 and 3 x 10^-4 and W_{l-1} here."]


def test_smaller_text_on_the_baseline_and_raised_text_of_full_size_are_no_scripts(tmp_path: Path) -> None:
    runs = [("F1", 10, 0, "In SMALL"), ("F1", 7, 0, "CAPS"), ("F1", 10, 0, " and a raised "), ("F1", 10, 4, "word"),
            ("F1", 10, 0, " stay as they are.")]
    assert _lines(tmp_path, runs) == ["In SMALLCAPS and a raised word stay as they are."]


def test_a_script_of_a_script_is_nested(tmp_path: Path) -> None:
    # 5.5 · 10^{4 ± ...}: the exponent's own exponent (5 pt, raised again) sits inside its braces
    runs = [("F1", 10, 0, "about 5.5 x 10"), ("F1", 7, 4, "+7.8x10"), ("F1", 5, 7, "3"), ("F1", 10, 0, " steps")]
    assert _lines(tmp_path, runs) == ["about 5.5 x 10^{+7.8x10^3} steps"]


def test_a_math_accent_after_its_letter_is_attached_to_it() -> None:
    from rhetorica.documents.pdf.backends import _norm

    # PDFium gives TeX's \bar{x}_0 and \tilde{L} as the letter, a space and the combining mark
    assert _norm("with x \u0304_0 = x and L \u0303 = 2L") == "with x\u0304_0 = x and L\u0303 = 2L"
    # an accent set before its letter (TeX's accent primitive) still goes onto that letter
    assert _norm("Micha \u0308el") == "Micha\u00ebl"


FRACTIONS = r"""\documentclass{article}
\usepackage{amsmath}
\begin{document}
The rate is halved, so it becomes $\frac{1}{2}$ of its value after each epoch of training on the data.
A share of $\frac{3}{4}$ of the papers, and a ratio $\frac{a+b}{c}$ of scores, with $x = \tfrac{n}{k}$ words
per line, while $x_i^2$ and $10^{-4}$ keep their scripts.
\end{document}
"""


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="TeX Live is not installed")
def test_a_fraction_in_running_text_reads_as_a_slash(tmp_path: Path) -> None:
    # issue 24: TeX sets \frac's numerator raised and its denominator lowered over a bar; without
    # the bar (x_i^2: two scripts of one base) the scripts stay scripts
    (tmp_path / "f.tex").write_text(FRACTIONS)
    subprocess.run(["pdflatex", "-no-shell-escape", "-interaction=nonstopmode", "f.tex"], cwd=tmp_path,
                   capture_output=True, timeout=120, check=False)
    text = " ".join(ln.text for ln in extract_pdfium(tmp_path / "f.pdf")[0].lines)
    assert "so it becomes 1/2 of its value" in text
    assert "A share of 3/4 of the papers, and a ratio (a+b)/c" in text
    assert "x = n/k words" in text
    assert "while x^2" in text and "2/i" not in text and "10^−4 keep their scripts." in text
