"""Content-addressed response cache keys and the cache protocol the store implements."""

from __future__ import annotations

from typing import Protocol

from rhetorica.hashing import content_hash
from rhetorica.models.api import ChatMessage, GenerateConfig, ModelOutput


def cache_key(
    provider: str,
    model: str,
    messages: list[ChatMessage],
    config: GenerateConfig,
    replicate: int,
) -> str:
    """Hash of everything that determines an output.

    Key = SHA-256 over (provider, model, messages, output schema and the sampling parameters that
    change the output, replicate index) — ARCHITECTURE.md, "Model layer". ``timeout_s`` is excluded.

    Returns:
        64-character hex string, identical across processes for equal inputs.
    """
    return content_hash(
        "model-call/v1",
        provider,
        model,
        [m.model_dump() for m in messages],
        config.output_affecting(),
        replicate,
        length=64,
    )


class CallLog(Protocol):
    """What :func:`rhetorica.models.call.call_model` needs from a store."""

    def cache_get(self, key: str) -> ModelOutput | None:
        """Return the cached ok output for ``key`` or None."""

    def cache_put(self, key: str, output: ModelOutput) -> None:
        """Store an ok output under ``key`` (committed at once: a paid call is never lost)."""

    def record_call(self, unit_key: str | None, key: str, output: ModelOutput, config: GenerateConfig) -> None:
        """Append one row to the model-call log (cache hits included, flagged)."""
