"""The embedding cache: key (SHA-256 of model NUL text, computed here with hashlib) and disk round trip."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from rhetorica.store.embedding_cache import EmbeddingCache


def test_key_is_sha256_of_model_and_text() -> None:
    assert EmbeddingCache.key("m", "some text") == "bed11a87fe0d9fe304315e8f8beae08848730bb63e5c0bd6959883501419262f"


def test_disk_cache_round_trip(tmp_path: Path) -> None:
    cache = EmbeddingCache(tmp_path)
    key = EmbeddingCache.key("m", "some text")
    assert cache.get(key) is None
    cache.put({key: np.array([0.6, 0.8], dtype=np.float32)})
    reopened = EmbeddingCache(tmp_path)
    assert reopened.get(key) == pytest.approx(np.array([0.6, 0.8]))
    assert EmbeddingCache.key("m", "some text") != EmbeddingCache.key("other", "some text")
