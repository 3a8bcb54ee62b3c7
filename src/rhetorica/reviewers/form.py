"""The reviewer's side of a declared form (:mod:`rhetorica.forms`): the output schema sent to the
model and the strict parser of its answer.

The forms themselves are data: ``review-000`` ('Style over Substance', STUDIES.md §1: overall
1-10, soundness/significance/evidence/clarity 1-4, confidence 1-5), ``review-000-overall`` (the
Bare protocol's) and ``iclr-2026`` (STUDIES.md §2). A protocol names its form
(:mod:`rhetorica.reviewers.protocols`). Scores are integers validated with their declared ranges
by :meth:`rhetorica.forms.Form.check_scores`: ``"10"`` parses as 10 (never 1), ``11`` or ``0`` is
rejected, ``6.5`` is rejected (the scale has no half levels). A parse failure is reported, never
defaulted to a neutral value.

The object read is the model's *final* answer (:func:`final_review_object`): reasoning blocks are
removed, a fenced block is preferred, and the last review-shaped object wins, so a draft written
before the answer is never stored as the review. :func:`is_refusal` tells a plain-text refusal from
a failed attempt at a review.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from rhetorica.forms import Form, FormError, Metric

#: Longest list the output schema asks for (``maxItems``); validation accepts up to the form's
#: ``max_items`` (12), so a model that writes a few more points is not failed for it.
PROMPTED_ITEMS = 5

_WHOLE_TYPES = ("integer", "count")


def _metric_schema(metric: Metric) -> dict[str, Any]:
    """One score's schema: integer scales as an ``enum`` of their levels (grammar-constrained
    decoders enforce an enum where many ignore ``minimum``/``maximum``), others as declared."""
    if metric.type == "integer":
        low, high = metric.bounds
        assert low is not None and high is not None
        return {"type": "integer", "enum": list(range(int(low), int(high) + 1))}
    return metric.json_schema()


def output_schema(form: Form) -> dict[str, Any]:
    """JSON Schema sent to the model for ``form``.

    Properties in this order: the text fields (as declared; lists ask for at most
    :data:`PROMPTED_ITEMS` points), the secondary scores (as declared), the primary score last —
    the model gives its overall judgement after the criteria. Every property is required; no
    other property is allowed. The pydantic-era schema of the ``review-000`` forms is reproduced
    byte for byte, so cached answers stay valid.
    """
    properties: dict[str, Any] = {}
    for field in form.text_fields:
        properties[field.name] = ({"type": "string"} if field.kind == "text" else
                                  {"type": "array", "items": {"type": "string"}, "maxItems": PROMPTED_ITEMS})
    for metric in (*(m for m in form.metrics if not m.primary), form.primary):
        properties[metric.name] = _metric_schema(metric)
    return {"type": "object", "properties": properties, "required": list(properties),
            "additionalProperties": False}


@dataclass(frozen=True)
class ParsedReview:
    """A validated answer.

    Attributes:
        scores: metric name -> value (floats; every metric of the form).
        payload: text fields and scores in the order of :func:`output_schema`, whole-number
            scores as ints (what is stored as the review's JSON).
    """

    scores: dict[str, float]
    payload: dict[str, Any]


def _strict_whole(name: str, value: Any) -> Any:
    """A whole-number score as the model wrote it: ints, integral floats and digit strings;
    bools, fractions and other text are rejected (a string ``"1e1"`` or ``"10.0"`` is not read)."""
    if isinstance(value, bool):
        raise FormError(f"{name}: a score must be a number, not true/false")
    if isinstance(value, float):
        if not value.is_integer():
            raise FormError(f"{name}: score {value} is not a whole level of the scale")
        return int(value)
    if isinstance(value, str):
        text = value.strip()
        if not text.lstrip("-").isdigit():
            raise FormError(f"{name}: score {value!r} is not an integer")
        return int(text)
    return value


class ReviewParseError(ValueError):
    """Model text that is not a valid review; the message says what is wrong."""


_REASONING_TAGS = r"think|thinking|reasoning"
_REASONING_BLOCK = re.compile(rf"<(?P<tag>{_REASONING_TAGS})\b[^>]*>.*?</(?P=tag)\s*>", re.IGNORECASE | re.DOTALL)
_REASONING_CLOSE = re.compile(rf"</(?:{_REASONING_TAGS})\s*>", re.IGNORECASE)
_REASONING_OPEN = re.compile(rf"<(?:{_REASONING_TAGS})\b[^>]*>", re.IGNORECASE)
_FENCE = re.compile(r"```[ \t]*(?:json[c5]?\b)?[ \t]*(?:\n|(?=\{))(?P<body>.*?)```", re.IGNORECASE | re.DOTALL)


def strip_reasoning(text: str) -> str:
    """``text`` without its reasoning: what a model wrote as its final answer.

    Removes every ``<think>``/``<thinking>``/``<reasoning>`` block (tags case-insensitive). A closing
    tag without its opening one (chat templates such as Qwen3's and DeepSeek-R1's put the opening
    ``<think>`` in the prompt) drops everything before it; an opening tag that is never closed drops
    everything after it (reasoning cut off before any final answer, which must never be read as one).

    Args:
        text: raw model output.

    Returns:
        The remaining text (possibly empty), not stripped of whitespace.
    """
    text = _REASONING_BLOCK.sub(" ", text)
    closes = list(_REASONING_CLOSE.finditer(text))
    if closes:
        text = text[closes[-1].end():]
    opened = _REASONING_OPEN.search(text)
    if opened:
        text = text[: opened.start()]
    return text


def json_objects(text: str) -> list[dict[str, Any]]:
    """Every balanced top-level JSON object in ``text``, in order (objects nested in them not repeated).

    Prose, code fences and braces inside JSON strings are handled by the decoder. Raw line breaks
    inside strings are accepted (``strict=False``): small models emit them and they carry no
    ambiguity.
    """
    decoder = json.JSONDecoder(strict=False)
    found: list[dict[str, Any]] = []
    start = text.find("{")
    while start != -1:
        try:
            value, end = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            start = text.find("{", start + 1)
            continue
        if isinstance(value, dict):
            found.append(value)
            start = text.find("{", end)
        else:
            start = text.find("{", start + 1)
    return found


def final_review_object(text: str, form: Form) -> dict[str, Any]:
    """The JSON object that is the model's final answer for ``form``.

    Order of preference (ARCHITECTURE.md, "Structured output"; issue 10 §1):

    1. reasoning is removed first (:func:`strip_reasoning`), so a draft inside ``<think>`` is never
       read;
    2. objects in fenced code blocks (```` ```json ```` or untagged) are preferred to bare ones;
    3. among the preferred objects, the **last** one that is review-shaped (has at least one field
       of the form) is the answer. Objects with none of the form's fields (metadata, examples) are
       skipped; when no object is review-shaped, the last object is returned so that validation
       names the missing fields.

    A review-shaped object that comes last but fails validation is *not* replaced by an earlier
    valid one: the later object is the model's own revision, and falling back to the earlier one
    would store a superseded (draft) score as ``ok``. The caller reports it as invalid (and may ask
    for a repair).

    Raises:
        ReviewParseError: if no JSON object remains after the reasoning is removed.
    """
    answer = strip_reasoning(text)
    fields = set(form.metric_names) | {f.name for f in form.text_fields}
    fenced = [obj for m in _FENCE.finditer(answer) for obj in json_objects(m.group("body"))]
    bare = json_objects(answer)
    for group in (fenced, bare):
        shaped = [obj for obj in group if fields & set(obj)]
        if shaped:
            return shaped[-1]
    if bare:
        return bare[-1]
    where = " outside its reasoning block" if answer != text else ""
    raise ReviewParseError(f"no JSON object found in the model output{where}")


_REFUSAL_OPENER = (
    r"^(?:(?:(?:i'?m|i\s+am)\s+(?:very\s+|really\s+|truly\s+)?sorry|sorry|i\s+apologi[sz]e|unfortunately|"
    r"as\s+an\s+ai(?:\s+[\w-]+){0,3})[\s,:;.!-]*(?:but\s+)?)?"
)
_REFUSAL = re.compile(
    _REFUSAL_OPENER
    + r"i\s*(?:can'?t|cannot|can\s+not|won'?t|will\s+not|(?:'m|am)\s+(?:unable|not\s+able)\s+to|"
    r"(?:'m|am)\s+not\s+(?:going|allowed|permitted)\s+to|(?:do\s+not|don'?t)\s+feel\s+comfortable)\s+"
    r"(?:[\w-]+\s+){0,3}?"
    r"(?:review|evaluate|assess|critique|help|assist|comply|provide|complete|fulfil|fulfill|do|write|"
    r"produce|generate|perform|offer|process|proceed|continue|participate|engage|answer|respond)\b"
    r"|" + _REFUSAL_OPENER + r"i\s*(?:must|have\s+to|will|'ll)\s+(?:respectfully\s+)?decline\b",
    re.IGNORECASE,
)


def is_refusal(text: str) -> bool:
    """Whether ``text`` is a plain-text refusal to review rather than a failed attempt at a review.

    True only when the final answer (reasoning removed) holds no JSON object at all and *starts*
    with refusal wording: an optional opener ("I'm sorry, but", "Unfortunately,", "As an AI
    language model,"), then "I can't / cannot / won't / am unable to / am not able to" followed
    within three words by a verb of the task ("review", "evaluate", "help", "provide", ...), or "I
    must decline". "I cannot see the figures, but ..." is not a refusal (no task verb), and neither
    is an answer that says "cannot" later on, nor one that holds a JSON object.

    Args:
        text: raw model output.
    """
    answer = strip_reasoning(text)
    if json_objects(answer):
        return False
    return _REFUSAL.search(answer.replace("\u2019", "'").lstrip(" \t\r\n*_#>`\"'")) is not None


def parse_review(text: str, form: Form) -> ParsedReview:
    """Parse and validate model text into ``form``.

    The object read is the final answer (see :func:`final_review_object`), not the first object in
    the text. Whole-number scores are read strictly (:func:`_strict_whole`), then every value is
    checked by :meth:`~rhetorica.forms.Form.check_texts` and :meth:`~rhetorica.forms.Form.check_scores`;
    keys outside the form are ignored.

    Raises:
        ReviewParseError: not JSON, a missing field, a wrong type or an out-of-range score; the
            message lists each problem as ``field: problem``.
    """
    data = final_review_object(text, form)
    problems: list[str] = []
    try:
        texts = form.check_texts(data)
    except FormError as exc:
        problems.append(str(exc))
    raw: dict[str, Any] = {}
    unread: set[str] = set()  # scores already reported by the strict reading
    for metric in form.metrics:
        value = data.get(metric.name)
        if metric.type in _WHOLE_TYPES and value is not None:
            try:
                value = _strict_whole(metric.name, value)
            except FormError as exc:
                problems.append(str(exc))
                unread.add(f"{metric.name}: missing")
                continue
        raw[metric.name] = value
    try:
        scores = form.check_scores(raw)
    except FormError as exc:
        problems.extend(p for p in str(exc).split("; ") if p not in unread)
    if problems:
        raise ReviewParseError("; ".join(problems))
    payload = {name: texts[name] for name in output_schema(form)["properties"] if name in texts}
    for name in output_schema(form)["properties"]:
        if name in scores:
            whole = form.metric(name).type in _WHOLE_TYPES or (
                form.metric(name).type == "ordinal" and scores[name].is_integer())
            payload[name] = int(scores[name]) if whole else scores[name]
    return ParsedReview(scores=scores, payload=payload)
