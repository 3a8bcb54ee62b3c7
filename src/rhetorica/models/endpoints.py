"""A logical model served by several endpoints (replicas), and the choice of one per call.

A study names a logical model once (provider, model, options) with one or more endpoints — e.g.
the replicas of a vLLM data-parallel deployment — each with its own base URL, key variable and
limits. :class:`EndpointPool` is that logical model: the response-cache key is the logical model's
(provider, model name, output options: identical on every endpoint, never a URL), so any replica's
answer serves every later call; :func:`rhetorica.models.call.call_model` asks the pool for an
endpoint per attempt (:meth:`EndpointPool.endpoint`) and paces and limits each endpoint on its own
connection key.

Choice: among the healthy endpoints, the one with the fewest calls assigned and not finished
("least in flight"), ties broken round robin. An endpoint whose call fails with a connection error,
a 5xx or a timeout (:class:`~rhetorica.models.errors.TransientError`) is unhealthy for
``cooldown_s`` seconds; one answered 429 is unhealthy until its ``Retry-After``. Calls then go to
the others; when every endpoint is unhealthy the one whose cool-down ends first is used (a call is
never refused for want of a healthy endpoint). A successful answer makes an endpoint healthy again.
Each endpoint is its own provider object holding its own key, so a key goes only to its endpoint.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from rhetorica.models.api import ChatMessage, GenerateConfig, ModelAPI, ModelOutput
from rhetorica.models.errors import PermanentError, RateLimitError, TransientError

#: Seconds an endpoint that failed with a transient error is left out of the choice.
DEFAULT_COOLDOWN_S = 30.0

#: ``(model id, options) -> ModelAPI``: builds one endpoint (``rhetorica.models.registry.get_model``).
EndpointFactory = Callable[[str, dict[str, Any]], ModelAPI]


class EndpointPool(ModelAPI):
    """A logical model over one or more endpoints of the same provider, model and output options.

    Args:
        name: the logical model's name (as the study declares it).
        endpoints: the endpoint connections (>= 1), each with its own key and limits.
        cooldown_s: seconds an endpoint stays out of the choice after a transient failure (>= 0).
        clock: monotonic clock in seconds (tests inject a fake one).

    Raises:
        PermanentError: no endpoint, or endpoints that differ in provider, model name or an output
            option (their answers could not share one cache key).
    """

    def __init__(
        self,
        name: str,
        endpoints: Sequence[ModelAPI],
        *,
        cooldown_s: float = DEFAULT_COOLDOWN_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not endpoints:
            raise PermanentError(f"model {name!r} has no endpoint")
        first = endpoints[0]
        for index, other in enumerate(endpoints[1:], start=1):
            if (other.provider, other.cache_model_name, other.output_options()) != (
                first.provider, first.cache_model_name, first.output_options()
            ):
                raise PermanentError(
                    f"model {name!r}: endpoints[{index}] serves {other.provider}/{other.cache_model_name} with "
                    f"options {other.output_options()}, endpoints[0] {first.provider}/{first.cache_model_name} with "
                    f"{first.output_options()}; the endpoints of one model must differ only in where calls go"
                )
        if cooldown_s < 0:
            raise PermanentError(f"model {name!r}: cooldown_s must be >= 0, got {cooldown_s}")
        self.label = name
        self.endpoints = list(endpoints)
        self.provider = first.provider
        self.model = first.cache_model_name
        self.cooldown_s = cooldown_s
        self.max_concurrency = sum(e.max_concurrency for e in self.endpoints)
        self._clock = clock
        self._assigned = [0] * len(self.endpoints)
        self._down_until = [-math.inf] * len(self.endpoints)
        self._turn = itertools.count()

    # -- what the cache key and the budget read: the logical model's -------------------------------
    @property
    def cache_model_name(self) -> str:
        return self.endpoints[0].cache_model_name

    def output_options(self) -> dict[str, Any]:
        return self.endpoints[0].output_options()

    @property
    def api_model(self) -> str:
        """The model name sent in requests (the budget prices it)."""
        return str(getattr(self.endpoints[0], "api_model", self.endpoints[0].model))

    @property
    def connection_key(self) -> str:
        return f"pool:{self.provider}:{self.label}"

    def count_tokens(self, text: str) -> int:
        return self.endpoints[0].count_tokens(text)

    def estimate_tokens(self, messages: list[ChatMessage], config: GenerateConfig) -> int:
        return self.endpoints[0].estimate_tokens(messages, config)

    def request_tokens(self, messages: list[ChatMessage], config: GenerateConfig) -> int:
        return self.endpoints[0].request_tokens(messages, config)

    # -- the choice ----------------------------------------------------------------------------------
    def healthy(self) -> list[int]:
        """Indices of the endpoints not in a cool-down now."""
        now = self._clock()
        return [i for i, until in enumerate(self._down_until) if until <= now]

    def _choose(self) -> int:
        candidates = self.healthy()
        if not candidates:  # every endpoint failed recently: the one that recovers first
            return min(range(len(self.endpoints)), key=lambda i: self._down_until[i])
        least = min(self._assigned[i] for i in candidates)
        tied = [i for i in candidates if self._assigned[i] == least]
        return tied[next(self._turn) % len(tied)]

    def mark_failed(self, index: int, error: BaseException) -> None:
        """Take endpoint ``index`` out of the choice after ``error`` (see the module docstring;
        permanent errors change nothing: they are the request's, not the endpoint's)."""
        if isinstance(error, RateLimitError):
            pause = error.retry_after or 0.0
        elif isinstance(error, TransientError):
            pause = self.cooldown_s
        else:
            return
        self._down_until[index] = max(self._down_until[index], self._clock() + pause)

    def retire(self, target: ModelAPI) -> None:
        """Take the endpoint ``target`` out of the choice for the rest of the run (its circuit
        breaker found it down, :mod:`rhetorica.models.breaker`); the others take its calls."""
        self._down_until[self.endpoints.index(target)] = math.inf

    @contextlib.contextmanager
    def endpoint(self) -> Iterator[ModelAPI]:
        """Assign one call to an endpoint for the ``with`` block: counts it in flight there, marks
        the endpoint unhealthy when the block raises a transient error, healthy when it ends."""
        index = self._choose()
        self._assigned[index] += 1
        try:
            yield self.endpoints[index]
        except BaseException as exc:
            self.mark_failed(index, exc)
            raise
        else:
            self._down_until[index] = -math.inf
        finally:
            self._assigned[index] -= 1

    async def generate(self, messages: list[ChatMessage], config: GenerateConfig) -> ModelOutput:
        """One attempt on the chosen endpoint (``call_model`` chooses per attempt itself, so that
        each endpoint keeps its own concurrency and rate limits)."""
        with self.endpoint() as target:
            output = await target.generate(messages, config)
        return output.model_copy(update={"provider": self.provider, "model": self.model})

    def __repr__(self) -> str:
        return f"EndpointPool({self.label!r}, {len(self.endpoints)} endpoint(s))"


@contextlib.contextmanager
def route(model: ModelAPI) -> Iterator[ModelAPI]:
    """The connection one attempt of a call of ``model`` goes to: a pool's chosen endpoint
    (:meth:`EndpointPool.endpoint`), any other model itself."""
    if isinstance(model, EndpointPool):
        with model.endpoint() as target:
            yield target
    else:
        yield model


def has_other_endpoint(model: ModelAPI) -> bool:
    """True when ``model`` is a pool with a healthy endpoint now (a failed attempt can go there at
    once instead of backing off)."""
    return isinstance(model, EndpointPool) and bool(model.healthy())


def build_pool(
    name: str,
    provider: str,
    model: str,
    options: dict[str, Any],
    endpoints: Sequence[dict[str, Any]],
    factory: EndpointFactory,
    *,
    cooldown_s: float = DEFAULT_COOLDOWN_S,
) -> EndpointPool:
    """The pool of a declared logical model: one provider object per endpoint.

    Args:
        name: logical model name.
        provider: provider name (``openai-compatible``, ``openai``, ``anthropic`` ...).
        model: model name as the provider knows it.
        options: the model's options (the same on every endpoint).
        endpoints: per endpoint ``base_url`` (required for ``openai-compatible``, where it becomes
            the model id's ``@url`` part) and its own ``api_key_env``, ``max_concurrency``,
            ``timeout_s``, ``requests_per_minute``, ``tokens_per_minute`` (unset keys omitted).
        factory: builds one endpoint from ``(model id, options)``.
        cooldown_s: see :class:`EndpointPool`.

    Raises:
        PermanentError: an ``openai-compatible`` endpoint without ``base_url``, or endpoints that
            could not share a cache key.
        ModelError: the factory's errors (unknown provider, missing key variable ...).
    """
    built = []
    for index, endpoint in enumerate(endpoints):
        settings = {k: v for k, v in endpoint.items() if v is not None}
        if provider == "openai-compatible":
            url = settings.pop("base_url", None)
            if not url:
                raise PermanentError(f"model {name!r}: endpoints[{index}] needs a base_url (provider openai-compatible)")
            model_id = f"{provider}/{model}@{url}"
        else:
            model_id = f"{provider}/{model}"
        built.append(factory(model_id, options | settings))
    return EndpointPool(name, built, cooldown_s=cooldown_s)
