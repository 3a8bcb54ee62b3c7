"""``anthropic/<model>``: Claude models through the official ``anthropic`` SDK (Messages API).

- System messages go into ``system`` as one text block marked ``cache_control: ephemeral``, and the
  first user message (the manuscript or review under evaluation) is one text block with a second
  breakpoint, so the instructions and the paper — nearly all the tokens — are read from Anthropic's
  prompt cache by every call with the same prefix within its lifetime (replicates, repair
  attempts; Anthropic, "Prompt caching": up to 4 breakpoints, 5-minute default lifetime; prompts
  under the model's minimum cacheable length are simply not cached).
- Structured output: ``output_config.format`` with a JSON schema (Anthropic "Structured outputs";
  the schema is adapted by the SDK's ``transform_schema``, and ranges are checked by pydantic
  afterwards), or, with ``structured_output="tool"`` for models without it, a forced tool call whose
  input is the answer.
- ``stop_reason``: ``max_tokens`` / ``model_context_window_exceeded`` -> ``truncated``;
  ``refusal`` -> ``refused``; no content -> ``empty``.
- Usage: ``input_tokens`` = uncached + cache-write + cache-read input tokens; ``cached_tokens`` =
  cache reads; cache writes are priced at the cache-write rate.
- Key from ``ANTHROPIC_API_KEY`` for Anthropic's own endpoint; another ``base_url`` gets a key only
  from the variable named by ``api_key_env``; SDK retries off.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any, Literal

from rhetorica.models.api import ChatMessage, GenerateConfig, ModelOutput
from rhetorica.models.errors import ModelTimeoutError, TransientError
from rhetorica.models.limits import RateLimitInfo
from rhetorica.models.providers.base import HTTPModelAPI
from rhetorica.models.providers.common import classify_http_error, redact
from rhetorica.models.usage import reported_usage, sum_counts, token_count, usage_field, zero_if_absent
from rhetorica.status import Status

if TYPE_CHECKING:  # the SDK is imported where a call needs it, so listing providers does not load it
    import anthropic
    from anthropic import AsyncAnthropic

#: Anthropic's public endpoint.
ANTHROPIC_BASE_URL = "https://api.anthropic.com"
#: Name of the forced tool in ``structured_output="tool"`` mode.
OUTPUT_TOOL = "output"
#: ``messages.create`` arguments the SDK takes by name; others travel in ``extra_body``.
_SDK_ARGS = {"model", "max_tokens", "messages", "system", "stop_sequences", "output_config", "tools", "tool_choice"}


class AnthropicModel(HTTPModelAPI):
    """A Claude model (``anthropic/claude-sonnet-4-5`` ...).

    Args:
        model: model name.
        base_url: endpoint (default :data:`ANTHROPIC_BASE_URL`; tests point it at a loopback server).
        api_key_env: environment variable with the key (default ``ANTHROPIC_API_KEY``, for
            :data:`ANTHROPIC_BASE_URL` only; another ``base_url`` must name its variable).
        max_concurrency: calls in flight at once (>= 1).
        timeout_s: default per-call timeout in seconds.
        default_max_tokens: ``max_tokens`` when the config gives none (the API requires one).
        structured_output: ``"json_schema"`` (native) or ``"tool"`` (forced tool call).
        cache_system: mark the system prompt for prompt caching.
        cache_input: mark the first user message (the document) for prompt caching.
        requests_per_minute / tokens_per_minute: optional rate caps (> 0).

    Raises:
        PermanentError: the key variable is unset.
    """

    prompt_cache = "prefix"

    provider = "anthropic"
    temperature_max = 1.0  # Messages API reference: "Ranges from 0.0 to 1.0"
    official_url = ANTHROPIC_BASE_URL
    key_env = "ANTHROPIC_API_KEY"

    def __init__(
        self,
        model: str,
        *,
        base_url: str = ANTHROPIC_BASE_URL,
        default_max_tokens: int = 4096,
        structured_output: Literal["json_schema", "tool"] = "json_schema",
        cache_system: bool = True,
        cache_input: bool = True,
        **endpoint: Any,
    ) -> None:
        super().__init__(model, base_url=base_url, **endpoint)
        self.default_max_tokens = default_max_tokens
        self.structured_output = structured_output
        self.cache_system = cache_system
        self.cache_input = cache_input

    def _new_client(self) -> AsyncAnthropic:
        from anthropic import AsyncAnthropic

        return AsyncAnthropic(api_key=self._key.reveal(), base_url=self._url, max_retries=0, timeout=self.timeout_s)

    async def _close_client(self, client: AsyncAnthropic) -> None:
        await client.close()

    def estimate_tokens(self, messages: list[ChatMessage], config: GenerateConfig) -> int:
        return sum(self.count_tokens(m.content) for m in messages) + (config.max_tokens or self.default_max_tokens)

    def request_params(self, messages: list[ChatMessage], config: GenerateConfig) -> dict[str, Any]:
        """The Messages API request body for one call (no key; also used by batch requests)."""
        system = "\n\n".join(m.content for m in messages if m.role == "system")
        params: dict[str, Any] = {
            "model": self.model,
            "max_tokens": config.max_tokens or self.default_max_tokens,
            "messages": [{"role": m.role, "content": m.content} for m in messages if m.role != "system"],
        }
        first_user = next((m for m in params["messages"] if m["role"] == "user"), None)
        if self.cache_input and first_user is not None:
            first_user["content"] = [{"type": "text", "text": first_user["content"],
                                      "cache_control": {"type": "ephemeral"}}]
        if system:
            block: dict[str, Any] = {"type": "text", "text": system}
            if self.cache_system:
                block["cache_control"] = {"type": "ephemeral"}
            params["system"] = [block]
        if config.stop:
            params["stop_sequences"] = list(config.stop)
        if config.temperature is not None:
            params["temperature"] = config.temperature
        if config.top_p is not None:
            params["top_p"] = config.top_p
        if config.json_schema is not None:
            if self.structured_output == "tool":
                params["tools"] = [
                    {"name": OUTPUT_TOOL, "description": "Record the answer.", "input_schema": config.json_schema}
                ]
                params["tool_choice"] = {"type": "tool", "name": OUTPUT_TOOL}
            else:
                import anthropic

                schema = anthropic.transform_schema(config.json_schema)
                params["output_config"] = {"format": {"type": "json_schema", "schema": schema}}
        return params

    async def generate(self, messages: list[ChatMessage], config: GenerateConfig) -> ModelOutput:
        import anthropic

        params = self.request_params(messages, config)
        client = self.sdk_client()
        timeout = config.timeout_s or self.timeout_s
        named = {k: v for k, v in params.items() if k in _SDK_ARGS}
        extra = {k: v for k, v in params.items() if k not in _SDK_ARGS} or None
        started = time.perf_counter()
        try:
            raw = await client.messages.with_raw_response.create(**named, extra_body=extra, timeout=timeout)
            response = await raw.parse()
        except anthropic.APITimeoutError as exc:
            raise ModelTimeoutError(f"no answer from {self.base_url} within {timeout:g} s") from exc
        except anthropic.APIConnectionError as exc:
            raise TransientError(redact(f"connection to {self.base_url} failed: {exc}", self._secrets)) from exc
        except anthropic.APIStatusError as exc:
            raise classify_http_error(
                exc.status_code, _error_text(exc), headers=exc.response.headers, secrets=self._secrets
            ) from exc
        except (anthropic.AnthropicError, ValueError) as exc:  # undecodable body
            raise TransientError(
                redact(f"unreadable response from {self.base_url}: {exc}", self._secrets)
            ) from exc
        output = self.parse_response(response.model_dump(), params, time.perf_counter() - started)
        return output.model_copy(update={"rate_limit": RateLimitInfo.from_headers(raw.headers)})

    def parse_response(
        self, data: dict[str, Any], params: dict[str, Any], latency_s: float, *, batch: bool = False
    ) -> ModelOutput:
        """Turn a Messages API response body (a dict) into a priced :class:`ModelOutput`.

        Raises:
            TransientError: the body is not a message (a malformed answer).
        """
        if not isinstance(data.get("content"), list):
            raise TransientError(f"malformed response from {self.base_url}: no content list")
        parts: list[str] = []
        for block in data["content"]:
            if block.get("type") == "text":
                parts.append(block.get("text") or "")
            elif block.get("type") == "tool_use" and block.get("name") == OUTPUT_TOOL:
                parts.append(json.dumps(block.get("input"), ensure_ascii=False))
        text = "".join(parts)
        stop = data.get("stop_reason")
        write = zero_if_absent(usage_field(data, "usage", "cache_creation_input_tokens"))
        read = zero_if_absent(usage_field(data, "usage", "cache_read_input_tokens"))
        usage = reported_usage(input_tokens=sum_counts(usage_field(data, "usage", "input_tokens"), write, read),
                               output_tokens=usage_field(data, "usage", "output_tokens"), cached_tokens=read,
                               reasoning_tokens=usage_field(data, "usage", "output_tokens_details", "thinking_tokens"))
        write = token_count(write) or 0
        status, error = Status.OK, None
        if stop == "refusal":
            status, error = Status.REFUSED, "stop_reason=refusal"
        elif stop in ("max_tokens", "model_context_window_exceeded"):
            status, error = Status.TRUNCATED, f"stop_reason={stop}"
        elif not text.strip():
            status, error = Status.EMPTY, f"no content (stop_reason={stop})"
        effective = {k: v for k, v in params.items() if k in ("max_tokens", "temperature", "top_p", "stop_sequences")}
        effective["json_schema"] = "output_config" in params or "tools" in params
        effective["served_model"] = data.get("model")
        effective["cache_write_tokens"] = write
        output = ModelOutput(
            provider=self.provider,
            model=self.model,
            text=text,
            status=status,
            finish_reason=stop,
            usage=usage,
            latency_s=latency_s,
            effective_params=effective,
            error=error,
        )
        return self.priced(output, batch=batch, cache_write_tokens=write)


def _error_text(exc: anthropic.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and inner.get("message"):
            return str(inner["message"])
    return str(exc.message)
