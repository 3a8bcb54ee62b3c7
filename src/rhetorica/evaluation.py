"""The evaluator interface: what reviewers, judges and external reviewer systems share
(ARCHITECTURE.md, "The one idea").

An :class:`Evaluator` turns one :class:`Target` (a document as the evaluator must read it: an
original or a variant, for one replicate) into one :class:`Evaluation` on its declared
:class:`~rhetorica.forms.Form`. Model calls go through :func:`rhetorica.models.call.call_model`
with the :class:`~rhetorica.models.call.CallContext` it is given, so they are cached, counted, timed, logged against the
unit and held to the study budget like every other call; an external system's calls go through the
same context and the same store cache, never a second one.

A study's reviewer/judge configuration names an evaluator *kind* (``kind``) and its options: a
:class:`rhetorica.kinds.EvaluatorKind` registered in :data:`rhetorica.registry.evaluators`, whose
``factory(name: str, **options) -> Evaluator`` builds the evaluator (a bare factory registered there
is used as such a kind).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from rhetorica.rewriting.conditions import Condition, parse_condition
from rhetorica.status import Status
from rhetorica.documents.models import Document
from rhetorica.forms import Form
from rhetorica.models.call import CallContext



@dataclass(frozen=True)
class Target:
    """One thing to evaluate.

    Attributes:
        document: the text as the evaluator reads it (an original or a variant, already defended
            against hidden instructions where the configuration asks for it).
        document_id: id of the original document (variants keep it: pairs join on it).
        condition: the variant's :class:`~rhetorica.rewriting.conditions.Condition`, or
            ``original`` (:data:`~rhetorica.labels.ORIGINAL`); a name given is parsed (syntax only).
        rewriter: the rewriter's name (``none``, :data:`~rhetorica.labels.NO_REWRITER`, for originals).
        variant_key: unit key of the variant (``None`` for originals).
        replicate: replicate index, 0-based (seeds sampling; part of the cache key).
        reference: a paired reference document where the evaluator needs one (a human-anchored
            judge's reference review); ``None`` otherwise.
        notice: a note for the evaluator's instructions (the ``warn`` defence's notice).
    """

    document: Document
    document_id: str
    condition: Condition
    rewriter: str
    variant_key: str | None
    replicate: int
    reference: Document | None = None
    notice: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "condition", parse_condition(self.condition, check=False))


@dataclass
class Evaluation:
    """One assessment.

    Attributes:
        status: ``ok`` or a failure status (``malformed | truncated | refused | empty | timeout |
            error``); a failed evaluation has no scores.
        reason: why it failed (``None`` when ok).
        scores: metric name → value, validated against the evaluator's form (empty unless ok).
        payload: the validated text fields and scores as the evaluator returned them (JSON-able).
        raw_text: the raw output (kept for failed parses).
        input_truncated: the input was cut to fit the evaluator's limit.
        artefacts: named by-products stored with the assessment (e.g. SciCore's science core).
    """

    status: Status
    reason: str | None = None
    scores: dict[str, float] = field(default_factory=dict)
    payload: dict[str, Any] | None = None
    raw_text: str = ""
    input_truncated: bool = False
    artefacts: dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class Evaluator(Protocol):
    """A reviewer configuration, a judge or an external reviewer system.

    Attributes:
        name: the configuration's name in the study.
        form: the declared output form.
    """

    name: str
    form: Form

    def spec(self) -> dict[str, Any]:
        """Everything about the evaluator that can change its output (hashed into unit keys)."""
        ...

    async def evaluate(self, target: Target, context: CallContext) -> Evaluation:
        """Assess ``target`` once; never raises for a failed assessment (returns its status)."""
        ...
