"""Content integrity of a rewrite: semantic similarity of passages and TF-IDF lexical overlap."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Sequence
from itertools import chain

import numpy as np

from rhetorica.validation.embeddings import Embedder
from rhetorica.validation.passages import PARAGRAPH_BREAK, split_passages
from rhetorica.validation.tokenize import Tokens, tokenize


def max_cosine_mean(original: np.ndarray, variant: np.ndarray) -> float:
    """Mean over original rows of the maximum cosine similarity to any variant row.

    Args:
        original: ``(n, d)`` embeddings of the original's passages (n >= 1).
        variant: ``(m, d)`` embeddings of the variant's passages (m >= 1).

    Returns:
        A value in [-1, 1].

    Raises:
        ValueError: if either side has no rows or the dimensions differ.
    """
    if original.shape[0] == 0 or variant.shape[0] == 0:
        raise ValueError("semantic similarity needs at least one passage on each side")
    if original.shape[1] != variant.shape[1]:
        raise ValueError(f"embedding sizes differ: {original.shape[1]} vs {variant.shape[1]}")
    a = original / np.linalg.norm(original, axis=1, keepdims=True)
    b = variant / np.linalg.norm(variant, axis=1, keepdims=True)
    return float((a @ b.T).max(axis=1).mean())


def semantic_similarity(
    original: Sequence[str], variant: Sequence[str], embedder: Embedder
) -> float | None:
    """Passage-level semantic integrity of a rewrite ('Style over Substance', Sect. validation).

    Definition (as in the 'Style over Substance' study's Table 2): split both texts into passages
    that fit the embedding model (:func:`rhetorica.validation.passages.split_passages`: paragraphs,
    cut at sentences and then words when over the limit, never truncated); for each original
    passage take the maximum cosine similarity to any variant passage; average over the original's
    passages. Embeddings from ``embedder`` (Reimers & Gurevych 2019, Sentence-BERT).

    Args:
        original: the original's texts in order (e.g. section bodies).
        variant: the variant's texts in order.
        embedder: embedding model.

    Returns:
        Similarity in [-1, 1] (near 1 for a faithful rewrite), or ``None`` when either side has no
        text.
    """
    left = split_passages(original, embedder.count_tokens, embedder.max_tokens)
    right = split_passages(variant, embedder.count_tokens, embedder.max_tokens)
    if not left or not right:
        return None
    vectors = embedder.embed([*left, *right])
    return max_cosine_mean(vectors[: len(left)], vectors[len(left) :])


def _ngram_counts(tokens: Tokens) -> tuple[Counter[object], list[set[object]], int]:
    """Term counts of the whole text, the term set of each paragraph, the number of paragraphs.

    Terms are unigrams (str) and within-sentence bigrams (2-tuples of str). Paragraphs are as in
    :func:`rhetorica.validation.passages.paragraphs`; sentences never cross them.
    """
    words = tokens.lower
    n_sentences = tokens.n_sentences
    bounds = [bisect_left(tokens.sentence_ids, s) for s in range(n_sentences)] + [len(words)]
    bigrams = [
        list(zip(words[lo : hi - 1], words[lo + 1 : hi], strict=True))
        for lo, hi in zip(bounds, bounds[1:], strict=False)
    ]
    total: Counter[object] = Counter(words)
    total.update(chain.from_iterable(bigrams))
    cuts = [(m.start(), m.end()) for m in PARAGRAPH_BREAK.finditer(tokens.masked)]
    breaks = [a for a, _ in cuts]
    edges = [0, *chain.from_iterable(cuts), len(tokens.text)]
    n_paragraphs = sum(
        1 for a, b in zip(edges[::2], edges[1::2], strict=True) if tokens.text[a:b].strip()
    )
    paragraph_of = [bisect_right(breaks, a) for a, _ in tokens.sentence_spans]
    term_sets: list[set[object]] = []
    s = 0
    while s < n_sentences:
        e = s + 1
        while e < n_sentences and paragraph_of[e] == paragraph_of[s]:
            e += 1
        terms: set[object] = set(words[bounds[s] : bounds[e]])
        terms.update(chain.from_iterable(bigrams[s:e]))
        term_sets.append(terms)
        s = e
    return total, term_sets, n_paragraphs


def tfidf_cosine_tokens(original: Tokens, variant: Tokens) -> float | None:
    """:func:`tfidf_cosine` on already tokenized texts (paragraphs separated by blank lines)."""
    tf_a, sets_a, n_a = _ngram_counts(original)
    tf_b, sets_b, n_b = _ngram_counts(variant)
    n_documents = n_a + n_b
    if not tf_a or not tf_b:
        return None
    df = Counter(chain.from_iterable([*sets_a, *sets_b]))

    def weighted(tf: Counter[object], terms: list[object]) -> np.ndarray:
        counts = np.fromiter(map(tf.__getitem__, terms), dtype=np.float64, count=len(terms))
        freq = np.fromiter(map(df.__getitem__, terms), dtype=np.float64, count=len(terms))
        return counts * (np.log((1.0 + n_documents) / (1.0 + freq)) + 1.0)

    shared = list(tf_a.keys() & tf_b.keys())
    dot = float(weighted(tf_a, shared) @ weighted(tf_b, shared))
    norm_a = float(np.linalg.norm(weighted(tf_a, list(tf_a))))
    norm_b = float(np.linalg.norm(weighted(tf_b, list(tf_b))))
    return dot / (norm_a * norm_b)


def tfidf_cosine(original: Sequence[str], variant: Sequence[str]) -> float | None:
    """TF-IDF cosine similarity of an original and its variant on unigrams + bigrams.

    Definition: counts of unigrams and within-sentence bigrams of the shared tokenizer's
    lower-cased words. The IDF is fitted on the *paragraphs of both texts* (each paragraph one
    document) with scikit-learn's smoothed formula ``idf(t) = ln((1 + n) / (1 + df(t))) + 1``, so
    that terms spread over the whole paper weigh less than terms particular to a passage (fitting
    it on the two texts alone would give every shared term the same weight). Each text's vector
    is its term counts times the IDF; the result is the cosine of the two vectors (Salton &
    Buckley 1988, term weighting; the 'Style over Substance' lexical-preservation check). The
    value equals scikit-learn's ``TfidfVectorizer`` fitted on the paragraphs and applied to the
    two whole texts (tested as an oracle); counting is done with ``collections.Counter`` because
    it is several times faster on paper-length texts.

    Args:
        original: the original's texts in order (e.g. section bodies).
        variant: the variant's texts in order.

    Returns:
        Cosine in [0, 1], or ``None`` when either side has no words.
    """
    return tfidf_cosine_tokens(tokenize("\n\n".join(original)), tokenize("\n\n".join(variant)))
