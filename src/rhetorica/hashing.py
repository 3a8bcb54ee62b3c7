"""Stable content hashes used as unit keys, cache keys and document fingerprints."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pydantic import BaseModel


def canonical_json(obj: Any) -> str:
    """Serialise ``obj`` deterministically (sorted keys, no whitespace, pydantic models dumped).

    Args:
        obj: JSON-compatible value or pydantic model (nested models allowed).

    Returns:
        A compact JSON string whose bytes are identical for equal inputs across runs and machines.

    Raises:
        TypeError: if ``obj`` contains a value JSON cannot represent.
    """

    def default(value: Any) -> Any:
        if isinstance(value, BaseModel):
            return value.model_dump(mode="json")
        if isinstance(value, (set, frozenset)):
            return sorted(value)
        raise TypeError(f"cannot hash value of type {type(value).__name__}")

    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=default)


def content_hash(*parts: Any, length: int = 32) -> str:
    """SHA-256 over the canonical JSON of ``parts``, as a hex string of ``length`` characters (<= 64)."""
    digest = hashlib.sha256(canonical_json(list(parts)).encode("utf-8")).hexdigest()
    return digest[:length]
