"""One JSON answer from a model: the call, the final object, one repair attempt, then ``malformed``
— the policy of :mod:`rhetorica.reviewers.llm_reviewer` (ARCHITECTURE.md, "Structured output"),
shared by the science-core extraction and SciCore's reviews on a declared form.

The object read is the model's final answer: reasoning blocks are removed
(:func:`rhetorica.reviewers.form.strip_reasoning`) and the last top-level JSON object that holds at
least one expected key wins (a draft written before the answer is never read); when none holds an
expected key the last object is parsed, so that validation names what is missing. A plain-text
refusal (:func:`rhetorica.reviewers.form.is_refusal`) is ``refused`` without a repair call.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from rhetorica.models.api import ChatMessage, GenerateConfig, ModelAPI
from rhetorica.models.call import CallContext, call_model
from rhetorica.reviewers.form import is_refusal, json_objects, strip_reasoning
from rhetorica.status import CALL_FAILURES, Status

T = TypeVar("T")


class AnswerError(ValueError):
    """Model text that is not a valid answer; the message says what is wrong (sent back for repair)."""


def final_object(text: str, keys: Collection[str]) -> dict[str, Any]:
    """The JSON object that is the model's final answer (see the module docstring).

    Raises:
        AnswerError: no JSON object outside the reasoning.
    """
    objects = json_objects(strip_reasoning(text))
    shaped = [o for o in objects if set(keys) & set(o)]
    if shaped:
        return shaped[-1]
    if objects:
        return objects[-1]
    raise AnswerError("no JSON object found in the model output")


@dataclass(frozen=True)
class Answer(Generic[T]):
    """The outcome of :func:`ask_json`.

    Attributes:
        status: ``ok`` or the failure status.
        value: the parsed answer (``None`` unless ok).
        reason: why it failed (``None`` when ok).
        raw_text: the last model text read.
    """

    status: Status
    value: T | None
    reason: str | None
    raw_text: str


def refusal_reason(text: str) -> str:
    """The stored reason for a plain-text refusal: its first line (reasoning removed), ≤ 200 characters."""
    answer = strip_reasoning(text).strip()
    return f"the model declined in plain text: {(answer.splitlines()[0] if answer else '')[:200]!r}"


async def ask_json(model: ModelAPI, messages: list[ChatMessage], config: GenerateConfig,
                   parse: Callable[[str], T], *, replicate: int, context: CallContext | None) -> Answer[T]:
    """Call ``model``, parse its answer with ``parse``, repair once, classify failures.

    Args:
        model, messages, config: the call (``config.json_schema`` set by the caller).
        parse: text → value; raises :class:`AnswerError` for an invalid answer.
        replicate: replicate index (cache key and seed).
        context: the unit's call context (every call goes through
            :func:`~rhetorica.models.call.call_model` with it).

    Returns:
        :class:`Answer`: ``ok``; ``refused`` for a plain-text refusal (no repair call);
        ``malformed`` when the answer and its repair both fail, or the repair call itself fails
        (``error``/``timeout``: both reasons, the first answer as raw text); otherwise a model
        failure status passed through (a truncated, refused or empty repair's reason says so).
    """
    output = await call_model(model, messages, config, replicate=replicate, context=context)
    if output.status != Status.OK:
        return Answer(output.status, None, output.error, output.text)
    try:
        return Answer(Status.OK, parse(output.text), None, output.text)
    except AnswerError as first:
        if is_refusal(output.text):
            return Answer(Status.REFUSED, None, refusal_reason(output.text), output.text)
        repair = messages + [
            ChatMessage(role="assistant", content=output.text),
            ChatMessage(role="user", content=f"That answer is not valid ({first}). "
                                             "Reply with only the corrected JSON object."),
        ]
        second = await call_model(model, repair, config, replicate=replicate, context=context)
        if second.status in CALL_FAILURES:  # no second answer: the first one's malformed stands
            return Answer(Status.MALFORMED, None, f"{first} | repair attempt failed ({second.status}): {second.error}",
                          output.text)
        if second.status != Status.OK:
            return Answer(second.status, None, f"repair attempt: {second.error}", second.text)
        try:
            return Answer(Status.OK, parse(second.text), None, second.text)
        except AnswerError as again:
            if is_refusal(second.text):
                return Answer(Status.REFUSED, None, f"repair attempt: {refusal_reason(second.text)}", second.text)
            return Answer(Status.MALFORMED, None, f"{first} | after repair: {again}", second.text)
