"""``google/<model>``: Gemini models through the official ``google-genai`` SDK (Gemini Developer API).

- System messages become ``system_instruction``; user/assistant turns become ``contents`` with roles
  ``user`` / ``model``.
- Structured output: ``response_mime_type="application/json"`` with ``response_json_schema``
  (Gemini API, "Structured output").
- ``finish_reason``: ``MAX_TOKENS`` -> ``truncated`` (also when thinking used the whole budget and no
  text came back); ``SAFETY``, ``RECITATION``, ``BLOCKLIST``, ``PROHIBITED_CONTENT``, ``SPII`` and a
  blocked prompt (``prompt_feedback.block_reason``) -> ``refused``; no text -> ``empty``.
- Usage: ``output_tokens`` = candidate + thought tokens (both billed as output);
  ``reasoning_tokens`` = thought tokens; ``cached_tokens`` = cached-content tokens.
- Key from ``GEMINI_API_KEY`` (falling back to ``GOOGLE_API_KEY``) or the variable named by
  ``api_key_env``; the SDK's retries are off (one attempt).
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import TYPE_CHECKING, Any

from rhetorica.models.api import ChatMessage, GenerateConfig, ModelOutput, Usage
from rhetorica.models.errors import ModelTimeoutError, TransientError
from rhetorica.models.providers.base import HTTPModelAPI
from rhetorica.models.providers.common import classify_http_error, redact
from rhetorica.models.usage import NOT_SENT, reported_usage, sum_counts, usage_field, zero_if_absent
from rhetorica.status import Status

if TYPE_CHECKING:  # the SDK is imported where a call needs it, so listing providers does not load it
    from google import genai
    from google.genai import types


def _transport_errors() -> tuple[type[BaseException], ...]:
    """Exception types of a failed transport in the HTTP clients google-genai may use."""
    from google.genai import errors as genai_errors

    found: list[type[BaseException]] = [asyncio.TimeoutError, OSError, ValueError, genai_errors.UnknownApiResponseError]
    for module, name in (("httpx", "HTTPError"), ("httpx2", "HTTPError"), ("aiohttp", "ClientError")):
        try:
            found.append(getattr(__import__(module), name))
        except (ImportError, AttributeError):
            continue
    return tuple(found)


#: Gemini Developer API version used for calls and batches.
API_VERSION = "v1beta"

_REFUSED = {"SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY", "LANGUAGE"}


class GoogleModel(HTTPModelAPI):
    """A Gemini model (``google/gemini-2.5-flash`` ...).

    Args:
        model: model name.
        base_url: endpoint override (tests point it at a loopback server); default: the SDK's.
        api_key_env: environment variable with the key (default ``GEMINI_API_KEY``, else
            ``GOOGLE_API_KEY``, for Google's own endpoint only; a ``base_url`` must name its variable).
        max_concurrency: calls in flight at once (>= 1).
        timeout_s: default per-call timeout in seconds.
        thinking_budget: thinking-token budget for thinking models (``None`` = model default).
        requests_per_minute / tokens_per_minute: optional rate caps (> 0).

    Raises:
        PermanentError: the key variable is unset.
    """

    prompt_cache = "prefix"

    provider = "google"
    temperature_max = 2.0  # Gemini API GenerationConfig: temperature 0.0-2.0 for the Gemini 2 models

    def __init__(self, model: str, *, thinking_budget: int | None = None, **endpoint: Any) -> None:
        super().__init__(model, **endpoint)
        self.thinking_budget = thinking_budget

    @classmethod
    def default_key_env(cls) -> str:
        """``GEMINI_API_KEY``, or ``GOOGLE_API_KEY`` when only that one is set."""
        return (
            "GEMINI_API_KEY"
            if os.environ.get("GEMINI_API_KEY") or not os.environ.get("GOOGLE_API_KEY")
            else "GOOGLE_API_KEY"
        )

    def _http_options(self, timeout_s: float) -> types.HttpOptions:
        # a per-request HttpOptions replaces the client's, so both carry every field
        from google.genai import types

        return types.HttpOptions(
            base_url=self._url,
            api_version=API_VERSION,
            timeout=int(timeout_s * 1000),
            retry_options=types.HttpRetryOptions(attempts=1),
        )

    def _new_client(self) -> genai.Client:
        from google import genai

        return genai.Client(api_key=self._key.reveal(), http_options=self._http_options(self.timeout_s))

    async def _close_client(self, client: genai.Client) -> None:
        await client.aio.aclose()

    def request_params(self, messages: list[ChatMessage], config: GenerateConfig) -> dict[str, Any]:
        """``contents`` and ``config`` for ``generate_content`` (SDK field names; no key)."""
        system = "\n\n".join(m.content for m in messages if m.role == "system")
        contents = [
            {"role": "model" if m.role == "assistant" else "user", "parts": [{"text": m.content}]}
            for m in messages
            if m.role != "system"
        ]
        cfg: dict[str, Any] = {
            k: v
            for k, v in {
                "system_instruction": system or None,
                "temperature": config.temperature,
                "top_p": config.top_p,
                "max_output_tokens": config.max_tokens,
                "seed": config.seed,
                "stop_sequences": config.stop,
            }.items()
            if v is not None
        }
        if config.json_schema is not None:
            cfg["response_mime_type"] = "application/json"
            cfg["response_json_schema"] = config.json_schema
        if self.thinking_budget is not None:
            cfg["thinking_config"] = {"thinking_budget": self.thinking_budget}
        return {"contents": contents, "config": cfg}

    async def generate(self, messages: list[ChatMessage], config: GenerateConfig) -> ModelOutput:
        from google.genai import errors as genai_errors, types

        params = self.request_params(messages, config)
        client = self.sdk_client()
        timeout = config.timeout_s or self.timeout_s
        sdk_config = types.GenerateContentConfig(**params["config"], http_options=self._http_options(timeout))
        started = time.perf_counter()
        try:
            response = await client.aio.models.generate_content(
                model=self.model, contents=params["contents"], config=sdk_config
            )
        except genai_errors.APIError as exc:
            headers = getattr(exc.response, "headers", None)
            raise classify_http_error(
                int(exc.code or 500),
                str(exc.message or exc),
                headers=headers,
                code=exc.status,
                secrets=self._secrets,
            ) from exc
        except _transport_errors() as exc:
            if _is_timeout(exc):
                raise ModelTimeoutError(f"no answer from Gemini within {timeout:g} s") from exc
            raise TransientError(
                redact(f"Gemini call failed: {type(exc).__name__}: {exc}", self._secrets)
            ) from exc
        return self.parse_response(response.model_dump(mode="json"), params, time.perf_counter() - started)

    def parse_response(
        self, data: dict[str, Any], params: dict[str, Any], latency_s: float, *, batch: bool = False
    ) -> ModelOutput:
        """Turn a ``GenerateContentResponse`` (as a snake_case dict) into a priced :class:`ModelOutput`."""
        candidates = data.get("candidates") or []
        usage = _usage(data)
        finish: str | None = None
        text = ""
        if candidates:
            first = candidates[0]
            finish = first.get("finish_reason")
            parts = (first.get("content") or {}).get("parts") or []
            text = "".join(p.get("text") or "" for p in parts if not p.get("thought"))
        block = (data.get("prompt_feedback") or {}).get("block_reason")
        status, error = Status.OK, None
        if block:
            status, error, finish = Status.REFUSED, f"prompt blocked: {block}", finish or "PROMPT_BLOCKED"
        elif finish in _REFUSED:
            status, error = Status.REFUSED, f"finish_reason={finish}"
        elif finish == "MAX_TOKENS":
            status, error = Status.TRUNCATED, "finish_reason=MAX_TOKENS"
            if not text and usage.reasoning_tokens:
                error += f" with no content after {usage.reasoning_tokens} thinking tokens"
        elif not text.strip():
            status, error = Status.EMPTY, f"no content (finish_reason={finish})"
        effective = {
            k: v
            for k, v in params["config"].items()
            if k not in ("system_instruction", "response_json_schema", "response_mime_type")
        }
        effective["json_schema"] = "response_json_schema" in params["config"]
        effective["served_model"] = data.get("model_version")
        output = ModelOutput(
            provider=self.provider,
            model=self.model,
            text=text,
            status=status,
            finish_reason=finish,
            usage=usage,
            latency_s=latency_s,
            effective_params=effective,
            error=error,
        )
        return self.priced(output, batch=batch)


def _is_timeout(exc: BaseException) -> bool:
    if isinstance(exc, (asyncio.TimeoutError, TimeoutError)):
        return True
    return any(cls.__name__.endswith(("TimeoutException", "Timeout", "TimeoutError")) for cls in type(exc).__mro__)


def _usage(data: dict[str, Any]) -> Usage:
    """The usage of a ``GenerateContentResponse`` dict (:func:`rhetorica.models.usage.reported_usage`):
    output = candidates + thought tokens. Each count of a ``usage_metadata`` object that is left out
    or null is 0 (proto3 JSON omits zeros); without a ``usage_metadata`` object none is reported."""
    if not isinstance(data.get("usage_metadata"), dict):
        return reported_usage(input_tokens=NOT_SENT, output_tokens=NOT_SENT)
    meta = {name: zero_if_absent(usage_field(data, "usage_metadata", name))
            for name in ("prompt_token_count", "candidates_token_count", "thoughts_token_count",
                         "cached_content_token_count")}
    return reported_usage(input_tokens=meta["prompt_token_count"],
                          output_tokens=sum_counts(meta["candidates_token_count"], meta["thoughts_token_count"]),
                          cached_tokens=meta["cached_content_token_count"], reasoning_tokens=meta["thoughts_token_count"])
