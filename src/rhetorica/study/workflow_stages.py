"""Stages of the six-dimension workflows that rewrite a variant further (STUDIES.md §2).

``recursive:<n>`` applies the joint rewrite to the output of ``recursive:<n-1>`` (``joint`` for
n = 2). Each such unit is built on the variant it rewrites — an edge of the unit graph
(``after``): it waits until that variant exists and is never planned on a variant that failed or
was discarded. (``guided``, which rewrites the ``joint`` variant after a review of it, is two
stages of its own: :mod:`rhetorica.study.guided`.)

One stage per depth (``rewrite-2``: ``recursive:2``; ``rewrite-3``: ``recursive:3``; … up to
:data:`~rhetorica.study.project_settings.MAX_DEPTH`), each consuming and producing ``variant``, so
the walk runs ``rewrite``, ``rewrite-2``, ``rewrite-3``, … and validation and review come after
all of them. Its variants are rows of the ``variants`` table like any rewrite; the units run
through their rewriter's kind (a project kind: :func:`rhetorica.study.project_rewrite.execute`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rhetorica.documents.models import Document
from rhetorica.hashing import content_hash
from rhetorica.kinds import rewriter_kind
from rhetorica.registry import stages as registry
from rhetorica.study import planner
from rhetorica.study.config import RewriterSpec, StudyConfig
from rhetorica.rewriting.conditions import Condition, condition_depth, parse_condition, upstream_condition
from rhetorica.study.project_settings import MAX_DEPTH
from rhetorica.study.stages import RewriteStage

def follow_up_key(upstream: planner.Variant, rw: RewriterSpec, condition: str) -> str:
    """Unit key of the rewrite of ``upstream`` under ``condition`` (as the study names it) by
    ``rw``: a hash of the upstream variant's key and the rewriter spec for the condition."""
    return planner.unit_key("rewrite", content_hash("after", upstream.key), planner.rewriter_spec_hash(rw, condition),
                            0, (upstream.original.id,))


@dataclass(frozen=True)
class FollowUpUnit:
    """Rewrite the variant ``upstream`` further under ``condition``.

    Attributes:
        key: unit key (hash of the upstream variant's key and the rewriter spec for the condition).
        document: the original document (the variant keeps its id and metadata).
        rewriter: the rewriter configuration (the one that produced ``upstream``).
        condition: ``recursive:<n>`` (or ``guided``, :mod:`rhetorica.study.guided`; a name given is parsed).
        upstream: the variant it rewrites.
        after: ``(upstream.key,)``.
        waiting: the upstream variant is assumed (not produced yet).
    """

    key: str
    document: Document
    rewriter: RewriterSpec
    condition: Condition
    upstream: planner.Variant
    after: tuple[str, ...]
    waiting: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "condition", parse_condition(self.condition, check=False))

    @property
    def label(self) -> str:
        return f"{self.document.id} / {self.condition} / {self.rewriter.name}"


class FollowUpStage(RewriteStage):
    """variant -> variant: recursive:<n> rewrites of a variant of the same rewriter."""

    consumes = ("variant",)

    def __init__(self, depth: int) -> None:
        self.depth = depth
        self.name = f"rewrite-{depth}"
        self.order = 10 + depth

    def _conditions(self, rw: RewriterSpec) -> list[str]:
        if not rewriter_kind(rw.kind).uses_project:
            return []
        return [c for c in rw.conditions if upstream_condition(c) is not None and condition_depth(c) == self.depth
                and parse_condition(c, check=False).guidance is None]

    def applies(self, config: StudyConfig) -> bool:
        return any(self._conditions(rw) for rw in config.rewriters)

    def units(self, config: StudyConfig, inputs: dict[str, Any]) -> list[Any]:
        by_name = {rw.name: rw for rw in config.rewriters}
        units = []
        for v in inputs.get("variant") or []:
            rw = by_name.get(v.rewriter)
            if rw is None:
                continue
            for condition in self._conditions(rw):
                if upstream_condition(condition) != v.condition:
                    continue
                units.append(FollowUpUnit(follow_up_key(v, rw, condition), v.original, rw, condition, v, (v.key,),
                                          v.assumed))
        return units


for _depth in range(2, MAX_DEPTH + 1):
    _stage = FollowUpStage(_depth)
    registry.add(_stage.name, _stage, description=f"workflow rewrites of depth {_depth} (recursive:{_depth}) on the "
                                                  "variant before")
