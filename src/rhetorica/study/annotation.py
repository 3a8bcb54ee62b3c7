"""The aspect-annotation stage (assessment -> annotation), registered in :data:`rhetorica.registry.stages`.

With an ``aspects:`` section in the study (:class:`rhetorica.study.config.AspectSettings`), every
``ok`` assessment of the chosen reviewers (default: every reviewer but ``kind: control`` ones, whose
simulated scores come with no review text) is one unit: its text fields are rendered as the review
the annotator reads (:func:`rhetorica.reviewers.aspects.review_text`), the annotator tags it
(:func:`rhetorica.reviewers.aspects.annotate_review`: one cached, logged, budgeted call), and the
verified mentions (aspect, polarity, phrase) are stored in ``mentions`` with the annotation's
counts of unverified (phrase not in the review) and rejected (unknown aspect, bad polarity)
mentions in ``annotations`` (schema version 7).

A review with no text fields to read (e.g. SciCore's two-branch payload) is stored ``empty``; an
assessment whose form is no longer registered is ``error``. Both are data, never a crash.

Study configuration::

    aspects:
      model: openai/gpt-5-mini     # or a model of the models: section
      reviewers: [qwen-standard]   # default: every reviewer
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from rhetorica.hashing import content_hash
from rhetorica.kinds import RunContext, evaluator_kind
from rhetorica.models.api import ChatMessage
from rhetorica.registry import UnknownComponentError, stages as registry
from rhetorica.reviewers.aspects import (
    annotate_review,
    annotation_instructions,
    annotation_schema,
    annotation_version,
    load_taxonomy,
    review_text,
)
from rhetorica.reviewers.llm_reviewer import DEFAULT_REVIEW_TOKENS
from rhetorica.status import Status
from rhetorica.study import planner
from rhetorica.study.config import StudyConfig
from rhetorica.study.planned_calls import PlannedCall
from rhetorica.study.stages import TableStage
from rhetorica.forms import get_form
from rhetorica.store.db import Store


#: What a batch capture run's stand-in annotator answers (no mention: the unit makes its one call).
STAND_IN_ANNOTATION = '{"mentions": []}'


@dataclass(frozen=True)
class AnnotateUnit:
    """Annotate one ``ok`` assessment with the study's annotator."""

    key: str
    assessment: planner.Assessment
    annotator: str
    max_tokens: int
    after: tuple[str, ...] = ()
    waiting: bool = False
    review_tokens: int = 0
    """The output cap of the review's reviewer: an assumed review's text is at most this long."""

    @property
    def label(self) -> str:
        t = self.assessment.target
        return (f"{t.document_id} / {t.condition} / {t.rewriter} / {self.assessment.reviewer} / rep {t.replicate}"
                " / aspects")


def annotator_spec(config: StudyConfig) -> dict[str, Any]:
    """What can change an annotation: the annotator (a declared model by its output spec), the
    sampling, the cap and the taxonomy/instruction version (hashed into unit keys)."""
    settings = config.aspects
    assert settings is not None
    declared = config.models.get(settings.model)
    model: Any = declared.output_spec() if declared is not None else settings.model
    return {"model": model, "temperature": settings.temperature, "max_tokens": settings.max_tokens,
            "taxonomy": annotation_version()}


def assessment_review_text(row: dict[str, Any]) -> str:
    """The stored assessment's text as the annotator reads it.

    Raises:
        rhetorica.registry.UnknownComponentError: the assessment's form is not registered.
    """

    payload = json.loads(row["review_json"]) if row.get("review_json") else {}
    form = get_form(str(row.get("form") or "").partition("@")[0])
    return review_text(payload, form)


class AnnotateStage(TableStage):
    """assessment -> annotation: every ok review tagged with (aspect, polarity, phrase) mentions."""

    name = "annotate"
    consumes = ("assessment",)
    produces = "annotation"
    table = "annotations"
    plan = "annotate"
    order = 40

    def applies(self, config: StudyConfig) -> bool:
        return config.aspects is not None

    def units(self, config: StudyConfig, inputs: dict[str, Any]) -> list[Any]:
        settings = config.aspects
        assert settings is not None
        spec = content_hash(annotator_spec(config))
        chosen = (set(settings.reviewers) if settings.reviewers is not None
                  else {r.name for r in config.reviewers if not evaluator_kind(r.kind).simulated})
        caps = {r.name: r.sampling.max_tokens or DEFAULT_REVIEW_TOKENS for r in config.reviewers}
        return [AnnotateUnit(content_hash("annotate", a.key, spec), a, settings.model, settings.max_tokens, after=(a.key,),
                             waiting=a.assumed, review_tokens=caps.get(a.reviewer, DEFAULT_REVIEW_TOKENS))
                for a in inputs.get("assessment") or [] if a.reviewer in chosen]

    def outputs(self, store: Store | None, units: list[Any], assume_pending: bool) -> list[Any]:
        return []  # no stage consumes annotations; the report reads the store

    async def execute(self, unit: AnnotateUnit, ctx: RunContext) -> dict[str, Any]:
        settings = ctx.config.aspects
        row: dict[str, Any] = {"unit_key": unit.key, "assessment_key": unit.assessment.key,
                               "annotator": unit.annotator, "taxonomy": annotation_version()}
        try:
            text = assessment_review_text(unit.assessment.row)
        except UnknownComponentError as exc:
            return row | {"status": str(Status.ERROR), "reason": f"the review's form is unknown: {exc}",
                          "mentions": []}
        if not text.strip():
            return row | {"status": str(Status.EMPTY), "reason": "the review has no text fields to annotate",
                          "mentions": []}
        model = ctx.model(settings.model)
        result = await annotate_review(text, model, ctx.calls(unit.key), taxonomy=load_taxonomy(),
                                       replicate=unit.assessment.target.replicate,
                                       temperature=settings.temperature, max_tokens=settings.max_tokens)
        return row | {"status": str(result.status), "reason": result.reason, "n_mentions": len(result.mentions),
                      "n_unverified": result.unverified, "n_rejected": result.rejected, "raw_text": result.raw_text,
                      "mentions": [(m.aspect, m.polarity, m.phrase) for m in result.mentions]}

    def save(self, store: Store, row: dict[str, Any]) -> str:
        mentions = row.pop("mentions")
        store.save_annotation(row, mentions)
        return str(row["status"])

    def calls(self, unit: AnnotateUnit) -> list[PlannedCall]:
        """One call per unit (never repaired); the review text is known only once the review is
        stored (an assumed review counts at its reviewer's output cap)."""
        text, assumed = "", unit.review_tokens
        if unit.assessment.row.get("review_json"):
            try:
                text, assumed = assessment_review_text(unit.assessment.row), 0
            except UnknownComponentError:
                return []
        messages = [ChatMessage(role="system", content=annotation_instructions()),
                    ChatMessage(role="user", content=text)]
        return [PlannedCall(unit.annotator, messages, unit.max_tokens, schema=annotation_schema(),
                            extra_input_tokens=assumed)]

    def stand_in_reply(self, messages: list[ChatMessage]) -> str | None:
        return STAND_IN_ANNOTATION


registry.add(AnnotateStage.name, AnnotateStage(), description=(AnnotateStage.__doc__ or "").strip())
