"""The guided workflow (STUDIES.md §2) as two units of the unit graph.

``guided`` rewrites the ``joint`` variant V again after the rewriting model reviewed it::

    joint variant V ──after──▶ guided review of V ──after──▶ guided rewrite of V

- Stage ``guided-review`` (``variant`` -> ``guided-review``, table ``guided_reviews``): one unit per
  variant a rewriter's ``guided`` condition builds on (its ``joint`` variant). The rewriting model
  (its sampling; ``project.review_max_input_words`` and ``project.review_max_tokens``) reviews the
  compiled V — its PDF text, the text the study's reviewers read — under
  :data:`GUIDED_REVIEW_PROTOCOL` on the ICLR-2026 form, validated by
  :func:`~rhetorica.reviewers.llm_reviewer.review_document`. Every outcome is a row with its status
  and reason (an ``ok`` review without any text field is ``empty``).
- Stage ``guided-rewrite`` (``guided-review`` -> ``variant``, table ``variants``): one unit per ``ok``
  review; the rewriter's kind rewrites V shown the review's text fields
  (:func:`rhetorica.study.project_rewrite.execute`). A failed review plans no guided rewrite: the
  study flow counts it under the review's arm with the review's status.

Keys: the review unit's is a hash of (``guided-review``, V's key, the rewriter's model, options,
sampling, the review's input and output caps, the protocol's version). The guided rewrite keeps the
key it had when the review ran inside it (V's key and the rewriter's spec for ``guided``, which
also fix the review), so the variants of older stores stay current.

Older stores: a review the guided rewrite unit made itself is its ``intermediate_review`` artefact;
the review unit of that variant takes it over as its result (no model call; the artefact moves to
the review's row), so resuming such a store makes no call (:meth:`GuidedReviewStage.execute`);
``--retry-failed`` then asks again for a review taken over as a failure, like any failed unit.

The two stages order themselves by kinds (:func:`rhetorica.study.graph.study_stages`): the review
consumes the variants every other rewrite stage produces, and the guided rewrite, which produces
variants, consumes the reviews (it feeds back, with a higher ``order``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from rhetorica.hashing import content_hash
from rhetorica.kinds import RunContext, rewriter_kind
from rhetorica.models.api import ChatMessage
from rhetorica.registry import stages as registry
from rhetorica.reviewers.llm_reviewer import DEFAULT_REVIEW_TOKENS, manuscript_text, review_document
from rhetorica.reviewers.form import output_schema
from rhetorica.reviewers.protocols import get_protocol, protocol_version, system_prompt
from rhetorica.rewriting.conditions import Condition, parse_condition, upstream_condition
from rhetorica.status import Status
from rhetorica.store import plan
from rhetorica.store.db import Store
from rhetorica.study import planner
from rhetorica.study.config import RewriterSpec, StudyConfig
from rhetorica.study.planned_calls import PlannedCall, with_repair
from rhetorica.study.stages import RewriteStage, TableStage
from rhetorica.study.workflow_stages import FollowUpUnit, follow_up_key

#: Protocol of the guided workflow's review (STUDIES.md §2: "a standard review").
GUIDED_REVIEW_PROTOCOL = "standard"

#: Name of the artefact in which older stores kept that review, on the guided variant's unit.
INTERMEDIATE_REVIEW = "intermediate_review"


def review_text(payload: dict[str, Any]) -> str:
    """The text fields of a review payload on the protocol's form, in the form's order (a stored
    payload may have its keys sorted), one ``name:`` block each (lists as ``- item`` lines)."""
    form = get_protocol(GUIDED_REVIEW_PROTOCOL).form
    names = [f.name for f in form.text_fields] + sorted(set(payload) - {f.name for f in form.text_fields})
    blocks = []
    for name in names:
        value = payload.get(name)
        if isinstance(value, list):
            lines = [f"- {item}" for item in value if isinstance(item, str) and item.strip()]
            if lines:
                blocks.append(f"{name}:\n" + "\n".join(lines))
        elif isinstance(value, str) and value.strip():
            blocks.append(f"{name}:\n{value.strip()}")
    return "\n\n".join(blocks)


def guided_conditions(rw: RewriterSpec) -> list[str]:
    """The conditions of ``rw`` (as the study names them) that rewrite a variant shown a review of
    it (``guided``); none for a kind that does not rewrite projects."""
    if not rewriter_kind(rw.kind).uses_project:
        return []
    return [c for c in rw.conditions if parse_condition(c, check=False).guidance == "review"]


def review_spec_hash(rw: RewriterSpec) -> str:
    """Hash of what changes the rewriting model's review: its model, options and sampling, the
    review's input and output caps, and the protocol's version."""
    spec = rw.output_spec()
    return content_hash("guided-review", {k: spec.get(k) for k in ("model", "options", "sampling")},
                        rw.project.review_max_input_words, rw.project.review_max_tokens,
                        protocol_version(get_protocol(GUIDED_REVIEW_PROTOCOL)))


@dataclass(frozen=True)
class GuidedReviewUnit(FollowUpUnit):
    """Review the variant ``upstream`` with the rewriting model, for ``condition``.

    Attributes:
        key: unit key (:func:`review_spec_hash`, the upstream variant's key, the cell).
        document: the original document.
        rewriter: the rewriter configuration whose model reviews.
        condition: the workflow the review guides (``guided``; a name given is parsed).
        upstream: the variant reviewed.
        after: ``(upstream.key,)``.
        waiting: the upstream variant is assumed (not produced yet).
    """

    @property
    def label(self) -> str:
        return f"{self.document.id} / review of {self.upstream.condition} for {self.condition} / {self.rewriter.name}"


@dataclass(frozen=True)
class GuidedReview:
    """An ``ok`` review of a variant, the input of a guided rewrite.

    Attributes:
        key: the review unit's key.
        variant: the variant reviewed.
        rewriter: the rewriter configuration's name.
        condition: the workflow it guides.
        record: the review record (protocol, status, reason, scores, payload, input_truncated,
            raw_text); empty when assumed.
        assumed: True when the review has not run yet (status and estimate plan on it).
    """

    key: str
    variant: planner.Variant
    rewriter: str
    condition: Condition
    record: dict[str, Any] = field(default_factory=dict)
    assumed: bool = False

    @property
    def text(self) -> str:
        """What the guided rewrite is shown: :func:`review_text` of the review's payload."""
        return review_text(self.record.get("payload") or {})


@dataclass(frozen=True)
class GuidedRewriteUnit(FollowUpUnit):
    """Rewrite ``upstream`` under ``condition`` shown ``review`` (``after``: the review's key)."""

    review: GuidedReview | None = None


class GuidedReviewStage(TableStage):
    """variant -> guided-review: the rewriting model reviews the variant a guided rewrite builds on."""

    name = "guided-review"
    consumes = ("variant",)
    produces = "guided-review"
    table = "guided_reviews"
    plan = "guided-review"
    order = 18

    def applies(self, config: StudyConfig) -> bool:
        return any(guided_conditions(rw) for rw in config.rewriters)

    def units(self, config: StudyConfig, inputs: dict[str, Any]) -> list[Any]:
        by_name = {rw.name: rw for rw in config.rewriters}
        units = []
        for v in inputs.get("variant") or []:
            rw = by_name.get(v.rewriter)
            for condition in guided_conditions(rw) if rw is not None else []:
                if upstream_condition(condition) != v.condition:
                    continue
                key = planner.unit_key("guided-review", content_hash("after", v.key), review_spec_hash(rw), 0,
                                       (v.original.id, str(condition)))
                units.append(GuidedReviewUnit(key, v.original, rw, condition, v, (v.key,), v.assumed))
        return units

    def outputs(self, store: Store | None, units: list[Any], assume_pending: bool) -> list[GuidedReview]:
        by_key = {u.key: u for u in units}
        rows = plan.ok_rows(store, self.table, set(by_key)) if store is not None else []
        found = [GuidedReview(r["unit_key"], by_key[r["unit_key"]].upstream, by_key[r["unit_key"]].rewriter.name,
                              by_key[r["unit_key"]].condition, json.loads(str(r["record_json"]))) for r in rows]
        if not assume_pending:
            return found
        done = set(store and self.statuses(store) or {})
        return found + [GuidedReview(u.key, u.upstream, u.rewriter.name, u.condition, assumed=True)
                        for u in units if u.key not in done]

    def calls(self, unit: Any) -> list[PlannedCall]:
        """The review call: the upstream variant assumed as long as the original until it exists;
        output at its cap (``project.review_max_tokens`` or the reviewers' default)."""
        rw: RewriterSpec = unit.rewriter
        if rw.served_model is None:
            return []
        text, _ = manuscript_text(unit.upstream.document, rw.project.review_max_input_words)
        messages = [ChatMessage(role="system", content=system_prompt(get_protocol(GUIDED_REVIEW_PROTOCOL))),
                    ChatMessage(role="user", content=text)]
        return with_repair([PlannedCall(rw.served_model, messages, rw.project.review_max_tokens or DEFAULT_REVIEW_TOKENS,
                                        schema=output_schema(get_protocol(GUIDED_REVIEW_PROTOCOL).form))])

    async def execute(self, unit: Any, ctx: RunContext) -> dict[str, Any]:
        """Review the upstream variant (module docstring); returns the ``guided_reviews`` row.

        A review an older store kept as the ``intermediate_review`` artefact of this review's
        guided variant (same upstream variant, same rewriter spec: the variant's key says so) is
        taken over as it is, without a call (the row names it under ``taken_from`` for :meth:`save`).
        """
        rw: RewriterSpec = unit.rewriter
        legacy = (follow_up_key(unit.upstream, rw, str(unit.condition)), INTERMEDIATE_REVIEW)
        old = ctx.store.artefact(*legacy)
        taken = isinstance(old, dict) and old.get("upstream") == unit.upstream.key
        record = {k: v for k, v in old.items() if k != "upstream"} if taken else None
        if record is None:
            assert rw.model is not None  # the study refuses guided without a model
            model = ctx.model(rw.model, rw.options.as_kwargs())
            evaluation = await review_document(
                unit.upstream.document, get_protocol(GUIDED_REVIEW_PROTOCOL), model, replicate=0,
                temperature=rw.sampling.temperature, top_p=rw.sampling.top_p,
                max_tokens=rw.project.review_max_tokens, max_input_words=rw.project.review_max_input_words,
                context=ctx.calls(unit.key))
            record = json.loads(json.dumps({
                "protocol": GUIDED_REVIEW_PROTOCOL, "status": str(evaluation.status), "reason": evaluation.reason,
                "scores": evaluation.scores, "payload": evaluation.payload,
                "input_truncated": evaluation.input_truncated, "raw_text": evaluation.raw_text}, default=str))
        status, reason = record["status"], record["reason"]
        if status == Status.OK and not review_text(record["payload"] or {}):
            status, reason = str(Status.EMPTY), "the review has no text field to show the rewriting model"
        return {"unit_key": unit.key, "variant_key": unit.upstream.key, "document_id": unit.document.id,
                "condition": str(unit.condition), "rewriter": rw.name, "protocol": GUIDED_REVIEW_PROTOCOL,
                "status": status, "reason": reason, "input_truncated": int(bool(record["input_truncated"])),
                "record_json": json.dumps(record, sort_keys=True), "taken_from": legacy if taken else None}

    def save(self, store: Store, row: dict[str, Any]) -> str:
        """The row in one transaction (an artefact it was taken over from removed in it)."""
        taken_from = row.pop("taken_from", None)
        store.save_guided_review(row, taken_from)
        return str(row["status"])


class GuidedRewriteStage(RewriteStage):
    """guided-review -> variant: the second rewrite of a reviewed variant, shown its review."""

    name = "guided-rewrite"
    consumes = ("guided-review",)
    order = 19

    def applies(self, config: StudyConfig) -> bool:
        return any(guided_conditions(rw) for rw in config.rewriters)

    def units(self, config: StudyConfig, inputs: dict[str, Any]) -> list[Any]:
        by_name = {rw.name: rw for rw in config.rewriters}
        return [GuidedRewriteUnit(follow_up_key(r.variant, by_name[r.rewriter], str(r.condition)), r.variant.original,
                                  by_name[r.rewriter], r.condition, r.variant, (r.key,), r.assumed, review=r)
                for r in inputs.get("guided-review") or [] if r.rewriter in by_name]

    def save(self, store: Store, row: dict[str, Any]) -> str:
        """The row (stage ``guided-rewrite``), replacing a stored one of its key and that unit's
        older artefacts (the review an older store kept with it)."""
        variant = self.stage_row(row)
        store.save_variant(variant.model_dump(), {})
        return variant.status


for _stage in (GuidedReviewStage(), GuidedRewriteStage()):
    registry.add(_stage.name, _stage, description=(type(_stage).__doc__ or "").strip().splitlines()[0])
