"""OpenAI chat-completions providers on the official ``openai`` SDK.

- ``openai-compatible/<model>@<base_url>``: any server that speaks the chat-completions API (vLLM,
  Ollama, llama.cpp server, OpenRouter, other vendors). Key from the environment variable named by
  ``api_key_env`` (default ``OPENAI_API_KEY``); local servers that need none get ``"EMPTY"``.
- ``openai/<model>`` (:mod:`rhetorica.models.providers.openai_provider`) reuses this class.

Outcome mapping (ARCHITECTURE.md, "Failures are data"):

- ``finish_reason == "length"`` -> ``truncated``, also when a reasoning model spent the whole
  budget on reasoning and returned no content;
- ``finish_reason == "content_filter"`` or a ``refusal`` message -> ``refused``;
- no content -> ``empty``; otherwise ``ok``.
- HTTP and transport failures raise the classified errors of :mod:`rhetorica.models.errors`
  (:func:`rhetorica.models.providers.common.classify_http_error`); the SDK's own retries are off
  (``max_retries=0``) because :func:`rhetorica.models.call.call_model` retries.

Structured output uses ``response_format={"type": "json_schema", ...}`` (OpenAI "Structured
Outputs"; vLLM, llama.cpp server and Ollama accept the same field).
"""

from __future__ import annotations

import copy
import re
import time
from typing import Any

import openai
from openai import AsyncOpenAI

from rhetorica.models.api import ChatMessage, GenerateConfig, ModelAPI, ModelOutput, Usage
from rhetorica.models.errors import ModelTimeoutError, PermanentError, TransientError
from rhetorica.models.limits import RateLimiter
from rhetorica.models.providers.common import (
    LoopBoundClient,
    Secret,
    api_key_from_env,
    classify_http_error,
    drop_none,
    redact,
)
from rhetorica.status import Status

_MODEL_AT_URL = re.compile(r"^(?P<model>[^@]+)@(?P<url>https?://\S+)$")

#: Default per-call timeout in seconds when neither the config nor the options give one.
DEFAULT_TIMEOUT_S = 600.0


def split_model_at_url(spec: str) -> tuple[str, str]:
    """Split ``<model>@<base_url>`` into its parts.

    Raises:
        PermanentError: ``spec`` has no ``@http(s)://...`` part.
    """
    match = _MODEL_AT_URL.match(spec)
    if match is None:
        raise PermanentError(
            f"openai-compatible model {spec!r} must look like '<model>@<base_url>', e.g. "
            "'openai-compatible/qwen2.5-7b-instruct@http://localhost:8000/v1'"
        )
    return match["model"], match["url"].rstrip("/")


def strict_json_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``schema`` that OpenAI's strict structured-output mode accepts.

    Strict mode requires every object to list all its properties in ``required`` and to set
    ``additionalProperties: false`` (OpenAI, "Structured Outputs", supported schemas). Values are
    still validated by pydantic afterwards, so making optional fields required only asks the model
    to always write them.
    """
    out = copy.deepcopy(schema)

    def visit(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") == "object" or "properties" in node:
                props = node.get("properties", {})
                node["required"] = list(props)
                node["additionalProperties"] = False
            for value in node.values():
                visit(value)
        elif isinstance(node, list):
            for value in node:
                visit(value)

    visit(out)
    return out


class OpenAICompatibleModel(ModelAPI):
    """A chat-completions endpoint reached through ``AsyncOpenAI(base_url=...)``.

    Args:
        model: ``<model>@<base_url>`` (the part of the model id after ``openai-compatible/``).
        api_key_env: environment variable holding the key (default ``OPENAI_API_KEY``; when unset
            the key ``"EMPTY"`` is sent, which local servers accept).
        max_concurrency: calls in flight at once on this endpoint (>= 1).
        timeout_s: default per-call timeout in seconds (``GenerateConfig.timeout_s`` overrides).
        strict_schema: send JSON schemas in strict mode (transformed by :func:`strict_json_schema`).
        max_tokens_param: request field that carries ``max_tokens`` (``max_tokens`` for most
            servers; ``max_completion_tokens`` for OpenAI reasoning models).
        requests_per_minute: optional request-rate cap (> 0) for this connection.
        tokens_per_minute: optional token-rate cap (> 0; input + requested output tokens).
        extra_body: extra request fields passed through (e.g. vLLM's ``top_k``); part of the
            effective parameters.

    Raises:
        PermanentError: malformed ``model`` spec, or a required key missing from the environment.
    """

    provider = "openai-compatible"
    #: environment variable for the key and whether a missing key is allowed (local servers)
    default_key_env = "OPENAI_API_KEY"
    key_optional = True

    def __init__(
        self,
        model: str,
        *,
        api_key_env: str | None = None,
        max_concurrency: int = 8,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        strict_schema: bool = True,
        max_tokens_param: str = "max_tokens",
        requests_per_minute: float | None = None,
        tokens_per_minute: float | None = None,
        extra_body: dict[str, Any] | None = None,
    ) -> None:
        if max_tokens_param not in ("max_tokens", "max_completion_tokens"):
            raise PermanentError(
                f"max_tokens_param must be 'max_tokens' or 'max_completion_tokens', got {max_tokens_param!r}"
            )
        self.model, self.base_url = self._resolve(model)
        self.max_concurrency = max_concurrency
        self.timeout_s = timeout_s
        self.strict_schema = strict_schema
        self.max_tokens_param = max_tokens_param
        self.extra_body = dict(extra_body or {})
        self.limiter = RateLimiter.create(requests_per_minute, tokens_per_minute)
        env = api_key_env or self.default_key_env
        key = api_key_from_env(env, provider=self.provider, default="EMPTY" if self.key_optional else None)
        self._key = Secret(key)
        self._clients = LoopBoundClient(
            lambda: AsyncOpenAI(
                api_key=self._key.reveal(), base_url=self.base_url, max_retries=0, timeout=self.timeout_s
            ),
            lambda client: client.close(),
        )

    def _resolve(self, spec: str) -> tuple[str, str]:
        """(model name as stored, base_url)."""
        name, url = split_model_at_url(spec)
        return f"{name}@{url}", url

    @property
    def api_model(self) -> str:
        """Model name sent in requests."""
        return self.model.partition("@")[0]

    @property
    def connection_key(self) -> str:
        return f"{self.provider}:{self.base_url}"

    def sdk_client(self) -> AsyncOpenAI:
        """The SDK client for the running event loop (live calls and batch jobs share it)."""
        return self._clients.get()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    def request_params(self, messages: list[ChatMessage], config: GenerateConfig) -> dict[str, Any]:
        """The chat-completions request body for one call (no key; also used by batch files)."""
        params: dict[str, Any] = {
            "model": self.api_model,
            "messages": [{"role": m.role, "content": m.content} for m in messages],
        }
        params.update(
            drop_none(
                {
                    "temperature": config.temperature,
                    "top_p": config.top_p,
                    "seed": config.seed,
                    "stop": config.stop,
                    self.max_tokens_param: config.max_tokens,
                }
            )
        )
        if config.json_schema is not None:
            schema = strict_json_schema(config.json_schema) if self.strict_schema else config.json_schema
            params["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "output", "schema": schema, "strict": self.strict_schema},
            }
        params.update(self.extra_body)
        return params

    async def generate(self, messages: list[ChatMessage], config: GenerateConfig) -> ModelOutput:
        params = self.request_params(messages, config)
        if self.limiter is not None:
            await self.limiter.acquire(self._token_estimate(messages, config))
        client = self.sdk_client()
        timeout = config.timeout_s or self.timeout_s
        started = time.perf_counter()
        try:
            body = {k: v for k, v in params.items() if k not in self.extra_body}
            response = await client.chat.completions.create(**body, extra_body=self.extra_body or None, timeout=timeout)
        except openai.APITimeoutError as exc:
            raise ModelTimeoutError(f"no answer from {self.base_url} within {timeout:g} s") from exc
        except openai.APIConnectionError as exc:
            raise TransientError(redact(f"connection to {self.base_url} failed: {exc}", [self._key.reveal()])) from exc
        except openai.APIStatusError as exc:
            raise classify_http_error(
                exc.status_code,
                _error_text(exc),
                headers=exc.response.headers,
                code=exc.code,
                secrets=[self._key.reveal()],
            ) from exc
        except openai.APIResponseValidationError as exc:
            raise TransientError(f"malformed response from {self.base_url}: {exc.message}") from exc
        except (openai.OpenAIError, ValueError) as exc:  # undecodable body, unexpected payload
            raise TransientError(
                redact(f"unreadable response from {self.base_url}: {exc}", [self._key.reveal()])
            ) from exc
        latency = time.perf_counter() - started
        return self.parse_response(response.model_dump(), params, latency)

    def parse_response(
        self, data: dict[str, Any], params: dict[str, Any], latency_s: float, *, batch: bool = False
    ) -> ModelOutput:
        """Turn a chat-completions response body (a dict) into a :class:`ModelOutput`.

        Shared by live calls and batch results, which carry the same body.

        Raises:
            TransientError: the body has no ``choices`` (a malformed answer).
        """
        choices = data.get("choices") or []
        if not choices or not isinstance(choices[0], dict):
            raise TransientError(f"malformed response from {self.base_url}: no choices")
        choice = choices[0]
        message = choice.get("message") or {}
        content = message.get("content") or ""
        if isinstance(content, list):  # some servers return content parts
            content = "".join(p.get("text") or "" for p in content if isinstance(p, dict))
        text = str(content)
        finish = choice.get("finish_reason")
        usage = _usage(data.get("usage") or {})
        effective = {k: v for k, v in params.items() if k not in ("messages", "model", "response_format")}
        effective["json_schema"] = "response_format" in params
        effective["served_model"] = data.get("model")
        if data.get("system_fingerprint"):
            effective["system_fingerprint"] = data["system_fingerprint"]
        status, error = Status.OK, None
        if message.get("refusal"):
            status, error = Status.REFUSED, f"refusal: {message['refusal']}"
        elif finish == "content_filter":
            status, error = Status.REFUSED, "finish_reason=content_filter"
        elif finish == "length":
            status = Status.TRUNCATED
            error = "finish_reason=length"
            if not text and usage.reasoning_tokens:
                error += f" with no content after {usage.reasoning_tokens} reasoning tokens"
        elif not text.strip():
            status, error = Status.EMPTY, f"no content (finish_reason={finish})"
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

    def priced(self, output: ModelOutput, *, batch: bool = False) -> ModelOutput:
        """``output`` with ``cost_usd`` from the price table (0 when the model has no price)."""
        from rhetorica.models.pricing import cost_usd

        return output.model_copy(
            update={"cost_usd": cost_usd(self.provider, self.api_model, output.usage, batch=batch)}
        )

    def _token_estimate(self, messages: list[ChatMessage], config: GenerateConfig) -> int:
        return sum(self.count_tokens(m.content) for m in messages) + (config.max_tokens or 0)


def _usage(raw: dict[str, Any]) -> Usage:
    prompt_details = raw.get("prompt_tokens_details") or {}
    completion_details = raw.get("completion_tokens_details") or {}
    return Usage(
        input_tokens=int(raw.get("prompt_tokens") or 0),
        output_tokens=int(raw.get("completion_tokens") or 0),
        cached_tokens=int(prompt_details.get("cached_tokens") or 0),
        reasoning_tokens=int(completion_details.get("reasoning_tokens") or 0),
    )


def _error_text(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and inner.get("message"):
            return str(inner["message"])
        if isinstance(inner, str):
            return inner
    return str(exc.message)
