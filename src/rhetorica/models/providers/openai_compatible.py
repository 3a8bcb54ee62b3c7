"""OpenAI chat-completions providers: live requests over aiohttp
(:mod:`rhetorica.models.providers.json_http`, for the client's CPU per call), batch jobs through
the official ``openai`` SDK.

- ``openai-compatible/<model>@<base_url>``: any server that speaks the chat-completions API (vLLM,
  Ollama, llama.cpp server, OpenRouter, other vendors). Its prompt cache is asked of the server
  (:mod:`rhetorica.models.server_cache`) unless the study declares it; a call scheduled on a server
  slot sends ``id_slot`` and ``cache_prompt`` (llama.cpp's fields). It gets a key only from the environment
  variable the study names in ``api_key_env``; without one it sends the placeholder ``"EMPTY"``
  (local servers accept it). ``OPENAI_API_KEY`` is never sent to such an endpoint by default: a
  key goes only to the endpoint it belongs to.
- ``openai/<model>`` (:mod:`rhetorica.models.providers.openai_provider`) reuses this class.

Credentials written into the URL (``http://user:pass@host/v1``, ``?key=...``) are used for the
request but redacted (:mod:`rhetorica.models.redaction`) in the model id, the connection key and
every message.

Outcome mapping (ARCHITECTURE.md, "Failures are data"):

- ``finish_reason == "length"`` -> ``truncated``, also when a reasoning model spent the whole
  budget on reasoning and returned no content;
- ``finish_reason == "content_filter"`` or a ``refusal`` message -> ``refused``;
- no content -> ``empty``; otherwise ``ok``;
- a field read of a type the format does not allow (``choices`` an object, ``content`` a number,
  ``logprobs`` a list) -> :class:`rhetorica.models.errors.UnreadableAnswerError` naming the field
  (a failure, never text made of the value).
- HTTP and transport failures raise the classified errors of :mod:`rhetorica.models.errors`
  (:func:`rhetorica.models.providers.common.classify_http_error`); nothing retries here (the
  SDK client's ``max_retries=0``) because :func:`rhetorica.models.call.call_model` retries.

Structured output is negotiated per endpoint (``structured_output: auto``), strongest mode first:

1. ``json_schema``: ``response_format={"type": "json_schema", ...}`` (OpenAI "Structured Outputs";
   vLLM, llama.cpp's server and Ollama accept it);
2. ``json_object``: ``response_format={"type": "json_object", "schema": ...}`` (llama-cpp-python's
   server constrains decoding to the schema; others at least return JSON);
3. ``prompt``: no ``response_format``; the schema is only stated in the instructions and the
   answer is validated afterwards like any other.

A mode the server rejects as an invalid request moves the call to the next mode at once (no
retry, no backoff). The walk happens once per endpoint (:mod:`rhetorica.models.negotiation`): calls
that arrive while it runs wait for it; the accepted mode is kept for the process and, in a study,
in the store, so a later process does not probe again. A study can pin a mode
(``structured_output: json_schema|json_object|prompt``); a pinned mode is never changed. An
``extra_body`` with a ``response_format`` pins the mode it names (it is what the server receives).
In ``json_object`` and ``prompt`` mode the instructions also state the schema. The call log
records, as ``structured_output``, the mode of the request actually sent.
"""

from __future__ import annotations

import copy
import json
import re
import time
from typing import TYPE_CHECKING, Any, Literal

import aiohttp

from rhetorica.hashing import content_hash
from rhetorica.models import negotiation
from rhetorica.models.api import ChatMessage, GenerateConfig, ModelOutput, Usage
from rhetorica.models.errors import ModelTimeoutError, PermanentError, TransientError, UnreadableAnswerError
from rhetorica.models.limits import RateLimitInfo
from rhetorica.models.logprobs import TokenLogprob
from rhetorica.models.providers.base import DEFAULT_TIMEOUT_S, HTTPModelAPI
from rhetorica.models.providers.common import classify_http_error, drop_none, redact
from rhetorica.models.providers.json_http import JSONPoster, endpoint_url
from rhetorica.models.redaction import redact_urls
from rhetorica.models.request_size import schema_note
from rhetorica.models.server_cache import CACHE_SLOT
from rhetorica.models.usage import reported_usage, token_count, usage_field
from rhetorica.status import Status

if TYPE_CHECKING:  # the SDK is imported where a call needs it, so listing providers does not load it
    from openai import AsyncOpenAI

StructuredOutputMode = Literal["auto", "json_schema", "json_object", "prompt"]

#: Structured-output modes, strongest first (the order negotiation walks).
STRUCTURED_OUTPUT_MODES: tuple[str, ...] = ("json_schema", "json_object", "prompt")


_MODEL_AT_URL = re.compile(r"^(?P<model>[^@]+)@(?P<url>https?://\S+)$")


def split_model_at_url(spec: str) -> tuple[str, str]:
    """Split ``<model>@<base_url>`` into its parts.

    Raises:
        PermanentError: ``spec`` has no ``@http(s)://...`` part.
    """
    match = _MODEL_AT_URL.match(spec)
    if match is None:
        raise PermanentError(
            f"openai-compatible model {redact_urls(spec)!r} must look like '<model>@<base_url>', e.g. "
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


class OpenAICompatibleModel(HTTPModelAPI):
    """A chat-completions endpoint reached through ``AsyncOpenAI(base_url=...)``.

    Args:
        model: ``<model>@<base_url>`` (the part of the model id after ``openai-compatible/``).
        api_key_env: environment variable holding this endpoint's key; required to be set when
            named. When ``None`` no key is sent (the placeholder ``"EMPTY"``, which local servers
            accept).
        max_concurrency: calls in flight at once on this endpoint (>= 1).
        timeout_s: default per-call timeout in seconds (``GenerateConfig.timeout_s`` overrides).
        strict_schema: send JSON schemas in strict mode (transformed by :func:`strict_json_schema`).
        structured_output: ``auto`` (negotiate, see the module docstring) or a pinned mode.
        max_tokens_param: request field that carries ``max_tokens`` (``max_tokens`` for most
            servers; ``max_completion_tokens`` for OpenAI reasoning models).
        requests_per_minute: optional request-rate cap (> 0) for this connection.
        tokens_per_minute: optional token-rate cap (> 0; input + requested output tokens).
        extra_body: extra request fields passed through (e.g. vLLM's ``top_k``); part of the
            effective parameters.

    Raises:
        PermanentError: malformed ``model`` spec, an unknown ``structured_output`` mode, or a named
            key variable that is not set.
    """

    prompt_cache = "probe"
    #: the server may take llama.cpp's ``id_slot`` and ``cache_prompt`` fields (a self-hosted server)
    slot_fields = True

    provider = "openai-compatible"
    supports_logprobs = True
    url_in_model_id = True
    negotiated_modes = STRUCTURED_OUTPUT_MODES

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
        structured_output: StructuredOutputMode = "auto",
    ) -> None:
        if max_tokens_param not in ("max_tokens", "max_completion_tokens"):
            raise PermanentError(
                f"max_tokens_param must be 'max_tokens' or 'max_completion_tokens', got {max_tokens_param!r}"
            )
        if structured_output not in ("auto", *STRUCTURED_OUTPUT_MODES):
            raise PermanentError(
                f"structured_output must be one of auto, {', '.join(STRUCTURED_OUTPUT_MODES)}; "
                f"got {structured_output!r}"
            )
        name, url = self._resolve(model)
        super().__init__(name, base_url=url, api_key_env=api_key_env, max_concurrency=max_concurrency,
                         timeout_s=timeout_s, requests_per_minute=requests_per_minute,
                         tokens_per_minute=tokens_per_minute)
        if self._name_has_url:
            self.model = f"{name}@{self.base_url}"
        self.strict_schema = strict_schema
        self.max_tokens_param = max_tokens_param
        self.extra_body = dict(extra_body or {})
        self.structured_output = structured_output
        self._http = JSONPoster(endpoint_url(self._url or "", "chat/completions"), max_concurrency)

    #: the stored model name carries the endpoint (``name@url``) for this provider
    _name_has_url = True

    def _resolve(self, spec: str) -> tuple[str, str]:
        """(model name, base_url) from the constructor's ``model`` argument."""
        return split_model_at_url(spec)

    def _new_client(self) -> AsyncOpenAI:
        from openai import AsyncOpenAI

        return AsyncOpenAI(api_key=self._key.reveal(), base_url=self._url, max_retries=0, timeout=self.timeout_s)

    async def _close_client(self, client: AsyncOpenAI) -> None:
        await client.close()

    @property
    def pinned_mode(self) -> str | None:
        """The structured-output mode every call is sent in, or ``None`` when it is negotiated:
        the mode an ``extra_body.response_format`` names (``prompt`` for any other type), else a
        pinned ``structured_output``."""
        override = self.extra_body.get("response_format")
        if override is not None:
            kind = override.get("type") if isinstance(override, dict) else None
            return kind if kind in ("json_schema", "json_object") else "prompt"
        return None if self.structured_output == "auto" else self.structured_output

    @property
    def structured_output_mode(self) -> str:
        """The mode the next structured call starts with: the pinned one, else the one this
        endpoint accepted before in this process, else ``json_schema``."""
        return (self.pinned_mode or negotiation.PROCESS.known(self.connection_key)
                or STRUCTURED_OUTPUT_MODES[0])

    def negotiable_modes(self, config: GenerateConfig) -> tuple[str, ...]:
        """The modes to negotiate for ``config``, strongest first; empty without a schema or with
        a pinned mode (:mod:`rhetorica.models.negotiation`)."""
        if config.json_schema is None or self.pinned_mode is not None:
            return ()
        return STRUCTURED_OUTPUT_MODES

    @classmethod
    def option_warnings(cls, options: dict[str, Any]) -> list[str]:
        """Warnings about ``options`` that override what rhetorica sets in a request: an
        ``extra_body`` key the request already carries (``response_format``, negotiated; the
        sampling fields, set from the study)."""
        extra = options.get("extra_body") or {}
        out = []
        if "response_format" in extra:
            out.append("options.extra_body.response_format overrides the structured-output mode rhetorica "
                       "negotiates (structured_output); every call sends it, and the call log records its mode, "
                       "its name and its schema's hash")
        for key in ("temperature", "top_p", "seed", "stop", "max_tokens", "max_completion_tokens", "model",
                    "messages"):
            if key in extra:
                out.append(f"options.extra_body.{key} overrides the {key} rhetorica sends from the study "
                           f"(sampling or messages); the call log records the value sent")
        return out

    def request_extras(self) -> tuple[dict[str, Any], ...]:
        """The ``extra_body`` every request carries."""
        return (self.extra_body,)

    def request_params(
        self, messages: list[ChatMessage], config: GenerateConfig, mode: str | None = None
    ) -> dict[str, Any]:
        """The chat-completions request body for one call (no key; also used by batch files).

        Args:
            mode: structured-output mode for a call with ``config.json_schema`` (default
                :attr:`structured_output_mode`; a :attr:`pinned_mode` wins); ignored without a schema.

        Only what the study set is sent: a sampling parameter left unset (``None``) is omitted,
        so the server's own default applies. A call the scheduler gave a server slot
        (:data:`rhetorica.models.server_cache.CACHE_SLOT`, a ``slots`` model's lane) carries it as
        llama.cpp's ``id_slot``, with ``cache_prompt: true`` (where :attr:`slot_fields`).
        """
        mode = self.pinned_mode or mode or self.structured_output_mode
        schema = config.json_schema
        if schema is not None and mode != "json_schema":
            messages = with_schema_instruction(messages, schema)
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
        slot = CACHE_SLOT.get()
        if slot is not None and self.slot_fields:  # the scheduler's lane for a slots server (llama.cpp)
            params.update(id_slot=slot, cache_prompt=True)
        if config.top_logprobs is not None:  # chat completions' token log-probabilities
            params.update(logprobs=True, top_logprobs=config.top_logprobs)
        if schema is not None and mode == "json_schema":
            sent = strict_json_schema(schema) if self.strict_schema else schema
            params["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "output", "schema": sent, "strict": self.strict_schema},
            }
        elif schema is not None and mode == "json_object":
            params["response_format"] = {"type": "json_object", "schema": schema}
        params.update(self.extra_body)
        return params

    async def generate(self, messages: list[ChatMessage], config: GenerateConfig) -> ModelOutput:
        """One call; a structured one negotiates its mode through this process's
        :data:`rhetorica.models.negotiation.PROCESS` (a study run negotiates in
        :func:`rhetorica.models.call.call_model`, which logs each request)."""
        modes = self.negotiable_modes(config)
        if not modes:
            return await self.generate_in_mode(messages, config, self.structured_output_mode)
        return await negotiation.PROCESS.send(
            self.connection_key, modes, lambda mode, _probe: self.generate_in_mode(messages, config, mode))

    async def generate_in_mode(self, messages: list[ChatMessage], config: GenerateConfig, mode: str) -> ModelOutput:
        """One request in structured-output ``mode`` (ignored without a schema; an
        ``extra_body.response_format`` still wins: :attr:`pinned_mode`).

        Raises:
            InvalidRequestError: the endpoint rejected the request (e.g. the mode).
            ModelError: the other classified failures.
        """
        params = self.request_params(messages, config, mode)
        data, latency, info = await self._send(params, config)
        output = self.parse_response(data, params, latency)
        effective = dict(output.effective_params)
        if config.json_schema is not None or "response_format" in params:
            effective["structured_output"] = sent_mode(params)
            effective.update(response_format_record(params))
        return output.model_copy(update={"effective_params": effective, "rate_limit": info})

    async def _send(
        self, params: dict[str, Any], config: GenerateConfig
    ) -> tuple[dict[str, Any], float, RateLimitInfo | None]:
        """Send one request (over :mod:`rhetorica.models.providers.json_http`, not the SDK: the
        client's CPU per call); (response body, latency in s, rate-limit headers) or a classified error."""
        timeout = config.timeout_s or self.timeout_s
        started = time.perf_counter()
        try:
            status, headers, raw = await self._http.post(params, bearer=self._key.reveal(), timeout_s=timeout)
        except TimeoutError as exc:
            raise ModelTimeoutError(f"no answer from {self.base_url} within {timeout:g} s") from exc
        except aiohttp.ClientError as exc:
            raise TransientError(redact(f"connection to {self.base_url} failed: {exc}", self._secrets)) from exc
        latency = time.perf_counter() - started
        if status >= 400:
            message, code = _error_text(raw)
            raise classify_http_error(status, message, headers=headers, code=code, secrets=self._secrets)
        try:
            data = json.loads(raw)
        except ValueError as exc:  # undecodable body
            raise TransientError(redact(f"unreadable response from {self.base_url}: {exc}", self._secrets)) from exc
        if not isinstance(data, dict):
            raise TransientError(f"malformed response from {self.base_url}: the body is not a JSON object")
        return data, latency, RateLimitInfo.from_headers(headers)

    def parse_response(
        self, data: dict[str, Any], params: dict[str, Any], latency_s: float, *, batch: bool = False
    ) -> ModelOutput:
        """Turn a chat-completions response body (a dict) into a :class:`ModelOutput`.

        Shared by live calls and batch results, which carry the same body.

        The fields read must have the types of the chat-completions format: ``choices`` an array
        whose first item is an object; its ``message`` an object (or absent or null: no content);
        ``content`` a string, null, or an array of content parts (objects whose ``text`` is a
        string when given); ``refusal`` and ``finish_reason`` strings or null; ``logprobs``, when
        asked for, as :func:`chat_logprobs` reads it. A value of another type is never turned
        into text.

        Raises:
            TransientError: the body has no ``choices`` or an empty array (a malformed answer).
            UnreadableAnswerError: a field read has a type the format does not allow (message names
                the field, its type and the endpoint).
        """
        choices = data.get("choices")
        if choices is None or choices == []:
            raise TransientError(f"malformed response from {self.base_url}: no choices")
        choice = self._typed(self._typed(choices, "choices", list)[0], "choices[0]", dict)
        message = self._typed(choice.get("message"), "choices[0].message", dict, absent={})
        content = self._typed(message.get("content"), "choices[0].message.content", str, list, absent="")
        if isinstance(content, list):  # some servers return content parts
            parts = [self._typed(p, f"choices[0].message.content[{i}]", dict) for i, p in enumerate(content)]
            content = "".join(self._typed(p.get("text"), f"choices[0].message.content[{i}].text", str, absent="")
                              for i, p in enumerate(parts))
        text = content
        self._typed(message.get("refusal"), "choices[0].message.refusal", str, absent="")
        self._typed(choice.get("finish_reason"), "choices[0].finish_reason", str, absent="")
        finish = choice.get("finish_reason")
        usage = _usage(data)
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
            logprobs=self._logprobs(choice) if params.get("logprobs") else None,
        )
        return self.priced(output, batch=batch)

    def _typed(self, value: Any, field: str, *types: type, absent: Any = None) -> Any:
        """``value`` when it is of one of ``types`` (a ``bool`` is no number); ``absent`` when it is
        ``None`` (the field absent or null) and ``absent`` is given.

        Raises:
            UnreadableAnswerError: it is neither (names ``field``, the JSON type found and the endpoint).
        """
        if value is None and absent is not None:
            return absent
        if isinstance(value, types) and not (isinstance(value, bool) and bool not in types):
            return value
        wanted = " or ".join(_JSON_TYPES[t] for t in types)
        raise UnreadableAnswerError(f"malformed answer from {redact_urls(self.name)}: {field} is {json_type(value)}, "
                                    f"not {wanted}")

    def _logprobs(self, choice: dict[str, Any]) -> list[TokenLogprob] | None:
        try:
            return chat_logprobs(choice)
        except ValueError as exc:
            raise UnreadableAnswerError(f"malformed answer from {redact_urls(self.name)}: {exc}") from exc


_JSON_TYPES: dict[type, str] = {dict: "an object", list: "an array", str: "a string", float: "a number",
                                int: "a number", bool: "a boolean"}


def json_type(value: Any) -> str:
    """The JSON type of a decoded value, with its article (``an object``, ``null``, ...)."""
    if value is None:
        return "null"
    return next((name for kind, name in reversed(_JSON_TYPES.items()) if isinstance(value, kind)),
                f"a {type(value).__name__}")


def chat_logprobs(choice: dict[str, Any]) -> list[TokenLogprob] | None:
    """The tokens of a chat-completions choice's ``logprobs.content`` (OpenAI's shape, also vLLM's
    and llama.cpp's servers'), or ``None`` when the response has none (``logprobs`` or its
    ``content`` absent, null or empty).

    Each item must be an object with a string ``token`` and a number ``logprob`` (<= 0 is not
    checked: a server's value is kept as given), and ``top_logprobs``, when given, an array of such
    objects; nothing is filled in for a value that is missing.

    Raises:
        ValueError: a field of another type (message names the field and the type found).
    """
    logprobs = choice.get("logprobs")
    if logprobs is None:
        return None
    if not isinstance(logprobs, dict):
        raise ValueError(f"choices[0].logprobs is {json_type(logprobs)}, not an object")
    content = logprobs.get("content")
    if not content:
        return None
    if not isinstance(content, list):
        raise ValueError(f"choices[0].logprobs.content is {json_type(content)}, not an array")
    return [TokenLogprob(token=token, logprob=logprob,
                         top=[_token_logprob(t, f"choices[0].logprobs.content[{i}].top_logprobs[{j}]")
                              for j, t in enumerate(_array(item.get("top_logprobs") or [],
                                                           f"choices[0].logprobs.content[{i}].top_logprobs"))])
            for i, item in enumerate(content)
            for token, logprob in [_token_logprob(item, f"choices[0].logprobs.content[{i}]")]]


def _array(value: Any, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"{field} is {json_type(value)}, not an array")
    return value


def _token_logprob(item: Any, field: str) -> tuple[str, float]:
    """``(token, logprob)`` of one log-probability object.

    Raises:
        ValueError: ``item`` is not an object, its ``token`` not a string or its ``logprob`` not a number.
    """
    if not isinstance(item, dict):
        raise ValueError(f"{field} is {json_type(item)}, not an object")
    token, logprob = item.get("token"), item.get("logprob")
    if not isinstance(token, str):
        raise ValueError(f"{field}.token is {json_type(token)}, not a string")
    if isinstance(logprob, bool) or not isinstance(logprob, int | float):
        raise ValueError(f"{field}.logprob is {json_type(logprob)}, not a number")
    return token, float(logprob)


def response_format_record(params: dict[str, Any]) -> dict[str, str]:
    """What the call log keeps of a request's ``response_format`` beyond its mode: the schema's
    name (``response_format_name``, a ``json_schema`` format's) and the SHA-256 of its schema's
    canonical JSON (``response_format_schema_sha256``, 64 hex characters); empty without a schema."""
    fmt = params.get("response_format")
    if not isinstance(fmt, dict):
        return {}
    named = fmt.get("json_schema") if isinstance(fmt.get("json_schema"), dict) else {}
    schema = named.get("schema", fmt.get("schema"))
    out = {"response_format_name": str(named["name"])} if named.get("name") is not None else {}
    if schema is not None:
        out["response_format_schema_sha256"] = content_hash(schema, length=64)
    return out


def sent_mode(params: dict[str, Any]) -> str:
    """The structured-output mode of a request body: its ``response_format`` type (``json_schema``,
    ``json_object``, another type as given), ``prompt`` without one."""
    fmt = params.get("response_format")
    if fmt is None:
        return "prompt"
    return str(fmt.get("type")) if isinstance(fmt, dict) else "prompt"


def with_schema_instruction(messages: list[ChatMessage], schema: dict[str, Any]) -> list[ChatMessage]:
    """``messages`` with the schema instruction (:func:`rhetorica.models.request_size.schema_note`)
    appended to the first system message (or a system message put first when there is none)."""
    note = schema_note(schema)
    out = list(messages)
    for index, message in enumerate(out):
        if message.role == "system":
            out[index] = ChatMessage(role="system", content=f"{message.content}\n\n{note}")
            return out
    return [ChatMessage(role="system", content=note), *out]


def _usage(data: dict[str, Any]) -> Usage:
    """The call's usage (:func:`rhetorica.models.usage.reported_usage`): ``usage.prompt_tokens``,
    ``usage.completion_tokens``, ``usage.completion_tokens_details.reasoning_tokens`` and the reused
    prompt tokens from ``usage.prompt_tokens_details.cached_tokens``, else (when that is 0 or not
    usable) from llama.cpp's ``timings.cache_n`` where that is usable (the prompt tokens its server
    took from the slot's cache; its ``prompt_n`` are those it evaluated)."""
    cached = usage_field(data, "usage", "prompt_tokens_details", "cached_tokens")
    cache_n = usage_field(data, "timings", "cache_n")
    if not token_count(cached) and token_count(cache_n) is not None:
        cached = cache_n
    return reported_usage(input_tokens=usage_field(data, "usage", "prompt_tokens"),
                          output_tokens=usage_field(data, "usage", "completion_tokens"), cached_tokens=cached,
                          reasoning_tokens=usage_field(data, "usage", "completion_tokens_details", "reasoning_tokens"))


def _error_text(raw: bytes) -> tuple[str, str | None]:
    """(message, error code) of an error response body: OpenAI's ``{"error": {"message", "code"}}``,
    a plain ``{"error": "..."}``, or the body's text."""
    try:
        body = json.loads(raw)
    except ValueError:
        return raw.decode("utf-8", "replace"), None
    inner = body.get("error", body) if isinstance(body, dict) else body
    if isinstance(inner, dict):
        code = inner.get("code")
        return str(inner.get("message") or json.dumps(inner)), None if code is None else str(code)
    return (inner if isinstance(inner, str) else raw.decode("utf-8", "replace")), None
