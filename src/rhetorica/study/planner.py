"""Planner: the study matrix as idempotent work units keyed by content hashes.

A unit key is a hash of (stage, input content hash, spec hash, replicate) — ARCHITECTURE.md,
"Stages are pure functions over a store". Equal inputs and specs give equal keys in any process, so
a unit already in the store is never run again.
"""

from __future__ import annotations

from dataclasses import dataclass

from rhetorica.documents.models import Document
from rhetorica.hashing import content_hash
from rhetorica.rewriting.conditions import ORIGINAL, prompt_version
from rhetorica.rewriting.rule_based import RULES_VERSION
from rhetorica.reviewers.protocols import get_protocol, protocol_version
from rhetorica.study.config import ReviewerSpec, RewriterSpec, ValidationSettings


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
    spec = reviewer.output_spec()
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
class RewriteUnit:
    """Produce one variant: a document under a condition by a rewriter."""

    key: str
    document: Document
    rewriter: RewriterSpec
    condition: str

    @property
    def label(self) -> str:
        return f"{self.document.id} / {self.condition} / {self.rewriter.name}"


@dataclass(frozen=True)
class ReviewUnit:
    """Review one input (an original or a variant) once with one reviewer configuration."""

    key: str
    document: Document  # the text the reviewer sees
    document_id: str
    condition: str
    rewriter: str
    variant_key: str | None
    reviewer: ReviewerSpec
    replicate: int

    @property
    def label(self) -> str:
        return f"{self.document_id} / {self.condition} / {self.rewriter} / {self.reviewer.name} / rep {self.replicate}"


@dataclass(frozen=True)
class ValidateUnit:
    """Validate one variant against its original."""

    key: str
    original: Document
    variant: Document
    condition: str
    rewriter: str
    variant_key: str

    @property
    def label(self) -> str:
        return f"{self.variant.id} / {self.condition} / {self.rewriter}"


def validation_spec_hash(settings: ValidationSettings) -> str:
    """Hash of the thresholds, the embedding model and the marker lexicon version."""
    from rhetorica.validation.metadiscourse import load_metadiscourse_lexicon

    return content_hash("validate", settings.thresholds, settings.embedding_model,
                        load_metadiscourse_lexicon().version)


def validate_units(
    originals: list[Document],
    variants: list[tuple[Document, str, str, str | None]],
    settings: ValidationSettings,
) -> list[ValidateUnit]:
    """One unit per variant (keyed by the variant's content and the validation settings)."""
    by_id = {doc.id: doc for doc in originals}
    spec = validation_spec_hash(settings)
    units = []
    for variant, condition, rewriter, variant_key in variants:
        assert variant_key is not None
        original = by_id[variant.id]
        key = unit_key("validate", content_hash(original.content_hash, variant.content_hash), spec, 0,
                       (variant.id, condition, rewriter))
        units.append(ValidateUnit(key, original, variant, condition, rewriter, variant_key))
    return units


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


def review_units(
    inputs: list[tuple[Document, str, str, str | None]],
    reviewers: list[ReviewerSpec],
    replicates: int,
) -> list[ReviewUnit]:
    """Every (input, reviewer, replicate) cell.

    Args:
        inputs: (document to review, condition, rewriter name, variant key or None for originals).
    """
    units = []
    for doc, condition, rewriter, variant_key in inputs:
        for reviewer in reviewers:
            spec = reviewer_spec_hash(reviewer)
            for replicate in range(replicates):
                cell = (doc.id, condition, rewriter)
                units.append(ReviewUnit(unit_key("review", doc.content_hash, spec, replicate, cell), doc, doc.id,
                                        condition, rewriter, variant_key, reviewer, replicate))
    return units


def original_inputs(documents: list[Document]) -> list[tuple[Document, str, str, str | None]]:
    """Review inputs for the unmodified manuscripts."""
    return [(doc, ORIGINAL, "none", None) for doc in documents]
