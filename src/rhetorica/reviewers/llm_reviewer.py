"""LLM reviewer: one call per review (system = protocol instructions, user = blinded manuscript),
then validation, one repair attempt, then ``malformed`` (ARCHITECTURE.md, "Structured output").

A plain-text refusal (no JSON object, refusal wording at the start: see
:func:`rhetorica.reviewers.form.is_refusal`) is ``refused`` at once: asking it to "correct the JSON"
would waste a call on an answer that never tried to be a review."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pydantic import BaseModel

from rhetorica.documents.models import Document
from rhetorica.models.api import ChatMessage, GenerateConfig, ModelAPI
from rhetorica.models.call import CallContext, call_model
from rhetorica.reviewers.form import ReviewParseError, is_refusal, output_schema, parse_review, strip_reasoning
from rhetorica.reviewers.protocols import Protocol, system_prompt
from rhetorica.status import Status

DEFAULT_REVIEW_TOKENS = 700


@dataclass
class ReviewResult:
    """One assessment: the validated review (when ok), the status and reason, the raw text."""

    status: Status
    review: BaseModel | None
    reason: str | None
    raw_text: str
    input_truncated: bool


def manuscript_text(document: Document, max_words: int | None) -> tuple[str, bool]:
    """The Markdown a reviewer sees, cut after ``max_words`` words (``True`` when cut)."""
    text = document.to_markdown()
    if max_words is None:
        return text, False
    words = list(re.finditer(r"\S+", text))
    if len(words) <= max_words:
        return text, False
    return text[: words[max_words - 1].end()] + "\n", True


def _refusal_reason(text: str) -> str:
    """The stored reason for a plain-text refusal: its first line, at most 200 characters."""
    answer = strip_reasoning(text).strip()
    first_line = answer.splitlines()[0] if answer else ""
    return f"the model declined in plain text: {first_line[:200]!r}"


async def review_document(
    document: Document,
    protocol: Protocol,
    model: ModelAPI,
    *,
    replicate: int,
    temperature: float | None = None,
    top_p: float | None = None,
    max_tokens: int | None = None,
    max_input_words: int | None = None,
    context: CallContext | None = None,
    system_note: str | None = None,
) -> ReviewResult:
    """Review ``document`` once (replicate ``replicate`` seeds the sampling).

    ``system_note`` (e.g. the ``warn`` defence's notice, :mod:`rhetorica.reviewers.defence`) is
    appended to the protocol's system prompt.

    Returns:
        :class:`ReviewResult`. ``malformed`` when the output fails validation twice; ``refused`` when
        an answer (first or repaired) is a plain-text refusal, with no repair call for it; any model
        failure status (truncated, refused, empty, timeout, error) passes through with its reason.
    """
    text, truncated = manuscript_text(document, max_input_words)
    system = system_prompt(protocol) + (f"\n\n{system_note}" if system_note else "")
    messages = [ChatMessage(role="system", content=system), ChatMessage(role="user", content=text)]
    config = GenerateConfig(temperature=temperature, top_p=top_p, max_tokens=max_tokens or DEFAULT_REVIEW_TOKENS,
                            seed=replicate, json_schema=output_schema(protocol.form))
    output = await call_model(model, messages, config, replicate=replicate, context=context)
    if output.status != Status.OK:
        return ReviewResult(output.status, None, output.error, output.text, truncated)
    try:
        return ReviewResult(Status.OK, parse_review(output.text, protocol.form), None, output.text, truncated)
    except ReviewParseError as first_error:
        if is_refusal(output.text):
            return ReviewResult(Status.REFUSED, None, _refusal_reason(output.text), output.text, truncated)
        repair = messages + [
            ChatMessage(role="assistant", content=output.text),
            ChatMessage(role="user", content=f"That answer is not valid ({first_error}). "
                                             "Reply with only the corrected JSON object."),
        ]
        second = await call_model(model, repair, config, replicate=replicate, context=context)
        if second.status != Status.OK:
            return ReviewResult(second.status, None, f"repair attempt: {second.error}", second.text, truncated)
        try:
            return ReviewResult(Status.OK, parse_review(second.text, protocol.form), None, second.text, truncated)
        except ReviewParseError as second_error:
            if is_refusal(second.text):
                return ReviewResult(Status.REFUSED, None, f"repair attempt: {_refusal_reason(second.text)}",
                                    second.text, truncated)
            return ReviewResult(Status.MALFORMED, None, f"{first_error} | after repair: {second_error}",
                                second.text, truncated)
