"""The review form of the 'Style over Substance' study (STUDIES.md §1) and its strict parser.

Fields: summary, strengths, weaknesses, suggestions; soundness, significance, evidence, clarity on
1-4; reviewer confidence on 1-5; overall on 1-10. Scores are integers validated with their ranges:
``"10"`` parses as 10 (never 1), ``11`` or ``0`` is rejected, ``6.5`` is rejected (the scale has no
half levels). A parse failure is reported, never defaulted to a neutral value.

The object read is the model's *final* answer (:func:`final_review_object`): reasoning blocks are
removed, a fenced block is preferred, and the last review-shaped object wins, so a draft written
before the answer is never stored as the review. :func:`is_refusal` tells a plain-text refusal from
a failed attempt at a review.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

SCORE_FIELDS = ("overall", "soundness", "significance", "evidence", "clarity", "confidence")


def _strict_int(value: Any) -> Any:
    """Accept ints, integral floats and digit strings; reject bools, fractions and other text."""
    if isinstance(value, bool):
        raise ValueError("a score must be a number, not true/false")
    if isinstance(value, float):
        if not value.is_integer():
            raise ValueError(f"score {value} is not a whole level of the scale")
        return int(value)
    if isinstance(value, str):
        text = value.strip()
        if not text.lstrip("-").isdigit():
            raise ValueError(f"score {value!r} is not an integer")
        return int(text)
    return value


class _ReviewText(BaseModel):
    """The free-text part shared by every form."""

    model_config = ConfigDict(extra="ignore")

    summary: str = Field(max_length=4000)
    strengths: list[str] = Field(max_length=12)
    weaknesses: list[str] = Field(max_length=12)
    suggestions: list[str] = Field(max_length=12)


class Review(_ReviewText):
    """A structured review (all scores required).

    Attributes:
        summary: one-paragraph summary of the paper.
        strengths / weaknesses / suggestions: lists of short points (>= 0 items).
        soundness, significance, evidence, clarity: 1 (poor) to 4 (excellent).
        confidence: reviewer confidence, 1 (guess) to 5 (certain).
        overall: 1 (strong reject) to 10 (award quality); accept threshold 4.5 by default.
    """

    soundness: int = Field(ge=1, le=4)
    significance: int = Field(ge=1, le=4)
    evidence: int = Field(ge=1, le=4)
    clarity: int = Field(ge=1, le=4)
    confidence: int = Field(ge=1, le=5)
    overall: int = Field(ge=1, le=10)

    _ints = field_validator("soundness", "significance", "evidence", "clarity", "confidence", "overall",
                            mode="before")(_strict_int)


class OverallOnlyReview(_ReviewText):
    """The Bare protocol's form: text fields and the overall score only (STUDIES.md §1, Table 8)."""

    overall: int = Field(ge=1, le=10)

    _ints = field_validator("overall", mode="before")(_strict_int)


FORMS: dict[str, type[BaseModel]] = {"full": Review, "overall-only": OverallOnlyReview}


def output_schema(form: str) -> dict[str, Any]:
    """JSON Schema sent to the model for ``form``.

    Scores are integer ``enum`` lists (1..4, 1..5, 1..10): grammar-constrained decoders enforce an
    enum where many ignore ``minimum``/``maximum``; pydantic validates the ranges again on return.
    """
    cls = FORMS[form]
    properties: dict[str, Any] = {}
    for name, field in cls.model_fields.items():
        if name in SCORE_FIELDS:
            bounds = {m.__class__.__name__: m for m in field.metadata}
            levels = list(range(bounds["Ge"].ge, bounds["Le"].le + 1))
            properties[name] = {"type": "integer", "enum": levels}
        elif name == "summary":
            properties[name] = {"type": "string"}
        else:
            properties[name] = {"type": "array", "items": {"type": "string"}, "maxItems": 5}
    return {"type": "object", "properties": properties, "required": list(properties),
            "additionalProperties": False}


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


def final_review_object(text: str, form: str = "full") -> dict[str, Any]:
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
    fields = set(FORMS[form].model_fields)
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


def parse_review(text: str, form: str = "full") -> BaseModel:
    """Parse and validate model text into the review form.

    The object read is the final answer (see :func:`final_review_object`), not the first object in
    the text.

    Raises:
        ReviewParseError: not JSON, a missing field, a wrong type or an out-of-range score; the
            message lists each problem as ``field: problem``.
    """
    data = final_review_object(text, form)
    try:
        return FORMS[form].model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'review'}: {err['msg']}" for err in exc.errors()
        )
        raise ReviewParseError(problems) from exc
