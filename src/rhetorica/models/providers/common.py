"""Pieces shared by the HTTP API providers: key lookup, error classification, Retry-After parsing.

Every provider maps its SDK's failures onto the classified errors of
:mod:`rhetorica.models.errors` through :func:`classify_http_error`, so that the retry policy in
:func:`rhetorica.models.call.call_model` treats all providers alike:

=============================================  =========================================
HTTP outcome                                   classified error
=============================================  =========================================
429 (``insufficient_quota`` excluded)           :class:`RateLimitError` (Retry-After kept)
400/413/422/500 naming the context window      :class:`ContextOverflowError`
401, 403                                       :class:`AuthenticationError`
404, or code ``model_not_found``               :class:`ModelNotFoundError`
400, 422; 500 whose body says the input is     :class:`InvalidRequestError`
invalid (pydantic/FastAPI validation wording)
408, 409, other 5xx                            :class:`TransientError`
other 4xx                                      :class:`PermanentError`
=============================================  =========================================

A 500 is normally transient, but some servers (llama-cpp-python's) answer a request that failed
input validation with 500 and a body such as ``Input should be 'text' or 'json_object'``; retrying
that only repeats the rejection, so such bodies are classified as invalid requests.

API keys are read from environment variables only, are never stored on a model's public
attributes, and are scrubbed from every error message (:func:`redact`).
"""

from __future__ import annotations

import asyncio
import contextlib
import email.utils
import os
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any, Generic, TypeVar

from rhetorica.models.errors import (
    AuthenticationError,
    ContextOverflowError,
    InvalidRequestError,
    ModelError,
    ModelNotFoundError,
    PermanentError,
    RateLimitError,
    TransientError,
)
from rhetorica.models.redaction import redact_url

#: Phrases providers use when the input does not fit the context window (OpenAI, vLLM, llama.cpp
#: server, Anthropic, Gemini, Ollama wordings). vLLM's own wording is "The decoder prompt (length
#: N) is longer than the maximum model length of M" (vllm/v1/engine/processor.py).
_CONTEXT_OVERFLOW = re.compile(
    r"context[_ ]length|maximum context|context window|context size|exceed_context|"
    r"prompt is too long|too many tokens|input token count.*exceeds|input is too long|"
    r"prompt \(length \d+\) is longer than the maximum model length|maximum model length",
    re.IGNORECASE,
)

#: Wordings of a request rejected by input validation (pydantic/FastAPI, OpenAI-style servers).
_INVALID_INPUT = re.compile(
    r"input should be|validation error|invalid_request_error|invalid request|is not valid|"
    r"unprocessable|extra inputs are not permitted|field required|unrecognized request argument|"
    r"is not supported|unsupported (?:value|parameter)",
    re.IGNORECASE,
)

#: The longest message text kept from a provider error (bodies can be large).
_MAX_MESSAGE = 500


def api_key_from_env(env_var: str, *, provider: str, default: str | None = None) -> str:
    """Read an API key from the environment variable ``env_var``.

    Args:
        env_var: name of the variable (the key itself is never passed in configs).
        provider: provider name, for the error message.
        default: value used when the variable is unset or empty (``None`` = the key is required).

    Returns:
        The key.

    Raises:
        PermanentError: the variable is unset and no default is allowed.
    """
    value = os.environ.get(env_var, "")
    if value:
        return value
    if default is not None:
        return default
    raise PermanentError(
        f"provider {provider!r} needs an API key in the environment variable {env_var}; set it "
        "(keys are read from the environment only and never written anywhere)"
    )


def endpoint_key_env(
    provider: str, api_key_env: str | None, base_url: str | None, official_url: str | None, default_env: str
) -> str:
    """The environment variable whose key may go to ``base_url``.

    A provider's own variable (``default_env``, e.g. ``ANTHROPIC_API_KEY``) holds the key of its
    official endpoint and goes only there; any other endpoint gets a key only from a variable the
    study names in ``api_key_env``.

    Args:
        provider: provider name, for the message.
        api_key_env: the variable the study named, or ``None``.
        base_url: the endpoint (``None`` = the SDK's default, i.e. the official one).
        official_url: the official endpoint.
        default_env: the provider's own variable.

    Raises:
        AuthenticationError: ``base_url`` is not the official endpoint and no variable was named.
    """

    if api_key_env is not None:
        return api_key_env
    if base_url is None or base_url.rstrip("/") == (official_url or "").rstrip("/"):
        return default_env
    raise AuthenticationError(
        f"provider {provider!r} with base_url {redact_url(base_url)}: {default_env} is sent only to "
        f"{official_url or 'the official endpoint'}; name the variable holding this endpoint's key in the "
        "option api_key_env"
    )


def redact(text: str, secrets: list[str]) -> str:
    """Replace every occurrence of each secret (length >= 6) in ``text`` with ``***``."""
    for secret in secrets:
        if secret and len(secret) >= 6:
            text = text.replace(secret, "***")
    return text


def parse_retry_after(headers: Mapping[str, str] | None, now: float | None = None) -> float | None:
    """Seconds to wait according to ``retry-after-ms`` or ``Retry-After`` (RFC 9110 §10.2.3).

    Args:
        headers: response headers (case-insensitive mapping, or a plain dict with any case).
        now: current POSIX time for HTTP-date values (default: ``time.time()``).

    Returns:
        Non-negative seconds, or ``None`` when neither header is present or parsable.
    """
    if not headers:
        return None
    lowered = {k.lower(): v for k, v in headers.items()}
    millis = lowered.get("retry-after-ms")
    if millis is not None:
        try:
            return max(float(millis) / 1000.0, 0.0)
        except ValueError:
            pass
    value = lowered.get("retry-after")
    if value is None:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(when.timestamp() - (time.time() if now is None else now), 0.0)


def classify_http_error(
    status_code: int,
    message: str,
    *,
    headers: Mapping[str, str] | None = None,
    code: str | None = None,
    secrets: list[str] | None = None,
) -> ModelError:
    """Map an HTTP error response to a classified :class:`ModelError` (table in the module doc).

    Args:
        status_code: HTTP status (>= 400).
        message: the provider's error text (truncated to 500 characters, secrets redacted).
        headers: response headers, for ``Retry-After``.
        code: the provider's machine-readable error code when it gave one.
        secrets: strings to scrub from the message (the API key).

    Returns:
        The error instance to raise.
    """
    text = redact(f"HTTP {status_code}: {message}"[:_MAX_MESSAGE], secrets or [])
    if status_code == 429:
        if code == "insufficient_quota" or "insufficient_quota" in message:
            return PermanentError(f"{text} (quota exhausted: retrying will not help)")
        return RateLimitError(text, retry_after=parse_retry_after(headers))
    if status_code in (400, 413, 422, 500) and (
        code in ("context_length_exceeded", "exceed_context_size_error") or _CONTEXT_OVERFLOW.search(message)
    ):
        return ContextOverflowError(f"context overflow, the input does not fit the model's context window ({text})")
    if status_code in (401, 403):
        return AuthenticationError(text)
    if status_code == 404 or code == "model_not_found":
        return ModelNotFoundError(text)
    if status_code in (400, 422) or (status_code == 500 and _INVALID_INPUT.search(message)):
        return InvalidRequestError(text)
    if status_code in (408, 409) or status_code >= 500:
        return TransientError(text)
    return PermanentError(text)


class Secret:
    """Holds a credential; ``repr``/``str`` show ``***`` so dumps of an object never reveal it."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        """The credential itself (only for the SDK client that sends it)."""
        return self._value

    def __repr__(self) -> str:
        return "Secret(***)"

    __str__ = __repr__


T = TypeVar("T")


class LoopBoundClient(Generic[T]):
    """One SDK client per running event loop, closed when that loop shuts down.

    HTTP connection pools are bound to the event loop that opened them; a model object reused
    across ``asyncio.run`` calls (tests, the CLI) gets a fresh client in each loop. The client is
    closed inside its loop during ``asyncio.run``'s async-generator shutdown, so no connection is
    left to be finalised after the loop has closed (which prints "Event loop is closed" noise).

    Args:
        factory: builds a client; called at most once per event loop.
        closer: ``async (client) -> None`` that closes a client.
    """

    def __init__(self, factory: Callable[[], T], closer: Callable[[T], Awaitable[None]]) -> None:
        self._factory = factory
        self._closer = closer
        self._loop: asyncio.AbstractEventLoop | None = None
        self._client: T | None = None
        self._guard: AsyncIterator[None] | None = None

    def get(self) -> T:
        """The client for the running loop (must be called inside a coroutine)."""
        loop = asyncio.get_running_loop()
        if self._client is None or self._loop is not loop:
            self._client = self._factory()
            self._loop = loop
            # the loop tracks async generators weakly: keep a strong reference until shutdown
            self._guard = self._close_at_shutdown(self._client)
            loop.create_task(self._guard.__anext__())  # type: ignore[arg-type]
        return self._client

    async def _close_at_shutdown(self, client: T) -> AsyncIterator[None]:
        try:
            yield
        finally:
            if self._client is client:
                self._client = None
                self._loop = None
            with contextlib.suppress(Exception):
                await self._closer(client)


def drop_none(values: dict[str, Any]) -> dict[str, Any]:
    """``values`` without the ``None`` entries."""
    return {k: v for k, v in values.items() if v is not None}
