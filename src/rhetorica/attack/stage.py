"""The ``attack`` stage: document -> variant, one worst-case search per (document, attack rewriter,
target reviewer configuration, condition) — an edge-free unit of the unit graph, stored in the
``variants`` table like every rewrite (plan ``rewrite``), so the study's validation and review
stages take its winners as they take any variant (the review units of a winner are its held-out
reviews).

A unit's key is :func:`rhetorica.study.planner.unit_key` over the document's input hash and a spec
hash of the rewriter (:func:`~rhetorica.study.planner.rewriter_spec_hash`), the target's review spec
hash (:func:`~rhetorica.study.planner.reviewer_spec_hashes`), the validation settings, the texts
of its moves and the number of re-reviews of the original (the study's ``replicates``: as many as
the winner's held-out reviews, the noise baseline of :mod:`rhetorica.analysis.attack`); its cell is
(document id, target name). Changing any of these searches again (its proposals and search reviews
come back from the response cache).

Before its units run, the stage loads the study's embedding model (the search validates every
candidate with the integrity checks, whether or not the validation stage is enabled); without it
the searches are left pending with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rhetorica.attack.kind import AttackRewriter, targets_of
from rhetorica.documents.models import Document
from rhetorica.hashing import content_hash
from rhetorica.kinds import RunContext, rewriter_kind
from rhetorica.labels import attack_rewriter
from rhetorica.models.errors import ConfigurationError
from rhetorica.registry import stages
from rhetorica.rewriting.conditions import Condition, parse_condition
from rhetorica.store.db import Store
from rhetorica.study import planner
from rhetorica.study.config import ReviewerSpec, RewriterSpec, StudyConfig
from rhetorica.study.review_inputs import imported_input_hash
from rhetorica.study.stages import RewriteStage


@dataclass(frozen=True)
class AttackUnit:
    """One search: ``document`` under ``condition`` (``attack:+``/``attack:-``) against ``target``.

    Attributes:
        key: unit key (module docstring); also the winning variant's key.
        document: the original document.
        rewriter: the ``attack`` rewriter configuration (its model proposes).
        condition: the attack condition (a name given is parsed).
        target: the reviewer configuration searched against.
        rereviews: fresh reviews of the original by the target after the search (the study's
            ``replicates``, the count of the winner's held-out reviews; >= 0).
    """

    key: str
    document: Document
    rewriter: RewriterSpec
    condition: Condition
    target: ReviewerSpec
    rereviews: int = 0
    after: tuple[str, ...] = ()
    waiting: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "condition", parse_condition(self.condition, check=False))

    @property
    def variant_rewriter(self) -> str:
        """The winning variant's rewriter label, ``<rewriter>><target>``."""
        return attack_rewriter(self.rewriter.name, self.target.name)

    @property
    def label(self) -> str:
        return f"{self.document.id} / {self.condition} / {self.variant_rewriter}"


def attack_units(config: StudyConfig, documents: list[Document]) -> list[AttackUnit]:
    """Every (document, attack rewriter, target, condition) search of the study, in a stable order."""
    attackers = [rw for rw in config.rewriters if isinstance(rewriter_kind(rw.kind), AttackRewriter)]
    if not attackers:
        return []
    reviews = planner.reviewer_spec_hashes(config.reviewers)
    validation = planner.validation_spec_hash(config.validation)
    units = []
    for doc in documents:
        for rw in attackers:
            kind = rewriter_kind(rw.kind)
            assert isinstance(kind, AttackRewriter)
            for target in targets_of(rw, config):
                for condition in rw.conditions:
                    spec = content_hash("attack", planner.rewriter_spec_hash(rw, condition), reviews[target.name],
                                        validation, kind.version(rw), {"rereviews": config.replicates})
                    units.append(AttackUnit(planner.unit_key("rewrite", imported_input_hash(doc), spec, 0,
                                                             (doc.id, target.name)), doc, rw, condition, target,
                                            rereviews=config.replicates))
    return units


class AttackStage(RewriteStage):
    """document -> variant: worst-case searches against a target reviewer (rewriter kind ``attack``)."""

    name = "attack"
    order = 15

    def applies(self, config: StudyConfig) -> bool:
        return any(isinstance(rewriter_kind(rw.kind), AttackRewriter) for rw in config.rewriters)

    def units(self, config: StudyConfig, inputs: dict[str, Any]) -> list[Any]:
        return attack_units(config, inputs["document"])

    def outputs(self, store: Store | None, units: list[Any], assume_pending: bool) -> list[planner.Variant]:
        found = super().outputs(store, units, False)
        if not assume_pending:
            return found
        done = set(store and self.statuses(store) or {})
        return found + [planner.Variant(u.document, u.document, u.condition, u.variant_rewriter, u.key, assumed=True)
                        for u in units if u.key not in done]

    def prepare(self, runner: Any, inputs: dict[str, Any], pending: list[Any], summary: Any) -> bool:
        if pending:
            runner.load_embedder(summary.problems)  # a failure is said there; the units then stay pending
        return True

    async def execute(self, unit: Any, ctx: RunContext) -> dict[str, Any]:
        if ctx.embedder is None:
            raise ConfigurationError("the search validates every candidate with the embedding model "
                                     f"{ctx.config.validation.embedding_model!r}, which could not be loaded; "
                                     "its searches are left pending")
        return await super().execute(unit, ctx)

    def save(self, store: Store, row: dict[str, Any]) -> str:
        """The winner's ``variants`` row (stage ``attack``) and its trajectory artefact in one transaction."""
        artefacts = row.pop("artefacts", None) or {}
        variant = self.stage_row(row)
        store.save_variant(variant.model_dump(), artefacts)
        return variant.status


_STAGE = AttackStage()
stages.add(_STAGE.name, _STAGE, description="worst-case searches against a target reviewer; the winner is a variant")
