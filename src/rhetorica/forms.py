"""Declared output forms: what an evaluator's assessment contains (ARCHITECTURE.md, "Forms and
metrics are data").

A :class:`Form` is a set of named scores (:class:`Metric`: type, range, direction, primary or not)
plus free-text fields (:class:`TextField`). Every evaluator — an LLM reviewer under a protocol, a
review-quality judge's metric family, SciCore's branches, an external system — declares one, and
its assessments are stored as long rows (assessment, metric, value). Analysis takes the metric as
a parameter; the form says which metric is primary.

:meth:`Form.check_scores` is the one place a score is accepted: a value outside its declared range
or off its declared levels is an error (the assessment is ``malformed``), never clipped or rounded.

Built-in forms (registered in :data:`rhetorica.registry.forms`):

- ``review-000``: the 'Style over Substance' review form (STUDIES.md §1): overall 1–10 (primary);
  soundness, significance, evidence, clarity 1–4; reviewer confidence 1–5 (diagnostic);
  summary, strengths, weaknesses, suggestions.
- ``review-000-overall``: the Bare protocol's form, overall 1–10 and the text fields only.
- ``control-000``: the form of the study's control reviewers (:mod:`rhetorica.reviewers.control`):
  a continuous overall 1-10 (primary) and the four 000 criteria 1-4.
- ``iclr-2026``: the ICLR 2026 review form of the six-dimension study (STUDIES.md §2): overall
  assessment 1–10 (primary); soundness, presentation, contribution 1–4; confidence 1–5
  (diagnostic); summary, strengths, weaknesses, questions.
"""

from __future__ import annotations

import math
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rhetorica.registry import forms as form_registry
from rhetorica.wording import counted

MetricType = Literal["integer", "ordinal", "continuous", "boolean", "count"]
Direction = Literal["higher", "lower", "none"]


class FormError(ValueError):
    """A payload that does not fit its declared form (the message names the field and the problem)."""


class Metric(BaseModel):
    """One declared score.

    Attributes:
        name: identifier used in the store and in tables (``[a-z][a-z0-9_]*``).
        type: ``integer`` (whole numbers in [low, high]), ``ordinal`` (one of ``levels``),
            ``continuous`` (any real in [low, high]), ``boolean`` (0 or 1; ``true``/``false``
            accepted), ``count`` (a whole number ≥ ``low``, default 0; ``high`` optional).
        low, high: inclusive bounds; ``None`` = unbounded on that side.
        levels: the allowed values of an ordinal scale (e.g. ICLR's {1, 3, 5, 6, 8, 10}).
        direction: ``higher`` = higher is better, ``lower`` = lower is better, ``none`` = no order
            of quality (e.g. reviewer confidence).
        primary: the form's headline score (exactly one per form).
        role: ``score`` (analysed), ``diagnostic`` (stored and shown, not a headline), or
            ``style`` (a style-targeted metric, excluded from classifications by default).
        description: one line for reports and prompts.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    type: MetricType
    low: float | None = None
    high: float | None = None
    levels: tuple[float, ...] | None = None
    direction: Direction = "higher"
    primary: bool = False
    role: Literal["score", "diagnostic", "style"] = "score"
    description: str = ""

    @model_validator(mode="after")
    def _consistent(self) -> Metric:
        if self.type == "ordinal" and not self.levels:
            raise ValueError(f"metric {self.name!r}: an ordinal metric needs 'levels'")
        if self.type != "ordinal" and self.levels:
            raise ValueError(f"metric {self.name!r}: only an ordinal metric has 'levels'")
        if self.type in ("integer", "continuous") and (self.low is None or self.high is None):
            raise ValueError(f"metric {self.name!r}: a {self.type} metric needs 'low' and 'high'")
        if self.low is not None and self.high is not None and self.low > self.high:
            raise ValueError(f"metric {self.name!r}: low {self.low} is above high {self.high}")
        return self

    @property
    def bounds(self) -> tuple[float | None, float | None]:
        """(lowest, highest) possible value; for ordinal metrics, the extreme levels."""
        if self.type == "boolean":
            return 0.0, 1.0
        if self.type == "ordinal":
            assert self.levels
            return min(self.levels), max(self.levels)
        if self.type == "count":
            return (self.low if self.low is not None else 0.0), self.high
        return self.low, self.high

    @property
    def scale_text(self) -> str:
        """The scale as a table shows it: ``yes/no`` (boolean), ``{1, 3, 5}`` (ordinal levels),
        ``0–5`` (bounded), ``≥ 0`` (no upper bound)."""
        if self.type == "boolean":
            return "yes/no"
        if self.type == "ordinal":
            return "{" + ", ".join(f"{x:g}" for x in self.levels or ()) + "}"
        low, high = self.bounds
        return f"{low:g}–{high:g}" if high is not None else f"≥ {low:g}"

    def check(self, value: Any) -> float:
        """The stored value of ``value`` under this metric.

        Accepts ints, integral floats and numeric strings (``"10"`` is 10, never 1); booleans only
        for a boolean metric.

        Raises:
            FormError: not a number, not a whole level, off the levels or out of range.
        """
        if self.type == "boolean":
            if isinstance(value, bool):
                return float(value)
            if isinstance(value, str) and value.strip().lower() in ("true", "false", "yes", "no"):
                return float(value.strip().lower() in ("true", "yes"))
            if isinstance(value, (int, float)) and value in (0, 1):
                return float(value)
            raise FormError(f"{self.name}: {value!r} is not yes/no")
        number = _number(self.name, value)
        if self.type in ("integer", "count") and not number.is_integer():
            raise FormError(f"{self.name}: {value!r} is not a whole number")
        if self.type == "ordinal":
            assert self.levels
            if number not in self.levels:
                shown = ", ".join(f"{x:g}" for x in self.levels)
                raise FormError(f"{self.name}: {value!r} is not one of the levels {{{shown}}}")
            return number
        low, high = self.bounds
        if (low is not None and number < low) or (high is not None and number > high):
            raise FormError(f"{self.name}: {number:g} is outside its range "
                            f"{'-inf' if low is None else f'{low:g}'}..{'inf' if high is None else f'{high:g}'}")
        return number

    @property
    def asked_on_steps(self) -> bool:
        """True when a model is asked for this metric on the integer scale 0..:data:`ANSWER_STEPS`
        rather than as a real number (a ``continuous`` metric: both its bounds are finite).

        Why: a grammar built from a JSON schema may ignore ``minimum``/``maximum`` of a number
        (llama-cpp-python's converter does, a TODO in its ``llama_grammar.py``), so a small local
        model under that grammar can still write ``2`` or ``4.98e9`` for a 0-1 share; an integer
        range becomes an ``enum`` the grammar does honour
        (:func:`rhetorica.models.providers.embedded.bounded_schema`). Every provider is asked the
        same way, so two judges of one study read the same prompt and schema.
        """
        return self.type == "continuous"

    def answer_metric(self) -> Metric:
        """The metric as the model is asked for it: itself, or for a metric
        :attr:`asked_on_steps` an ``integer`` 0..:data:`ANSWER_STEPS` of the same name (the
        percentage of the declared range; :meth:`from_answer` maps it back)."""
        if not self.asked_on_steps:
            return self
        low, high = self.bounds
        return self.model_copy(update={"type": "integer", "low": 0.0, "high": float(ANSWER_STEPS),
                                       "description": f"{self.description} (percent of the {low:g}-{high:g} "
                                                      f"scale: 0 = {low:g}, {ANSWER_STEPS} = {high:g})"})

    def from_answer(self, value: Any) -> float:
        """The declared-scale value of a model's answer ``value`` to :meth:`answer_metric`:
        ``low + (high - low) * k / ANSWER_STEPS`` for a stepped metric (0-1 share: ``k / 100``),
        else :meth:`check` of ``value``.

        Raises:
            FormError: not a whole number 0..100 (stepped metric), or :meth:`check`'s errors.
        """
        if not self.asked_on_steps:
            return self.check(value)
        steps = self.answer_metric().check(value)
        low, high = self.bounds
        assert low is not None and high is not None
        return self.check(low + (high - low) * steps / ANSWER_STEPS)

    def json_schema(self) -> dict[str, Any]:
        """JSON schema of one value (for structured output)."""
        if self.type == "boolean":
            return {"type": "boolean"}
        if self.type == "ordinal":
            assert self.levels
            whole = all(float(x).is_integer() for x in self.levels)
            return {"type": "integer" if whole else "number",
                    "enum": [int(x) if whole else x for x in self.levels]}
        schema: dict[str, Any] = {"type": "number" if self.type == "continuous" else "integer"}
        low, high = self.bounds
        if low is not None:
            schema["minimum"] = int(low) if self.type != "continuous" else low
        if high is not None:
            schema["maximum"] = int(high) if self.type != "continuous" else high
        return schema


def _number(name: str, value: Any) -> float:
    if isinstance(value, bool):
        raise FormError(f"{name}: a score must be a number, not {str(value).lower()}")
    if isinstance(value, (int, float)):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            raise FormError(f"{name}: {value!r} is not a number") from None
    else:
        raise FormError(f"{name}: {value!r} is not a number")
    if not math.isfinite(number):
        raise FormError(f"{name}: {value!r} is not a finite number")
    return number


ANSWER_STEPS = 100
"""Steps of the integer scale a continuous metric is asked on (:meth:`Metric.answer_metric`):
hundredths of its range, so a 0-1 share is asked as a percentage; resolution 1% of the range."""


class TextField(BaseModel):
    """One free-text field of a form.

    Attributes:
        name: identifier (``summary``, ``strengths`` …).
        kind: ``text`` (one string) or ``list`` (a list of short strings).
        max_length: longest string accepted (characters).
        max_items: longest list accepted (``list`` fields).
        required: missing → the payload does not fit the form.
        description: one line for prompts.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    kind: Literal["text", "list"] = "text"
    max_length: int = 4000
    max_items: int = 12
    required: bool = True
    description: str = ""


class Form(BaseModel):
    """A declared output form: scores and text fields.

    Attributes:
        name: registry name (``review-000``, ``iclr-2026`` …).
        version: bumped when a field or range changes (part of every unit key that uses it).
        description: one line.
        metrics: the scores; exactly one has ``primary=True``.
        text_fields: the free-text fields.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    version: str = "1"
    description: str = ""
    metrics: tuple[Metric, ...]
    text_fields: tuple[TextField, ...] = ()

    @model_validator(mode="after")
    def _one_primary(self) -> Form:
        primaries = [m.name for m in self.metrics if m.primary]
        if len(primaries) != 1:
            raise ValueError(f"form {self.name!r} needs exactly one primary metric, has {primaries or 'none'}")
        names = [m.name for m in self.metrics] + [t.name for t in self.text_fields]
        duplicated = sorted({n for n in names if names.count(n) > 1})
        if duplicated:
            raise ValueError(f"form {self.name!r} declares {', '.join(duplicated)} twice")
        return self

    @property
    def primary(self) -> Metric:
        """The headline metric."""
        return next(m for m in self.metrics if m.primary)

    @property
    def label(self) -> str:
        """``name@version``: how an assessment records the form it was made on."""
        return f"{self.name}@{self.version}"

    @property
    def metric_names(self) -> tuple[str, ...]:
        return tuple(m.name for m in self.metrics)

    def metric(self, name: str) -> Metric:
        """The metric called ``name``.

        Raises:
            FormError: the form has no such metric (the message lists its metrics).
        """
        for m in self.metrics:
            if m.name == name:
                return m
        raise FormError(f"form {self.name!r} has no metric {name!r}; it has {', '.join(self.metric_names)}")

    def check_scores(self, payload: dict[str, Any]) -> dict[str, float]:
        """Validated scores of ``payload`` (metric name → value); every metric is required.

        Raises:
            FormError: a metric is missing or its value does not fit (all problems in one message).
        """
        scores: dict[str, float] = {}
        problems: list[str] = []
        for m in self.metrics:
            if m.name not in payload or payload[m.name] is None:
                problems.append(f"{m.name}: missing")
                continue
            try:
                scores[m.name] = m.check(payload[m.name])
            except FormError as exc:
                problems.append(str(exc))
        if problems:
            raise FormError("; ".join(problems))
        return scores

    def answer_form(self) -> Form:
        """The form as a model is asked to fill it: every metric as :meth:`Metric.answer_metric`
        (a continuous metric on the integer scale 0..100); the same form when none is stepped."""
        if not any(m.asked_on_steps for m in self.metrics):
            return self
        return self.model_copy(update={"metrics": tuple(m.answer_metric() for m in self.metrics)})

    def check_answer(self, payload: dict[str, Any]) -> tuple[dict[str, float], dict[str, str]]:
        """Each metric of a model's answer to :meth:`answer_form`, on its declared scale, or why
        it is missing; one bad value never costs another metric.

        Returns:
            ``(scores, missing)``: metric -> declared-scale value (:meth:`Metric.from_answer`),
            and metric -> reason (``"missing"``, off its range or levels, not a number) for every
            metric not in ``scores``.
        """
        scores: dict[str, float] = {}
        missing: dict[str, str] = {}
        for m in self.metrics:
            if m.name not in payload or payload[m.name] is None:
                missing[m.name] = f"{m.name}: missing"
                continue
            try:
                scores[m.name] = m.from_answer(payload[m.name])
            except FormError as exc:
                missing[m.name] = str(exc)
        return scores, missing

    def check_texts(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Validated text fields of ``payload``.

        Raises:
            FormError: a required field is missing or a field has the wrong shape or size.
        """
        texts: dict[str, Any] = {}
        problems: list[str] = []
        for f in self.text_fields:
            value = payload.get(f.name)
            if value is None:
                if f.required:
                    problems.append(f"{f.name}: missing")
                continue
            if f.kind == "text":
                if not isinstance(value, str):
                    problems.append(f"{f.name}: expected text")
                elif len(value) > f.max_length:
                    problems.append(f"{f.name}: longer than {f.max_length} characters")
                else:
                    texts[f.name] = value
            else:
                if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                    problems.append(f"{f.name}: expected a list of strings")
                elif len(value) > f.max_items:
                    problems.append(f"{f.name}: more than {counted(f.max_items, 'item')}")
                elif any(len(v) > f.max_length for v in value):
                    problems.append(f"{f.name}: an item is longer than {f.max_length} characters")
                else:
                    texts[f.name] = value
        if problems:
            raise FormError("; ".join(problems))
        return texts

    def json_schema(self) -> dict[str, Any]:
        """JSON schema of a whole payload (text fields first, then scores), for structured output.

        String lengths are not in the schema (see :meth:`check_texts`)."""
        properties: dict[str, Any] = {}
        for f in self.text_fields:
            # no maxLength: llama.cpp cannot build a grammar for long bounded strings (the embedded
            # provider crashed on one); lengths are checked by check_texts instead
            properties[f.name] = ({"type": "string"} if f.kind == "text" else
                                  {"type": "array", "items": {"type": "string"}, "maxItems": f.max_items})
        for m in self.metrics:
            properties[m.name] = m.json_schema()
        required = [f.name for f in self.text_fields if f.required] + list(self.metric_names)
        return {"title": self.name, "type": "object", "properties": properties, "required": required,
                "additionalProperties": False}


def expected_metric(metric: str) -> str:
    """The score name under which ``metric``'s soft rating (its expected score,
    :mod:`rhetorica.reviewers.soft_ratings`) is stored: ``overall`` -> ``overall.expected``."""
    return f"{metric}.expected"


def get_form(name: str) -> Form:
    """The registered form called ``name`` (raises :class:`~rhetorica.registry.UnknownComponentError`)."""
    found = form_registry.get(name)
    assert isinstance(found, Form)
    return found


def register_form(form: Form) -> Form:
    """Register ``form`` under its name (plug-ins call this) and return it."""
    return form_registry.add(form.name, form, description=form.description)


_LISTS = tuple(TextField(name=n, kind="list", description=d) for n, d in (
    ("strengths", "short points"), ("weaknesses", "short points")))


def _criterion(name: str) -> Metric:
    """A 1-4 review criterion (``1 poor .. 4 excellent``), as both conference forms ask it."""
    return Metric(name=name, type="integer", low=1, high=4, description="1 poor .. 4 excellent")


def _confidence(description: str) -> Metric:
    """The reviewer's 1-5 confidence: a diagnostic without a direction."""
    return Metric(name="confidence", type="integer", low=1, high=5, direction="none", role="diagnostic",
                  description=description)

REVIEW_000 = register_form(Form(
    name="review-000", version="1",
    description="'Style over Substance' review form: overall 1-10, four criteria 1-4, confidence 1-5",
    metrics=(
        Metric(name="overall", type="integer", low=1, high=10, primary=True,
               description="1 strong reject .. 10 award quality"),
        _criterion("soundness"),
        _criterion("significance"),
        _criterion("evidence"),
        _criterion("clarity"),
        _confidence("reviewer confidence, 1 guess .. 5 certain"),
    ),
    text_fields=(TextField(name="summary", description="one paragraph"), *_LISTS,
                 TextField(name="suggestions", kind="list", description="short points")),
))

REVIEW_000_OVERALL = register_form(Form(
    name="review-000-overall", version="1",
    description="the Bare protocol's form: overall 1-10 and the text fields",
    metrics=(REVIEW_000.metric("overall"),),
    text_fields=REVIEW_000.text_fields,
))

CONTROL_000 = register_form(Form(
    name="control-000", version="1",
    description="simulated control reviewers: continuous overall 1-10, the four 000 criteria 1-4",
    metrics=(
        Metric(name="overall", type="continuous", low=1, high=10, primary=True,
               description="latent quality + noise (+ the injected shift), on the 1-10 scale"),
        *(REVIEW_000.metric(n) for n in ("soundness", "significance", "evidence", "clarity")),
    ),
))

ICLR_2026 = register_form(Form(
    name="iclr-2026", version="1",
    description="ICLR 2026 review form: overall assessment 1-10, soundness/presentation/contribution 1-4, "
                "confidence 1-5",
    metrics=(
        Metric(name="overall", type="integer", low=1, high=10, primary=True,
               description="overall assessment, 1 strong reject .. 10 strong accept"),
        _criterion("soundness"),
        _criterion("presentation"),
        _criterion("contribution"),
        _confidence("reviewer confidence, 1 educated guess .. 5 absolutely certain"),
    ),
    text_fields=(TextField(name="summary", description="one paragraph"), *_LISTS,
                 TextField(name="questions", kind="list", description="questions for the authors")),
))
