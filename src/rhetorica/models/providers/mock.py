"""Scripted mock provider: registered like a real provider (``mock/<name>``) and used by tests.

Without a script it answers deterministically: for a call with an output schema it fills the schema
with values derived from a hash of the messages and the seed (so replicates with different seeds
differ and reruns agree); without a schema it echoes the text after the last ``Section text:`` marker
of the last user message (an identity rewrite), or the whole message.

A script is a list consumed in order; each entry is a string (an ``ok`` answer) or a dict:
``{"text": ..., "finish_reason": "length"}``, ``{"refusal": "reason"}``, ``{"empty": true}``,
``{"error": "rate_limit", "retry_after": 0.01}``, ``{"error": "transient"}``,
``{"error": "timeout"}``, ``{"error": "permanent"}``, ``{"error": "context_overflow"}``,
``{"error": "invalid_request"}``, ``{"error": "not_found"}``, ``{"error": "auth"}``. An ``ok`` entry may
carry ``"logprobs"``: a list of :class:`rhetorica.models.logprobs.TokenLogprob` fields (``token``,
``logprob``, ``top``), returned when the call asks for them (``GenerateConfig.top_logprobs``);
without them such a call gets one certain token per character of its answer (a soft rating then
equals the integer score).
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
from typing import Any

from rhetorica.models.api import ChatMessage, GenerateConfig, ModelAPI, ModelOutput, Usage
from rhetorica.models.errors import (
    AuthenticationError,
    ContextOverflowError,
    InvalidRequestError,
    ModelNotFoundError,
    ModelTimeoutError,
    PermanentError,
    RateLimitError,
    TransientError,
)
from rhetorica.models.logprobs import TokenLogprob
from rhetorica.marker import TEXT_MARKER
from rhetorica.status import Status


_ERRORS: dict[str, type[Exception]] = {
    "transient": TransientError,
    "timeout": ModelTimeoutError,
    "permanent": PermanentError,
    "context_overflow": ContextOverflowError,
    "invalid_request": InvalidRequestError,
    "not_found": ModelNotFoundError,
    "auth": AuthenticationError,
}


def _digest(messages: list[ChatMessage], seed: int | None) -> bytes:
    """SHA-256 of ``json.dumps([m.model_dump() for m in messages], sort_keys=True)`` and the seed,
    the list's JSON joined from each message's (a replicate's paper is not encoded again)."""
    payload = "[" + ", ".join(_message_json(m.role, m.content) for m in messages) + f"]|{seed}"
    return hashlib.sha256(payload.encode()).digest()


@functools.lru_cache(maxsize=64)
def _message_json(role: str, content: str) -> str:
    return json.dumps({"role": role, "content": content}, sort_keys=True)


def fill_schema(schema: dict[str, Any], seed: bytes, counter: list[int] | None = None) -> Any:
    """A value valid for ``schema``, derived from the bytes of ``seed``.

    Handles enums, objects (with or without ``type``), arrays (one item), integers and numbers
    within ``minimum``..``maximum``, booleans, nullable type lists and strings. Used by the mock
    provider and by the loopback fake servers of the tests.
    """
    counter = counter if counter is not None else [0]
    byte = seed[counter[0] % len(seed)]
    counter[0] += 1
    if schema.get("enum"):
        return schema["enum"][byte % len(schema["enum"])]
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    if kind == "object" or "properties" in schema:
        return {k: fill_schema(v, seed, counter) for k, v in schema.get("properties", {}).items()}
    if kind == "array":
        return [fill_schema(schema.get("items", {"type": "string"}), seed, counter)]
    if kind == "integer":
        lo, hi = int(schema.get("minimum", 0)), int(schema.get("maximum", 100))
        return lo + byte % (hi - lo + 1)
    if kind == "number":
        lo, hi = float(schema.get("minimum", 0)), float(schema.get("maximum", 1))
        return lo + (hi - lo) * byte / 255
    if kind == "boolean":
        return bool(byte % 2)
    return f"mock text {byte}"


class MockModel(ModelAPI):
    """Deterministic or scripted model (free: no per-token price).

    Args:
        model: model name (free text, part of the cache key).
        script: optional list of scripted answers (see module docstring).
        latency_s: simulated latency per call in seconds (>= 0).
        max_concurrency: calls in flight at once.

    Attributes:
        calls: every (messages, config) received, in order — tests count real calls with it.
    """

    prompt_cache = "prefix"

    provider = "mock"
    supports_logprobs = True
    free = True
    #: the script is consumed call by call and the latency only delays: neither is a model setting
    cache_exempt_options = frozenset({"script", "latency_s"})

    def __init__(
        self,
        model: str = "scripted",
        script: list[str | dict[str, Any]] | None = None,
        latency_s: float = 0.0,
        max_concurrency: int = 8,
    ) -> None:
        self.model = model
        self.script = list(script) if script is not None else None
        self.latency_s = latency_s
        self.max_concurrency = max_concurrency
        self.calls: list[tuple[list[ChatMessage], GenerateConfig]] = []

    async def generate(self, messages: list[ChatMessage], config: GenerateConfig) -> ModelOutput:
        self.calls.append((messages, config))
        if self.latency_s:
            await asyncio.sleep(self.latency_s)
        usage = Usage(input_tokens=sum(self.count_tokens(m.content) for m in messages))
        base = {"provider": self.provider, "model": self.model, "usage": usage,
                "effective_params": config.output_affecting()}
        entry: str | dict[str, Any]
        if self.script is not None:
            if not self.script:
                raise PermanentError("mock script exhausted")
            entry = self.script.pop(0)
        else:
            entry = self._default_answer(messages, config)
        if isinstance(entry, str):
            entry = {"text": entry}
        if "error" in entry:
            kind = entry["error"]
            if kind == "rate_limit":
                raise RateLimitError("mock 429", retry_after=entry.get("retry_after"))
            raise _ERRORS[kind](f"mock {kind}")
        if "refusal" in entry:
            return ModelOutput(**base, status=Status.REFUSED, finish_reason="content_filter",
                               error=str(entry["refusal"]))
        if entry.get("empty"):
            return ModelOutput(**base, status=Status.EMPTY, finish_reason="stop", error="empty output")
        text = str(entry.get("text", ""))
        finish = entry.get("finish_reason", "stop")
        usage.output_tokens = self.count_tokens(text) if text else 0
        status = Status.TRUNCATED if finish == "length" else Status.OK
        logprobs = None
        if config.top_logprobs is not None:
            scripted = entry.get("logprobs")
            logprobs = ([TokenLogprob.model_validate(t) for t in scripted] if scripted is not None
                        else [TokenLogprob(token=c, logprob=0.0, top=[(c, 0.0)]) for c in text])
        return ModelOutput(**base, text=text, finish_reason=finish, status=status,
                           error="finish_reason=length" if status == Status.TRUNCATED else None, logprobs=logprobs)

    def _default_answer(self, messages: list[ChatMessage], config: GenerateConfig) -> str:
        if config.json_schema is not None:
            return json.dumps(fill_schema(config.json_schema, _digest(messages, config.seed)))
        last_user = next((m.content for m in reversed(messages) if m.role == "user"), "")
        _, marker, after = last_user.rpartition(TEXT_MARKER)
        return after.strip() if marker else last_user
