"""A study budget in US dollars that stops new paid calls before they could exceed it.

:func:`rhetorica.models.call.call_model` asks the budget for a *reservation* before each live call:
the call's worst-case cost (the request as sent — system, schema instruction, document, reference,
tools — counted as ``rhetorica estimate`` counts it, :mod:`rhetorica.models.request_size`, plus
``max_tokens`` output tokens, at the price table's rates). If the money already spent plus the reservations of calls in flight plus
this call's worst case exceeds the limit, the call is not made and :class:`BudgetExceededError` is
raised; otherwise the call runs and its reservation is replaced by its actual cost. With
``max_tokens`` set and prices known, spending therefore never exceeds the limit, even with many
calls in flight. Cache hits cost nothing and never need a reservation; calls of unpriced models
(local servers) cost $0 and are always allowed.

A call whose provider reported no usable input or output token count (``Usage.unreported``,
:mod:`rhetorica.models.usage`), or whose answer could not be read at all, is charged — in the
budget and in the call log's ``cost_usd`` — at the upper bound of what it can have cost
(:func:`charged_cost`), never at the 0 its missing count stands for.
"""

from __future__ import annotations

from rhetorica.models.api import ChatMessage, GenerateConfig, ModelAPI, ModelOutput, Usage
from rhetorica.models.errors import ModelError
from rhetorica.models.pricing import cost_usd, load_prices
from rhetorica.models.request_size import count_text

#: The token counts a call is priced by: one of them unreported, the call is charged at its bound.
PRICED_COUNTS = ("input_tokens", "output_tokens")


class BudgetExceededError(ModelError):
    """A paid call was not made because it could take spending past the study budget."""


def worst_case_cost(model: ModelAPI, messages: list[ChatMessage], config: GenerateConfig) -> float:
    """Upper-bound cost in US dollars of one call (0 when the model is unpriced).

    Input tokens: the request as sent (:meth:`ModelAPI.request_tokens`: messages, output schema,
    extras, chat template), counted as ``rhetorica estimate`` counts them; output tokens:
    ``config.max_tokens`` (0 when unset, so set ``max_tokens`` for a hard bound).
    """

    usage = Usage(input_tokens=model.request_tokens(messages, config), output_tokens=config.max_tokens or 0)
    return cost_usd(model.provider, getattr(model, "api_model", model.model), usage)


def input_cost(model: ModelAPI, messages: list[ChatMessage], config: GenerateConfig | None = None) -> float:
    """Cost in US dollars of the input tokens of one call (the request as sent,
    :meth:`ModelAPI.request_tokens`; 0 when the model is unpriced): what a provider certainly
    charges once the request is sent, whatever became of its answer (an abandoned call counts it)."""

    usage = Usage(input_tokens=model.request_tokens(messages, config or GenerateConfig()))
    return cost_usd(model.provider, getattr(model, "api_model", model.model), usage)


def charged_cost(model: ModelAPI, messages: list[ChatMessage], config: GenerateConfig, output: ModelOutput,
                 *, batch: bool = False) -> float:
    """What one answered call is charged in US dollars (the budget's spending and ``cost_usd`` in
    the call log): ``output.cost_usd`` (its reported usage priced) when the provider reported
    usable input and output counts; otherwise the call priced with each count it did not report
    replaced by its bound —

    - input tokens: the request as sent, counted as the reservation counts it
      (:meth:`ModelAPI.request_tokens`, an upper bound of what the provider counts,
      :mod:`rhetorica.models.request_size`), none of them reused from a prompt cache, each at the
      dearer of the fresh and the cache-write rate (a reported input keeps its reported reuse and
      cache writes);
    - output tokens: ``config.max_tokens`` (the server stops there), and without one the answer's
      text counted the same way (no cap exists; reasoning tokens the text does not show are then
      not counted);

    and never less than ``output.cost_usd``. 0 for an unpriced model.

    Args:
        batch: priced at the batch rates (a batch result).
    """
    api_model = getattr(model, "api_model", model.model)
    if not set(PRICED_COUNTS) & set(output.usage.unreported) or load_prices().lookup(model.provider, api_model) is None:
        return output.cost_usd  # reported, or free: nothing to bound (and no request to count)
    usage = output.usage
    input_tokens = (model.request_tokens(messages, config) if "input_tokens" in usage.unreported
                    else usage.input_tokens)
    output_tokens = (usage.output_tokens if "output_tokens" not in usage.unreported
                     else config.max_tokens if config.max_tokens is not None
                     else count_text(model.name, output.text))
    cached = usage.cached_tokens if "input_tokens" not in usage.unreported else 0
    # cache writes (Anthropic) as reported; of an unreported input, none or all (the dearer)
    writes = ((0, input_tokens) if "input_tokens" in usage.unreported
              else (int(output.effective_params.get("cache_write_tokens") or 0),))
    bound = Usage(input_tokens=input_tokens, output_tokens=output_tokens, cached_tokens=cached)
    return max(output.cost_usd, *(cost_usd(model.provider, api_model, bound, batch=batch, cache_write_tokens=write)
                                  for write in writes))


class Budget:
    """Money limit shared by every call of a study run (one event loop; not thread-safe).

    Args:
        limit_usd: the budget (>= 0).
        spent_usd: money already spent before this run (e.g. the store's call log sum, >= 0).

    Raises:
        ValueError: negative amounts.
    """

    def __init__(self, limit_usd: float, spent_usd: float = 0.0) -> None:
        if limit_usd < 0 or spent_usd < 0:
            raise ValueError(f"budget amounts must be >= 0 (limit {limit_usd}, spent {spent_usd})")
        self.limit_usd = limit_usd
        self.spent_usd = spent_usd
        self.reserved_usd = 0.0
        #: calls refused because of the budget
        self.refused = 0

    @property
    def remaining_usd(self) -> float:
        """Limit minus spent minus reserved (may be 0, never negative)."""
        return max(self.limit_usd - self.spent_usd - self.reserved_usd, 0.0)

    def reserve(self, model: ModelAPI, messages: list[ChatMessage], config: GenerateConfig) -> float:
        """Reserve the worst-case cost of one call; returns the amount reserved.

        Raises:
            BudgetExceededError: the call could take spending past the limit (message says how much
                was spent and what the call could cost).
        """
        amount = worst_case_cost(model, messages, config)
        if amount > 0 and self.spent_usd + self.reserved_usd + amount > self.limit_usd:
            self.refused += 1
            raise BudgetExceededError(
                f"study budget of ${self.limit_usd:.4f} reached: ${self.spent_usd:.4f} spent, "
                f"${self.reserved_usd:.4f} reserved by calls in flight (abandoned calls of earlier runs count "
                f"at their input cost), and this {model.name} call could "
                f"cost up to ${amount:.4f}; no new paid calls are made (raise budget_usd to continue)"
            )
        self.reserved_usd += amount
        return amount

    def settle(self, reserved: float, actual_usd: float) -> None:
        """Replace a reservation by the call's actual cost."""
        self.reserved_usd = max(self.reserved_usd - reserved, 0.0)
        self.spent_usd += actual_usd
