"""The call log and response cache over a store that holds plain rows.

The store (:class:`rhetorica.store.db.Store`) knows rows, not model clients: it keeps output JSON
under a cache key and ``model_calls`` rows given as column -> value mappings. :class:`StoreCallLog`
is the adapter that implements :class:`rhetorica.models.cache.CallLog` over it: it turns
:class:`~rhetorica.models.api.ModelOutput` and :class:`~rhetorica.models.api.GenerateConfig` into
those rows and back, and redacts credentials written into URLs (:mod:`rhetorica.models.redaction`)
before anything reaches the store.
"""

from __future__ import annotations

import json
from typing import Any, Protocol

from rhetorica.hashing import content_hash
from rhetorica.models.api import GenerateConfig, ModelOutput
from rhetorica.models.cache import Caller
from rhetorica.models.redaction import redact_urls
from rhetorica.status import Status


class CallRows(Protocol):
    """The plain-row call-log and cache methods of the study store."""

    def cached_output(self, key: str) -> str | None: ...
    def cache_output(self, key: str, provider: str, model: str, output_json: str) -> None: ...
    def record_call(self, row: dict[str, Any]) -> None: ...
    def begin_call(self, row: dict[str, Any]) -> int: ...
    def finish_call(self, call_id: int, row: dict[str, Any],
                    cache: tuple[str, str, str, str] | None = None) -> None: ...
    def accepted_mode(self, endpoint: str) -> str | None: ...
    def save_accepted_mode(self, endpoint: str, mode: str) -> None: ...


class StoreCallLog:
    """:class:`rhetorica.models.cache.CallLog` over a store's rows.

    Args:
        store: anything with the :class:`CallRows` methods (the study store).
    """

    def __init__(self, store: CallRows) -> None:
        self.store = store

    def cache_get(self, key: str) -> ModelOutput | None:
        """The cached ok output under ``key``, or ``None``."""
        found = self.store.cached_output(key)
        return ModelOutput.model_validate_json(found) if found is not None else None

    def cache_put(self, key: str, output: ModelOutput) -> None:
        """Cache an ok output under ``key``.

        Raises:
            ValueError: ``output`` is not ``ok`` (errors and refusals are never cached).
        """
        self.store.cache_output(*_cache_row(key, output))

    def record_call(self, unit_key: str | None, key: str, output: ModelOutput, config: GenerateConfig) -> None:
        """Append one finished call (a cache hit, a merged call, or one that never reached a server)."""
        self.store.record_call({"unit_key": unit_key, "cache_key": key, "provider": output.provider,
                                "model": redact_urls(output.model), "cache_hit": int(output.cache_hit),
                                **_outcome_row(output, config)})

    def begin_call(
        self, unit_key: str | None, key: str, model: Caller, config: GenerateConfig, reserved_usd: float, *,
        input_usd: float = 0.0, probe: bool = False, attempt: int = 1,
    ) -> int:
        """Log a request as it is sent (status ``in_flight``, ``reserved_usd`` counted as spent;
        ``input_usd``, ``probe`` and ``attempt`` as in :meth:`rhetorica.models.cache.CallLog.begin_call`)."""
        params = json.dumps(_plain(config.output_affecting()), sort_keys=True)
        return self.store.begin_call({"unit_key": unit_key, "cache_key": key, "provider": model.provider,
                                      "model": redact_urls(model.model), "reserved_usd": reserved_usd,
                                      "input_usd": input_usd, "probe": int(probe), "attempt": attempt,
                                      "params_json": params})

    def finish_call(self, call_id: int, output: ModelOutput, config: GenerateConfig,
                    cache_key: str | None = None) -> None:
        """Replace the in-flight row ``call_id`` by the call's outcome and actual cost; with
        ``cache_key``, cache the ok ``output`` under it in the same transaction.

        Raises:
            ValueError: ``cache_key`` is given and ``output`` is not ``ok``.
        """
        cache = _cache_row(cache_key, output) if cache_key is not None else None
        self.store.finish_call(call_id, _outcome_row(output, config), cache)

    def accepted_mode(self, endpoint: str) -> str | None:
        """The structured-output mode ``endpoint`` accepted, as the store recorded it."""
        return self.store.accepted_mode(endpoint_id(endpoint))

    def save_accepted_mode(self, endpoint: str, mode: str) -> None:
        """Record the structured-output mode ``endpoint`` accepted (under :func:`endpoint_id`)."""
        self.store.save_accepted_mode(endpoint_id(endpoint), mode)


def endpoint_id(endpoint: str) -> str:
    """The store's name of an endpoint: a hash of its connection key (provider and URL), so that
    no endpoint URL is written into the store (the response cache and call log hold none either)."""
    return content_hash("endpoint", endpoint, length=24)


def _cache_row(key: str, output: ModelOutput) -> tuple[str, str, str, str]:
    """The response-cache row of an ok ``output``: key, provider, redacted model, output JSON.

    Raises:
        ValueError: ``output`` is not ``ok`` (errors and refusals are never cached).
    """
    if output.status != Status.OK:
        raise ValueError(f"refusing to cache a {output.status} output (only ok outputs are cached)")
    return key, output.provider, redact_urls(output.model), output.model_dump_json()


def _plain(params: dict[str, Any]) -> dict[str, Any]:
    """Call parameters for the log: the output schema itself is left out (it is in the form)."""
    return {k: v for k, v in params.items() if k != "json_schema"}


def _outcome_row(output: ModelOutput, config: GenerateConfig) -> dict[str, Any]:
    """The ``model_calls`` columns of a finished call: status, finish reason, redacted error, the
    four token counts and the names of those the provider did not report usably (``Usage.unreported``,
    comma-separated), cost (US dollars), latency (s) and the parameters as JSON — the ones the
    provider reports as sent (``effective_params``), else the config's."""
    params = _plain(output.effective_params or config.output_affecting())
    return {
        "status": str(output.status), "finish_reason": output.finish_reason,
        "error": redact_urls(output.error) if output.error else None,
        "input_tokens": output.usage.input_tokens, "output_tokens": output.usage.output_tokens,
        "cached_tokens": output.usage.cached_tokens, "reasoning_tokens": output.usage.reasoning_tokens,
        "usage_unreported": ",".join(output.usage.unreported),
        "cost_usd": output.cost_usd, "latency_s": output.latency_s, "params_json": json.dumps(params, sort_keys=True),
    }
