"""The evidence dimension: quantitative expressions, foregrounded positions, real paragraphs."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from rhetorica.dimensions import evidence as e
from rhetorica.validation.rhetoric import prose_text
from tests.dimensions.paragraphs import DEFS, HEAD, TAIL, paragraph, shift_measure

measure = partial(shift_measure, "evidence")


def test_quantitative_expressions_follow_the_stated_rules() -> None:
    text = r"ResNet-50 from 2016 is 3 times faster than $\sim 2\times$ in Table 2, at $k = 3$ and $20\%$."
    found = [prose_text(text)[a:b] for a, b in e.quantitative_expressions(text)]
    # 50 glued to a word, 2016 a year, Table 2 a reference, k = 3 has a letter: none count
    assert found == ["3 times", r"$\sim 2\times$", r"$20\%$"]
    assert e.quantitative_expressions("We use 8 layers. It is fast.") == []  # no unit, no cue
    assert len(e.quantitative_expressions("We use 8 layers, more than before.")) == 1  # cue "than"
    assert e.quantitative_expressions("% 99% hidden in a comment\nNothing here.") == []


def test_evidence_foregrounding_counts_first_sentences_only() -> None:
    late = ("Our model reaches 92.3% accuracy. It is simple.\n\n"
            "The model is simple. It improves accuracy by 3.2 points over the baseline in Table 2. It uses 8 layers.")
    # 24 words; quantities 92.3% (first sentence of paragraph 1) and 3.2 points (second sentence)
    assert e.evidence_counts(late) == (2, 1)
    assert e.evidence_foregrounding(late) == pytest.approx(1000 * 1 / 24)
    early = ("Our model reaches 92.3% accuracy. It is simple.\n\n"
             "It improves accuracy by 3.2 points over the baseline in Table 2. The model is simple. It uses 8 layers.")
    assert e.evidence_counts(early) == (2, 2)
    assert e.evidence_foregrounding(early) == pytest.approx(1000 * 2 / 24)


def test_abstract_and_introduction_are_foregrounded() -> None:
    text = ("\\begin{abstract}\nIt is simple. It is 2x faster.\n\\end{abstract}\n"
            "\\section{Introduction}\nWe study it. It uses 10 GB of memory.\n"
            "\\section{Method}\nWe study it. It uses 10 GB of memory.\n")
    # 2x (abstract) and the first 10 GB (introduction) are foregrounded; the second 10 GB is not
    assert e.evidence_counts(text) == (3, 2)


def test_evidence_rewrites_on_real_paragraphs(spatial: str, shared_data: Path) -> None:
    # the 8% result is in the fourth sentence: 0 foregrounded; evidence:+ opens with it
    assert e.evidence_counts(spatial) == (1, 0)
    plus = HEAD + (r"Using anisotropic spaces instead of isotropic ones is relevant, as we almost get an 8\% "
                   r"test-accuracy improvement (figure \ref{fig:sweet_spot_orientation}). ") + DEFS + TAIL
    assert measure(plus) > measure(spatial) == 0.0
    # scipy: all five percentages open the paragraph; evidence:- states the finding first
    languages = paragraph(shared_data / "papers" / "scipy-1.0" / "scipy-1.0" / "paper.tex", "According to analysis")
    assert e.evidence_counts(languages) == (5, 5)
    minus = (r"SciPy is written mainly in Python, with Fortran, C, Cython and C++ as secondary languages and a "
             r"dash of \TeX, MATLAB, shell script, and Make. According to analysis using the \texttt{linguist} "
             r"library\cite{linguistref}, it is approximately 50\% Python, 25\% Fortran, 20\% C, 3\% Cython, and "
             r"2\% C++. " + languages.split(". ", 1)[1])
    assert e.evidence_counts(minus) == (5, 0)
    assert measure(minus) < measure(languages)
