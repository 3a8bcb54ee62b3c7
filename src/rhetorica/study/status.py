"""What is done, pending, failed and superseded in a study, from the plan and the store.

Read-only: makes no model call and writes nothing (no run directory, no store, no ``-wal`` file);
the store is opened with :meth:`rhetorica.store.db.Store.open_readonly`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from rhetorica.store import plan
from rhetorica.store.db import STORE_FILENAME, Store
from rhetorica.store.lock import lock_holder
from rhetorica.study import graph
from rhetorica.study.config import StudyConfig
from rhetorica.study.stages import Stage
from rhetorica.study.inputs import load_documents, resolve_run_dir


#: Stored statuses that are not a unit's failure: ``ok``, and ``failed`` (a check's result: the
#: variant did not pass validation).
NOT_FAILURES = ("ok", "failed")


@dataclass
class StageStatus:
    """Counts for one stage: planned units, done (any stored status), pending, failed by status."""

    stage: str
    units: int
    done: int
    pending: int
    failed: Counter[str] = field(default_factory=Counter)


@dataclass
class StudyStatus:
    """The status of a study as declared now.

    Attributes:
        run_dir: the study's run directory.
        store_found: False when the run directory has no store yet (nothing has run).
        stages: per-stage counts (rewrite, validate when enabled, review).
        problems: (stage, item, reason) of the input problems met while planning.
        superseded: stored units outside the current plan
            (:func:`rhetorica.store.plan.superseded_units` columns; empty when none).
        abandoned_calls: ``(calls, reserved USD, counted USD)`` of the calls that never came back:
            marked abandoned by a run, or still in flight while no process holds the run lock.
        calls_in_flight: calls in flight now (a run holds the lock).
    """

    run_dir: Path
    store_found: bool
    stages: list[StageStatus]
    problems: list[tuple[str, str, str]]
    superseded: pd.DataFrame
    abandoned_calls: tuple[int, float, float] = (0, 0.0, 0.0)
    calls_in_flight: int = 0

    @property
    def failed_units(self) -> int:
        """Current units stored as a failure (validation results that did not pass excluded)."""
        return sum(n for s in self.stages for status, n in s.failed.items() if status not in NOT_FAILURES)


def study_status(config: StudyConfig, base_dir: Path) -> StudyStatus:
    """Per-stage status, input problems and superseded units of ``config``; writes nothing.

    Walks the study's unit graph (:func:`rhetorica.study.graph.walk`) with assumed outputs for
    units not done yet: units waiting on a pending upstream unit (the reviews of a variant not
    written yet) are counted as pending; units of a failed upstream unit are left out (as are, under
    ``failed_variants: exclude``, those of a variant that failed validation). Without a store every
    unit is pending.

    Raises:
        rhetorica.store.db.StoreError: if the run directory holds a store this version cannot read.
    """
    problems: list[tuple[str, str, str]] = []
    run_dir = resolve_run_dir(config, base_dir)
    documents = load_documents(config, base_dir, problems)
    path = run_dir / STORE_FILENAME
    store = Store.open_readonly(path) if path.is_file() else None
    try:
        stages = []
        current: dict[str, set[str]] = {}
        for step in graph.walk(config, documents, store, assume_pending=True):
            stored = step.stage.statuses(store) if store is not None else {}
            done = [stored[u.key] for u in step.units if u.key in stored]
            planned = len(step.units) + len(step.waiting)
            stages.append(StageStatus(step.stage.name, planned, len(done), planned - len(done),
                                      Counter(s for s in done if s != "ok")))
            if step.stage.plan is not None:
                current.setdefault(step.stage.plan, set()).update(u.key for u in step.units)
        superseded = (plan.superseded_units(store, current) if store is not None
                      else pd.DataFrame(columns=plan.SUPERSEDED_COLUMNS))
        abandoned, in_flight = (0, 0.0, 0.0), 0
        if store is not None:
            running = lock_holder(run_dir) is not None
            abandoned = store.abandoned_calls(include_in_flight=not running)
            in_flight = store.calls_in_flight() if running else 0
    finally:
        if store is not None:
            store.close()
    return StudyStatus(run_dir, store is not None, stages, problems, superseded, abandoned, in_flight)


def stage_failures(store: Store, walked: Iterable[tuple[Stage, list[Any]]]) -> Counter[tuple[str, str]]:
    """Units stored as a failure among each stage's current units, by (stage name, status): any
    status but ``ok`` (``attack``, ``guided-rewrite`` and ``rewrite-<n>`` units under their own
    stage, not ``rewrite``), and a check that could not be made (``validate``: ``error``; a variant
    that failed validation is a result, not a failure). The stage names are those each variant is
    stored with (:meth:`rhetorica.study.stages.RewriteStage.stage_row`), which the report's
    failures and the study flow read back.

    Args:
        store: the run's store.
        walked: (stage, its units) of the study's unit graph as a run walked it
            (:attr:`rhetorica.study.runner.StudyRunner.walked`).
    """
    counts: Counter[tuple[str, str]] = Counter()
    for stage, units in walked:
        stored = stage.statuses(store)
        for unit in units:
            status = stored.get(unit.key)
            if status is not None and status not in NOT_FAILURES:
                counts[(stage.name, status)] += 1
    return counts
