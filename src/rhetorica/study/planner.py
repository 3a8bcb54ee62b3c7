"""Planner: the study's work units, their typed inputs, and their keys (content hashes).

A unit key is a hash of (stage, input content hash, spec hash, replicate) — ARCHITECTURE.md,
"Stages are pure functions over a store". Equal inputs and specs give equal keys in any process, so
a unit already in the store is never run again. A unit built on the output of another unit names
it in ``after`` (an edge of the unit graph, :mod:`rhetorica.study.graph`); a unit built on an
assumed output (its upstream unit not done yet) is ``waiting``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from rhetorica.documents.models import Document
from rhetorica.evaluation import Target
from rhetorica.hashing import content_hash
from rhetorica.kinds import rewriter_kind
from rhetorica.labels import NO_REWRITER, ORIGINAL
from rhetorica.rewriting.conditions import Condition, parse_condition, upstream_condition
from rhetorica.reviewers.protocols import get_protocol, protocol_version
from rhetorica.study.config import ReviewerSpec, RewriterSpec, ValidationSettings
from rhetorica.documents.reviews.model import is_review
from rhetorica.documents.scan import SCANNER_VERSION
from rhetorica.study.review_inputs import imported_input_hash
from rhetorica.validation.metadiscourse import load_metadiscourse_lexicon
from rhetorica.validation.review_checks import REVIEW_CHECKS_VERSION


def rewriter_prompt_version(rewriter: RewriterSpec, condition: str) -> str:
    """Version of what produced a variant: its kind's :meth:`~rhetorica.kinds.RewriterKind.prompt_version`
    (the rules table version, the instruction texts' hash …)."""
    return rewriter_kind(rewriter.kind).prompt_version(condition)


def rewriter_spec_hash(rewriter: RewriterSpec, condition: str) -> str:
    """Hash of everything about a rewriter that changes its output for ``condition``."""
    return content_hash("rewriter", rewriter.output_spec(), condition, rewriter_prompt_version(rewriter, condition))


def reviewer_spec_hash(reviewer: ReviewerSpec) -> str:
    """Hash of everything about a reviewer configuration that changes its output."""
    spec = reviewer.output_spec()
    if spec.get("defence") == "none":
        spec.pop("defence")  # keeps the keys of studies stored before the option existed
    if not spec.get("soft_ratings", True):
        spec.pop("soft_ratings")  # likewise
    else:

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
        condition: the rewrite condition (a name given is parsed, syntax only).
        rewriter: the rewriter configuration's name.
        key: unit key of the rewrite that produced it (the variant key).
        assumed: True when the rewrite has not run yet and the original stands in for its text
            (status and estimate plan on it; the runner never builds units on it).
    """

    document: Document
    original: Document
    condition: Condition
    rewriter: str
    key: str
    assumed: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "condition", parse_condition(self.condition, check=False))


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
    """Produce one variant: a document under a condition (a name given is parsed) by a rewriter."""

    key: str
    document: Document
    rewriter: RewriterSpec
    condition: Condition
    after: tuple[str, ...] = ()
    waiting: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "condition", parse_condition(self.condition, check=False))

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

    return content_hash("validate", settings.thresholds, settings.embedding_model,
                        load_metadiscourse_lexicon().version)


def validate_units(variants: list[Variant], settings: ValidationSettings) -> list[ValidateUnit]:
    """One unit per variant (keyed by the variant's and its original's content and the settings;
    a review variant's key also holds the review checks' thresholds and rule version)."""

    spec = validation_spec_hash(settings)
    review_spec = content_hash(spec, settings.review, REVIEW_CHECKS_VERSION)
    return [ValidateUnit(unit_key("validate", content_hash(v.original.content_hash, v.document.content_hash),
                                  review_spec if is_review(v.original) else spec, 0,
                                  (v.document.id, v.condition, v.rewriter)), v, (v.key,), v.assumed)
            for v in variants]


def rewrite_units(documents: list[Document], rewriters: list[RewriterSpec]) -> list[RewriteUnit]:
    """Every (document, rewriter, condition) cell, in a stable order.

    A rewriter's name is not part of its units' keys (renaming one reuses its variants); two
    rewriters of one study that differ only in name are refused when the study is loaded, so no
    two cells share a key. Conditions that rewrite another variant further (``recursive:<n>``,
    ``guided``) are units of :mod:`rhetorica.study.workflow_stages`, not of this stage; nor are
    those of a rewriter kind with a stage of its own (``own_stage``, e.g. ``attack``).
    """

    return [
        RewriteUnit(unit_key("rewrite", imported_input_hash(doc), rewriter_spec_hash(rw, cond), 0, (doc.id,)), doc,
                    rw, cond)
        for doc in documents
        for rw in rewriters if not rewriter_kind(rw.kind).own_stage
        for cond in rw.conditions
        if upstream_condition(cond) is None
    ]


def review_targets(documents: list[Document], variants: list[Variant]) -> list[tuple[Document, str, str, Variant | None]]:
    """What is reviewed: every original (condition ``original``, rewriter ``none``), then every variant."""
    return ([(doc, ORIGINAL, NO_REWRITER, None) for doc in documents]
            + [(v.document, v.condition, v.rewriter, v) for v in variants])


def reviewer_spec_hashes(reviewers: list[ReviewerSpec]) -> dict[str, str]:
    """Reviewer name -> the spec hash of its units.

    A configuration's name is not part of its spec hash (renaming a reviewer reuses its
    assessments), except where two configurations of the study would otherwise share one: then
    each one's hash also holds its name, so each keeps its own results (their model calls are
    still made once, through the response cache). Studies without such twins keep the keys they
    always had.
    """
    hashes = {r.name: reviewer_spec_hash(r) for r in reviewers}
    shared = Counter(hashes.values())
    return {name: content_hash(spec, "named", name) if shared[spec] > 1 else spec for name, spec in hashes.items()}


def review_units(documents: list[Document], variants: list[Variant], reviewers: list[ReviewerSpec],
                 replicates: int) -> list[ReviewUnit]:
    """Every (original or variant, reviewer, replicate) cell, originals first (keys:
    :func:`reviewer_spec_hashes`)."""
    units = []
    specs = reviewer_spec_hashes(reviewers)
    for doc, condition, rewriter, variant in review_targets(documents, variants):
        cell = (doc.id, condition, rewriter)
        for reviewer in reviewers:
            spec = specs[reviewer.name]
            for replicate in range(replicates):
                target = Target(doc, doc.id, condition, rewriter, variant.key if variant else None, replicate)
                units.append(ReviewUnit(unit_key("review", doc.content_hash, spec, replicate, cell), target, reviewer,
                                        (variant.key,) if variant else (), bool(variant and variant.assumed)))
    return units
