"""``openai/<model>``: OpenAI's own API through the official SDK.

Same request/response handling as :mod:`rhetorica.models.providers.openai_compatible` (chat
completions, strict JSON-schema structured output, the same status and error mapping); differs in
that the key is required (``OPENAI_API_KEY`` unless ``api_key_env`` names another variable), the
token cap is sent as ``max_completion_tokens`` (required by reasoning models) and the endpoint is
``https://api.openai.com/v1`` unless ``base_url`` overrides it (proxies, tests).
"""

from __future__ import annotations

from typing import Any

from rhetorica.models.providers.openai_compatible import OpenAICompatibleModel

#: OpenAI's public endpoint.
OPENAI_BASE_URL = "https://api.openai.com/v1"


class OpenAIModel(OpenAICompatibleModel):
    """An OpenAI model (``openai/gpt-4.1-mini`` ...).

    Args:
        model: the model name, e.g. ``gpt-4.1-mini``.
        base_url: endpoint (default :data:`OPENAI_BASE_URL`).
        **options: as for :class:`OpenAICompatibleModel` (``api_key_env``, ``max_concurrency``,
            ``timeout_s``, ``requests_per_minute``, ``tokens_per_minute`` ...).

    Raises:
        PermanentError: the key variable is unset.
    """

    provider = "openai"
    key_optional = False

    def __init__(self, model: str, *, base_url: str = OPENAI_BASE_URL, **options: Any) -> None:
        options.setdefault("max_tokens_param", "max_completion_tokens")
        super().__init__(f"{model}@{base_url}", **options)

    def _resolve(self, spec: str) -> tuple[str, str]:
        name, _, url = spec.rpartition("@")
        return name, url.rstrip("/")

    @property
    def api_model(self) -> str:
        return self.model
