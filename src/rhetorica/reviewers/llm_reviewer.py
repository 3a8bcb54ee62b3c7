"""LLM reviewer: one call per review (system = protocol instructions, user = blinded manuscript from
:func:`rhetorica.documents.inputs.reviewer_input`),
then validation, one repair attempt, then ``malformed`` (ARCHITECTURE.md, "Structured output").

A plain-text refusal (no JSON object, refusal wording at the start: see
:func:`rhetorica.reviewers.form.is_refusal`) is ``refused`` at once: asking it to "correct the JSON"
would waste a call on an answer that never tried to be a review.

:class:`LLMReviewer` is the :class:`~rhetorica.evaluation.Evaluator` of a study's ``kind: llm``
reviewer configuration (its kind ``llm`` is :class:`rhetorica.study.evaluator_kinds.LLMKind`)."""

from __future__ import annotations

from typing import Any

from rhetorica.documents.inputs import record_input, reviewer_input, text_input
from rhetorica.documents.models import Document
from rhetorica.evaluation import Evaluation, Target
from rhetorica.forms import Form
from rhetorica.models.api import ChatMessage, GenerateConfig, ModelAPI, ModelOutput
from rhetorica.models.call import CallContext, call_model
from rhetorica.reviewers.form import ReviewParseError, is_refusal, output_schema, parse_review, strip_reasoning
from rhetorica.reviewers.soft_ratings import ARTEFACT, form_soft_ratings, requested_logprobs, stored_parts
from rhetorica.reviewers.protocols import Protocol, get_protocol, protocol_version, system_prompt
from rhetorica.status import CALL_FAILURES, Status

DEFAULT_REVIEW_TOKENS = 700


def manuscript_text(document: Document, max_words: int | None) -> tuple[str, bool]:
    """The Markdown a reviewer sees, blinded and cut after ``max_words`` words (``True`` when cut):
    :func:`rhetorica.documents.inputs.reviewer_input`'s text."""
    found = reviewer_input(document, max_words=max_words)
    return found.text, found.truncated


def review_messages(document: Document, system: str, max_words: int | None, system_note: str | None,
                    context: CallContext | None) -> tuple[list[ChatMessage], bool]:
    """The messages of one review — ``system`` (+ the blinded ``system_note``), then the blinded
    manuscript cut after ``max_words`` words — with each input recorded for the unit of
    ``context`` (:func:`rhetorica.documents.inputs.record_input`); and whether the text was cut."""
    found = record_input(context, reviewer_input(document, max_words=max_words))
    if system_note:
        system += "\n\n" + record_input(context, text_input(system_note, document, "notice")).text
    return [ChatMessage(role="system", content=system), ChatMessage(role="user", content=found.text)], found.truncated


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
    soft_ratings: bool = False,
) -> Evaluation:
    """Review ``document`` once (replicate ``replicate`` seeds the sampling).

    ``system_note`` (e.g. the ``warn`` defence's notice, :mod:`rhetorica.reviewers.defence`) is
    appended to the protocol's system prompt. With ``soft_ratings`` the call asks for token
    log-probabilities and an ok review also carries each integer score's soft rating
    (:mod:`rhetorica.reviewers.soft_ratings`): ``<metric>.expected`` scores and a
    ``soft_ratings`` artefact.

    Returns:
        :class:`~rhetorica.evaluation.Evaluation` on ``protocol.form`` (scores and the validated
        payload when ok). ``malformed`` when the output fails validation twice, or fails once and
        the repair call fails with ``error``/``timeout`` (both reasons, the first answer as raw text); ``refused`` when
        an answer (first or repaired) is a plain-text refusal, with no repair call for it; any model
        failure status (truncated, refused, empty, timeout, error) passes through with its reason.
    """
    form = protocol.form
    messages, truncated = review_messages(document, system_prompt(protocol), max_input_words, system_note, context)
    config = GenerateConfig(temperature=temperature, top_p=top_p, max_tokens=max_tokens or DEFAULT_REVIEW_TOKENS,
                            seed=replicate, json_schema=output_schema(form),
                            top_logprobs=requested_logprobs(model, soft_ratings))

    def failed(status: Status, reason: str | None, raw: str) -> Evaluation:
        return Evaluation(status, reason, raw_text=raw, input_truncated=truncated)

    def ok(answer: ModelOutput) -> Evaluation:
        parsed = parse_review(answer.text, form)
        scores, artefacts = dict(parsed.scores), {}
        if soft_ratings:
            expected, artefact = stored_parts(form_soft_ratings(form, parsed.scores, answer, model))
            scores.update(expected)
            artefacts[ARTEFACT] = artefact
        return Evaluation(Status.OK, None, scores=scores, payload=parsed.payload, raw_text=answer.text,
                          input_truncated=truncated, artefacts=artefacts)

    output = await call_model(model, messages, config, replicate=replicate, context=context)
    if output.status != Status.OK:
        return failed(output.status, output.error, output.text)
    try:
        return ok(output)
    except ReviewParseError as first_error:
        if is_refusal(output.text):
            return failed(Status.REFUSED, _refusal_reason(output.text), output.text)
        repair = messages + [
            ChatMessage(role="assistant", content=output.text),
            ChatMessage(role="user", content=f"That answer is not valid ({first_error}). "
                                             "Reply with only the corrected JSON object."),
        ]
        second = await call_model(model, repair, config, replicate=replicate, context=context)
        if second.status in CALL_FAILURES:  # no second answer: the first one's malformed stands
            return failed(Status.MALFORMED, f"{first_error} | repair attempt failed ({second.status}): {second.error}",
                          output.text)
        if second.status != Status.OK:
            return failed(second.status, f"repair attempt: {second.error}", second.text)
        try:
            return ok(second)
        except ReviewParseError as second_error:
            if is_refusal(second.text):
                return failed(Status.REFUSED, f"repair attempt: {_refusal_reason(second.text)}", second.text)
            return failed(Status.MALFORMED, f"{first_error} | after repair: {second_error}", second.text)


class LLMReviewer:
    """An LLM reviewer configuration as an :class:`~rhetorica.evaluation.Evaluator`.

    Args:
        name: the configuration's name in the study.
        model: the model client (shared by the study's configurations).
        protocol: protocol name (:mod:`rhetorica.reviewers.protocols`); fixes the form.
        model_id: the model id as stored with assessments (credentials redacted).
        temperature, top_p, max_tokens: sampling (``None`` = provider default; tokens default
            :data:`DEFAULT_REVIEW_TOKENS`).
        max_input_words: cut the manuscript after this many words (``None`` = whole text).
        soft_ratings: also store each integer score's soft rating (:func:`review_document`).

    Raises:
        rhetorica.reviewers.protocols.UnknownProtocolError: ``protocol`` is not registered.
    """

    def __init__(self, name: str, *, model: ModelAPI, protocol: str = "default", model_id: str | None = None,
                 temperature: float | None = None, top_p: float | None = None, max_tokens: int | None = None,
                 max_input_words: int | None = None, soft_ratings: bool = False) -> None:
        self.name = name
        self.model = model
        self.protocol = get_protocol(protocol)
        self.form: Form = self.protocol.form
        self.model_id = model_id or f"{model.provider}/{model.model}"
        self.temperature, self.top_p, self.max_tokens = temperature, top_p, max_tokens
        self.max_input_words = max_input_words
        self.soft_ratings = soft_ratings

    def spec(self) -> dict[str, Any]:
        """Model id, protocol (name and version), form (``name@version``), sampling and input limit
        (and ``soft_ratings`` when on: a spec without them is unchanged)."""
        spec = {"kind": "llm", "model": self.model_id, "protocol": self.protocol.name,
                "protocol_version": protocol_version(self.protocol), "form": self.form.label,
                "temperature": self.temperature, "top_p": self.top_p, "max_tokens": self.max_tokens,
                "max_input_words": self.max_input_words}
        return spec | {"soft_ratings": True} if self.soft_ratings else spec

    async def evaluate(self, target: Target, context: CallContext) -> Evaluation:
        """Review ``target.document`` once (``target.notice`` is appended to the system prompt)."""
        return await review_document(
            target.document, self.protocol, self.model, replicate=target.replicate, temperature=self.temperature,
            top_p=self.top_p, max_tokens=self.max_tokens, max_input_words=self.max_input_words, context=context,
            system_note=target.notice, soft_ratings=self.soft_ratings)
