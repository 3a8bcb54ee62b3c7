"""Model layer types, in the style of inspect_ai: ``ModelAPI.generate(messages, config) -> ModelOutput``.

Providers implement :class:`ModelAPI` and raise the classified errors of :mod:`rhetorica.models.errors`;
:func:`rhetorica.models.call.call_model` adds the cache, retries and the call log on top.
"""

from __future__ import annotations

import abc
import functools
import inspect
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from rhetorica.models.limits import RateLimiter, RateLimitInfo
from rhetorica.models import request_size
from rhetorica.models.logprobs import TokenLogprob
from rhetorica.status import Status

#: Provider options that never change an answer: where and how fast calls are sent, and with which
#: key. Every other declared option is part of the response-cache key
#: (:meth:`ModelAPI.output_options`).
OPERATIONAL_OPTIONS = frozenset(
    {"api_key_env", "base_url", "max_concurrency", "timeout_s", "requests_per_minute", "tokens_per_minute",
     "n_threads", "cache_system", "cache_input"}
)


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
        top_logprobs: return each generated token's log-probability and this many alternatives
            (1-20; :mod:`rhetorica.models.logprobs`); ``None`` = none (and no change to cache keys).
    """

    model_config = ConfigDict(extra="forbid")

    temperature: float | None = Field(default=None, ge=0)
    top_p: float | None = Field(default=None, gt=0, le=1)
    max_tokens: int | None = Field(default=None, ge=1)
    seed: int | None = None
    stop: list[str] | None = None
    json_schema: dict[str, Any] | None = None
    timeout_s: float | None = Field(default=None, gt=0)
    top_logprobs: int | None = Field(default=None, ge=1, le=20)

    def output_affecting(self) -> dict[str, Any]:
        """The parameters that change the output, for cache keys (``timeout_s`` excluded)."""
        return self.model_dump(exclude={"timeout_s"}, exclude_none=True)


class Usage(BaseModel):
    """Token usage of one call (counts >= 0).

    ``unreported`` names the count fields the provider gave no usable value for
    (:func:`rhetorica.models.usage.reported_usage`): their 0 means unknown, not none.
    """

    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0
    reasoning_tokens: int = 0
    unreported: list[str] = Field(default_factory=list)


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
        rate_limit: what the response's rate-limit headers said (not stored or cached).
        stops_configuration: the failure is one of the configuration (unknown model, rejected
            key: :class:`rhetorica.models.errors.ConfigurationError`), so every later call of the
            same configuration would fail alike.
        transient: the failure is the last of a call whose attempts all ended in transient
            failures (rate limits, server errors, resets, timeouts): not a final outcome, so the
            runner leaves the unit pending and a later run asks again.
        logprobs: each generated token with its top alternatives, when the call asked for them
            (``GenerateConfig.top_logprobs``) and the provider returned them; else ``None``.
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
    rate_limit: RateLimitInfo | None = Field(default=None, exclude=True, repr=False)
    stops_configuration: bool = False
    transient: bool = False
    logprobs: list[TokenLogprob] | None = None


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
    #: Request/token pacing for this connection (``None`` = no declared limit).
    limiter: RateLimiter | None = None
    #: Declared options that are test scaffolding or bookkeeping rather than model settings.
    cache_exempt_options: ClassVar[frozenset[str]] = frozenset()
    #: The provider can return token log-probabilities (``GenerateConfig.top_logprobs``).
    supports_logprobs: ClassVar[bool] = False
    #: The provider runs locally and bills nothing per token: ``rhetorica estimate`` prices its
    #: calls at $0 instead of warning that it has no price.
    free: ClassVar[bool] = False
    #: What the provider's servers keep of earlier prompts by default (a study's ``models:`` entry may
    #: say otherwise; :data:`rhetorica.study.scheduling.PROMPT_CACHES`): ``prefix``, ``slots`` (one slot
    #: unless declared), ``none``, or ``probe`` (ask the server, :mod:`rhetorica.models.server_cache`).
    #: The runner orders replicates by it.
    prompt_cache: ClassVar[str] = "none"
    #: Model ids of this provider carry the endpoint: ``<provider>/<model>@<url>`` (the URL is
    #: checked when a study loads, :func:`rhetorica.models.url_check.url_problem`).
    url_in_model_id: ClassVar[bool] = False
    #: Structured-output modes the provider negotiates per endpoint, strongest first
    #: (:mod:`rhetorica.models.negotiation`; each but the last may be rejected once); none by default.
    negotiated_modes: ClassVar[tuple[str, ...]] = ()
    #: The largest sampling temperature the provider's API accepts, from its API reference (a study
    #: asking for more is refused when it loads, naming the configuration); ``None``: no stated bound
    #: (a server such as vLLM or llama.cpp takes any temperature >= 0).
    temperature_max: ClassVar[float | None] = None

    @classmethod
    def declared_options(cls) -> list[str]:
        """The options this provider accepts: the keyword parameters of ``__init__`` along the
        class hierarchy, except ``model`` (sorted). A parent's parameters count only while the
        ``__init__`` below it passes ``**kwargs`` on (an ``__init__`` without them is the last)."""
        return list(_declared_options(cls))

    def output_options(self) -> dict[str, Any]:
        """Option values that can change an output, for the response-cache key.

        Every declared option except :data:`OPERATIONAL_OPTIONS` (never the endpoint URL) and
        ``cache_exempt_options``, read from the attribute of the same name.

        Raises:
            AttributeError: a provider declares an output option it does not keep as an attribute
                (a provider bug: the option could otherwise silently miss the cache key).
        """
        skip = OPERATIONAL_OPTIONS | self.cache_exempt_options
        return {name: getattr(self, name) for name in self.declared_options() if name not in skip}

    def request_extras(self) -> tuple[dict[str, Any], ...]:
        """JSON the provider sends with every request besides the messages and the schema (e.g. an
        OpenAI-compatible ``extra_body``), counted by :meth:`request_tokens`; none by default."""
        return ()

    def request_tokens(self, messages: list[ChatMessage], config: GenerateConfig) -> int:
        """Input tokens of one request as sent: the messages, the output schema (in the prompt,
        a tool or a response format), :meth:`request_extras` and the chat template's markers,
        counted as ``rhetorica estimate`` counts them
        (:func:`rhetorica.models.request_size.request_tokens`; an upper bound)."""
        return request_size.request_tokens(self.name, messages, config.json_schema, self.request_extras())

    def estimate_tokens(self, messages: list[ChatMessage], config: GenerateConfig) -> int:
        """Tokens one call charges against a tokens-per-minute quota: the request as sent
        (:meth:`request_tokens`, as the budget counts it) plus the requested output tokens."""
        return self.request_tokens(messages, config) + (config.max_tokens or 0)

    @property
    def name(self) -> str:
        """``provider/model``, the id used in configs, cache keys and the store."""
        return f"{self.provider}/{self.model}"

    @property
    def connection_key(self) -> str:
        """Key that groups calls sharing one concurrency limit (provider + endpoint)."""
        return self.name

    @property
    def cache_model_name(self) -> str:
        """The logical model in the response-cache key: the model name without any endpoint
        (replicas of one model behind different URLs share answers)."""
        return self.model

    @abc.abstractmethod
    async def generate(self, messages: list[ChatMessage], config: GenerateConfig) -> ModelOutput:
        """Generate a completion for ``messages`` under ``config``."""

    def count_tokens(self, text: str) -> int:
        """Approximate token count of ``text`` (subclasses with a tokenizer override this)."""
        return max(1, round(_word_count(text) * 1.35))


@functools.lru_cache(maxsize=256)
def _word_count(text: str) -> int:
    """Whitespace-separated words of ``text``; remembered, since one call's prompt is counted for
    its worst-case cost, its input cost and its usage, and every replicate sends the same paper."""
    return len(text.split())


@functools.cache
def _declared_options(cls: type[ModelAPI]) -> tuple[str, ...]:
    """:meth:`ModelAPI.declared_options`, read once per class (every call's cache key asks)."""
    names: set[str] = set()
    for klass in cls.__mro__:
        init = klass.__dict__.get("__init__")
        if init is None:
            continue
        if klass is ModelAPI or klass is object:
            break
        forwards = False
        for name, param in inspect.signature(init).parameters.items():
            if param.kind is param.VAR_KEYWORD:
                forwards = True
            elif name not in ("self", "model") and param.kind is not param.VAR_POSITIONAL:
                names.add(name)
        if not forwards:
            break
    return tuple(sorted(names))
