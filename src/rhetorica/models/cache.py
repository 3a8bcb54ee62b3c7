"""Content-addressed response cache keys and the call-log protocol the store implements."""

from __future__ import annotations

import functools
import hashlib
from typing import Any, Protocol

from rhetorica.hashing import canonical_json
from rhetorica.models.api import ChatMessage, GenerateConfig, ModelAPI, ModelOutput


def cache_key(
    provider: str,
    model: str,
    messages: list[ChatMessage],
    config: GenerateConfig,
    replicate: int,
    options: dict[str, Any] | None = None,
) -> str:
    """Hash of everything that determines an output.

    Key = SHA-256 over (provider, model, messages, output schema and the sampling parameters that
    change the output, the provider options that change the output, replicate index) —
    ARCHITECTURE.md, "Model layer". ``timeout_s`` and the endpoint URL are excluded.

    Args:
        options: provider option values that can change the output
            (:meth:`rhetorica.models.api.ModelAPI.output_options`); ``None`` = none.

    Returns:
        64-character hex string, identical across processes for equal inputs.
    """
    # = content_hash("model-call/v2", provider, model, messages, output-affecting config, options,
    # replicate, length=64): the SHA-256 of the parts up to the messages is made once per prompt
    # (every replicate of a paper sends the same messages, with its own seed) and copied per call
    state = _prefix_state(provider, model, tuple(messages)).copy()
    rest = ",".join([canonical_json(config.output_affecting()), canonical_json(options or {}), canonical_json(replicate)])
    state.update(f"{rest}]".encode("utf-8"))
    return state.hexdigest()


@functools.lru_cache(maxsize=64)
def _prefix_state(provider: str, model: str, messages: tuple[ChatMessage, ...]) -> Any:
    """SHA-256 state after ``[`` and the canonical JSON of the parts of :func:`cache_key` up to
    the messages, each followed by ``,`` (the canonical JSON of a list joins its items' with
    ``,``). Callers copy it; it is never updated."""
    parts = ["model-call/v2", provider, model, [m.model_dump() for m in messages]]
    return hashlib.sha256(("[" + ",".join(map(canonical_json, parts)) + ",").encode("utf-8"))


def model_cache_key(model: ModelAPI, messages: list[ChatMessage], config: GenerateConfig, replicate: int) -> str:
    """:func:`cache_key` of one call of ``model`` (its logical name and its output options)."""
    return cache_key(model.provider, model.cache_model_name, messages, config, replicate, model.output_options())


class Caller(Protocol):
    """Who makes a logged call: a model connection (:class:`ModelAPI`) or an external reviewer
    system (provider = its kind, model = its configuration's name)."""

    @property
    def provider(self) -> str: ...

    @property
    def model(self) -> str: ...


class CallLog(Protocol):
    """What :func:`rhetorica.models.call.call_model` (and an external reviewer's call) needs
    from a store."""

    def cache_get(self, key: str) -> ModelOutput | None:
        """Return the cached ok output for ``key`` or None."""

    def cache_put(self, key: str, output: ModelOutput) -> None:
        """Store an ok output under ``key`` (committed at once: a paid call is never lost)."""

    def record_call(self, unit_key: str | None, key: str, output: ModelOutput, config: GenerateConfig) -> None:
        """Append one finished row to the model-call log (cache hits and merged calls, flagged)."""

    def begin_call(
        self, unit_key: str | None, key: str, model: Caller, config: GenerateConfig, reserved_usd: float, *,
        input_usd: float = 0.0, probe: bool = False, attempt: int = 1,
    ) -> int:
        """Log a request as it is sent (status ``in_flight``, its reserved cost counted as spent;
        ``input_usd``: the cost of its input tokens, counted if it is abandoned; ``probe``: sent
        while the endpoint's structured-output mode is being found; ``attempt``: the attempt of
        its call, 1 for the first, higher for a retry); returns the row id for :meth:`finish_call`."""

    def finish_call(self, call_id: int, output: ModelOutput, config: GenerateConfig,
                    cache_key: str | None = None) -> None:
        """Replace the in-flight row ``call_id`` by the call's outcome; with ``cache_key`` (given
        only for an ok output), also cache the output under it as :meth:`cache_put` does, committed
        in the same transaction (a paid call is never lost)."""

    def accepted_mode(self, endpoint: str) -> str | None:
        """The structured-output mode ``endpoint`` accepted before (:mod:`rhetorica.models.negotiation`)."""

    def save_accepted_mode(self, endpoint: str, mode: str) -> None:
        """Remember that ``endpoint`` accepted the structured-output ``mode``."""
