"""``openai/<model>``: OpenAI's own API through the official SDK.

Same request/response handling as :mod:`rhetorica.models.providers.openai_compatible` (chat
completions, strict JSON-schema structured output, the same status and error mapping); differs in
that a key is required, the token cap is sent as ``max_completion_tokens`` (required by reasoning
models) and the endpoint is ``https://api.openai.com/v1`` unless ``base_url`` overrides it
(proxies, tests).

Key policy: ``OPENAI_API_KEY`` is OpenAI's key and goes only to :data:`OPENAI_BASE_URL`. Another
``base_url`` gets a key only from the variable the study names in ``api_key_env`` (which may be
``OPENAI_API_KEY`` itself, said explicitly).
"""

from __future__ import annotations

from typing import Any

from rhetorica.models.providers.openai_compatible import OpenAICompatibleModel

#: OpenAI's public endpoint.
OPENAI_BASE_URL = "https://api.openai.com/v1"
#: The variable that holds OpenAI's key.
OPENAI_KEY_ENV = "OPENAI_API_KEY"


class OpenAIModel(OpenAICompatibleModel):
    """An OpenAI model (``openai/gpt-4.1-mini`` ...).

    Args:
        model: the model name, e.g. ``gpt-4.1-mini``.
        base_url: endpoint (default :data:`OPENAI_BASE_URL`).
        **options: as for :class:`OpenAICompatibleModel` (``api_key_env``, ``max_concurrency``,
            ``timeout_s``, ``requests_per_minute``, ``tokens_per_minute`` ...).

    Raises:
        PermanentError: the key variable is unset.
        AuthenticationError: ``base_url`` is not OpenAI's and no ``api_key_env`` names its key.
    """

    prompt_cache = "prefix"
    slot_fields = False  # OpenAI's API takes no llama.cpp fields

    provider = "openai"
    temperature_max = 2.0  # Chat Completions API reference: "between 0 and 2"
    official_url = OPENAI_BASE_URL
    key_env = OPENAI_KEY_ENV
    _name_has_url = False

    def __init__(self, model: str, *, base_url: str = OPENAI_BASE_URL, **options: Any) -> None:
        options.setdefault("max_tokens_param", "max_completion_tokens")
        super().__init__(f"{model}@{base_url}", **options)

    def _resolve(self, spec: str) -> tuple[str, str]:
        name, _, url = spec.partition("@")  # the first @: a base_url may carry user:pass@
        return name, url.rstrip("/")
