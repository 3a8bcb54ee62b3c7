"""The embedding cache of semantic integrity: vectors keyed by a hash of (model, text), in memory
and optionally in one SQLite file (the only SQL of validation, kept in ``store/``)."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import numpy as np
from numpy.typing import NDArray



class EmbeddingCache:
    """Embeddings keyed by SHA-256 of (model name, text): in memory, optionally on disk.

    The on-disk store is one SQLite file, ``<directory>/embeddings.sqlite``, table
    ``embeddings(key TEXT PRIMARY KEY, dim INTEGER, vector BLOB)`` with float32 vectors; it can be
    shared by runs and processes (SQLite locking; writes are idempotent).

    Args:
        directory: folder for the SQLite file; ``None`` keeps the cache in memory only.
    """

    def __init__(self, directory: str | Path | None = None) -> None:
        self._memory: dict[str, NDArray[np.float32]] = {}
        self._db: sqlite3.Connection | None = None
        if directory is not None:
            path = Path(directory)
            path.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path / "embeddings.sqlite", check_same_thread=False)
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS embeddings "
                "(key TEXT PRIMARY KEY, dim INTEGER NOT NULL, vector BLOB NOT NULL)"
            )
            self._db.commit()

    @staticmethod
    def key(model: str, text: str) -> str:
        """Cache key of ``text`` embedded by ``model`` (hex SHA-256)."""
        return hashlib.sha256(f"{model}\x00{text}".encode()).hexdigest()

    def get(self, key: str) -> NDArray[np.float32] | None:
        """The cached vector for ``key``, or ``None``."""
        vector = self._memory.get(key)
        if vector is None and self._db is not None:
            row = self._db.execute(
                "SELECT dim, vector FROM embeddings WHERE key = ?", (key,)
            ).fetchone()
            if row is not None:
                vector = np.frombuffer(row[1], dtype=np.float32).reshape(row[0])
                self._memory[key] = vector
        return vector

    def put(self, items: dict[str, NDArray[np.float32]]) -> None:
        """Store vectors (memory, and disk when a directory was given)."""
        self._memory.update(items)
        if self._db is not None and items:
            self._db.executemany(
                "INSERT OR REPLACE INTO embeddings (key, dim, vector) VALUES (?, ?, ?)",
                [(k, int(v.shape[0]), v.astype(np.float32).tobytes()) for k, v in items.items()],
            )
            self._db.commit()

    def __len__(self) -> int:
        return len(self._memory)
