"""Adapters from an external reviewer system's native review JSON onto a rhetorica form.

An external system (a command, an HTTP endpoint, a Python callable: issue 15 §2) answers in its own
format. An :class:`Adapter` maps that native object onto one declared
:class:`~rhetorica.forms.Form` **without guessing**: every score is read from a named native field
and either maps exactly onto a declared value or the whole review is ``malformed``
(:class:`AdapterError`). Nothing is rounded, clipped or defaulted.

Built-in adapters (:func:`get_adapter`):

- ``native``: the system already answers on a rhetorica form (``form=`` option, default
  ``iclr-2026``); field names and ranges are the form's.
- ``ai-scientist``: the review JSON of the AI Scientist reviewer (Lu et al. 2024, "The AI
  Scientist", its NeurIPS-style review form): ``Overall`` 1–10, ``Soundness`` /
  ``Presentation`` / ``Contribution`` 1–4, ``Confidence`` 1–5, ``Decision`` Accept|Reject,
  ``Summary``, ``Strengths``, ``Weaknesses``, ``Questions`` → ``iclr-2026``. The decision must be
  one of Accept/Reject; it is kept in the payload as ``native_decision``, not scored.
- ``openreview``: an ICLR/OpenReview review (ICLR 2024–2025 rating set {1, 3, 5, 6, 8, 10}):
  ``rating`` must be one of those levels (``"6: marginally above the acceptance threshold"``
  reads as 6, the OpenReview display form; ``"3 good"`` as 3); ``soundness``, ``presentation``, ``contribution``
  1–4 and ``confidence`` 1–5 in the same ``"N: label"`` or plain-number form → ``iclr-2026``.
  A rating of 4 or 7 is off the set and ``malformed``.
- ``scale-1-6``: a six-point overall recommendation (the NeurIPS 2025 overall scale: 1 strong
  reject, 2 reject, 3 borderline reject, 4 borderline accept, 5 accept, 6 strong accept) mapped
  onto the 1–10 overall of the ``overall-1-10`` form by a *declared* table. The default table
  aligns the labels with the ICLR set: 1→1 (strong reject), 2→3 (reject), 3→5 (marginally
  below the threshold), 4→6 (marginally above), 5→8 (accept), 6→10 (strong accept). A study may
  declare its own table (``mapping=``); a native value outside the table is ``malformed``.

The ``overall-1-10`` form (registered here) holds the overall score and optional summary,
strengths and weaknesses: the form of a system that gives nothing else.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rhetorica.forms import ICLR_2026, Form, FormError, Metric, TextField, get_form, register_form

#: ICLR 2024–2025 / OpenReview overall rating levels.
OPENREVIEW_RATINGS: tuple[float, ...] = (1, 3, 5, 6, 8, 10)

#: Default declared table of ``scale-1-6``: six-point label → the ICLR level with the same label.
SIX_POINT_TO_TEN: dict[int, int] = {1: 1, 2: 3, 3: 5, 4: 6, 5: 8, 6: 10}

OVERALL_1_10 = register_form(Form(
    name="overall-1-10", version="1",
    description="an overall recommendation 1-10 and optional summary, strengths, weaknesses",
    metrics=(ICLR_2026.metric("overall"),),
    text_fields=(TextField(name="summary", required=False),
                 TextField(name="strengths", kind="list", required=False),
                 TextField(name="weaknesses", kind="list", required=False)),
))


class AdapterError(ValueError):
    """A native review that does not map onto the adapter's form (names the field and the problem)."""


@dataclass(frozen=True)
class Adapter:
    """Maps one native review format onto a rhetorica form.

    Attributes:
        name: adapter name (``ai-scientist`` …).
        form: the rhetorica form it produces.
        mapping: the declared native → form value table of ``scale-1-6`` (empty otherwise).
        rating_field: native field that holds the overall score (``scale-1-6``).
    """

    name: str
    form: Form
    mapping: Mapping[int, int] = field(default_factory=dict)
    rating_field: str = "rating"

    def spec(self) -> dict[str, Any]:
        """What about the adapter changes its output (hashed into the evaluator's spec)."""
        return {"adapter": self.name, "form": self.form.name, "form_version": self.form.version,
                "mapping": {str(k): v for k, v in sorted(self.mapping.items())}, "rating_field": self.rating_field}

    def adapt(self, native: dict[str, Any]) -> dict[str, Any]:
        """The form payload (scores and text fields, validated) of one native review.

        Raises:
            AdapterError: a field is missing, off its native scale, or not on the form (the
                message names every problem).
        """
        if self.name == "native":
            payload = dict(native)
        elif self.name == "ai-scientist":
            payload = _ai_scientist(native)
        elif self.name == "openreview":
            payload = _openreview(native)
        else:
            payload = _six_point(native, self.mapping, self.rating_field)
        try:
            scores = self.form.check_scores(payload)
            texts = self.form.check_texts(payload)
        except FormError as exc:
            raise AdapterError(str(exc)) from None
        extra = {k: payload[k] for k in ("native_decision",) if k in payload}
        return {**texts, **scores, **extra}


ADAPTER_NAMES = ("native", "ai-scientist", "openreview", "scale-1-6")


def get_adapter(name: str, *, form: str | None = None, mapping: Mapping[Any, Any] | None = None,
                rating_field: str = "rating") -> Adapter:
    """The adapter called ``name``.

    Args:
        name: one of :data:`ADAPTER_NAMES`.
        form: the rhetorica form of a ``native`` system (default ``iclr-2026``); not allowed for the
            others (their form is fixed).
        mapping: ``scale-1-6`` only: native level (1..6) → overall level (1..10); default
            :data:`SIX_POINT_TO_TEN`.
        rating_field: ``scale-1-6`` only: native field holding the six-point score.

    Raises:
        ValueError: unknown adapter, an option the adapter does not take, or a mapping whose
            targets are off the 1–10 scale.
    """
    if name not in ADAPTER_NAMES:
        raise ValueError(f"unknown review adapter {name!r}; known: {', '.join(ADAPTER_NAMES)}")
    if form is not None and name != "native":
        raise ValueError(f"adapter {name!r} always produces its own form; 'form' is only for the native adapter")
    if mapping is not None and name != "scale-1-6":
        raise ValueError(f"adapter {name!r} takes no 'mapping' (only scale-1-6 does)")
    if name == "native":
        return Adapter(name, get_form(form or ICLR_2026.name))
    if name in ("ai-scientist", "openreview"):
        return Adapter(name, ICLR_2026)
    table: dict[int, int] = {}
    for native, target in (mapping or SIX_POINT_TO_TEN).items():
        try:
            key, value = int(native), int(target)
        except (TypeError, ValueError):
            raise ValueError(f"scale-1-6 mapping {native!r}: {target!r} is not a whole-number pair") from None
        if not 1 <= value <= 10:
            raise ValueError(f"scale-1-6 mapping {native!r}: {target!r} is outside the overall scale 1..10")
        table[key] = value
    return Adapter(name, OVERALL_1_10, table, rating_field)


def _field(native: dict[str, Any], key: str, problems: list[str]) -> Any:
    if key not in native or native[key] is None:
        problems.append(f"{key}: missing")
        return None
    return native[key]


def _ai_scientist(native: dict[str, Any]) -> dict[str, Any]:
    problems: list[str] = []
    out: dict[str, Any] = {}
    for source, target in (("Overall", "overall"), ("Soundness", "soundness"), ("Presentation", "presentation"),
                           ("Contribution", "contribution"), ("Confidence", "confidence"),
                           ("Summary", "summary"), ("Strengths", "strengths"), ("Weaknesses", "weaknesses")):
        out[target] = _field(native, source, problems)
    questions = native.get("Questions")
    out["questions"] = [] if questions is None else questions
    decision = _field(native, "Decision", problems)
    if decision is not None:
        if not isinstance(decision, str) or decision.strip().lower() not in ("accept", "reject"):
            problems.append(f"Decision: {decision!r} is not Accept or Reject")
        else:
            out["native_decision"] = decision.strip().capitalize()
    if problems:
        raise AdapterError("; ".join(problems))
    return out


_LABELLED = re.compile(r"^\s*(-?\d+(?:\.\d+)?)(?:\s*:.*|\s+[^\d\s].*)?\s*$", re.DOTALL)


def _labelled_number(key: str, value: Any) -> Any:
    """``"6: marginally above …"`` or ``"3 good"`` (OpenReview's display forms) → the leading number;
    a plain number passes through; other text is an error."""
    if isinstance(value, str):
        match = _LABELLED.match(value)
        if match is None:
            raise AdapterError(f"{key}: {value!r} is not a number or an 'N: label' rating")
        return float(match.group(1))
    return value


_OPENREVIEW_RATING = Metric(name="rating", type="ordinal", levels=OPENREVIEW_RATINGS)


def _openreview(native: dict[str, Any]) -> dict[str, Any]:
    problems: list[str] = []
    out: dict[str, Any] = {}
    rating = _field(native, "rating", problems)
    if rating is not None:
        try:
            out["overall"] = _OPENREVIEW_RATING.check(_labelled_number("rating", rating))
        except (FormError, AdapterError) as exc:
            problems.append(str(exc))
    for key in ("soundness", "presentation", "contribution", "confidence"):
        value = _field(native, key, problems)
        if value is not None:
            try:
                out[key] = _labelled_number(key, value)
            except AdapterError as exc:
                problems.append(str(exc))
    for key in ("summary", "strengths", "weaknesses", "questions"):
        value = native.get(key)
        # OpenReview's own strengths/weaknesses/questions are free text: kept as one item
        out[key] = [value] if isinstance(value, str) and key != "summary" else value
    if out.get("questions") is None:
        out["questions"] = []
    if problems:
        raise AdapterError("; ".join(problems))
    return out


def _six_point(native: dict[str, Any], mapping: Mapping[int, int], rating_field: str) -> dict[str, Any]:
    problems: list[str] = []
    value = _field(native, rating_field, problems)
    if problems:
        raise AdapterError("; ".join(problems))
    number = _labelled_number(rating_field, value)
    if isinstance(number, bool) or not isinstance(number, (int, float)) or float(number) not in {float(k) for k in mapping}:
        shown = ", ".join(str(k) for k in sorted(mapping))
        raise AdapterError(f"{rating_field}: {value!r} is not one of the declared levels {{{shown}}}")
    out: dict[str, Any] = {"overall": mapping[int(number)]}
    for key in ("summary", "strengths", "weaknesses"):
        if native.get(key) is not None:
            out[key] = native[key]
    return out
