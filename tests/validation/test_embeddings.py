"""Embeddings: the published quickstart values (oracle), token limits, and the embedder's use of its cache."""

from __future__ import annotations

import numpy as np
import pytest

from rhetorica.documents.models import Document
from rhetorica.validation.integrity import semantic_similarity
from rhetorica.validation.passages import split_passages


def test_minilm_reproduces_the_published_quickstart_similarities(embedder) -> None:  # type: ignore[no-untyped-def]
    # Values printed in the sentence-transformers Usage/quickstart page for all-MiniLM-L6-v2:
    # https://sbert.net/docs/sentence_transformer/usage/usage.html
    vectors = embedder.embed(
        ["The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium."]
    )
    assert vectors.shape == (3, 384)
    similarities = vectors @ vectors.T
    assert similarities[0, 1] == pytest.approx(0.6660, abs=1e-3)
    assert similarities[0, 2] == pytest.approx(0.1046, abs=1e-3)
    assert similarities[1, 2] == pytest.approx(0.1411, abs=1e-3)
    assert np.diag(similarities) == pytest.approx(np.ones(3), abs=1e-5)


def test_overlong_passage_is_refused_not_truncated(embedder) -> None:  # type: ignore[no-untyped-def]
    assert embedder.max_tokens == 254  # max_seq_length 256 minus [CLS] and [SEP]
    with pytest.raises(ValueError, match="exceeds"):
        embedder.embed(["word " * 400])


def test_real_paper_passages_fit_and_self_similarity_is_one(  # type: ignore[no-untyped-def]
    embedder, shared_papers: dict[str, Document]
) -> None:
    texts = [s.text for s in shared_papers["stable-nalu_iclr2020"].sections[:5]]
    passages = split_passages(texts, embedder.count_tokens, embedder.max_tokens)
    assert all(embedder.count_tokens(p) <= embedder.max_tokens for p in passages)
    assert semantic_similarity(texts, texts, embedder) == pytest.approx(1.0, abs=1e-5)
    dropped = texts[: len(texts) // 2] + [""] * (len(texts) - len(texts) // 2)
    # half the paper missing: its passages find only loosely related partners
    assert semantic_similarity(texts, dropped, embedder) < 0.9


def test_embedder_uses_its_cache(embedder) -> None:  # type: ignore[no-untyped-def]
    text = "A sentence embedded twice is computed once."
    first = embedder.embed([text])
    size = len(embedder.cache)
    second = embedder.embed([text, text])
    assert len(embedder.cache) == size
    assert second.shape == (2, 384) and np.array_equal(second[0], first[0])
