"""Planner: the study as a graph of idempotent work units keyed by content hashes.

A unit key is a hash of (stage, input content hash, spec hash, replicate) — ARCHITECTURE.md,
"Stages are pure functions over a store". Equal inputs and specs give equal keys in any process, so
a unit already in the store is never run again.

The stages of a study are the registered ones (:data:`rhetorica.registry.stages`, built-ins in
:mod:`rhetorica.study.stages`) that apply to it, ordered so that a stage comes after every stage
producing a kind it consumes. :func:`walk` yields one :class:`Step` per stage; the runner executes
a step's units before the walk goes on, status, estimate and batch only look at them. A unit built
on the output of another unit names it in ``after`` (an edge of the graph); a unit whose upstream
unit has not produced its output yet is *waiting* (status and estimate count it, the runner never
sees it).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rhetorica.documents.models import Document
from rhetorica.evaluation import Target
from rhetorica.hashing import content_hash
from rhetorica.rewriting.conditions import ORIGINAL, prompt_version
from rhetorica.rewriting.rule_based import RULES_VERSION
from rhetorica.reviewers.protocols import get_protocol, protocol_version
from rhetorica.study.config import ReviewerSpec, RewriterSpec, StudyConfig, ValidationSettings

if TYPE_CHECKING:
    from rhetorica.store.db import Store
    from rhetorica.study.stages import Stage


def rewriter_prompt_version(rewriter: RewriterSpec, condition: str) -> str:
    """Version of what produced a variant: the rules table version or the instruction texts' hash."""
    if rewriter.kind == "injection":
        from rhetorica.rewriting.injection import INJECTION_VERSION

        return INJECTION_VERSION
    return RULES_VERSION if rewriter.kind == "rule-based" else prompt_version(condition)


def rewriter_spec_hash(rewriter: RewriterSpec, condition: str) -> str:
    """Hash of everything about a rewriter that changes its output for ``condition``."""
    return content_hash("rewriter", rewriter.output_spec(), condition, rewriter_prompt_version(rewriter, condition))


def reviewer_spec_hash(reviewer: ReviewerSpec) -> str:
    """Hash of everything about a reviewer configuration that changes its output."""
    spec = reviewer.model_dump(exclude={"name"})
    if spec.get("defence") == "none":
        spec.pop("defence")  # keeps the keys of studies stored before the option existed
    else:
        from rhetorica.documents.scan import SCANNER_VERSION

        spec["scanner"] = SCANNER_VERSION  # a defended input depends on the scan rules
    return content_hash("reviewer", spec, protocol_version(get_protocol(reviewer.protocol)))


def unit_key(stage: str, input_hash: str, spec_hash: str, replicate: int = 0, cell: tuple[str, ...] = ()) -> str:
    """Work-unit key: hash of (stage, input content hash, spec hash, replicate, matrix cell).

    ``cell`` names the matrix cell (document id, condition, rewriter) so that two cells whose texts
    happen to be identical (a rewrite that changed nothing) stay two units; the model call they
    share is still made once, through the response cache.
    """
    return content_hash("unit/v1", stage, input_hash, spec_hash, replicate, list(cell))


@dataclass(frozen=True)
class Variant:
    """A rewritten document, the output of a rewrite unit and the input of validation and review.

    Attributes:
        document: the variant's text (keeps the original's id).
        original: the document it was rewritten from.
        condition: the rewrite condition's name.
        rewriter: the rewriter configuration's name.
        key: unit key of the rewrite that produced it (the variant key).
        assumed: True when the rewrite has not run yet and the original stands in for its text
            (status and estimate plan on it; the runner never builds units on it).
    """

    document: Document
    original: Document
    condition: str
    rewriter: str
    key: str
    assumed: bool = False


@dataclass(frozen=True)
class Check:
    """Outcome of validating one variant: ``passed`` (``None`` when not validated yet, assumed to pass)."""

    variant_key: str
    passed: bool | None


@dataclass(frozen=True)
class Assessment:
    """An ``ok`` assessment, the input of stages over assessments (annotation, guided rewrites).

    Attributes:
        key: the review unit's key.
        target: what was assessed.
        reviewer: the reviewer configuration's name.
        row: the stored assessment row (column -> value); empty when assumed.
        assumed: True when the review has not run yet (status and estimate plan on it).
    """

    key: str
    target: Target
    reviewer: str
    row: dict[str, Any]
    assumed: bool = False


@dataclass(frozen=True)
class RewriteUnit:
    """Produce one variant: a document under a condition by a rewriter."""

    key: str
    document: Document
    rewriter: RewriterSpec
    condition: str
    after: tuple[str, ...] = ()
    waiting: bool = False

    @property
    def label(self) -> str:
        return f"{self.document.id} / {self.condition} / {self.rewriter.name}"


@dataclass(frozen=True)
class ReviewUnit:
    """Review one target (an original or a variant, one replicate) with one reviewer configuration."""

    key: str
    target: Target
    reviewer: ReviewerSpec
    after: tuple[str, ...] = ()
    waiting: bool = False

    @property
    def document(self) -> Document:
        """The text the reviewer sees."""
        return self.target.document

    @property
    def document_id(self) -> str:
        return self.target.document_id

    @property
    def condition(self) -> str:
        return self.target.condition

    @property
    def rewriter(self) -> str:
        return self.target.rewriter

    @property
    def variant_key(self) -> str | None:
        return self.target.variant_key

    @property
    def replicate(self) -> int:
        return self.target.replicate

    @property
    def label(self) -> str:
        return f"{self.document_id} / {self.condition} / {self.rewriter} / {self.reviewer.name} / rep {self.replicate}"


@dataclass(frozen=True)
class ValidateUnit:
    """Validate one variant against its original."""

    key: str
    variant: Variant
    after: tuple[str, ...] = ()
    waiting: bool = False

    @property
    def original(self) -> Document:
        return self.variant.original

    @property
    def condition(self) -> str:
        return self.variant.condition

    @property
    def rewriter(self) -> str:
        return self.variant.rewriter

    @property
    def variant_key(self) -> str:
        return self.variant.key

    @property
    def label(self) -> str:
        return f"{self.variant.document.id} / {self.condition} / {self.rewriter}"


def validation_spec_hash(settings: ValidationSettings) -> str:
    """Hash of the thresholds, the embedding model and the marker lexicon version."""
    from rhetorica.validation.metadiscourse import load_metadiscourse_lexicon

    return content_hash("validate", settings.thresholds, settings.embedding_model,
                        load_metadiscourse_lexicon().version)


def validate_units(variants: list[Variant], settings: ValidationSettings) -> list[ValidateUnit]:
    """One unit per variant (keyed by the variant's and its original's content and the settings)."""
    spec = validation_spec_hash(settings)
    return [ValidateUnit(unit_key("validate", content_hash(v.original.content_hash, v.document.content_hash), spec, 0,
                                  (v.document.id, v.condition, v.rewriter)), v, (v.key,), v.assumed)
            for v in variants]


def rewrite_units(documents: list[Document], rewriters: list[RewriterSpec]) -> list[RewriteUnit]:
    """Every (document, rewriter, condition) cell, in a stable order.

    A rewriter's name is not part of its units' keys (renaming one reuses its variants); two
    rewriters of one study that differ only in name are refused when the study is loaded, so no
    two cells share a key.
    """
    return [
        RewriteUnit(unit_key("rewrite", doc.content_hash, rewriter_spec_hash(rw, cond), 0, (doc.id,)), doc, rw, cond)
        for doc in documents
        for rw in rewriters
        for cond in rw.conditions
    ]


#: The rewriter name of an original in review cells and assessments.
NO_REWRITER = "none"


def review_targets(documents: list[Document], variants: list[Variant]) -> list[tuple[Document, str, str, Variant | None]]:
    """What is reviewed: every original (condition ``original``, rewriter ``none``), then every variant."""
    return ([(doc, ORIGINAL, NO_REWRITER, None) for doc in documents]
            + [(v.document, v.condition, v.rewriter, v) for v in variants])


def review_units(documents: list[Document], variants: list[Variant], reviewers: list[ReviewerSpec],
                 replicates: int) -> list[ReviewUnit]:
    """Every (original or variant, reviewer, replicate) cell, originals first."""
    units = []
    for doc, condition, rewriter, variant in review_targets(documents, variants):
        cell = (doc.id, condition, rewriter)
        for reviewer in reviewers:
            spec = reviewer_spec_hash(reviewer)
            for replicate in range(replicates):
                target = Target(doc, doc.id, condition, rewriter, variant.key if variant else None, replicate)
                units.append(ReviewUnit(unit_key("review", doc.content_hash, spec, replicate, cell), target, reviewer,
                                        (variant.key,) if variant else (), bool(variant and variant.assumed)))
    return units


# -- the graph -------------------------------------------------------------------------------------
class StageOrderError(ValueError):
    """The applicable stages of a study consume each other's outputs in a circle."""


def study_stages(config: StudyConfig) -> list[Stage]:
    """The registered stages that apply to ``config``, each after the producers of what it consumes.

    Raises:
        StageOrderError: the stages' kinds form a circle (the message names the stages).
    """
    from rhetorica.registry import stages as registry
    from rhetorica.study import stages as _builtins  # noqa: F401 - registers the built-in stages

    todo = [e.value for e in registry.entries() if e.value.applies(config)]
    ordered: list[Stage] = []
    while todo:
        made = {s.produces for s in todo}
        ready = [s for s in todo if not (set(s.consumes) & made - {s.produces})]
        if not ready:
            raise StageOrderError("stages consume each other's outputs in a circle: "
                                  + ", ".join(f"{s.name} ({'+'.join(s.consumes)} -> {s.produces})" for s in todo))
        ready.sort(key=lambda s: s.order)
        ordered.append(ready[0])
        todo.remove(ready[0])
    return ordered


@dataclass
class Step:
    """One stage of the walk.

    Attributes:
        stage: the stage.
        units: its units whose inputs exist (each may be done already).
        waiting: its units built on an assumed input (an upstream unit not done yet); only in a
            walk with ``assume_pending``.
        inputs: kind -> the typed inputs available to it (``None``: the producing stage was skipped).
        skipped: set by a consumer that did not run the step (its outputs are then ``None``).
    """

    stage: Stage
    units: list[Any]
    waiting: list[Any]
    inputs: dict[str, Any]
    skipped: bool = False

    @property
    def edges(self) -> list[tuple[str, str]]:
        """(upstream unit key, unit key) of every unit of the step."""
        return [(up, u.key) for u in self.units + self.waiting for up in u.after]


def walk(config: StudyConfig, documents: list[Document], store: Store | None, *,
         assume_pending: bool = False, retry_failed: bool = False) -> Iterator[Step]:
    """Walk the study's unit graph stage by stage.

    Each stage's units are planned from the outputs of the stages before it, read from ``store``
    after the step was yielded (so a consumer that executes the step's units sees their outputs
    planned on).

    Args:
        config: the study.
        documents: its documents (the ``document`` kind).
        store: the run's store (``None``: nothing stored yet).
        assume_pending: plan on assumed outputs of units not done yet (a variant as long as its
            original that passes validation); their units come as ``waiting``.
        retry_failed: passed to the stages' notion of done when reading outputs.

    Raises:
        StageOrderError: see :func:`study_stages`.
    """
    inputs: dict[str, Any] = {"document": documents}
    for stage in study_stages(config):
        planned = stage.units(config, inputs)
        step = Step(stage, [u for u in planned if not u.waiting], [u for u in planned if u.waiting], dict(inputs))
        yield step
        if step.skipped:
            inputs[stage.produces] = None
        else:
            made = stage.outputs(store, step.units + step.waiting, assume_pending)
            inputs[stage.produces] = (inputs.get(stage.produces) or []) + made
