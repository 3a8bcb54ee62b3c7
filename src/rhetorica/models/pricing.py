"""Token prices and the cost of one call.

The price table ships as versioned package data (``rhetorica/data/prices/prices-*.json``; the newest
version is used) with the source page and the date of every price. A user override file (JSON or
YAML, same shape, given as a path or in the ``RHETORICA_PRICES`` environment variable) adds models
or replaces entries, e.g. for a local server's electricity price or a negotiated rate.

Cost of one call, in US dollars (prices are per million tokens)::

    cost = ((input - cached - cache_write) * p_in + cached * p_cached + cache_write * p_write
            + output * p_out) / 1e6

Output tokens include reasoning tokens (providers bill them as output). Batch calls use the batch
rates. A prompt longer than a price's ``long_context.threshold_tokens`` uses the long-context rates
(Gemini Pro models price prompts above 200k tokens higher).
"""

from __future__ import annotations

import functools
import json
import os
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rhetorica.models.api import Usage
import yaml

#: Environment variable naming a user price override file.
OVERRIDE_ENV = "RHETORICA_PRICES"

#: Shortest prompt prefix a provider caches, in tokens (OpenAI's automatic caching and Anthropic's
#: Sonnet/Opus breakpoints; Anthropic's Haiku models need 2,048). Cached tokens are billed at
#: ``cached_input``, Anthropic's cache writes at ``cache_write_input``.
MIN_CACHED_PREFIX_TOKENS = 1024
#: OpenAI caches a prompt's prefix in steps of this many tokens past the minimum ("cache hits occur
#: in 128-token increments", OpenAI's prompt-caching guide).
CACHE_STEP_TOKENS = 128


def cached_prefix_tokens(provider: str, tokens: int) -> int:
    """Tokens of a repeated ``tokens``-token prompt that a provider-side prefix cache serves.

    Below :data:`MIN_CACHED_PREFIX_TOKENS` nothing is cached. OpenAI (``openai``) serves the longest
    prefix of ``MIN_CACHED_PREFIX_TOKENS + k·CACHE_STEP_TOKENS`` tokens that fits; Anthropic's
    explicit breakpoints (set after the system prompt and after the paper) and the other prefix caches
    serve the whole repeated prompt.

    Args:
        provider: the provider's registered name.
        tokens: the prompt's input tokens (>= 0).
    """
    if tokens < MIN_CACHED_PREFIX_TOKENS:
        return 0
    if provider == "openai":
        return MIN_CACHED_PREFIX_TOKENS + CACHE_STEP_TOKENS * ((tokens - MIN_CACHED_PREFIX_TOKENS) // CACHE_STEP_TOKENS)
    return tokens


def cached_prefix_rule(provider: str) -> str:
    """:func:`cached_prefix_tokens`'s rule for ``provider``, in the report's words
    (``from 1,024 tokens, in 128-token steps``)."""
    if provider == "openai":
        return f"from {MIN_CACHED_PREFIX_TOKENS:,} tokens, in {CACHE_STEP_TOKENS}-token steps"
    return f"from {MIN_CACHED_PREFIX_TOKENS:,} tokens, whole"


class Rates(BaseModel):
    """US dollars per million tokens (all >= 0)."""

    model_config = ConfigDict(extra="forbid")

    input: float = Field(ge=0)
    output: float = Field(ge=0)
    cached_input: float | None = Field(default=None, ge=0)
    cache_write_input: float | None = Field(default=None, ge=0)


class LongContext(Rates):
    """Rates for prompts longer than ``threshold_tokens`` input tokens."""

    threshold_tokens: int = Field(gt=0)


class ModelPrice(Rates):
    """Price of one model.

    Attributes:
        batch_input / batch_output / batch_cached_input: batch-API rates (standard rates apply
            when a batch rate is missing, so an estimate never undercounts).
        long_context: higher rates for long prompts, where the vendor has them.
        aliases: other model names (dated snapshots) that share this price.
        source: URL of the vendor page the price comes from.
        as_of: date (YYYY-MM-DD) the price was read from that page.
    """

    batch_input: float | None = Field(default=None, ge=0)
    batch_output: float | None = Field(default=None, ge=0)
    batch_cached_input: float | None = Field(default=None, ge=0)
    long_context: LongContext | None = None
    aliases: list[str] = Field(default_factory=list)
    source: str
    as_of: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}$")


class PriceTable(BaseModel):
    """A price table: ``models`` maps ``provider/model`` to its :class:`ModelPrice`."""

    model_config = ConfigDict(extra="forbid")

    version: str
    notes: str = ""
    currency: str = "USD"
    unit: str = "per 1M tokens"
    models: dict[str, ModelPrice]

    def lookup(self, provider: str, model: str) -> ModelPrice | None:
        """The price of ``provider/model`` (aliases included), or ``None`` if unpriced."""
        key = f"{provider}/{model}"
        if key in self.models:
            return self.models[key]
        for name, price in self.models.items():
            if name.startswith(f"{provider}/") and model in price.aliases:
                return price
        return None


def _packaged_table() -> tuple[str, str]:
    folder = resources.files("rhetorica") / "data" / "prices"
    names = sorted(p.name for p in folder.iterdir() if p.name.startswith("prices-") and p.name.endswith(".json"))
    if not names:
        raise FileNotFoundError("no price table in rhetorica/data/prices (broken install)")
    return names[-1], (folder / names[-1]).read_text(encoding="utf-8")


def _read_override(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"price override file {path} cannot be read: {exc.strerror}") from exc
    if path.suffix.lower() in (".yaml", ".yml"):

        data = yaml.safe_load(text)
    else:
        data = json.loads(text)
    if not isinstance(data, dict) or not isinstance(data.get("models"), dict):
        raise ValueError(f"price override file {path} must be a mapping with a 'models' mapping")
    return data


@functools.lru_cache(maxsize=8)
def _load(override: str | None, mtime: float | None) -> PriceTable:
    name, text = _packaged_table()
    table = PriceTable.model_validate_json(text)
    if override is None:
        return table
    data = _read_override(Path(override))
    models = dict(table.models)
    for key, raw in data["models"].items():
        try:
            models[key] = ModelPrice.model_validate(raw)
        except ValidationError as exc:
            raise ValueError(f"price override file {override}: entry {key!r} is invalid: {exc}") from exc
    return PriceTable(version=f"{table.version}+{Path(override).name}", models=models)


def load_prices(override: Path | str | None = None) -> PriceTable:
    """The packaged price table merged with an override file.

    Args:
        override: override file (JSON or YAML); default: ``$RHETORICA_PRICES`` when set.

    Raises:
        ValueError: the override file is unreadable or an entry is invalid (message names both).
    """
    path = override if override is not None else os.environ.get(OVERRIDE_ENV) or None
    if path is None:
        return _load(None, None)
    resolved = Path(path).expanduser().resolve()
    mtime = resolved.stat().st_mtime if resolved.exists() else None
    return _load(str(resolved), mtime)


def price_usage(price: ModelPrice, usage: Usage, *, batch: bool = False, cache_write_tokens: int = 0) -> float:
    """Cost in US dollars of ``usage`` at ``price`` (formula in the module docstring).

    Args:
        price: the model's price.
        usage: token counts of one call.
        batch: priced at the batch rates.
        cache_write_tokens: input tokens written to the prompt cache (Anthropic), part of
            ``usage.input_tokens``.

    Returns:
        Cost >= 0.
    """
    rates: Rates = price
    if price.long_context is not None and usage.input_tokens > price.long_context.threshold_tokens:
        rates = price.long_context
    p_in, p_out = rates.input, rates.output
    p_cached = rates.cached_input if rates.cached_input is not None else p_in
    p_write = rates.cache_write_input if rates.cache_write_input is not None else p_in
    if batch and rates is price:
        p_in = price.batch_input if price.batch_input is not None else p_in
        p_out = price.batch_output if price.batch_output is not None else p_out
        p_cached = price.batch_cached_input if price.batch_cached_input is not None else p_cached
    cached = min(usage.cached_tokens, usage.input_tokens)
    write = min(cache_write_tokens, usage.input_tokens - cached)
    fresh = usage.input_tokens - cached - write
    return (fresh * p_in + cached * p_cached + write * p_write + usage.output_tokens * p_out) / 1e6


def cost_usd(
    provider: str,
    model: str,
    usage: Usage,
    *,
    batch: bool = False,
    cache_write_tokens: int = 0,
    table: PriceTable | None = None,
) -> float:
    """Cost of one call of ``provider/model``; 0.0 when the model has no price (local servers).

    Args:
        provider: provider name (``openai``, ``anthropic``, ``google``, ``openai-compatible`` ...).
        model: model name as sent to the API (no ``@url`` part).
        usage: token counts.
        batch: batch-API call.
        cache_write_tokens: see :func:`price_usage`.
        table: price table (default :func:`load_prices`).
    """
    price = (table or load_prices()).lookup(provider, model)
    if price is None:
        return 0.0
    return price_usage(price, usage, batch=batch, cache_write_tokens=cache_write_tokens)
