"""MTLD and Advanced Guiraud: hand computations, the lexicalrichness oracle, the frequency list."""

from __future__ import annotations

import math

import pytest

from rhetorica.documents.models import Document
from rhetorica.validation.lexical import advanced_guiraud, frequent_words, mtld
from rhetorica.tokenizer import tokenize


def test_mtld_of_the_gettysburg_phrase_is_nine() -> None:
    # forward: TTR 4/6 < 0.72 at the 6th word -> 1 factor; "for the people" TTR 1 -> partial 0
    # backward: "people the for people the" TTR 3/5 < 0.72 -> 1 factor; rest TTR 1 -> partial 0
    # both passes: 9 words / 1 factor = 9
    assert mtld("of the people by the people for the people") == pytest.approx(9.0)


def _crafted_exact_hit() -> list[str]:
    # 18 distinct words, the first repeated 7 times (TTR 18/25 = 0.72 exactly), one new word
    distinct = [f"w{chr(97 + i)}" for i in range(18)]
    return [*distinct, *[distinct[0]] * 7, "wnew"]


def test_mtld_threshold_is_strict_less_than() -> None:
    words = _crafted_exact_hit()
    text = " ".join(words)
    # forward (strict): TTR never < 0.72 (18/25 = 0.72 is not a factor); end TTR 19/26
    forward = 26 / ((1 - 19 / 26) / 0.28)
    # backward: "wnew wa wa" (2/3) factor, "wa wa" factor, "wa wa" factor,
    # then "wa wr ... wb wa": 18 types / 19 words -> partial (1 - 18/19) / 0.28
    backward = 26 / (3 + (1 - 18 / 19) / 0.28)
    assert mtld(text) == pytest.approx((forward + backward) / 2)
    # a "<=" reading would close a factor at the exact hit: forward 26 / 1 = 26
    lexicalrichness = pytest.importorskip("lexicalrichness")
    lr = lexicalrichness.LexicalRichness(words, preprocessor=None, tokenizer=None)
    assert lr.mtld(threshold=0.72) == pytest.approx((26 + backward) / 2)


def _has_exact_hit(words: tuple[str, ...]) -> bool:
    for sequence in (words, words[::-1]):
        types: set[str] = set()
        count = 0
        for word in sequence:
            types.add(word)
            count += 1
            ratio = len(types) / count
            if ratio == 0.72:
                return True
            if ratio < 0.72:
                types, count = set(), 0
    return False


def test_mtld_matches_lexicalrichness_on_real_papers(shared_papers: dict[str, Document]) -> None:
    lexicalrichness = pytest.importorskip("lexicalrichness")
    compared = 0
    for name, doc in shared_papers.items():
        for section in doc.sections:
            words = tokenize(section.text).lower
            if len(words) < 100 or _has_exact_hit(words):
                continue
            oracle = lexicalrichness.LexicalRichness(list(words), preprocessor=None, tokenizer=None)
            assert mtld(section.text) == pytest.approx(oracle.mtld(threshold=0.72), rel=1e-12), name
            compared += 1
    assert compared >= 30


def test_mtld_undefined_cases() -> None:
    assert mtld("") is None
    assert mtld("every word here differs") is None  # TTR stays 1: no factor at all
    with pytest.raises(ValueError, match="threshold"):
        mtld("a a", threshold=1.0)


def test_advanced_guiraud_hand_computed() -> None:
    basic = frequent_words()
    assert {"we", "a", "and", "network"} <= basic
    assert not {"propose", "novel", "filter"} & basic
    # 9 tokens; advanced types {propose, novel, filter} -> 3 / sqrt(9)
    assert advanced_guiraud("We propose a novel filter and a novel network.") == pytest.approx(1.0)
    assert advanced_guiraud("the the the the", frequent=frozenset()) == pytest.approx(1 / 2)
    assert advanced_guiraud("$x$") is None


def test_frequency_list_is_2000_alphabetic_lower_case_forms() -> None:
    basic = frequent_words()
    assert len(basic) == 2000
    assert all(w.isalpha() and w == w.lower() for w in basic)


def test_shipped_frequency_list_matches_wordfreq() -> None:
    wordfreq = pytest.importorskip("wordfreq")
    from importlib import metadata

    if metadata.version("wordfreq") != "3.1.1":
        pytest.skip("the shipped list was derived from wordfreq 3.1.1")
    top = wordfreq.top_n_list("en", 3000, wordlist="best")
    assert frozenset([w for w in top if w.isalpha()][:2000]) == frequent_words()


def test_real_paper_lexical_values_are_plausible(
    shared_papers: dict[str, Document],
) -> None:
    # academic prose: MTLD typically 50-120, AG well above 0 for a paper-length text
    for name, doc in shared_papers.items():
        text = "\n\n".join(s.text for s in doc.sections)
        value = mtld(text)
        assert value is not None and 40 < value < 150, (name, value)
        ag = advanced_guiraud(text)
        assert ag is not None and 5 < ag < 20, (name, ag)
        assert not math.isnan(ag)
