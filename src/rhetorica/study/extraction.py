"""The science-core extraction stage (document -> extract), registered in :data:`rhetorica.registry.stages`.

A study with ``scicore`` or ``reconstruct`` reviewers extracts each reviewed text's science core
once, as a unit of its own (issue 15 §3: "the core as an artefact of its own unit"): one unit per
(extract spec, text, replicate), shared by every configuration whose extraction is the same
(:meth:`rhetorica.reviewers.scicore.base.CoreEvaluator.extract_spec`: extractor and extraction
options). The result — the parsed core, its checks against the manuscript, status and reason — is
stored in ``extracts`` (schema version 7). The review stage runs after it and hands the stored core
to the evaluator (``core=``); a review whose stored core is missing or was extracted from another
text (a ``defence: strip`` reviewer reads the stripped text) extracts inline instead, through the
same cached call.

A failed extraction is stored with its status; the assessments built on it fail with that status
and a reason naming the extraction (never a score from one branch).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from rhetorica.hashing import content_hash
from rhetorica.kinds import RunContext, evaluator_kind
from rhetorica.models.api import ChatMessage
from rhetorica.registry import stages as registry, stages
from rhetorica.study import planner
from rhetorica.study.config import ReviewerSpec, StudyConfig
from rhetorica.study.planned_calls import PlannedCall, with_repair
from rhetorica.study.stages import TableStage
from rhetorica.reviewers.llm_reviewer import manuscript_text
from rhetorica.reviewers.scicore.base import CoreOptions
from rhetorica.reviewers.scicore.core import core_schema
from rhetorica.reviewers.scicore.extract import CoreResult, ExtractOptions, extract_core, extraction_messages
from rhetorica.store.db import Store


@dataclass(frozen=True)
class ExtractUnit:
    """Extract the science core of one text (an original or a variant) for one replicate."""

    key: str
    target: Any  # rhetorica.evaluation.Target of the first review unit that needs it
    extractor: str
    options: ExtractOptions
    after: tuple[str, ...] = ()
    waiting: bool = False

    @property
    def label(self) -> str:
        t = self.target
        return f"{t.document_id} / {t.condition} / {t.rewriter} / rep {t.replicate} / science core"


def extract_options(reviewer: ReviewerSpec) -> tuple[str, ExtractOptions]:
    """``(extractor model id, extraction options)`` of a core reviewer as its evaluator builds them
    (its kind's :class:`~rhetorica.reviewers.scicore.base.CoreOptions`).

    Raises:
        TypeError: the reviewer's kind declares no ``CoreOptions`` options model.
    """

    model = evaluator_kind(reviewer.kind).options_model
    options = model.model_validate(reviewer.options.as_kwargs()) if model is not None else None
    if not isinstance(options, CoreOptions):
        raise TypeError(f"reviewer {reviewer.name!r}: evaluator kind {reviewer.kind!r} reads a science core, so its "
                        "options model must be a rhetorica.reviewers.scicore.base.CoreOptions")
    extractor = options.extractor or reviewer.model
    assert extractor is not None
    return extractor, options.extract


def extract_key(config: StudyConfig, reviewer: ReviewerSpec, content: str, replicate: int) -> str:
    """Unit key of the extraction a core reviewer needs for a text of content hash ``content``."""
    extractor, options = extract_options(reviewer)
    declared = config.models.get(extractor)
    model: Any = declared.output_spec() if declared is not None else extractor
    return content_hash("extract", model, options.spec(), content, replicate)


class ExtractStage(TableStage):
    """document -> extract: each reviewed text's science core, once per extraction spec and replicate."""

    name = "extract"
    consumes = ("document", "variant", "checks")
    produces = "extract"
    table = "extracts"
    plan = "extract"
    order = 25  # before review (order 30), which consumes the same kinds and reads the stored cores

    def applies(self, config: StudyConfig) -> bool:
        return any(evaluator_kind(r.kind).reads_core for r in config.reviewers)

    def units(self, config: StudyConfig, inputs: dict[str, Any]) -> list[Any]:

        units: dict[str, ExtractUnit] = {}
        for review in stages.get("review").units(config, inputs):
            if not evaluator_kind(review.reviewer.kind).reads_core:
                continue
            key = extract_key(config, review.reviewer, review.document.content_hash, review.replicate)
            if review.waiting:  # an assumed variant holds its original's text: one unit per variant all the same
                key = content_hash(key, review.after)
            if key not in units:
                extractor, options = extract_options(review.reviewer)
                units[key] = ExtractUnit(key, review.target, extractor, options, review.after, review.waiting)
        return list(units.values())

    def outputs(self, store: Store | None, units: list[Any], assume_pending: bool) -> list[Any]:
        return []  # the review stage reads stored cores by key (stored_core)

    async def execute(self, unit: ExtractUnit, ctx: RunContext) -> dict[str, Any]:

        t = unit.target
        result = await extract_core(t.document, ctx.model(unit.extractor), ctx.calls(unit.key),
                                    options=unit.options, replicate=t.replicate)
        return {"unit_key": unit.key, "document_id": t.document_id, "input_hash": t.document.content_hash,
                "condition": t.condition, "rewriter": t.rewriter, "extractor": unit.extractor,
                "replicate": t.replicate, "status": str(result.status), "reason": result.reason,
                "core_json": json.dumps(result.artefact(), sort_keys=True), "raw_text": result.raw_text}

    def calls(self, unit: ExtractUnit) -> list[PlannedCall]:

        text, _ = manuscript_text(unit.target.document, unit.options.max_input_words)
        return with_repair([PlannedCall(unit.extractor, extraction_messages(text, unit.options), unit.options.max_tokens,
                                        schema=core_schema())])

    def stand_in_reply(self, messages: list[ChatMessage]) -> str | None:
        return None  # a capture run stops the unit at its one call


def stored_core(store: Store, config: StudyConfig, unit: planner.ReviewUnit) -> CoreResult | None:
    """The stored extraction a core reviewer's review unit reads (any status), or ``None`` when the
    extract stage has not stored it."""

    key = extract_key(config, unit.reviewer, unit.document.content_hash, unit.replicate)
    row = store.extract_row(key)
    if row is None:
        return None
    return CoreResult.from_artefact(json.loads(row["core_json"]), row["raw_text"] or "")


registry.add(ExtractStage.name, ExtractStage(), description=(ExtractStage.__doc__ or "").strip())
