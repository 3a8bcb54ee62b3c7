"""A review on a declared form: SciCore's and ReconstructReview's branch reviews.

One call (system = the protocol's prompt, user = the document's Markdown) with the form's JSON
schema, the final object validated by :meth:`rhetorica.forms.Form.check_scores` and
:meth:`~rhetorica.forms.Form.check_texts` (a value out of range is an error, never clipped), one
repair attempt, then ``malformed`` (:mod:`.answer`). The protocol fixes the form by its registered
name (``iclr-2026`` for standard, strict-iclr and science-record).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from rhetorica.documents.models import Document
from rhetorica.evaluation import Evaluation
from rhetorica.forms import Form, FormError, get_form
from rhetorica.models.api import GenerateConfig, ModelAPI
from rhetorica.models.call import CallContext
from rhetorica.reviewers.llm_reviewer import DEFAULT_REVIEW_TOKENS, review_messages
from rhetorica.reviewers.protocols import Protocol, system_prompt
from rhetorica.reviewers.scicore.answer import AnswerError, ask_json, final_object
from rhetorica.status import Status


class ReviewOptions(BaseModel):
    """Sampling and input limit of a branch review (part of the evaluator's spec).

    Attributes:
        temperature, top_p: sampling (``None`` = the provider's default).
        max_tokens: output limit in tokens (> 0).
        max_input_words: cut the document after this many words (``None`` = whole text).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    temperature: float | None = None
    top_p: float | None = None
    max_tokens: int = Field(default=DEFAULT_REVIEW_TOKENS, gt=0)
    max_input_words: int | None = Field(default=None, gt=0)


def protocol_form(protocol: Protocol) -> Form:
    """The registered form a protocol asks for (``Protocol.form`` names it)."""
    form: Any = protocol.form
    return form if isinstance(form, Form) else get_form(form)


def prompt_schema(form: Form) -> dict[str, Any]:
    """The structured-output schema of ``form`` for a model (see the module docstring).

    Text fields are unbounded strings, list fields arrays of strings with the form's
    ``max_items``; integer metrics are ``enum`` lists of their whole levels; other metrics use
    :meth:`rhetorica.forms.Metric.json_schema`. Required: the required text fields and every
    metric; no other key allowed.
    """
    properties: dict[str, Any] = {}
    for text in form.text_fields:
        properties[text.name] = ({"type": "string"} if text.kind == "text" else
                                 {"type": "array", "items": {"type": "string"}, "maxItems": text.max_items})
    for metric in form.metrics:
        if metric.type == "integer" and metric.low is not None and metric.high is not None:
            properties[metric.name] = {"type": "integer", "enum": list(range(int(metric.low), int(metric.high) + 1))}
        else:
            properties[metric.name] = metric.json_schema()
    required = [t.name for t in form.text_fields if t.required] + list(form.metric_names)
    return {"title": form.name, "type": "object", "properties": properties, "required": required,
            "additionalProperties": False}


def _parser(form: Form):
    keys = [*form.metric_names, *(f.name for f in form.text_fields)]

    def parse(text: str) -> dict[str, Any]:
        data = final_object(text, keys)
        try:
            scores = form.check_scores(data)
            texts = form.check_texts(data)
        except FormError as exc:
            raise AnswerError(str(exc)) from exc
        return {**texts, **scores}

    return parse


async def review_on_form(document: Document, protocol: Protocol, model: ModelAPI, *, replicate: int,
                         options: ReviewOptions, context: CallContext | None,
                         system_note: str | None = None) -> Evaluation:
    """Review ``document`` once under ``protocol`` on its form.

    Args:
        document: what the reviewer reads (a manuscript, a science record, a reconstruction).
        protocol: the review protocol; its form must be registered.
        model: the reviewing model.
        replicate: replicate index (seed and cache key).
        options: sampling and input limit.
        context: the unit's call context.
        system_note: appended to the system prompt (the ``warn`` defence's notice).

    Returns:
        :class:`~rhetorica.evaluation.Evaluation`: ``ok`` with the validated scores and payload
        (text fields and scores), or a failure status with its reason and the raw text.
    """
    form = protocol_form(protocol)
    messages, truncated = review_messages(document, system_prompt(protocol), options.max_input_words, system_note,
                                          context)
    config = GenerateConfig(temperature=options.temperature, top_p=options.top_p, max_tokens=options.max_tokens,
                            seed=replicate, json_schema=prompt_schema(form))
    answer = await ask_json(model, messages, config, _parser(form), replicate=replicate, context=context)
    if answer.status != Status.OK or answer.value is None:
        return Evaluation(answer.status, answer.reason, raw_text=answer.raw_text, input_truncated=truncated)
    scores = {name: answer.value[name] for name in form.metric_names}
    return Evaluation(Status.OK, scores=scores, payload=answer.value, raw_text=answer.raw_text,
                      input_truncated=truncated)
