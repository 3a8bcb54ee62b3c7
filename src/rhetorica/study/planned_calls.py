"""What a unit will ask of a model, for ``rhetorica estimate`` and batch capture: :class:`PlannedCall`
and the token approximation the estimate counts with."""

from __future__ import annotations

from dataclasses import dataclass

from rhetorica.models.api import ChatMessage, ModelAPI


@dataclass(frozen=True)
class PlannedCall:
    """One model call a unit will make (estimate and batch).

    Attributes:
        model: model id as in the study file.
        messages: the messages, built by the same functions the runner uses.
        output_tokens: tokens expected back (rewrites: about the chunk's length) or the cap (reviews).
        upper_bound: a call that may not be made (a project rewrite's repair round): the estimate
            counts it apart, as an upper bound.
    """

    model: str
    messages: list[ChatMessage]
    output_tokens: int
    upper_bound: bool = False


def approximate_tokens(text: str) -> int:
    """The model layer's token approximation (:meth:`rhetorica.models.api.ModelAPI.count_tokens`)."""

    return ModelAPI.count_tokens(None, text)  # type: ignore[arg-type]  # the default uses no state
