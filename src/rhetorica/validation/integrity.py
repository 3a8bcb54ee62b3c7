"""Content integrity of a rewrite: semantic similarity of passages and TF-IDF lexical overlap."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from itertools import chain

import numpy as np

from rhetorica.validation.embeddings import Embedder
from rhetorica.validation.passages import PARAGRAPH_BREAK, split_passages
from rhetorica.tokenizer import Tokens, tokenize


def cosine_matrix(original: np.ndarray, variant: np.ndarray) -> np.ndarray:
    """Cosine similarity of every original row to every variant row.

    Args:
        original: ``(n, d)`` embeddings (n >= 1).
        variant: ``(m, d)`` embeddings (m >= 1).

    Returns:
        Array of shape ``(n, m)`` with values in [-1, 1].

    Raises:
        ValueError: if either side has no rows or the dimensions differ.
    """
    if original.shape[0] == 0 or variant.shape[0] == 0:
        raise ValueError("semantic similarity needs at least one passage on each side")
    if original.shape[1] != variant.shape[1]:
        raise ValueError(f"embedding sizes differ: {original.shape[1]} vs {variant.shape[1]}")
    a = original / np.linalg.norm(original, axis=1, keepdims=True)
    b = variant / np.linalg.norm(variant, axis=1, keepdims=True)
    return np.asarray(a @ b.T)


def best_match_cosines(original: np.ndarray, variant: np.ndarray) -> np.ndarray:
    """For each original row, the maximum cosine similarity to any variant row
    (row maxima of :func:`cosine_matrix`).

    Args:
        original: ``(n, d)`` embeddings of the original's passages (n >= 1).
        variant: ``(m, d)`` embeddings of the variant's passages (m >= 1).

    Returns:
        Array of shape ``(n,)`` with values in [-1, 1].

    Raises:
        ValueError: if either side has no rows or the dimensions differ.
    """
    return cosine_matrix(original, variant).max(axis=1)


def passage_similarities(
    original: Sequence[str], variant: Sequence[str], embedder: Embedder
) -> np.ndarray | None:
    """Per original passage, its best cosine similarity to any passage of the variant.

    Passages: :func:`rhetorica.validation.passages.split_passages` with the embedder's token limit
    (paragraphs, cut at sentences and then words when over the limit, never truncated).

    Args:
        original: the original's texts in order (e.g. section bodies).
        variant: the variant's texts in order.
        embedder: embedding model.

    Returns:
        Array of shape ``(original passages,)``, or ``None`` when either side has no text.
    """
    left = split_passages(original, embedder.count_tokens, embedder.max_tokens)
    right = split_passages(variant, embedder.count_tokens, embedder.max_tokens)
    if not left or not right:
        return None
    vectors = embedder.embed([*left, *right])
    return best_match_cosines(vectors[: len(left)], vectors[len(left) :])


def semantic_similarity(
    original: Sequence[str], variant: Sequence[str], embedder: Embedder
) -> float | None:
    """Passage-level semantic integrity of a rewrite.

    Definition (the 'Style over Substance' study's Table 2 similarity): split both texts into
    passages that fit the embedding model; for each original passage take the maximum cosine
    similarity to any variant passage (:func:`passage_similarities`); average over the original's
    passages. Embeddings from ``embedder`` (Reimers & Gurevych 2019, Sentence-BERT).

    Args:
        original: the original's texts in order (e.g. section bodies).
        variant: the variant's texts in order.
        embedder: embedding model.

    Returns:
        Similarity in [-1, 1] (near 1 for a faithful rewrite), or ``None`` when either side has no
        text.
    """
    best = passage_similarities(original, variant, embedder)
    return None if best is None else float(best.mean())


_BIGRAM_BASE = 1 << 31
"""Bigram code ``(id1 + 1) * base + id2`` lies above every unigram code ``id`` (ids < 2**31)."""


def _terms(tokens: Tokens, vocab: dict[str, int]) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Term codes of a text, the block of each occurrence, the paragraph and the block counts.

    Terms are unigrams and within-sentence bigrams of the lower-cased words; paragraphs are as in
    :func:`rhetorica.validation.passages.paragraphs` (sentences never cross them); the count
    includes paragraphs without words, as a vectorizer fitted on the paragraphs would. Blocks are
    the text between blank lines, empty ones included (block indices identify paragraphs).
    """
    cuts = [(m.start(), m.end()) for m in PARAGRAPH_BREAK.finditer(tokens.masked)]
    edges = [0, *chain.from_iterable(cuts), len(tokens.text)]
    n_paragraphs = sum(
        1 for a, b in zip(edges[::2], edges[1::2], strict=True) if tokens.text[a:b].strip()
    )
    n = tokens.n_words
    ids = np.fromiter(map(vocab.__getitem__, tokens.lower), np.int64, n)
    sentence = np.fromiter(tokens.sentence_ids, np.int64, n)
    breaks = [a for a, _ in cuts]
    sentence_paragraph = np.array(
        [bisect_right(breaks, a) for a, _ in tokens.sentence_spans], dtype=np.int64
    )
    paragraph = sentence_paragraph[sentence]
    same_sentence = sentence[:-1] == sentence[1:]
    bigrams = ((ids[:-1] + 1) * _BIGRAM_BASE + ids[1:])[same_sentence]
    codes = np.concatenate([ids, bigrams])
    where = np.concatenate([paragraph, paragraph[:-1][same_sentence]])
    return codes, where, n_paragraphs, len(cuts) + 1


def tfidf_cosine_tokens(original: Tokens, variant: Tokens) -> float | None:
    """:func:`tfidf_cosine` on already tokenized texts (paragraphs separated by blank lines)."""
    if original.n_words == 0 or variant.n_words == 0:
        return None
    vocab = {w: i for i, w in enumerate(dict.fromkeys(chain(original.lower, variant.lower)))}
    codes_a, where_a, n_a, blocks_a = _terms(original, vocab)
    codes_b, where_b, n_b, _ = _terms(variant, vocab)
    terms, index = np.unique(np.concatenate([codes_a, codes_b]), return_inverse=True)
    size = len(terms)
    paragraph = np.concatenate([where_a, where_b + blocks_a])
    occurrences = np.unique(paragraph * size + index)  # one entry per (paragraph, term)
    df = np.bincount(occurrences % size, minlength=size)
    idf = np.log((1.0 + n_a + n_b) / (1.0 + df)) + 1.0
    a = np.bincount(index[: len(codes_a)], minlength=size) * idf
    b = np.bincount(index[len(codes_a) :], minlength=size) * idf
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


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
    two whole texts (tested as an oracle); terms are counted as NumPy integer codes instead, which
    is many times faster on paper-length texts.

    Args:
        original: the original's texts in order (e.g. section bodies).
        variant: the variant's texts in order.

    Returns:
        Cosine in [0, 1], or ``None`` when either side has no words.
    """
    return tfidf_cosine_tokens(tokenize("\n\n".join(original)), tokenize("\n\n".join(variant)))
