"""A review-quality judge: model + metric family + rubric, as an :class:`~rhetorica.evaluation.Evaluator`
(its kind ``judge`` is :class:`rhetorica.study.evaluator_kinds.JudgeKind`; issue 13 part 3).

One judge call scores a whole family where its rubric allows (**family packing**: the system prompt
is the rubric plus the declared scale of every metric, the answer is one JSON object following the
family form's JSON schema). Metrics given their own rubric file (``metric_rubrics``: a metric's
original prompt from its authors) are scored in separate calls, one per such metric, still on the
declared scale; ``packing="metric"`` scores every metric in its own call (the cost baseline of
``benchmarks/judge_packing.py``).

Per-point families (RevUtil) rate the review's weakness points
(:func:`rhetorica.validation.review_checks.weakness_points`): packed, one call returns a list with one
entry per numbered point; ``per_point_calls=True`` makes one call per point. The review-level
score of each aspect is the mean over the points (verifiability over the points that make a claim,
missing when none does — never imputed); a review with no weakness point is ``empty`` (nothing to
rate), with no call made. Reference families (ScholarPeer) read
``Target.reference``; a target without one is an ``error`` with that reason, and no call is made.

Ranges where the answer is made: the output schema of every call carries each metric's declared
range (``minimum``/``maximum``), levels (``enum``) and type; a continuous metric (a 0-1 share) is
asked as a whole number 0..100 and divided back (:meth:`rhetorica.forms.Form.answer_form`), because a
grammar built from a JSON schema may not bound a real number (llama-cpp-python's does not; it does
compile an integer range into an ``enum`` of its values). The prompt states the same scales.

Parsing: reasoning blocks are removed and the last JSON object holding a field of the form is the
answer (:mod:`rhetorica.reviewers.form`); every value is validated by
:meth:`rhetorica.forms.Form.check_answer` — out of range or off the scale is refused, never clipped.
Where the family's rubric scores its metrics independently (:attr:`MetricFamily.independent`), a
refused value (or a broken ``at_most`` pair) makes only that metric missing, with its reason in the
judgement's ``missing_metrics`` artefact; the judgement is ``malformed`` only when no metric is
left. A per-point family's judgement is ``malformed`` on any bad value. An answer that is not valid
in full gets one repair call (like :mod:`rhetorica.reviewers.llm_reviewer`); a plain-text refusal is
``refused`` at once; a model failure passes its status through. All calls go through
:func:`rhetorica.models.call.call_model` with the unit's context.

Soft ratings (``soft_ratings=True``, issue 27 section 2): every call asks for token
log-probabilities where the provider returns them, and an ok judgement also stores each integer
score's expected score ``<metric>.expected`` — the mean over the calls (or weakness points) its
score is made of, missing when any lacks a distribution (:mod:`rhetorica.judges.soft_ratings`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from rhetorica.documents.inputs import ReviewerInput, blind_document, record_input, reviewer_input, text_input
from rhetorica.evaluation import Evaluation, Target
from rhetorica.forms import Form, FormError, Metric
from rhetorica.hashing import content_hash
from rhetorica.judges.families import MetricFamily, get_family
from rhetorica.judges.soft_ratings import Ratings, answer_soft_ratings, review_soft_ratings
from rhetorica.validation.review_checks import weakness_points
from rhetorica.models.api import ChatMessage, GenerateConfig, ModelAPI, ModelOutput
from rhetorica.models.call import CallContext, call_model
from rhetorica.reviewers.form import is_refusal, json_objects, strip_reasoning
from rhetorica.reviewers.soft_ratings import ARTEFACT, requested_logprobs
from rhetorica.status import CALL_FAILURES, Status
from rhetorica.models.registry import get_model

DEFAULT_JUDGE_TOKENS = 600
MISSING_METRICS = "missing_metrics"
"""Artefact (and payload key) of a judgement: metric -> why that metric has no value."""
Packing = Literal["family", "metric"]


def scale_text(metric: Metric) -> str:
    """One prompt line declaring ``metric``'s name, type and scale."""
    low, high = metric.bounds
    if metric.type == "boolean":
        scale = "true or false"
    elif metric.type == "count":
        scale = f"a whole number >= {low:g}" + (f" and <= {high:g}" if high is not None else "")
    elif metric.type == "ordinal":
        scale = "one of " + ", ".join(f"{x:g}" for x in metric.levels or ())
    else:
        kind = "a whole number" if metric.type == "integer" else "a number"
        scale = f"{kind} from {low:g} to {high:g}"
    return f"- {metric.name}: {scale}. {metric.description}"


def single_metric_form(form: Form, metric: str) -> Form:
    """The form of one metric of ``form`` (that metric primary), for a call that scores it alone."""
    m = form.metric(metric)
    return Form(name=f"{form.name}.{metric}", version=form.version, description=m.description,
                metrics=(m.model_copy(update={"primary": True}),))


def _answer(text: str, names: set[str]) -> dict[str, Any]:
    """The last JSON object of the final answer that holds one of ``names`` (else the last object).

    Raises:
        FormError: no JSON object in the answer.
    """
    objects = json_objects(strip_reasoning(text))
    shaped = [o for o in objects if names & set(o)]
    if shaped:
        return shaped[-1]
    if objects:
        return objects[-1]
    raise FormError("no JSON object found in the model output")


@dataclass
class JudgeCall:
    """One question to the judge.

    Attributes:
        system: the rubric and the declared fields and scales.
        user: the review (and reference review, or numbered weakness points).
        form: the form that validates the answer.
        family: the family (its consistency constraints are checked too).
        n_points: for a packed per-point call, the number of points the answer's list must hold.
    """

    system: str
    user: str
    form: Form
    family: MetricFamily
    n_points: int | None = None

    def schema(self) -> dict[str, Any]:
        """JSON schema of the answer: the form as asked (:meth:`rhetorica.forms.Form.answer_form`:
        every range as ``minimum``/``maximum``, levels as ``enum``, a continuous metric as an
        integer 0..100), or an object with a list of ``n_points`` of them."""
        asked = self.form.answer_form().json_schema()
        if self.n_points is None:
            return asked
        return {"title": f"{self.form.name}-points", "type": "object", "required": ["points"],
                "additionalProperties": False,
                "properties": {"points": {"type": "array", "items": asked,
                                          "minItems": self.n_points, "maxItems": self.n_points}}}

    def messages(self) -> list[ChatMessage]:
        """The call's messages: the system prompt, then the user message (what the model is sent;
        ``rhetorica estimate`` counts these same messages)."""
        return [ChatMessage(role="system", content=self.system), ChatMessage(role="user", content=self.user)]

    def parse(self, text: str) -> Answer:
        """Validated scores of the answer ``text`` on the declared scales: one dict, or one per
        point in order. For a family whose metrics are ``independent``, a metric off its range
        (or in a broken ``at_most`` pair) is left out with its reason in :attr:`Answer.missing`.

        Raises:
            FormError: no JSON object; no valid metric at all; for a family whose metrics are not
                independent, any missing or out-of-range value, broken constraint, or a list of
                the wrong length (every problem in one message).
        """
        asked = self.form.answer_form()
        if self.n_points is None:
            scores, missing = self.form.check_answer(_answer(text, set(asked.metric_names)))
            for (a, b), why in self.family.broken_constraints(scores).items():
                missing.update({a: why, b: why})
            scores = {m: v for m, v in scores.items() if m not in missing}
            if missing and (not self.family.independent or not scores):
                raise FormError("; ".join(dict.fromkeys(missing.values())))
            return Answer([scores], missing)
        points = _answer(text, {"points"}).get("points")
        if not isinstance(points, list) or len(points) != self.n_points:
            got = len(points) if isinstance(points, list) else "no list"
            raise FormError(f"points: expected a list of {self.n_points} entries, got {got}")
        found, problems = [], []
        for i, entry in enumerate(points, start=1):
            scores, missing = self.form.check_answer(entry if isinstance(entry, dict) else {})
            problems += [f"point {i}: {why}" for why in missing.values()]
            found.append(scores)
        if problems:
            raise FormError("; ".join(problems))
        return Answer(found)


@dataclass
class Answer:
    """A judge call's validated answer.

    Attributes:
        scores: metric -> value on its declared scale; one dict, or one per point in order.
        missing: metric -> why it has no value (off its range, not a number, absent, a broken
            ``at_most`` pair); only for a family whose metrics are independent.
    """

    scores: list[dict[str, float]]
    missing: dict[str, str] = field(default_factory=dict)


@dataclass
class Judge:
    """A review-quality judge (implements :class:`rhetorica.evaluation.Evaluator`).

    Attributes:
        name: the judge configuration's name in the study.
        model: the judge model (``None``: a judge that only builds its calls, for ``rhetorica
            estimate``; :meth:`evaluate` then answers ``error``).
        family: the metric family scored.
        rubric_file: the user's rubric for the whole family (``None`` = the shipped rubric).
        metric_rubrics: metric name -> the user's rubric file for that metric alone.
        packing: ``family`` (one call for the family) or ``metric`` (one call per metric).
        per_point_calls: for a point family, one call per weakness point instead of one packed call.
        temperature, max_tokens: sampling settings (``None`` = provider default, 600 tokens).
        soft_ratings: also store each integer score's expected score from token
            log-probabilities (:mod:`rhetorica.judges.soft_ratings`).
    """

    name: str
    model: ModelAPI | None
    family: MetricFamily
    rubric_file: Path | None = None
    metric_rubrics: dict[str, Path] = field(default_factory=dict)
    packing: Packing = "family"
    per_point_calls: bool = False
    temperature: float | None = None
    max_tokens: int | None = None
    soft_ratings: bool = False

    def __post_init__(self) -> None:
        if self.packing not in ("family", "metric"):
            raise ValueError(f"judge {self.name!r}: packing must be 'family' or 'metric', got {self.packing!r}")
        for metric in self.metric_rubrics:
            self.family.form.metric(metric)  # FormError names the family's metrics
        if self.family.unit == "point" and (self.metric_rubrics or self.packing == "metric"):
            raise ValueError(f"judge {self.name!r}: the per-point family {self.family.name!r} is scored as a whole "
                             "(one rubric for all its aspects)")
        self._rubric = self.family.rubric(self.rubric_file)
        self._metric_rubric_texts = {m: self.family.rubric(p) for m, p in self.metric_rubrics.items()}

    @property
    def form(self) -> Form:
        """The family's review-level form."""
        return self.family.form

    def spec(self) -> dict[str, Any]:
        """Everything that can change the judge's output (hashed into unit keys); ``soft_ratings``
        only when on (a spec without them is unchanged)."""
        model = self.model
        spec = {"kind": "judge", "model": model.name if model else None,
                "model_options": model.output_options() if model else {},
                "family": self.family.name, "form": f"{self.form.name}@{self.form.version}",
                "rubric": self.family.rubric_version(self.rubric_file),
                "metric_rubrics": {m: f"user:{content_hash(t)[:12]}"
                                   for m, t in sorted(self._metric_rubric_texts.items())},
                "packing": self.packing, "per_point_calls": self.per_point_calls,
                "temperature": self.temperature, "max_tokens": self.max_tokens or DEFAULT_JUDGE_TOKENS}
        return spec | {"soft_ratings": True} if self.soft_ratings else spec

    def inputs(self, target: Target) -> list[ReviewerInput]:
        """The blinded texts the judge reads (:func:`rhetorica.documents.inputs.reviewer_input`):
        the review, then a reference family's reference review, then the defence's notice.

        Raises:
            ValueError: a reference family's target has no reference review.
        """
        found = [reviewer_input(target.document)]
        if self.family.unit == "reference":
            if target.reference is None:
                raise ValueError(f"the {self.family.name} family compares with a reference review, and target "
                                 f"{target.document_id} has none")
            found.append(reviewer_input(target.reference, role="reference review"))
        if target.notice:
            found.append(text_input(target.notice, target.document, "notice"))
        return found

    def calls(self, target: Target) -> list[JudgeCall]:
        """The judge calls that score ``target`` (no model is called here); the target's
        ``notice`` (the ``warn`` defence's note), when set, ends every system prompt.

        Raises:
            ValueError: a reference family's target has no reference review.
        """
        inputs = self.inputs(target)
        review = inputs[0].text
        notice = next((i.text for i in inputs if i.role == "notice"), None)
        if self.family.unit == "reference":
            review = f"CANDIDATE review:\n\n{review}\n\nREFERENCE review:\n\n{inputs[1].text}"
        if self.family.unit == "point":
            assert self.family.point_form is not None
            points = [p.text for p in weakness_points(blind_document(target.document)[0])]
            if not points:
                return []
            header = f"The review:\n\n{review}\n\n"
            if self.per_point_calls:
                system = self._system(self._rubric, self.family.point_form)
                return self._noticed([JudgeCall(system, f"{header}Rate this weakness point:\n\n{p}",
                                                self.family.point_form, self.family) for p in points], notice)
            numbered = "\n".join(f"{i}. {p}" for i, p in enumerate(points, start=1))
            return self._noticed([JudgeCall(self._system(self._rubric, self.family.point_form, points=len(points)),
                                            f"{header}Rate each of these {len(points)} weakness points, in order:"
                                            f"\n\n{numbered}", self.family.point_form, self.family,
                                            n_points=len(points))], notice)
        own = set(self._metric_rubric_texts)
        names = [m for m in self.form.metric_names if m not in own]
        calls = []
        if self.packing == "family" and names:
            packed = self.form if not own else Form(
                name=self.form.name, version=self.form.version,
                metrics=tuple(m.model_copy(update={"primary": i == 0}) for i, m in
                              enumerate(x for x in self.form.metrics if x.name in names)))
            calls.append(JudgeCall(self._system(self._rubric, packed), f"The review to assess:\n\n{review}",
                                   packed, self.family))
        else:
            own |= set(names)
        for metric in (m for m in self.form.metric_names if m in own):
            form = single_metric_form(self.form, metric)
            rubric = self._metric_rubric_texts.get(metric, self._rubric)
            calls.append(JudgeCall(self._system(rubric, form), f"The review to assess:\n\n{review}", form,
                                   self.family))
        return self._noticed(calls, notice)

    @staticmethod
    def _noticed(calls: list[JudgeCall], notice: str | None) -> list[JudgeCall]:
        if notice:
            for call in calls:
                call.system = f"{call.system}\n\n{notice}"
        return calls

    @staticmethod
    def _system(rubric: str, form: Form, *, points: int | None = None) -> str:
        fields = "\n".join(scale_text(m) for m in form.answer_form().metrics)
        shape = (f'one JSON object {{"points": [...]}} whose list holds {points} objects, one per point in order, '
                 f"each with these fields" if points else "one JSON object with exactly these fields")
        return f"{rubric.strip()}\n\nAnswer with {shape}:\n{fields}\nWrite nothing after the JSON object."

    async def evaluate(self, target: Target, context: CallContext) -> Evaluation:
        """Score ``target`` on the family; never raises for a failed judgement (see module docstring)."""
        if self.model is None:
            return Evaluation(status=Status.ERROR, reason=f"judge {self.name!r} has no model (built for estimates)")
        try:
            calls = self.calls(target)
        except ValueError as exc:
            return Evaluation(status=Status.ERROR, reason=str(exc))
        if not calls:
            return Evaluation(status=Status.EMPTY, reason=f"review {target.document_id} has no weakness point to rate")
        for item in self.inputs(target):
            record_input(context, item)
        config = GenerateConfig(temperature=self.temperature, max_tokens=self.max_tokens or DEFAULT_JUDGE_TOKENS,
                                seed=target.replicate, top_logprobs=requested_logprobs(self.model, self.soft_ratings))
        merged: dict[str, float] = {}
        missing: dict[str, str] = {}
        point_scores: list[dict[str, float]] = []
        raw: list[str] = []
        failed: list[tuple[Status, str | None]] = []
        soft: list[Ratings] = []  # per call, or per point of a point family (in point_scores' order)
        for call in calls:
            status, answer, reason, output = await self._ask(call, config, target.replicate, context)
            raw.append(output.text)
            if status != Status.OK and not (self.family.independent and len(calls) > 1 and status == Status.MALFORMED):
                return Evaluation(status=status, reason=reason, raw_text="\n\n".join(raw))
            if status != Status.OK:  # one metric's own call failed: only its metrics are missing
                failed.append((status, reason))
                missing.update({m: reason or str(status) for m in call.form.metric_names})
                continue
            assert answer is not None
            if self.soft_ratings:
                soft += answer_soft_ratings(call.form, answer.scores, output, self.model, call.n_points is not None)
            missing.update(answer.missing)
            if self.family.unit == "point":
                point_scores += answer.scores
            else:
                merged.update(answer.scores[0])
        # constraints across metrics scored in separate calls (packing="metric", metric rubrics)
        for (a, b), why in self.family.broken_constraints(merged).items():
            if not self.family.independent:
                return Evaluation(status=Status.MALFORMED, reason=why, raw_text="\n\n".join(raw))
            missing.update({a: why, b: why})
        merged = {m: v for m, v in merged.items() if m not in missing}
        if self.family.unit != "point" and not merged:
            status = failed[0][0] if failed else Status.MALFORMED
            return Evaluation(status=status, reason="; ".join(dict.fromkeys(missing.values())),
                              raw_text="\n\n".join(raw))
        payload: dict[str, Any] = {}
        if self.family.unit == "point":
            merged = point_means(point_scores)
            payload["points"] = point_scores
        payload["scores"] = merged
        artefacts: dict[str, Any] = {}
        if missing:
            payload["missing"] = missing
            artefacts[MISSING_METRICS] = missing
        scores = dict(merged)
        if self.soft_ratings:
            expected, artefacts[ARTEFACT] = review_soft_ratings(
                merged, soft, point_members(point_scores) if self.family.unit == "point" else None)
            scores.update(expected)
        return Evaluation(status=Status.OK, scores=scores, payload=payload, raw_text="\n\n".join(raw),
                          artefacts=artefacts)

    async def _ask(self, call: JudgeCall, config: GenerateConfig, replicate: int,
                   context: CallContext) -> tuple[Status, Answer | None, str | None, ModelOutput]:
        """One call and, when its answer is not valid in full, one repair call. A partial answer
        (some independent metrics missing) is kept unless the repair answer has more valid
        metrics; the two answers are never mixed. Returns the status, the answer, the reason and
        the output whose text is kept (the one parsed, when ok)."""
        config = config.model_copy(update={"json_schema": call.schema()})
        messages = call.messages()
        assert self.model is not None
        output = await call_model(self.model, messages, config, replicate=replicate, context=context)
        if output.status != Status.OK:
            return output.status, None, output.error, output
        partial: Answer | None = None
        try:
            partial = call.parse(output.text)
            if not partial.missing:
                return Status.OK, partial, None, output
            first = FormError("; ".join(dict.fromkeys(partial.missing.values())))
        except FormError as exc:
            first = exc
        if partial is None and is_refusal(output.text):
            reason = f"the judge declined in plain text: {output.text.strip()[:200]!r}"
            return Status.REFUSED, None, reason, output
        repair = messages + [ChatMessage(role="assistant", content=output.text),
                             ChatMessage(role="user", content=f"That answer is not valid ({first}). "
                                                              "Reply with only the corrected JSON object.")]
        second = await call_model(self.model, repair, config, replicate=replicate, context=context)
        if second.status != Status.OK and partial is not None:
            return Status.OK, partial, None, output
        if second.status in CALL_FAILURES:  # no second answer: the first one's malformed stands
            return (Status.MALFORMED, None, f"{first} | repair attempt failed ({second.status}): {second.error}",
                    output)
        if second.status != Status.OK:
            return second.status, None, f"repair attempt: {second.error}", second
        try:
            repaired = call.parse(second.text)
        except FormError as again:
            if partial is not None:
                return Status.OK, partial, None, output
            if is_refusal(second.text):
                return Status.REFUSED, None, "repair attempt: the judge declined in plain text", second
            return Status.MALFORMED, None, f"{first} | after repair: {again}", second
        if partial is not None and len(partial.missing) < len(repaired.missing):
            return Status.OK, partial, None, output
        return Status.OK, repaired, None, second


def point_members(points: list[dict[str, float]]) -> dict[str, list[int]]:
    """Review-level RevUtil aspect -> the indices of the points its mean is taken over: every
    point, and for ``verifiability`` the points with ``claim`` = 1 (left out when none has a
    claim)."""
    every = list(range(len(points)))
    out = dict.fromkeys(("actionability", "grounding_specificity", "helpfulness"), every)
    claims = [i for i, p in enumerate(points) if p["claim"] == 1.0]
    if claims:
        out["verifiability"] = claims
    return out


def point_means(points: list[dict[str, float]]) -> dict[str, float]:
    """Review-level RevUtil scores from per-point scores: the mean of each aspect over its points
    (:func:`point_members`), and ``claim_share`` = share of points with a claim.

    Raises:
        ValueError: ``points`` is empty.
    """
    if not points:
        raise ValueError("no point scores to average")
    members = point_members(points)
    means = {k: sum(points[i][k] for i in idx) / len(idx) for k, idx in members.items()}
    means["claim_share"] = len(members.get("verifiability", ())) / len(points)
    return means


def judge_factory(name: str, *, model: str | ModelAPI, family: str, rubric_file: str | Path | None = None,
                  metric_rubrics: dict[str, str | Path] | None = None, packing: Packing = "family",
                  per_point_calls: bool = False, temperature: float | None = None, max_tokens: int | None = None,
                  model_options: dict[str, Any] | None = None, soft_ratings: bool = False) -> Judge:
    """A :class:`Judge` from study options (``model`` a model id such as ``openai/gpt-5-mini`` or a
    :class:`ModelAPI`; ``family`` a registered metric family).

    Raises:
        UnknownComponentError: unknown family. UnknownProviderError: bad model id.
        FamilyError: an unreadable rubric file. FormError: a metric rubric for a metric the family lacks.
        ValueError: bad packing, or a per-metric split of a per-point family.
    """
    if isinstance(model, str):

        model = get_model(model, **(model_options or {}))
    return Judge(name=name, model=model, family=get_family(family),
                 rubric_file=Path(rubric_file) if rubric_file else None,
                 metric_rubrics={m: Path(p) for m, p in (metric_rubrics or {}).items()}, packing=packing,
                 per_point_calls=per_point_calls, temperature=temperature, max_tokens=max_tokens,
                 soft_ratings=soft_ratings)
