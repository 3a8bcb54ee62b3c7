"""The shared tokenizer and sentence splitter on academic English."""

from __future__ import annotations

from rhetorica.documents.models import Document
from rhetorica.validation.passages import paragraphs
from rhetorica.tokenizer import mask_non_prose, split_sentences, tokenize


def test_abbreviations_decimals_and_citations_do_not_split_sentences() -> None:
    text = (
        "We study graphs, e.g. citation networks, i.e. directed ones. "
        "As Fig. 2 shows, accuracy reaches 0.72 (Kipf et al. 2017). "
        "See Eq. (3) and Sec. 4.1 for details. Results follow!"
    )
    assert split_sentences(text) == [
        "We study graphs, e.g. citation networks, i.e. directed ones.",
        "As Fig. 2 shows, accuracy reaches 0.72 (Kipf et al. 2017).",
        "See Eq. (3) and Sec. 4.1 for details.",
        "Results follow!",
    ]


def test_numbered_lists_headings_and_blank_lines_start_sentences() -> None:
    text = "Our contributions are:\n1. A new model.\n2. A proof\n\n# Method\nWe define it"
    assert split_sentences(text) == [
        "Our contributions are:",
        "1. A new model.",
        "2. A proof",
        "# Method",
        "We define it",
    ]


def test_lower_case_after_period_and_initials_do_not_split() -> None:
    assert split_sentences("Results were approx. three times better. J. Smith agreed.") == [
        "Results were approx. three times better.",
        "J. Smith agreed.",
    ]


def test_words_skip_math_citations_urls_and_digits() -> None:
    text = (
        r"The loss $\mathcal{L} = x^2$ in \citep{kipf2017} drops by 12% at "
        r"https://example.org/a.b state-of-the-art, don't \textbf{stop}."
    )
    tokens = tokenize(text)
    assert tokens.words == (
        "The",
        "loss",
        "in",
        "drops",
        "by",
        "at",
        "state-of-the-art",
        "don't",
        "stop",
    )
    assert tokens.n_sentences == 1
    # offsets point into the original text
    for word, start, end in zip(tokens.words, tokens.starts, tokens.ends, strict=True):
        assert text[start:end] == word


def test_dotted_abbreviations_are_one_word_and_case_is_folded() -> None:
    tokens = tokenize("We use, e.g., U.S. data; It\u2019s fine.")
    assert tokens.lower == ("we", "use", "e.g.", "u.s.", "data", "it's", "fine")


def test_mask_keeps_length_and_blanks_whole_regions() -> None:
    text = "a $x$\n\nWe set\n\\begin{equation}\ny=1\n\n\\end{equation} b"
    masked = mask_non_prose(text)
    assert len(masked) == len(text)
    equation = "\\begin{equation}\ny=1\n\n\\end{equation}"
    assert masked == "a    \n\nWe set\n" + " " * len(equation) + " b"
    # the blank line inside the equation does not split its paragraph
    assert paragraphs([text]) == ["a $x$", "We set\n\\begin{equation}\ny=1\n\n\\end{equation} b"]


def test_empty_text_has_no_words_or_sentences() -> None:
    tokens = tokenize("  $x$ 12 \n\n ")
    assert tokens.n_words == 0 and tokens.n_sentences == 0


def test_real_paper_sentences_never_end_on_an_abbreviation(
    shared_papers: dict[str, Document],
) -> None:
    for name, doc in shared_papers.items():
        sentences = split_sentences("\n\n".join(s.text for s in doc.sections))
        assert len(sentences) > 100, name
        for sentence in sentences:
            last = sentence.split()[-1].lower() if sentence.split() else ""
            assert last not in {"e.g.", "i.e.", "fig.", "eq.", "al.", "cf."}, (name, sentence)


def test_citation_glued_to_a_period_stays_with_its_sentence() -> None:
    text = r"Splines have finite elements.\cite{deBoor1978} Next we test."
    assert split_sentences(text) == [
        r"Splines have finite elements.\cite{deBoor1978}",
        "Next we test.",
    ]


def test_sentence_end_inside_closing_emphasis_or_brace() -> None:
    # each of these was one sentence before: the period was not followed by whitespace
    assert split_sentences("We prove it is **optimal.** Then we test it.") == [
        "We prove it is **optimal.**", "Then we test it."]
    assert split_sentences("We prove it is *optimal.* Then we test it.") == [
        "We prove it is *optimal.*", "Then we test it."]
    assert split_sentences(r"We prove it is \textbf{optimal.} Then we test it.") == [
        r"We prove it is \textbf{optimal.}", "Then we test it."]
    assert split_sentences("We call it _x._ Then we test it!") == ["We call it _x._", "Then we test it!"]
    assert split_sentences("Is it **optimal?** Yes.") == ["Is it **optimal?**", "Yes."]
    assert split_sentences("It said \u2018done.\u2019 Then it stopped.") == [
        "It said \u2018done.\u2019", "Then it stopped."]


def test_run_in_heading_as_ingest_writes_it_is_its_own_sentence() -> None:
    text = "1. **Spectral formulation.** A spectral formulation of CNNs. **Pooling.** We pool."
    # words: Spectral formulation | A spectral formulation of CNNs | Pooling | We pool -> 2+5+1+2
    assert (tokenize(text).n_sentences, tokenize(text).n_words) == (4, 10)
    assert split_sentences(text) == ["1. **Spectral formulation.**", "A spectral formulation of CNNs.",
                                     "**Pooling.**", "We pool."]


def test_emphasis_keeps_the_abbreviation_and_lower_case_rules() -> None:
    assert len(split_sentences("See *Fig.* 2 and **e.g.** Table 1 for results.")) == 1
    assert len(split_sentences("It is **optimal.** then we test it.")) == 1
    # an opening mark before a lower-case word does not hide the lower case
    assert len(split_sentences("It is optimal. *then* we test it.")) == 1
    assert len(split_sentences(r"It is optimal. \emph{then} we test it.")) == 1
