"""The ``attack`` rewriter kind: a worst-case search per (document, target reviewer, direction).

A rewriter of ``kind: attack`` names the model that proposes candidates (``model``), the
conditions ``attack:+`` and/or ``attack:-`` and the search's :class:`~rhetorica.attack.options.AttackOptions`
under ``options`` (so provider options of the proposing model go on a declared model of the
study's ``models:`` section). Its units are planned by the ``attack`` stage (:mod:`rhetorica.attack.stage`), one
per (document, target, condition); each runs :func:`rhetorica.attack.search.run_search` with

- proposals by the rewriter's model: each section in scope (paragraph chunks of at most
  ``max_chunk_words``) sent alone under the move's prompt (:func:`~rhetorica.attack.options.move_prompt`),
  with the rewriter's sampling and the candidate's seed; blank-line stop for a one-paragraph chunk;
  any failed call fails the candidate with that call's status. On a ``latex_project`` document the
  editable paragraphs in scope of the current best project are rewritten, anchor-checked, compiled
  and repaired as a project rewrite's are, and the candidate is its compiled PDF read as every
  project variant is (:mod:`rhetorica.attack.project`; the winner's files are those of a project
  variant);
- validation by the study's integrity checks against the original
  (:func:`rhetorica.validation.validate.validate_variant` with the study's thresholds and
  embedding model, whether or not the validation stage is enabled);
- search reviews by the target configuration through its own kind (its defence included), as
  targets with replicate indices ``SEARCH_REPLICATE_BASE + i`` (:data:`SEARCH_REPLICATE_BASE`): the
  replicate index is part of the cache key and seeds the sampling, so no search review shares a
  cache entry or a sample with the study's review units of the winner (replicates ``0..n-1``: the
  held-out reviews). All calls go through the run's response cache and are logged on the search's
  unit key, so a killed search resumes from the cache without paying any call twice.

The winning variant is stored as an ordinary ``variants`` row: condition ``attack:+``/``attack:-``,
rewriter label ``<rewriter>><target>`` (:func:`rhetorica.labels.attack_rewriter`), with the
trajectory as its :data:`~rhetorica.analysis.attack.TRAJECTORY` artefact (format:
:mod:`rhetorica.analysis.attack`). A search with no valid scored candidate is ``discarded`` (its
trajectory kept); a search whose document has no section in scope, or whose target's reviews of
the original all failed, is ``error``.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from rhetorica.analysis.attack import ATTACK, TRAJECTORY
from rhetorica.attack.options import (
    PRESENTATION,
    WEAKNESS_STAND_IN,
    AttackOptions,
    move_conditions,
    move_prompt,
    scope_sections,
    texts_version,
)
from rhetorica.attack.project import ProjectCandidates, scope_paragraphs
from rhetorica.attack.search import Review, SearchSettings, run_search
from rhetorica.documents.inputs import record_input, text_input
from rhetorica.documents.models import Document, Section
from rhetorica.evaluation import Target
from rhetorica.kinds import RewriterKind, RunContext, evaluator_kind, options_error
from rhetorica.labels import NO_REWRITER, ORIGINAL
from rhetorica.marker import TEXT_MARKER
from rhetorica.models.api import ChatMessage, GenerateConfig, ModelAPI
from rhetorica.models.call import CallContext, call_model
from rhetorica.registry import rewriters
from rhetorica.reviewers.llm_reviewer import DEFAULT_REVIEW_TOKENS
from rhetorica.rewriting.conditions import Condition, task_prompt
from rhetorica.rewriting.llm import OUTPUT_TOKEN_FACTOR, split_chunks
from rhetorica.status import Status
from rhetorica.store.rows import VariantRow
from rhetorica.study.planned_calls import REPAIR_ROUNDS, PlannedCall, rewrite_cap, with_truncation_retry
from rhetorica.study.planner import ReviewUnit
from rhetorica.documents.latex.project import load_project
from rhetorica.study.project_inputs import META_KEY, baseline_of
from rhetorica.study.project_rewrite import paragraph_messages, variant_dir
from rhetorica.validation.validate import validate_variant

#: First replicate index of the search reviews (the study's own replicates are 0..n-1, far below).
SEARCH_REPLICATE_BASE = 1_000_000
#: First replicate index of the re-reviews of the original made after the search (the noise
#: baseline): their own cache keys, apart from the search reviews and the study's held-out reviews.
REREVIEW_REPLICATE_BASE = 2_000_000


def attack_options(spec: Any) -> AttackOptions:
    """The validated search options of an ``attack`` rewriter configuration.

    Raises:
        ValueError: a bad option, as ``options.<key>: <problem>``.
    """
    try:
        return AttackOptions.model_validate(spec.options.as_kwargs())
    except ValidationError as exc:
        raise ValueError(options_error(exc)) from None


def targets_of(spec: Any, config: Any) -> list[Any]:
    """The reviewer configurations (:class:`~rhetorica.study.config.ReviewerSpec`) an ``attack``
    rewriter searches against: its ``targets`` in the study's order, or every reviewer."""
    wanted = attack_options(spec).targets
    return [r for r in config.reviewers if wanted is None or r.name in wanted]


def chunk_messages(system: str, chunk: str) -> list[ChatMessage]:
    """The messages of one proposal chunk: the move's prompt, then the task and the chunk after
    :data:`~rhetorica.marker.TEXT_MARKER` (as every LLM rewrite sends it)."""
    return [ChatMessage(role="system", content=system),
            ChatMessage(role="user", content=f"{task_prompt()}\n\n{TEXT_MARKER}\n{chunk}")]


async def propose_rewrite(base: Document, sections: list[int], system: str, model: ModelAPI, rewriter: Any,
                          seed: int, context: CallContext) -> tuple[Document | None, str | None]:
    """Rewrite the ``sections`` of ``base`` under ``system`` (one call per chunk, seed ``seed``).

    Returns:
        ``(candidate, None)``, or ``(None, reason)`` naming the section and the failed call's status.
    """
    out = list(base.sections)
    for index in sections:
        section = base.sections[index]
        rewritten = []
        for chunk in split_chunks(section.text, rewriter.max_chunk_words):
            config = GenerateConfig(temperature=rewriter.sampling.temperature, top_p=rewriter.sampling.top_p,
                                    max_tokens=int(model.count_tokens(chunk) * OUTPUT_TOKEN_FACTOR) + 32, seed=seed,
                                    stop=["\n\n"] if "\n\n" not in chunk.strip() else None)
            output = await call_model(model, chunk_messages(system, chunk), config, context=context)
            text = output.text.strip()
            if output.status != Status.OK or not text:
                status = Status.EMPTY if output.status == Status.OK else output.status
                return None, f"section {index + 1} ({section.title or 'untitled'}): {status}: {output.error or 'no text'}"
            rewritten.append(text[len(TEXT_MARKER):].strip() if text.startswith(TEXT_MARKER) else text)
        out[index] = Section(title=section.title, text="\n\n".join(rewritten), level=section.level)
    return base.model_copy(update={"sections": out}), None


def weaknesses_text(reviews: list[Review]) -> str | None:
    """The weaknesses the target gave (every text field whose name holds ``weakness``, of every
    ``ok`` review), one ``- item`` line each; ``None`` when there are none."""
    items: list[str] = []
    for review in reviews:
        for name, value in (review.payload or {}).items():
            if "weakness" not in name.lower():
                continue
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, str) and item.strip() and item.strip() not in items:
                    items.append(item.strip())
    return "\n".join(f"- {i}" for i in items) or None


class AttackRewriter(RewriterKind):
    """Worst-case search: rewrites proposed by a model, validated, reviewed by the target, best kept."""

    needs_model = True
    provider_options = False
    own_stage = True
    options_model = AttackOptions
    project_settings = frozenset({"repair_rounds", "compile_timeout_s"})
    document_entries = ("path", "dataset", "latex_project")
    document_need = "searches rewrites of manuscripts (path, dataset or latex_project entries), not"

    def refuses(self, condition: Condition) -> str | None:
        if condition.composition or condition.dimension != ATTACK or condition.direction not in ("+", "-"):
            return f"only produces attack:+ and attack:-, not {condition.name!r}"
        return None

    def check(self, spec: Any) -> None:
        try:
            attack_options(spec)
        except ValueError as exc:
            raise ValueError(f"rewriter {spec.name!r} of kind {spec.kind!r}: {exc}") from None

    def check_study(self, spec: Any, config: Any) -> None:
        """Its ``targets`` are reviewers of the study, and its ``metric`` a metric of each target's
        form (:meth:`~rhetorica.kinds.EvaluatorKind.declared_form`)."""
        options = attack_options(spec)
        known = [r.name for r in config.reviewers]
        unknown = [t for t in options.targets or [] if t not in known]
        if unknown:
            raise ValueError(f"options.targets names {', '.join(map(repr, unknown))}, not a reviewer of the study "
                             f"(its reviewers: {', '.join(known) or 'none'})")
        if options.metric is None:
            return
        for target in targets_of(spec, config):
            form = evaluator_kind(target.kind).declared_form(target)
            if options.metric not in form.metric_names:
                raise ValueError(f"options.metric: {options.metric!r} is not a metric of reviewer {target.name!r} "
                                 f"(form {form.label}; its metrics: {', '.join(form.metric_names)})")

    def prompt_version(self, condition: str) -> str:
        """The version of the search's own texts (the ``presentation`` move and the weaknesses
        framing); :meth:`version` adds the texts of a configuration's moves."""
        return texts_version([PRESENTATION])

    def version(self, spec: Any) -> str:
        """The version of every text a search of ``spec`` may send (its moves, both directions)."""
        return texts_version(attack_options(spec).moves)

    def variant_row(self, unit: Any, status: Status | str, variant: Any = None, reason: str | None = None) -> VariantRow:
        """The winner's ``variants`` row: its rewriter is the search's label ``<rewriter>><target>``
        and its prompt version that of every text the configuration's search may send."""
        return super().variant_row(unit, status, variant, reason).model_copy(
            update={"rewriter": unit.variant_rewriter, "prompt_version": self.version(unit.rewriter)})

    def planned_calls(self, unit: Any) -> list[PlannedCall]:
        """Upper bound of one search: ``k·T`` proposals (each chunk of the scope of the original,
        output at the rewrite cap, weaknesses counted with a one-line stand-in), then
        ``min(k·T·r + r, max_queries)`` search reviews and ``rereviews`` re-reviews of the original
        by the target, as its kind plans one review (its repairs and external calls included). On a project: each proposal sends the baseline's
        paragraphs in scope, and again (term ``repair rounds``) in each of
        ``project.repair_rounds`` repairs, each with its truncation retry."""
        rw, options = unit.rewriter, attack_options(unit.rewriter)
        moves = move_conditions(options.moves)
        meta = unit.document.metadata.get(META_KEY)
        try:
            if isinstance(meta, dict):
                baseline = load_project(Path(meta["root"]), meta["main"])
                texts = [p.text for p in scope_paragraphs(baseline, options.scope)]
            else:
                texts = [chunk for i in scope_sections(unit.document, options.scope)
                         for chunk in split_chunks(unit.document.sections[i].text, rw.max_chunk_words)]
        except (OSError, ValueError):
            return []  # the unit fails without a call
        weak = WEAKNESS_STAND_IN if options.show_weaknesses else None
        # the weaknesses shown are at most a target review's output
        shown = (unit.target.sampling.max_tokens or DEFAULT_REVIEW_TOKENS) if weak else 0
        calls = []
        for seed in range(options.candidates * options.rounds):
            system = move_prompt(moves[seed % len(moves)], unit.condition.direction, weak)
            if isinstance(meta, dict):
                first = [PlannedCall(rw.served_model, paragraph_messages(system, (), t), rewrite_cap(rw.served_model, t))
                         for t in texts]
                calls += with_truncation_retry(first + [replace(c, term=REPAIR_ROUNDS) for c in first]
                                               * rw.project.repair_rounds)
            else:
                calls += [PlannedCall(rw.served_model, chunk_messages(system, t), rewrite_cap(rw.served_model, t))
                          for t in texts]
        calls = [replace(c, extra_input_tokens=shown) for c in calls]
        review = ReviewUnit(unit.key, _target(unit.document, unit.document, unit, 0), unit.target)
        reviews = options.upper_bound_reviews() + unit.rereviews
        return calls + evaluator_kind(unit.target.kind).planned_calls(review) * reviews

    async def execute(self, unit: Any, ctx: RunContext) -> dict[str, Any]:
        rw, options, original = unit.rewriter, attack_options(unit.rewriter), unit.document
        artefacts: dict[str, Any] = {}

        def row(status: Status, reason: str | None, variant: Document | None) -> dict[str, Any]:
            """The ``variants`` row (:meth:`RewriterKind.variant_row`) and, once searched, the trajectory."""
            return self.variant_row(unit, status, variant, reason).model_dump() | artefacts

        target_kind = evaluator_kind(unit.target.kind)
        form = target_kind.build(unit.target, ctx).form
        metric = options.metric or form.primary.name
        if metric not in form.metric_names:
            return row(Status.ERROR, f"options.metric: the form {form.name!r} of reviewer "
                             f"{unit.target.name!r} has no metric {metric!r}; it has "
                             f"{', '.join(form.metric_names)}", None)
        model = ctx.model(rw.model, {})
        context = ctx.calls(unit.key)
        direction = unit.condition.direction
        project: ProjectCandidates | None = None
        sections: list[int] = []
        try:
            if META_KEY in original.metadata:
                found = baseline_of(original)
                if found is None:
                    raise ValueError(f"the LaTeX project of document {original.id!r} or its baseline compile "
                                     "can no longer be read")
                scope_paragraphs(found[0], options.scope)
                project = ProjectCandidates(original, *found, options.scope, rw, model, context, ctx.config,
                                            variant_dir(ctx.run_dir, unit.key))
            else:
                sections = scope_sections(original, options.scope)
        except (OSError, ValueError) as exc:
            return row(Status.ERROR, str(exc), None)

        async def propose(base: Document, move: str, seed: int, weak: str | None) -> tuple[Document | None, str | None]:
            if project is not None:
                return await project.propose(base, move_prompt(move, direction, weak), seed)
            return await propose_rewrite(base, sections, move_prompt(move, direction, weak), model, rw, seed, context)

        async def check(candidate: Document) -> tuple[bool, list[str]]:
            try:
                async with ctx.validation_gate:
                    result = await asyncio.to_thread(validate_variant, original, candidate,
                                                     ctx.config.validation.thresholds, embedder=ctx.embedder,
                                                     condition=unit.condition)
            except ValueError as exc:
                return False, [f"could not validate: {exc}"]
            return result.passed, list(result.reasons)

        async def review(document: Document, index: int, base: int = SEARCH_REPLICATE_BASE) -> Review:
            target = _target(document, original, unit, base + index)
            done = await target_kind.execute(ReviewUnit(unit.key, target, unit.target), ctx)
            if done["status"] != str(Status.OK):
                return Review(None)
            payload = json.loads(done["review_json"]) if done.get("review_json") else None
            return Review(done["scores"].get(metric), payload)

        def weaknesses(reviews: list[Review]) -> str | None:
            text = weaknesses_text(reviews)
            return record_input(context, text_input(text, original, "attack feedback")).text if text else None

        settings = SearchSettings(options.candidates, options.rounds, options.search_replicates, options.max_queries,
                                  move_conditions(options.moves), direction, options.show_weaknesses)
        outcome = await run_search(original, settings, propose=propose, check=check, review=review,
                                   weaknesses=weaknesses)
        rereviews = ([await review(original, j, REREVIEW_REPLICATE_BASE) for j in range(unit.rereviews)]
                     if outcome.winner is not None else [])
        record = {"document": original.id, "target": unit.target.name, "direction": direction, "metric": metric,
                  **outcome.record, "rereview_scores": [r.score for r in rereviews],
                  "cost_usd": ctx.store.unit_cost_usd(unit.key)}
        artefacts["artefacts"] = {TRAJECTORY: record}
        if outcome.record["stopped"] == "original-failed":
            status, reason = Status.ERROR, (f"every search review of the original by {unit.target.name!r} "
                                            "failed; nothing to compare candidates with")
        elif outcome.winner is None:
            status, reason = Status.DISCARDED, ("no candidate passed the integrity checks and was scored "
                                                f"in {options.rounds} round(s) of {options.candidates}")
        else:
            status, reason = Status.OK, None
        winner = outcome.winner if status == Status.OK else None
        if project is not None:
            await asyncio.to_thread(project.finish, winner, str(status), reason)
        return row(status, reason, winner)


def _target(document: Document, original: Document, unit: Any, replicate: int) -> Target:
    """A search review's target: the original as itself, a candidate as the unit's variant."""
    if document is original:
        return Target(document, original.id, ORIGINAL, NO_REWRITER, None, replicate)
    return Target(document, original.id, unit.condition, unit.variant_rewriter, None, replicate)


rewriters.add("attack", AttackRewriter(), description="worst-case search: rewrites proposed by a model, validated, "
                                                      "reviewed by a target reviewer, the best kept")
