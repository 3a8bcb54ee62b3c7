"""Model layer types, in the style of inspect_ai: ``ModelAPI.generate(messages, config) -> ModelOutput``.

Providers implement :class:`ModelAPI` and raise the classified errors of :mod:`rhetorica.models.errors`;
:func:`rhetorica.models.call.call_model` adds the cache, retries and the call log on top.
"""

from __future__ import annotations

import abc
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from rhetorica.status import Status


class ChatMessage(BaseModel):
    """One chat message."""

    model_config = ConfigDict(frozen=True)

    role: Literal["system", "user", "assistant"]
    content: str


class GenerateConfig(BaseModel):
    """Sampling and output settings for one call.

    Attributes:
        temperature: sampling temperature (>= 0); ``None`` uses the provider default.
        top_p: nucleus mass in (0, 1]; ``None`` = provider default.
        max_tokens: cap on generated tokens (>= 1); ``None`` = provider default.
        seed: sampling seed where the provider supports one.
        stop: stop sequences.
        json_schema: a JSON Schema the output must follow (native structured output where the
            provider has it, grammar-constrained for llama.cpp).
        timeout_s: per-call wall-clock limit in seconds.
    """

    model_config = ConfigDict(extra="forbid")

    temperature: float | None = Field(default=None, ge=0)
    top_p: float | None = Field(default=None, gt=0, le=1)
    max_tokens: int | None = Field(default=None, ge=1)
    seed: int | None = None
    stop: list[str] | None = None
    json_schema: dict[str, Any] | None = None
    timeout_s: float | None = Field(default=None, gt=0)

    def output_affecting(self) -> dict[str, Any]:
        """The parameters that change the output, for cache keys (``timeout_s`` excluded)."""
        return self.model_dump(exclude={"timeout_s"}, exclude_none=True)


class Usage(BaseModel):
    """Token usage of one call (counts >= 0)."""

    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0
    reasoning_tokens: int = 0


class ModelOutput(BaseModel):
    """Result of one generate call.

    Attributes:
        text: generated text ('' when none).
        status: ``ok``, or a failure status (truncated, refused, empty, error, timeout).
        finish_reason: provider's stop reason (``stop``, ``length``, ``content_filter`` ...).
        usage: token counts.
        cost_usd: priced cost of this call in US dollars (0 for local models).
        latency_s: wall-clock seconds spent in the provider call.
        effective_params: sampling parameters the provider actually used.
        error: reason text for a failure status.
        cache_hit: True when served from the response cache (no model call made).
    """

    provider: str
    model: str
    text: str = ""
    status: Status = Status.OK
    finish_reason: str | None = None
    usage: Usage = Field(default_factory=Usage)
    cost_usd: float = 0.0
    latency_s: float = 0.0
    effective_params: dict[str, Any] = Field(default_factory=dict)
    error: str | None = None
    cache_hit: bool = False


class ModelAPI(abc.ABC):
    """A model provider connection.

    Subclasses set ``provider`` and ``model`` and implement :meth:`generate`. ``generate`` returns a
    :class:`ModelOutput` for answered calls (including truncated, refused and empty ones) and raises
    :class:`rhetorica.models.errors.ModelError` subclasses for failed calls, so that retry policy
    lives in one place.
    """

    provider: str
    model: str
    #: Calls allowed in flight at once on this connection.
    max_concurrency: int = 4

    @property
    def name(self) -> str:
        """``provider/model``, the id used in configs, cache keys and the store."""
        return f"{self.provider}/{self.model}"

    @property
    def connection_key(self) -> str:
        """Key that groups calls sharing one concurrency limit (provider + endpoint)."""
        return self.name

    @abc.abstractmethod
    async def generate(self, messages: list[ChatMessage], config: GenerateConfig) -> ModelOutput:
        """Generate a completion for ``messages`` under ``config``."""

    def count_tokens(self, text: str) -> int:
        """Approximate token count of ``text`` (subclasses with a tokenizer override this)."""
        return max(1, round(len(text.split()) * 1.35))
