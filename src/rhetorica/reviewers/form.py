"""The review form of the 'Style over Substance' study (STUDIES.md §1) and its strict parser.

Fields: summary, strengths, weaknesses, suggestions; soundness, significance, evidence, clarity on
1-4; reviewer confidence on 1-5; overall on 1-10. Scores are integers validated with their ranges:
``"10"`` parses as 10 (never 1), ``11`` or ``0`` is rejected, ``6.5`` is rejected (the scale has no
half levels). A parse failure is reported, never defaulted to a neutral value.
"""

from __future__ import annotations

import json
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


def extract_json_object(text: str) -> dict[str, Any]:
    """The first balanced top-level JSON object in ``text`` (code fences and prose around it ignored).

    Raw line breaks inside strings are accepted (``strict=False``): small models emit them and they
    carry no ambiguity.

    Raises:
        ReviewParseError: if no JSON object can be decoded.
    """
    decoder = json.JSONDecoder(strict=False)
    start = text.find("{")
    while start != -1:
        try:
            value, _ = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            start = text.find("{", start + 1)
            continue
        if isinstance(value, dict):
            return value
        start = text.find("{", start + 1)
    raise ReviewParseError("no JSON object found in the model output")


def parse_review(text: str, form: str = "full") -> BaseModel:
    """Parse and validate model text into the review form.

    Raises:
        ReviewParseError: not JSON, a missing field, a wrong type or an out-of-range score; the
            message lists each problem as ``field: problem``.
    """
    data = extract_json_object(text)
    try:
        return FORMS[form].model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'review'}: {err['msg']}" for err in exc.errors()
        )
        raise ReviewParseError(problems) from exc
