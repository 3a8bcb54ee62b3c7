"""TF-IDF cosine, passage splitting and the max-cosine mean, without a neural model."""

from __future__ import annotations

import math

import numpy as np
import pytest

from rhetorica.documents.models import Document
from rhetorica.validation.integrity import best_match_cosines, tfidf_cosine
from rhetorica.validation.passages import paragraphs, split_passages
from rhetorica.tokenizer import tokenize


def test_tfidf_cosine_hand_computed() -> None:
    # paragraphs "apple banana" | "apple cherry": df(apple)=2 -> idf 1; banana, cherry and the two
    # bigrams df=1 -> idf ln(3/2)+1. Vectors share only "apple": cos = 1 / (1 + 2 idf^2)
    idf = math.log(3 / 2) + 1
    assert tfidf_cosine(["apple banana"], ["apple cherry"]) == pytest.approx(1 / (1 + 2 * idf**2))


def test_tfidf_cosine_identity_and_disjoint() -> None:
    assert tfidf_cosine(
        ["Graphs are useful.", "We study them."], ["Graphs are useful.\n\nWe study them."]
    ) == pytest.approx(1.0)
    assert tfidf_cosine(["apple banana"], ["cherry durian"]) == pytest.approx(0.0)
    assert tfidf_cosine(["$x$"], ["words"]) is None


def _ngrams(text: str) -> list[str]:
    """Oracle analyzer: unigrams and within-sentence bigrams, written independently."""
    tokens = tokenize(text)
    words, ids = tokens.lower, tokens.sentence_ids
    bigrams = [f"{words[i]} {words[i + 1]}" for i in range(len(words) - 1) if ids[i] == ids[i + 1]]
    return [*words, *bigrams]


def test_tfidf_cosine_matches_sklearn_vectorizer_oracle(shared_papers: dict[str, Document]) -> None:
    from sklearn.feature_extraction.text import TfidfVectorizer

    for name, doc in shared_papers.items():
        original = [s.text for s in doc.sections]
        variant = [t.replace("graph", "network").replace("We ", "Here we ") for t in original]
        corpus = paragraphs(original) + paragraphs(variant)
        vectorizer = TfidfVectorizer(analyzer=_ngrams).fit(corpus)
        matrix = vectorizer.transform(["\n\n".join(original), "\n\n".join(variant)])
        expected = float(matrix[0].multiply(matrix[1]).sum())
        value = tfidf_cosine(original, variant)
        assert value == pytest.approx(expected, abs=1e-12), name
        assert 0.5 < value < 1.0, name


def test_best_match_cosines_hand_computed() -> None:
    original = np.array([[1.0, 0.0], [0.0, 2.0]])
    variant = np.array([[3.0, 0.0], [1.0, 1.0]])
    # row 1: max(1, 1/sqrt2) = 1; row 2: max(0, 1/sqrt2) = 0.7071
    assert best_match_cosines(original, variant) == pytest.approx([1.0, 1 / math.sqrt(2)])
    with pytest.raises(ValueError, match="at least one passage"):
        best_match_cosines(np.zeros((0, 2)), variant)
    with pytest.raises(ValueError, match="sizes differ"):
        best_match_cosines(original, np.ones((1, 3)))


def _words(text: str) -> int:
    return len(text.split())


def test_split_passages_by_paragraph_then_sentence_then_word() -> None:
    texts = [
        "Short one.\n\nFirst sentence is here. Second one too. Third.",
        "one two three four five six seven eight",
    ]
    assert split_passages(texts, _words, 5) == [
        "Short one.",
        "First sentence is here.",
        "Second one too. Third.",
        "one two three four five",
        "six seven eight",
    ]
    with pytest.raises(ValueError, match="max_tokens"):
        split_passages(texts, _words, 0)


def test_split_passages_loses_no_text(shared_papers: dict[str, Document]) -> None:
    for name, doc in shared_papers.items():
        texts = [s.text for s in doc.sections]
        passages = split_passages(texts, _words, 40)
        assert all(_words(p) <= 40 for p in passages), name
        assert " ".join(passages).split() == " ".join(paragraphs(texts)).split(), name
