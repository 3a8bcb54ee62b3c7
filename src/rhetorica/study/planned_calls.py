"""What a unit will ask of a model or an external system, for ``rhetorica estimate`` and batch
capture: :class:`PlannedCall`, the bound's terms that add calls to it (:func:`with_repair`,
:func:`with_truncation_retry`), and the token count the estimate plans with."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rhetorica.models.api import ChatMessage, ModelAPI
from rhetorica.models.request_size import count_text, own_tokenizer, request_tokens
from rhetorica.rewriting.llm import OUTPUT_TOKEN_FACTOR

#: Term of the repair call a structured answer that fails validation gets (one per answer).
REPAIRS = "repairs"
#: Term of the second call a rewrite whose answer came back truncated gets (one per chunk).
TRUNCATION_RETRIES = "truncation retries"
#: Term of a LaTeX-project rewrite's repair rounds (every chosen paragraph again, per round).
REPAIR_ROUNDS = "repair rounds"
#: Tokens allowed for the repair request's note, which quotes the validation error.
REPAIR_NOTE_TOKENS = 256


@dataclass(frozen=True)
class PlannedCall:
    """One call a unit may make (estimate and batch).

    Attributes:
        model: model id as in the study file; for an external reviewer ``<kind>:<reviewer>``.
        messages: the messages, built by the same functions the runner uses (none for an
            external call).
        output_tokens: the output cap of the call (tokens).
        term: ``""`` for a call the unit makes; else the term of the upper bound the call belongs
            to (:data:`REPAIRS`, :data:`TRUNCATION_RETRIES`, ...): a call made only when an
            answer calls for it, counted apart.
        schema: the output schema the call sends (counted in its input).
        extra_input_tokens: input beyond ``messages`` (a repair's echo of the first answer and
            its note), in tokens.
        fixed_cost_usd: the cost of one call of an external system (a study setting;
            ``None`` for model calls, priced from their tokens).
    """

    model: str
    messages: list[ChatMessage]
    output_tokens: int
    term: str = ""
    schema: dict[str, Any] | None = None
    extra_input_tokens: int = 0
    fixed_cost_usd: float | None = None

    def input_tokens(self) -> int:
        """The request's input tokens as :func:`rhetorica.models.request_size.request_tokens`
        counts them (the count the budget reserves with), plus :attr:`extra_input_tokens`; 0 for
        an external call."""
        if self.fixed_cost_usd is not None:
            return 0
        return request_tokens(self.model, self.messages, self.schema) + self.extra_input_tokens


def with_repair(calls: list[PlannedCall]) -> list[PlannedCall]:
    """``calls`` and, for each, the repair call an invalid answer gets (term :data:`REPAIRS`):
    the same messages, then the first answer (at most the output cap) and the note."""
    return [*calls, *(replace(c, term=REPAIRS, extra_input_tokens=c.extra_input_tokens + c.output_tokens
                                   + REPAIR_NOTE_TOKENS) for c in calls)]


def with_truncation_retry(calls: list[PlannedCall]) -> list[PlannedCall]:
    """``calls`` and, for each, the second seed a truncated rewrite gets (term
    :data:`TRUNCATION_RETRIES`)."""
    return [*calls, *(replace(c, term=TRUNCATION_RETRIES) for c in calls)]


def approximate_tokens(text: str) -> int:
    """The model layer's token approximation (:meth:`rhetorica.models.api.ModelAPI.count_tokens`)."""

    return ModelAPI.count_tokens(None, text)  # type: ignore[arg-type]  # the default uses no state


def rewrite_cap(model_id: str, text: str) -> int:
    """The output cap a rewrite of ``text`` is sent with
    (:data:`rhetorica.rewriting.llm.OUTPUT_TOKEN_FACTOR` times its tokens, plus 32), its tokens
    counted by ``model_id``'s own tokenizer where one is at hand, else as the model layer does."""
    tokens = count_text(model_id, text) if own_tokenizer(model_id) is not None else approximate_tokens(text)
    return int(tokens * OUTPUT_TOKEN_FACTOR) + 32
