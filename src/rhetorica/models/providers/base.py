"""One base for the providers that call a vendor's HTTP API through its SDK (OpenAI chat
completions and OpenAI-compatible servers, Anthropic Messages, Gemini).

What they share lives here once: the endpoint (its URL kept as a :class:`Secret` for requests and
shown redacted everywhere else), the key policy, the per-connection concurrency and rate limits,
the connection key, the loop-bound SDK client and pricing. A subclass adds its request and response
mapping and says which client it builds (:meth:`HTTPModelAPI._new_client`).

Key policy (ARCHITECTURE.md, "a key goes only to the endpoint it belongs to"): a vendor's own
variable (:attr:`HTTPModelAPI.key_env`, e.g. ``ANTHROPIC_API_KEY``) is sent only to its official
endpoint (:attr:`HTTPModelAPI.official_url`); any other endpoint gets a key only from the variable
the study names in ``api_key_env``. A provider without a vendor key (``key_env = None``: any
OpenAI-compatible server) sends :data:`NO_KEY` unless a variable is named. A ``base_url`` with
``user:pass@`` carries its own credential (sent as basic authentication, which replaces a bearer
key): it gets :data:`NO_KEY`, and naming ``api_key_env`` as well is refused.
"""

from __future__ import annotations

import abc
from typing import Any, ClassVar

from rhetorica.models.api import ModelAPI, ModelOutput
from rhetorica.models.limits import RateLimiter
from rhetorica.models.providers.common import LoopBoundClient, Secret, api_key_from_env, endpoint_key_env
from rhetorica.models.errors import PermanentError
from rhetorica.models.redaction import has_userinfo, redact_url, url_secrets, userinfo_and_key_env
from rhetorica.models.pricing import cost_usd

#: The placeholder key sent to a server that needs none (local vLLM, llama.cpp and Ollama servers
#: accept it; the SDKs refuse an empty key).
NO_KEY = "EMPTY"

#: Default per-call timeout in seconds when neither the config nor the options give one.
DEFAULT_TIMEOUT_S = 600.0


class HTTPModelAPI(ModelAPI):
    """A model reached over one HTTP endpoint with an SDK client.

    Args:
        model: the model name sent in requests.
        base_url: the endpoint (``None`` = the SDK's default, the vendor's own). It may carry
            credentials (userinfo, ``?key=``): they are used for requests and redacted in
            :attr:`base_url`, the connection key and every message.
        api_key_env: environment variable holding this endpoint's key (see the module docstring).
        max_concurrency: calls in flight at once on this endpoint (>= 1).
        timeout_s: default per-call timeout in seconds (``GenerateConfig.timeout_s`` overrides).
        requests_per_minute: optional request-rate cap (> 0) for this connection.
        tokens_per_minute: optional token-rate cap (> 0; input + requested output tokens).

    Raises:
        PermanentError: a named key variable (or the vendor's own, for its official endpoint) is unset,
            or ``base_url`` carries ``user:pass@`` and ``api_key_env`` names a key as well (the URL's
            credentials would replace the key).
        AuthenticationError: ``base_url`` is not the official endpoint and no ``api_key_env`` names its key.
    """

    #: the vendor's own endpoint (``None``: the SDK's default)
    official_url: ClassVar[str | None] = None
    #: the variable holding the vendor's key, sent only to :attr:`official_url` (``None``: no vendor key)
    key_env: ClassVar[str | None] = None

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key_env: str | None = None,
        max_concurrency: int = 8,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        requests_per_minute: float | None = None,
        tokens_per_minute: float | None = None,
    ) -> None:
        url = base_url.rstrip("/") if base_url else None
        if problem := userinfo_and_key_env(url, api_key_env):
            raise PermanentError(f"provider {self.provider!r}: base_url {problem}")
        self.model = model
        #: the model name sent in requests
        self.api_model = model
        self._endpoint = Secret(url or "")  # may carry credentials: used for requests only
        self.base_url = redact_url(url) if url else None
        self.max_concurrency = max_concurrency
        self.timeout_s = timeout_s
        self.limiter = RateLimiter.create(requests_per_minute, tokens_per_minute)
        self._key = Secret(self._api_key(api_key_env, url))
        self._clients = LoopBoundClient(self._new_client, self._close_client)

    @classmethod
    def default_key_env(cls) -> str | None:
        """The vendor's own key variable (subclasses may choose it from the environment)."""
        return cls.key_env

    def _api_key(self, api_key_env: str | None, url: str | None) -> str:
        """The key for ``url`` under the policy of the module docstring."""
        vendor_env = self.default_key_env()
        if url and has_userinfo(url):  # the URL's credential is the endpoint's (api_key_env refused above)
            return NO_KEY
        if vendor_env is None:
            return api_key_from_env(api_key_env, provider=self.provider) if api_key_env else NO_KEY
        env = endpoint_key_env(self.provider, api_key_env, url, self.official_url, vendor_env)
        return api_key_from_env(env, provider=self.provider)

    @property
    def _url(self) -> str | None:
        """The endpoint as given, credentials included (for the SDK client only)."""
        return self._endpoint.reveal() or None

    @property
    def _secrets(self) -> list[str]:
        """Strings scrubbed from every message: the key and the URL's credentials."""
        return [self._key.reveal(), *url_secrets(self._endpoint.reveal())]

    @abc.abstractmethod
    def _new_client(self) -> Any:
        """A new SDK client for this endpoint (called once per event loop)."""

    @abc.abstractmethod
    async def _close_client(self, client: Any) -> None:
        """Close a client made by :meth:`_new_client`."""

    def sdk_client(self) -> Any:
        """The SDK client for the running event loop (live calls and batch jobs share it)."""
        return self._clients.get()

    @property
    def connection_key(self) -> str:
        """``provider:endpoint`` (redacted URL, or ``default`` for the SDK's own endpoint)."""
        return f"{self.provider}:{self.base_url or 'default'}"

    @property
    def cache_model_name(self) -> str:
        return self.api_model

    def priced(self, output: ModelOutput, *, batch: bool = False, cache_write_tokens: int = 0) -> ModelOutput:
        """``output`` with ``cost_usd`` from the price table (0 when the model has no price;
        :func:`rhetorica.models.pricing.cost_usd`)."""

        cost = cost_usd(self.provider, self.api_model, output.usage, batch=batch, cache_write_tokens=cache_write_tokens)
        return output.model_copy(update={"cost_usd": cost})

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"
