"""The study's unit graph: the registered stages that apply, walked stage by stage.

The stages of a study are the registered ones (:data:`rhetorica.registry.stages`, built-ins in
:mod:`rhetorica.study.stages`) that apply to it, ordered so that a stage comes after every stage
producing a kind it consumes. :func:`walk` yields one :class:`Step` per stage; the runner executes
a step's units before the walk goes on; status, estimate and batch only look at them. Edges: each
unit names the units whose outputs it was built on (``after``); a unit whose upstream unit has not
produced its output yet is *waiting* (status and estimate count it, the runner never sees it).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from rhetorica.documents.models import Document
from rhetorica.registry import stages as registry
from rhetorica.study import guided as _guided, stages as _builtins, workflow_stages as _workflows
from rhetorica.study.config import StudyConfig
from rhetorica.study.stages import Stage
from rhetorica.store.db import Store



class StageOrderError(ValueError):
    """The applicable stages of a study consume each other's outputs in a circle."""


def _holds_back(producer: Stage, stage: Stage) -> bool:
    """Whether ``stage`` waits for ``producer``, a stage not placed yet that produces a kind
    ``stage`` consumes. It does not when both produce the same kind (``rewrite-2`` reads what
    ``rewrite-3`` will add to, ``order`` places them), nor when ``producer`` is built on what
    ``stage`` produces and has the higher ``order`` (it feeds back: the guided rewrite, producing
    variants from the reviews of variants, comes after the review stage); the units' ``after``
    edges say which outputs each unit reads."""
    if producer is stage or producer.produces == stage.produces:
        return False
    return not (stage.produces in producer.consumes and producer.order > stage.order)


def study_stages(config: StudyConfig) -> list[Stage]:
    """The registered stages that apply to ``config``, each after the producers of what it
    consumes (:func:`_holds_back`), ties broken by ``order``.

    Raises:
        StageOrderError: the stages' kinds form a circle (the message names the stages).
    """
    todo = [e.value for e in registry.entries() if e.value.applies(config)]
    ordered: list[Stage] = []
    while todo:
        ready = [s for s in todo if not any(p.produces in s.consumes and _holds_back(p, s) for p in todo)]
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
