"""Batch mode: submit calls to a provider's batch API, collect the results from any later process.

Batch APIs (OpenAI Batch, Anthropic Message Batches, Gemini Batch Mode) answer within 24 hours at
half the price. rhetorica submits the calls a study needs, stores the provider's batch id and every
request's cache key in the study store (tables ``batches`` and ``batch_requests``, migration 0002),
and any later process collects the results into the same response cache and call log as live calls,
so the study then runs from the cache without paying again.

- The custom id of each request is its response-cache key (:func:`rhetorica.models.cache.model_cache_key`),
  so a result lands exactly where a live call with the same inputs would look.
- Submitting is idempotent: requests already cached, or waiting in an uncollected batch, are left out.
- Collecting is idempotent and resumable: each request's result is written (cache, call log, status)
  before the next; a collection killed half-way is finished by the next one without double entries.
- Failed requests (provider errors, expired requests) are recorded with their reason and never
  cached, so the next submission or live run retries them.

Providers: ``openai`` and ``openai-compatible`` (servers that implement ``/v1/batches``),
``anthropic``, ``google``. A provider has batch mode when :data:`rhetorica.registry.batch_apis` holds
an adapter under its name (a :class:`BatchAPI` factory taking the model) and its model class has
``request_params(messages, config) -> dict`` and ``parse_response(body, params, latency_s, batch=True)
-> ModelOutput``; a plug-in provider declares its batch API the same way::

    from rhetorica.registry import batch_apis

    batch_apis.add("my-provider", MyBatches, description="my provider's batch API")  # MyBatches(model)
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Protocol

import httpx
from pydantic import BaseModel, Field

from rhetorica.models.api import ChatMessage, GenerateConfig, ModelAPI, ModelOutput
from rhetorica.models.budget import charged_cost
from rhetorica.models.cache import model_cache_key
from rhetorica.models.redaction import redact_urls
from rhetorica.models.errors import ModelError, TransientError, unexpected
from rhetorica.models.providers.common import classify_http_error, redact
from rhetorica.models.store_log import StoreCallLog
from rhetorica.models.usage import unknown_usage
from rhetorica.registry import batch_apis
from rhetorica.status import Status


class BatchRequest(BaseModel):
    """One call to run in a batch.

    Attributes:
        messages: chat messages.
        config: sampling/output config (``timeout_s`` is ignored in batches).
        replicate: replicate index (part of the cache key).
        unit_key: work unit the call belongs to, for the call log.
        cache_key: the call's cache key when the caller already knows it (it must be the key
            :func:`rhetorica.models.call.call_model` computes for this call); default: computed.
    """

    messages: list[ChatMessage]
    config: GenerateConfig
    replicate: int = Field(default=0, ge=0)
    unit_key: str | None = None
    cache_key: str | None = None


class BatchReport(BaseModel):
    """State of one batch after a collect pass.

    Attributes:
        batch_id: the provider's id.
        model_id: ``provider/model``.
        state: ``submitted`` (still running), ``collected``, or ``failed`` (the provider failed the
            whole batch; its requests stay uncached and can be submitted again).
        detail: the provider's status text.
        requests: requests in the batch.
        statuses: collected results by output status.
    """

    batch_id: str
    model_id: str
    state: str
    detail: str | None = None
    requests: int
    statuses: dict[str, int] = Field(default_factory=dict)


class BatchStore(Protocol):
    """What batch mode needs from the study store (:class:`rhetorica.store.db.Store` has it)."""

    def transaction(self) -> AbstractContextManager[Any]: ...
    def rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]: ...
    # the plain-row call log and cache (:class:`rhetorica.models.store_log.CallRows`)
    def cached_output(self, key: str) -> str | None: ...
    def cache_output(self, key: str, provider: str, model: str, output_json: str) -> None: ...
    def record_call(self, row: dict[str, Any]) -> None: ...
    def begin_call(self, row: dict[str, Any]) -> int: ...
    def finish_call(self, call_id: int, row: dict[str, Any]) -> None: ...
    # the batch tables (:class:`rhetorica.store.batches.BatchTables`)
    def pending_batch_keys(self) -> set[str]: ...
    def add_batch(self, batch_id: str, provider: str, model_id: str, options_json: str,
                  requests: list[tuple[str, str | None, str]]) -> None: ...
    def open_batches(self) -> list[Any]: ...
    def set_batch_state(self, batch_id: str, state: str, detail: str | None = None) -> None: ...
    def batch_requests(self, batch_id: str) -> list[Any]: ...
    def set_batch_request_status(self, batch_id: str, cache_key: str, status: str) -> None: ...
    def batch_call_logged(self, cache_key: str, batch_id: str) -> bool: ...


# -- provider adapters ---------------------------------------------------------------------------------
class BatchResult(BaseModel):
    """One request's result as a batch API returns it.

    Attributes:
        body: the provider's response body (what the model's ``parse_response`` reads), or ``None``.
        error: why the request failed (``None`` when it has a body).
        http_status: the request's HTTP status when it failed with one (classified like live calls).
    """

    body: dict[str, Any] | None = None
    error: str | None = None
    http_status: int | None = None


class BatchAPI(Protocol):
    """A provider's batch API, made per model (``adapter = batch_apis.get(provider)(model)``)."""

    async def submit(self, items: list[tuple[str, dict[str, Any]]]) -> str:
        """Submit ``(cache key, request params)`` pairs; returns the batch id (a string the store keeps)."""
        ...

    async def state(self, batch_id: str) -> tuple[str, str]:
        """``(state, detail)``: state ``running``, ``ended`` or ``failed``; detail the provider's status text."""
        ...

    async def results(self, batch_id: str) -> dict[str, BatchResult]:
        """Cache key -> result of an ended batch (a request missing here is recorded as unanswered)."""
        ...


class _OpenAIBatches:
    """OpenAI Batch API: JSONL file upload, ``/v1/batches``, output and error files."""

    def __init__(self, model: Any) -> None:
        self.model = model

    async def submit(self, items: list[tuple[str, dict[str, Any]]]) -> str:
        client = self.model.sdk_client()
        lines = [
            json.dumps({"custom_id": key, "method": "POST", "url": "/v1/chat/completions", "body": params})
            for key, params in items
        ]
        upload = await client.files.create(
            file=("rhetorica-batch.jsonl", ("\n".join(lines) + "\n").encode()), purpose="batch"
        )
        batch = await client.batches.create(
            input_file_id=upload.id, endpoint="/v1/chat/completions", completion_window="24h"
        )
        return str(batch.id)

    async def state(self, batch_id: str) -> tuple[str, str]:
        batch = await self.model.sdk_client().batches.retrieve(batch_id)
        if batch.status in ("completed", "expired", "cancelled"):
            return "ended", batch.status
        if batch.status == "failed":
            errors = getattr(batch, "errors", None)
            return "failed", f"failed: {errors}" if errors else "failed"
        return "running", batch.status

    async def results(self, batch_id: str) -> dict[str, BatchResult]:
        client = self.model.sdk_client()
        batch = await client.batches.retrieve(batch_id)
        found: dict[str, BatchResult] = {}
        for file_id in (batch.output_file_id, getattr(batch, "error_file_id", None)):
            if not file_id:
                continue
            content = await client.files.content(file_id)
            for line in content.text.splitlines():
                if not line.strip():
                    continue
                entry = json.loads(line)
                response, error = entry.get("response") or {}, entry.get("error")
                status = response.get("status_code")
                body = response.get("body") if isinstance(response.get("body"), dict) else None
                if error or status != 200:
                    inner = (body or {}).get("error") or error or {}
                    message = inner.get("message") if isinstance(inner, dict) else str(inner)
                    code = inner.get("code") if isinstance(inner, dict) else None
                    found[entry["custom_id"]] = BatchResult(error=f"{code or 'error'}: {message}", http_status=status)
                else:
                    found[entry["custom_id"]] = BatchResult(body=body)
        return found


class _AnthropicBatches:
    """Anthropic Message Batches API."""

    def __init__(self, model: Any) -> None:
        self.model = model

    async def submit(self, items: list[tuple[str, dict[str, Any]]]) -> str:
        batch = await self.model.sdk_client().messages.batches.create(
            requests=[{"custom_id": key, "params": params} for key, params in items]
        )
        return str(batch.id)

    async def state(self, batch_id: str) -> tuple[str, str]:
        batch = await self.model.sdk_client().messages.batches.retrieve(batch_id)
        return ("ended" if batch.processing_status == "ended" else "running"), str(batch.processing_status)

    async def results(self, batch_id: str) -> dict[str, BatchResult]:
        found: dict[str, BatchResult] = {}
        async for entry in await self.model.sdk_client().messages.batches.results(batch_id):
            result = entry.result
            if result.type == "succeeded":
                found[entry.custom_id] = BatchResult(body=result.message.model_dump())
            elif result.type == "errored":
                error = result.error.model_dump() if hasattr(result.error, "model_dump") else {}
                inner = error.get("error") or {}
                found[entry.custom_id] = BatchResult(error=f"{inner.get('type', 'error')}: {inner.get('message', '')}")
            else:  # canceled | expired
                found[entry.custom_id] = BatchResult(error=f"request {result.type}")
        return found


class _GoogleBatches:
    """Gemini Batch Mode with inline requests (each carries its cache key in ``metadata``)."""

    _ENDED = {"JOB_STATE_SUCCEEDED", "JOB_STATE_CANCELLED", "JOB_STATE_EXPIRED", "JOB_STATE_PARTIALLY_SUCCEEDED"}
    _FAILED = {"JOB_STATE_FAILED"}

    def __init__(self, model: Any) -> None:
        self.model = model

    async def submit(self, items: list[tuple[str, dict[str, Any]]]) -> str:
        src = [{"contents": p["contents"], "config": p["config"], "metadata": {"key": key}} for key, p in items]
        job = await self.model.sdk_client().aio.batches.create(
            model=self.model.model, src=src, config={"display_name": "rhetorica"}
        )
        return str(job.name)

    async def state(self, batch_id: str) -> tuple[str, str]:
        job = await self.model.sdk_client().aio.batches.get(name=batch_id)
        state = str(getattr(job.state, "value", job.state))
        if state in self._ENDED:
            return "ended", state
        if state in self._FAILED:
            return "failed", f"{state}: {job.error}" if getattr(job, "error", None) else state
        return "running", state

    async def results(self, batch_id: str) -> dict[str, BatchResult]:
        job = await self.model.sdk_client().aio.batches.get(name=batch_id)
        found: dict[str, BatchResult] = {}
        for item in (job.dest.inlined_responses if job.dest else None) or []:
            key = (item.metadata or {}).get("key")
            if key is None:
                continue
            if item.response is not None:
                found[key] = BatchResult(body=item.response.model_dump(mode="json"))
            else:
                err = item.error
                found[key] = BatchResult(
                    error=f"{getattr(err, 'code', 'error')}: {getattr(err, 'message', err)}",
                    http_status=getattr(err, "code", None),
                )
        return found


for _name, _api, _what in (("openai", _OpenAIBatches, "OpenAI Batch API (/v1/files, /v1/batches)"),
                           ("openai-compatible", _OpenAIBatches, "OpenAI Batch API of the server (/v1/batches)"),
                           ("anthropic", _AnthropicBatches, "Anthropic Message Batches API"),
                           ("google", _GoogleBatches, "Gemini Batch Mode (inline requests)")):
    batch_apis.add(_name, _api, description=_what)


def supports_batch(model: ModelAPI) -> bool:
    """True when ``model``'s provider has a registered batch API and the model can build and parse
    its requests (``request_params``, ``parse_response``)."""
    return model.provider in batch_apis and hasattr(model, "request_params") and hasattr(model, "parse_response")


def _adapter(model: ModelAPI) -> BatchAPI:
    if not supports_batch(model):
        raise ValueError(f"provider {model.provider!r} has no batch mode; known: {', '.join(batch_apis.names())}")
    return batch_apis.get(model.provider)(model)


# -- submit --------------------------------------------------------------------------------------------
async def submit_batch(
    model: ModelAPI,
    requests: list[BatchRequest],
    store: BatchStore,
    *,
    options: dict[str, Any] | None = None,
) -> str | None:
    """Submit the calls of ``requests`` that are neither cached nor already waiting in a batch.

    Args:
        model: provider connection whose provider has a registered batch API (:func:`supports_batch`).
        requests: the calls.
        store: the study store (holds the batch tables and the response cache).
        options: provider options needed to rebuild ``model`` in a later process (e.g.
            ``base_url``, ``api_key_env``); stored as JSON, so never put a key here.

    Returns:
        The provider's batch id, or ``None`` when nothing needed submitting.

    Raises:
        ValueError: the provider has no batch mode.
        ModelError: the provider refused the submission (classified like live calls).
    """
    adapter = _adapter(model)
    log = StoreCallLog(store)
    pending = store.pending_batch_keys()
    items: list[tuple[str, dict[str, Any], BatchRequest]] = []
    seen: set[str] = set()
    for request in requests:
        key = request.cache_key or model_cache_key(model, request.messages, request.config, request.replicate)
        if key in seen or key in pending or log.cache_get(key) is not None:
            continue
        seen.add(key)
        params = model.request_params(request.messages, request.config)  # type: ignore[attr-defined]
        items.append((key, params, request))
    if not items:
        return None
    try:
        batch_id = await adapter.submit([(key, params) for key, params, _ in items])
    except Exception as exc:
        raise _classified(exc, model) from exc
    # URL credentials are never stored (*** in their place): a batch sent to an endpoint whose URL
    # carries credentials cannot be collected from the stored options alone
    store.add_batch(batch_id, model.provider, model.name, redact_urls(json.dumps(options or {}, sort_keys=True)),
                      [(key, request.unit_key, request.model_dump_json()) for key, _, request in items])
    return batch_id


def _classified(exc: Exception, model: ModelAPI) -> Exception:
    """SDK exceptions from batch endpoints as classified errors (same table as live calls): an HTTP
    status by its class; a connection failure (the SDKs' ``APIConnectionError``, httpx's transport
    errors) as :class:`TransientError` naming the provider and endpoint, credentials redacted."""
    status = getattr(exc, "status_code", None) or getattr(exc, "code", None)
    if isinstance(status, int):
        headers = getattr(getattr(exc, "response", None), "headers", None)
        return classify_http_error(status, str(getattr(exc, "message", exc)), headers=headers)
    if isinstance(exc, httpx.TransportError) or any(c.__name__ == "APIConnectionError" for c in type(exc).__mro__):
        where = getattr(model, "base_url", None) or "its default endpoint"
        text = redact(f"connection to provider {model.provider!r} ({where}) failed: {type(exc).__name__}: {exc}",
                      list(getattr(model, "_secrets", [])))
        return TransientError(redact_urls(text))
    return exc


# -- collect -------------------------------------------------------------------------------------------
ModelFactory = Callable[[str, dict[str, Any]], ModelAPI]


def _output_for(model: ModelAPI, request: BatchRequest, result: BatchResult | None, batch_id: str) -> ModelOutput:
    params = model.request_params(request.messages, request.config)  # type: ignore[attr-defined]
    if result is not None and result.body is not None:
        try:
            output: ModelOutput = model.parse_response(result.body, params, 0.0, batch=True)  # type: ignore[attr-defined]
        except Exception as exc:  # noqa: BLE001 - an answer that cannot be read is this request's failure
            reason = (f"{type(exc).__name__}: {exc}" if isinstance(exc, ModelError) else
                      unexpected(f"the answer of {redact_urls(model.name)} could not be read", exc))
            output = ModelOutput(provider=model.provider, model=model.model, status=Status.ERROR, error=reason,
                                 usage=unknown_usage())  # answered: the batch bills it
    else:
        reason = result.error if result is not None else "no result returned for this request"
        if result is not None and result.http_status:
            err = classify_http_error(result.http_status, reason or "")
            reason = f"{type(err).__name__}: {err}"
        output = ModelOutput(
            provider=model.provider, model=model.model, status=Status.ERROR, error=f"batch {batch_id}: {reason}"
        )
    params_seen = dict(output.effective_params)
    params_seen["batch_id"] = batch_id
    charged = charged_cost(model, request.messages, request.config, output, batch=True)  # unreported: its bound
    return output.model_copy(update={"effective_params": params_seen, "cost_usd": charged})


async def collect_batches(
    store: BatchStore,
    model_factory: ModelFactory,
    *,
    wait: bool = False,
    poll_interval_s: float = 60.0,
    timeout_s: float | None = None,
) -> list[BatchReport]:
    """Poll every uncollected batch in ``store`` and write finished results into the cache.

    Args:
        store: the study store.
        model_factory: ``(model_id, options) -> ModelAPI`` (e.g. ``registry.get_model``); keys come
            from the environment of the collecting process.
        wait: keep polling until every batch has ended (or ``timeout_s`` passed).
        poll_interval_s: seconds between polls when waiting (> 0).
        timeout_s: give up waiting after this many seconds (``None`` = no limit).

    Returns:
        One report per batch that was open at the start.

    Raises:
        ModelError: a provider status or results call failed (classified; nothing is lost: the
            next collect resumes).
    """
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    reports: dict[str, BatchReport] = {}
    while True:
        running = 0
        for row in store.open_batches():
            batch_id, model_id = row[0], row[2]
            model = model_factory(model_id, json.loads(row[3]))
            adapter = _adapter(model)
            try:
                state, detail = await adapter.state(batch_id)
            except Exception as exc:
                raise _classified(exc, model) from exc
            report = BatchReport(
                batch_id=batch_id, model_id=model_id, state="submitted", detail=detail, requests=row[4]
            )
            reports[batch_id] = report
            if state == "running":
                running += 1
                continue
            if state == "failed":
                store.set_batch_state(batch_id, "failed", detail)
                report.state = "failed"
                continue
            store.set_batch_state(batch_id, "ended", detail)
            try:
                results = await adapter.results(batch_id)
            except Exception as exc:
                raise _classified(exc, model) from exc
            report.statuses = _write_results(store, model, batch_id, results)
            report.state = "collected"
            store.set_batch_state(batch_id, "collected")
        if not wait or running == 0 or (deadline is not None and time.monotonic() >= deadline):
            return list(reports.values())
        await asyncio.sleep(poll_interval_s)


def _write_results(store: BatchStore, model: ModelAPI, batch_id: str, results: dict[str, BatchResult]) -> dict[str, int]:
    counts: dict[str, int] = {}
    log = StoreCallLog(store)
    for key, unit_key, request_json, status in store.batch_requests(batch_id):
        if status is not None:
            counts[status] = counts.get(status, 0) + 1
            continue
        request = BatchRequest.model_validate_json(request_json)
        output = _output_for(model, request, results.get(key), batch_id)
        if output.status == Status.OK:
            log.cache_put(key, output)
        if not store.batch_call_logged(key, batch_id):
            log.record_call(unit_key, key, output, request.config)
        store.set_batch_request_status(batch_id, key, str(output.status))
        counts[str(output.status)] = counts.get(str(output.status), 0) + 1
    return counts
