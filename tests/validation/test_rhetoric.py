"""Six-dimension shift measures: hand-counted values on short texts, direction on real paragraphs.

Real paragraphs come from ../shared/data (read in place): the "Spatial anisotropy" paragraph of
cheblienet_neurips2021/neurips_2021.tex for every dimension, and the programming-languages
paragraph of scipy-1.0 for ``evidence:-`` and the contributions paragraph of ChebLieNet for
``contribution`` (the "Spatial anisotropy" paragraph has neither a foregrounded number nor a
contribution signpost, so those measures sit at their floor of 0 there and cannot fall).
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from rhetorica.validation import rhetoric as r
from rhetorica.validation.metadiscourse import load_metadiscourse_lexicon
from rhetorica.validation.shift import SHIFT_MEASURES
from rhetorica.validation.validate import measure_text


# ---------------------------------------------------------------- hand-counted short texts


def test_novelty_stance_counts_novelty_plus_boosters_minus_hedges() -> None:
    text = "We propose a novel method. It clearly outperforms the baseline. This may help."
    # 13 words; novelty: novel, outperforms (2); boosters: clearly (1); hedges: may (1)
    assert r.novelty_markers(text) == 2
    assert r.novelty_stance(text) == pytest.approx(1000 * (2 + 1 - 1) / 13)
    assert r.novelty_stance("$x$") is None


def test_scope_generality_counts_general_minus_limiting() -> None:
    text = "The method generalizes to any graph and every task. It was tested in our experiments."
    # 15 words; general: generalizes, any, every; limiting: "in our experiments" (one phrase)
    assert r.scope_counts(text) == (3, 1)
    assert r.scope_generality(text) == pytest.approx(1000 * 2 / 15)


def test_quantitative_expressions_follow_the_stated_rules() -> None:
    text = r"ResNet-50 from 2016 is 3 times faster than $\sim 2\times$ in Table 2, at $k = 3$ and $20\%$."
    found = [r.prose_text(text)[a:b] for a, b in r.quantitative_expressions(text)]
    # 50 glued to a word, 2016 a year, Table 2 a reference, k = 3 has a letter: none count
    assert found == ["3 times", r"$\sim 2\times$", r"$20\%$"]
    assert r.quantitative_expressions("We use 8 layers. It is fast.") == []  # no unit, no cue
    assert len(r.quantitative_expressions("We use 8 layers, more than before.")) == 1  # cue "than"
    assert r.quantitative_expressions("% 99% hidden in a comment\nNothing here.") == []


def test_evidence_foregrounding_counts_first_sentences_only() -> None:
    late = ("Our model reaches 92.3% accuracy. It is simple.\n\n"
            "The model is simple. It improves accuracy by 3.2 points over the baseline in Table 2. It uses 8 layers.")
    # 24 words; quantities 92.3% (first sentence of paragraph 1) and 3.2 points (second sentence)
    assert r.evidence_counts(late) == (2, 1)
    assert r.evidence_foregrounding(late) == pytest.approx(1000 * 1 / 24)
    early = ("Our model reaches 92.3% accuracy. It is simple.\n\n"
             "It improves accuracy by 3.2 points over the baseline in Table 2. The model is simple. It uses 8 layers.")
    assert r.evidence_counts(early) == (2, 2)
    assert r.evidence_foregrounding(early) == pytest.approx(1000 * 2 / 24)


def test_abstract_and_introduction_are_foregrounded() -> None:
    text = ("\\begin{abstract}\nIt is simple. It is 2x faster.\n\\end{abstract}\n"
            "\\section{Introduction}\nWe study it. It uses 10 GB of memory.\n"
            "\\section{Method}\nWe study it. It uses 10 GB of memory.\n")
    # 2x (abstract) and the first 10 GB (introduction) are foregrounded; the second 10 GB is not
    assert r.evidence_counts(text) == (3, 2)


def test_contribution_signposts_and_enumerated_items() -> None:
    text = ("In this paper, we propose a model. Our contributions are: (i) a loss; (ii) a proof with $f(x)$.\n\n"
            "First, the data are described.")
    # 22 words; signposts "in this paper we", "our contributions"; items (i), (ii); (x) is math;
    # "First" sits in a paragraph without a signpost
    assert r.contribution_counts(text) == (2, 2)
    assert r.contribution_signposting(text) == pytest.approx(1000 * 4 / 22)
    listed = ("Our main contributions are as follows.\n\n"
              "\\begin{itemize}\n\\item A loss.\n\\item A proof.\n\\end{itemize}\n\nWe then test it.")
    assert r.contribution_counts(listed) == (1, 2)


def test_register_counts_rare_words_formal_markers_and_math() -> None:
    text = "Let $x$ denote the input. We use it."
    # 7 words; outside the top-2000 list: denote, input; formal and frequent: let; one math region
    assert r.register_counts(text) == (2, 1, 1)
    assert r.register_technicality(text) == pytest.approx(1000 * 4 / 7)


def test_complexity_index_is_the_geometric_mean_of_sentence_length_and_ag() -> None:
    text = "The zygote grew. The quixotic zygote grew fast."
    # 8 words, 2 sentences: MLS 4; advanced types zygote, grew, quixotic: AG = 3 / sqrt(8)
    assert r.mean_sentence_length(text) == 4.0
    assert r.complexity_index(text) == pytest.approx(math.sqrt(4 * 3 / math.sqrt(8)))
    assert SHIFT_MEASURES["complexity"][1](measure_text(text)) == pytest.approx(math.sqrt(4 * 3 / math.sqrt(8)))


def test_comments_and_headings_never_count_even_from_tokens() -> None:
    from rhetorica.validation.tokenizer import tokenize

    text = "\\section{A novel view}\nWe study it. % a novel, unprecedented idea\nIt works.\n"
    # prose left: "We study it. It works." (5 words), no novelty marker, no hedge or booster
    assert r.novelty_stance(text) == 0.0
    assert r.novelty_stance(tokenize(text)) == 0.0  # Tokens of the raw text are re-tokenized
    assert r.measure_rhetoric(tokenize(text)).novelty_stance == 0.0
    assert r.novelty_stance(tokenize("We study a novel idea.")) == pytest.approx(1000 / 5)


# ---------------------------------------------------------------- lexicons


@pytest.mark.parametrize("name", r.LEXICONS)
def test_every_lexicon_loads_with_a_version_and_a_readme(name: str) -> None:
    from importlib import resources

    lexicon = r.load_lexicon(name)
    assert lexicon.version == "2026.12-1" and lexicon.items
    assert resources.files("rhetorica").joinpath("data", name, "README.md").is_file()


def test_novelty_markers_never_count_twice_with_hedges_or_boosters() -> None:
    hyland = load_metadiscourse_lexicon()
    assert not set(r.load_lexicon("novelty").items) & (hyland.hedges | hyland.boosters)


def test_malformed_lexicon_rows_are_errors_naming_the_line() -> None:
    with pytest.raises(ValueError, match="novelty/lexicon.tsv:3: item 'Novel'"):
        r.parse_phrase_lexicon("# x version 1\nitem\tcategory\tsource\nNovel\tnovelty\tx\n", "novelty")
    with pytest.raises(ValueError, match="first line"):
        r.parse_phrase_lexicon("novel\tnovelty\n", "novelty")
    with pytest.raises(ValueError, match="unknown lexicon"):
        r.load_lexicon("tone")


# ---------------------------------------------------------------- real paragraphs


def _paragraph(path: Path, opening: str) -> str:
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        if block.strip().startswith(opening):
            return block.strip()
    raise AssertionError(f"{path}: no paragraph opens with {opening!r}")


@pytest.fixture(scope="module")
def spatial(shared_data: Path) -> str:
    return _paragraph(shared_data / "papers" / "cheblienet_neurips2021" / "neurips_2021.tex",
                      r"\paragraph{Spatial anisotropy.}")


HEAD = r"\paragraph{Spatial anisotropy.} "
DEFS = (r"The spatial anisotropy $\epsilon$ regulates the anisotropy of the space on the spatial domain. "
        r"For $\epsilon = 1$, the Riemannian metric is spatially isotropic; all directions are treated equally "
        r"and the resulting model would effectively be a WideResNet with isotropic Chebyshev convolutions. "
        r"At the limit $\epsilon \to 0$, the main direction has a minimal cost, and the resulting space is "
        r"highly spatially anisotropic. ")
RESULT = (r"In figure \ref{fig:sweet_spot_orientation} we observe that using anisotropic spaces instead of "
          r"isotropic ones is relevant, as we almost get an 8\% test-accuracy improvement. ")
TAIL = (r"Unlike the orientation anisotropic parameter, in our opinion, this parameter is task/data-dependent; "
        r"different datasets could benefit in different degrees from the utilization of directional "
        r"information through different spatial anisotropy settings.")

REWRITES: dict[str, tuple[str, str]] = {
    "novelty": (
        HEAD + DEFS + r"In figure \ref{fig:sweet_spot_orientation} we demonstrate that using anisotropic spaces "
        r"instead of isotropic ones is clearly beneficial, as we almost get an 8\% test-accuracy improvement. "
        r"Unlike the orientation anisotropic parameter, this parameter is task/data-dependent; different "
        r"datasets benefit in different degrees from this novel use of directional information through "
        r"different spatial anisotropy settings.",
        HEAD + DEFS + r"In figure \ref{fig:sweet_spot_orientation} the results suggest that using anisotropic "
        r"spaces instead of isotropic ones may be relevant, as we almost get an 8\% test-accuracy improvement. "
        + TAIL),
    "scope": (
        HEAD + DEFS + r"In figure \ref{fig:sweet_spot_orientation} we observe that anisotropic spaces are "
        r"generally preferable to isotropic ones, as we almost get an 8\% test-accuracy improvement. " + TAIL,
        HEAD + DEFS + r"In figure \ref{fig:sweet_spot_orientation} we observe that, on this task, using "
        r"anisotropic spaces instead of isotropic ones is relevant, as we almost get an 8\% test-accuracy "
        r"improvement in our experiments. " + TAIL),
    "register": (
        HEAD + r"Formally, let the spatial anisotropy $\epsilon$ denote the parameter that regulates the "
        r"anisotropy of the space on the spatial domain. " + DEFS.split(". ", 1)[1] + RESULT + TAIL,
        HEAD + r"The spatial anisotropy $\epsilon$ sets how much the space on the plane changes with direction. "
        + DEFS.split(". ", 1)[1] + RESULT + TAIL),
    "complexity": (
        HEAD + r"The spatial anisotropy $\epsilon$, which regulates the anisotropy of the space on the spatial "
        r"domain, renders the Riemannian metric spatially isotropic for $\epsilon = 1$, whereupon all directions "
        r"are treated equally and the resulting model would effectively be a WideResNet with isotropic Chebyshev "
        r"convolutions, whereas at the limit $\epsilon \to 0$ the main direction has a minimal cost and the "
        r"resulting space is highly spatially anisotropic. " + RESULT + TAIL,
        HEAD + r"The spatial anisotropy $\epsilon$ sets the anisotropy of the space. It acts on the spatial "
        r"domain. For $\epsilon = 1$, the Riemannian metric is spatially isotropic. All directions are treated "
        r"the same. The model would then be a WideResNet with isotropic Chebyshev convolutions. At the limit "
        r"$\epsilon \to 0$, the main direction has a minimal cost. The space is then highly spatially "
        r"anisotropic. " + RESULT + TAIL),
}


def test_the_reconstructed_paragraph_is_the_real_one(spatial: str) -> None:
    assert " ".join(spatial.split()) == " ".join((HEAD + DEFS + RESULT + TAIL).split())


@pytest.mark.parametrize("dimension", sorted(REWRITES))
def test_hand_written_rewrites_move_their_measure(spatial: str, dimension: str) -> None:
    name, measure = SHIFT_MEASURES[dimension]
    plus, minus = REWRITES[dimension]
    before = measure(measure_text(spatial))
    assert before is not None
    assert measure(measure_text(plus)) > before, name
    assert measure(measure_text(minus)) < before, name


def test_evidence_rewrites_on_real_paragraphs(spatial: str, shared_data: Path) -> None:
    measure = SHIFT_MEASURES["evidence"][1]
    # the 8% result is in the fourth sentence: 0 foregrounded; evidence:+ opens with it
    assert r.evidence_counts(spatial) == (1, 0)
    plus = HEAD + (r"Using anisotropic spaces instead of isotropic ones is relevant, as we almost get an 8\% "
                   r"test-accuracy improvement (figure \ref{fig:sweet_spot_orientation}). ") + DEFS + TAIL
    assert measure(measure_text(plus)) > measure(measure_text(spatial)) == 0.0
    # scipy: all five percentages open the paragraph; evidence:- states the finding first
    languages = _paragraph(shared_data / "papers" / "scipy-1.0" / "scipy-1.0" / "paper.tex", "According to analysis")
    assert r.evidence_counts(languages) == (5, 5)
    minus = (r"SciPy is written mainly in Python, with Fortran, C, Cython and C++ as secondary languages and a "
             r"dash of \TeX, MATLAB, shell script, and Make. According to analysis using the \texttt{linguist} "
             r"library\cite{linguistref}, it is approximately 50\% Python, 25\% Fortran, 20\% C, 3\% Cython, and "
             r"2\% C++. " + languages.split(". ", 1)[1])
    assert r.evidence_counts(minus) == (5, 0)
    assert measure(measure_text(minus)) < measure(measure_text(languages))


def test_measures_are_recorded_with_text_measures(spatial: str) -> None:
    measured = measure_text(spatial).rhetoric
    assert measured is not None
    assert measured.novelty_stance == r.novelty_stance(spatial)
    assert measured.evidence_foregrounding == 0.0
    assert measured.lexicon_versions == {name: "2026.12-1" for name in r.LEXICONS}


def test_contribution_rewrites_on_the_real_contributions_paragraph(shared_data: Path) -> None:
    measure = SHIFT_MEASURES["contribution"][1]
    text = _paragraph(shared_data / "papers" / "cheblienet_neurips2021" / "neurips_2021.tex",
                      "Before going further into the details")
    items = text.split("\\item ")[1:]
    # signposts "we summarize", "our main contributions", "we introduce" (first item); 5 \item
    assert r.contribution_counts(text) == (3, 5)
    plus = text.replace("\\item We introduce", "\\item First, we introduce").replace(
        "\\item We show the flexibility", "\\item Finally, we show the flexibility")
    assert r.contribution_counts(plus) == (3, 7)
    assert measure(measure_text(plus)) > measure(measure_text(text))
    prose = " ".join(item.replace("\\end{itemize}", "").strip() for item in items)
    minus = ("Before going further into the details, we outline the approach. "
             + prose.replace("We introduce ChebLieNet, an", "ChebLieNet is an"))
    assert r.contribution_counts(minus) == (0, 0)
    assert measure(measure_text(minus)) < measure(measure_text(text))
