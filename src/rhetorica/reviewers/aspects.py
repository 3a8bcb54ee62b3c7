"""Aspect annotation of reviews: an LLM tags each review with (aspect, polarity, exact phrase).

The 'Style over Substance' study (STUDIES.md §1) annotated every review over the 16 coarse aspects
of Lu, Kuznetsov & Gurevych, "Identifying Aspects in Peer Reviews" (Findings of EMNLP 2025;
``rhetorica/data/aspects/``), and verified every evidence phrase by substring match. Here:

- :func:`load_taxonomy` reads the aspect set (names, labels, our definitions, version);
- :func:`annotation_instructions` is the annotator's system prompt (own words);
- :func:`review_text` renders an assessment's text fields as the review the annotator reads;
- :func:`parse_annotation` validates an annotator's answer against the review: a mention of an
  unknown aspect or polarity is rejected, a phrase that is not a substring of the review (after
  whitespace normalisation on both sides; case and punctuation must match) is dropped, and both
  are counted — never repaired;
- :func:`annotate_review` makes the model call (cached, logged, budgeted through
  :func:`rhetorica.models.call.call_model`) and parses it.

Polarity is ``positive`` or ``negative`` (net polarity = #positive − #negative; the study's
measure); neutral description is not tagged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any, Literal

import yaml

from rhetorica.forms import Form
from rhetorica.hashing import content_hash
from rhetorica.models.api import ChatMessage, GenerateConfig, ModelAPI
from rhetorica.models.call import CallContext, call_model
from rhetorica.reviewers.form import json_objects, strip_reasoning
from rhetorica.status import Status

Polarity = Literal["positive", "negative"]
POLARITIES: tuple[str, ...] = ("positive", "negative")

#: Default cap on the annotator's answer (tokens).
ANNOTATION_TOKENS = 1500


@dataclass(frozen=True)
class Aspect:
    """One aspect: ``name`` (identifier), ``label`` (the source's name), ``definition`` (ours)."""

    name: str
    label: str
    definition: str


@dataclass(frozen=True)
class Taxonomy:
    """An aspect set with its version and source."""

    version: str
    source: str
    aspects: tuple[Aspect, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.aspects)


@lru_cache(maxsize=1)
def load_taxonomy() -> Taxonomy:
    """The shipped 16 coarse aspects (``rhetorica/data/aspects/taxonomy.yaml``).

    Raises:
        ValueError: the file lists a name twice or not exactly 16 aspects (a packaging defect).
    """
    text = (resources.files("rhetorica.data") / "aspects" / "taxonomy.yaml").read_text("utf-8")
    data = yaml.safe_load(text)
    aspects = tuple(Aspect(a["name"], a["label"], a["definition"]) for a in data["aspects"])
    names = [a.name for a in aspects]
    if len(set(names)) != len(names) or len(names) != 16:
        raise ValueError(f"aspects/taxonomy.yaml: expected 16 distinct aspects, found {len(set(names))} of {len(names)}")
    return Taxonomy(str(data["version"]), str(data["source"]), aspects)


def annotation_instructions(taxonomy: Taxonomy | None = None) -> str:
    """The annotator's system prompt: ``instructions.md`` with one ``name: definition`` line per aspect."""
    taxonomy = taxonomy or load_taxonomy()
    template = (resources.files("rhetorica.data") / "aspects" / "instructions.md").read_text("utf-8").strip()
    lines = "\n".join(f"- {a.name}: {a.definition}" for a in taxonomy.aspects)
    return template.replace("{aspects}", lines)


def annotation_schema(taxonomy: Taxonomy | None = None) -> dict[str, Any]:
    """JSON schema of an annotator answer (for structured output)."""
    taxonomy = taxonomy or load_taxonomy()
    mention = {"type": "object", "additionalProperties": False, "required": ["aspect", "polarity", "phrase"],
               "properties": {"aspect": {"type": "string", "enum": list(taxonomy.names)},
                              "polarity": {"type": "string", "enum": list(POLARITIES)},
                              "phrase": {"type": "string"}}}
    return {"title": "aspect-annotation", "type": "object", "additionalProperties": False, "required": ["mentions"],
            "properties": {"mentions": {"type": "array", "items": mention}}}


def annotation_version(taxonomy: Taxonomy | None = None) -> str:
    """8-hex hash of the taxonomy version and the exact instructions (part of an annotation's spec)."""
    taxonomy = taxonomy or load_taxonomy()
    return content_hash(taxonomy.version, annotation_instructions(taxonomy), length=8)


@dataclass(frozen=True)
class Mention:
    """One verified mention: the aspect, its polarity and the phrase as found in the review."""

    aspect: str
    polarity: Polarity
    phrase: str


@dataclass
class AnnotationResult:
    """One review's annotation.

    Attributes:
        status: ``ok``, ``malformed`` (the answer is not an object with a ``mentions`` list), or a
            model failure status passed through.
        mentions: the verified mentions (empty unless ok).
        unverified: mentions dropped because their phrase is not in the review.
        rejected: mentions dropped for an unknown aspect, a bad polarity or a missing field.
        reason: why it failed, or a summary of what was dropped.
        raw_text: the annotator's raw answer.
    """

    status: Status
    mentions: list[Mention] = field(default_factory=list)
    unverified: int = 0
    rejected: int = 0
    reason: str | None = None
    raw_text: str = ""


def review_text(payload: dict[str, Any], form: Form) -> str:
    """The text of one assessment as the annotator reads it (and as its phrases are verified).

    Each of the form's text fields present in ``payload``, in the form's order, as a heading line
    (``Summary:``; underscores become spaces) followed by the text, or by one ``- item`` line per
    list item; fields separated by a blank line. Scores are not included.
    """
    parts: list[str] = []
    for text_field in form.text_fields:
        value = payload.get(text_field.name)
        if value is None or value == [] or value == "":
            continue
        heading = text_field.name.replace("_", " ").capitalize() + ":"
        body = value if isinstance(value, str) else "\n".join(f"- {item}" for item in value)
        parts.append(f"{heading}\n{body}")
    return "\n\n".join(parts)


def normalise_whitespace(text: str) -> str:
    """Every run of whitespace as one space, ends stripped (the substring check's normalisation)."""
    return re.sub(r"\s+", " ", text).strip()


def parse_annotation(text: str, review_text: str, taxonomy: Taxonomy | None = None) -> AnnotationResult:
    """Validate an annotator's answer against the review it annotates.

    The last JSON object of the final answer (reasoning removed) must hold ``mentions``: a list of
    objects with ``aspect`` (a taxonomy name), ``polarity`` (positive | negative) and ``phrase``.
    Each phrase must occur in the review after :func:`normalise_whitespace` of both; the stored
    phrase is the review's own span (normalised).

    Returns:
        ``ok`` with the verified mentions and the counts of dropped ones, or ``malformed``.
    """
    taxonomy = taxonomy or load_taxonomy()
    objects = json_objects(strip_reasoning(text))
    if not objects:
        return AnnotationResult(Status.MALFORMED, reason="no JSON object in the annotation", raw_text=text)
    answer = objects[-1]
    items = answer.get("mentions")
    if not isinstance(items, list):
        return AnnotationResult(Status.MALFORMED, reason="the annotation has no 'mentions' list", raw_text=text)
    review = normalise_whitespace(review_text)
    known = set(taxonomy.names)
    mentions: list[Mention] = []
    unverified = rejected = 0
    problems: list[str] = []
    for index, item in enumerate(items):
        if not isinstance(item, dict) or not all(isinstance(item.get(k), str) for k in ("aspect", "polarity", "phrase")):
            rejected += 1
            problems.append(f"mention {index}: not an object with text aspect, polarity and phrase")
            continue
        aspect, polarity, phrase = item["aspect"].strip(), item["polarity"].strip().lower(), item["phrase"]
        if aspect not in known:
            rejected += 1
            problems.append(f"mention {index}: unknown aspect {aspect!r}")
            continue
        if polarity not in POLARITIES:
            rejected += 1
            problems.append(f"mention {index}: polarity {item['polarity']!r} is not positive or negative")
            continue
        span = normalise_whitespace(phrase)
        if not span or span not in review:
            unverified += 1
            problems.append(f"mention {index}: phrase not found in the review")
            continue
        mentions.append(Mention(aspect, polarity, span))  # type: ignore[arg-type]
    return AnnotationResult(Status.OK, mentions, unverified, rejected, "; ".join(problems) or None, text)


async def annotate_review(
    review_text: str,
    model: ModelAPI,
    context: CallContext | None = None,
    *,
    taxonomy: Taxonomy | None = None,
    replicate: int = 0,
    temperature: float | None = 0.0,
    max_tokens: int = ANNOTATION_TOKENS,
) -> AnnotationResult:
    """Annotate one review with one model call (system = instructions, user = the review text).

    Args:
        review_text: the review as the annotator sees it (the assessment's text fields, rendered
            by the caller); phrases are verified against exactly this text.
        model: the annotator model.
        context: the unit's call context (cache, call log, limits, budget).
        taxonomy: the aspect set (default: the shipped one).
        replicate: replicate index (seed and cache key).
        temperature: sampling temperature (default 0: annotation is a measurement).
        max_tokens: cap on the answer.

    Returns:
        The parsed, verified annotation; a model failure's status and reason pass through.
    """
    taxonomy = taxonomy or load_taxonomy()
    messages = [ChatMessage(role="system", content=annotation_instructions(taxonomy)),
                ChatMessage(role="user", content=review_text)]
    config = GenerateConfig(temperature=temperature, max_tokens=max_tokens, seed=replicate,
                            json_schema=annotation_schema(taxonomy))
    output = await call_model(model, messages, config, replicate=replicate, context=context)
    if output.status != Status.OK:
        return AnnotationResult(output.status, reason=output.error, raw_text=output.text)
    return parse_annotation(output.text, review_text, taxonomy)

