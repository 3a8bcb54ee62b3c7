"""What is done, pending, failed and superseded in a study, from the plan and the store.

Read-only: makes no model call and writes nothing (no run directory, no store, no ``-wal`` file);
the store is opened with :meth:`rhetorica.store.db.Store.open_readonly`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from rhetorica.documents.models import Document
from rhetorica.store import plan
from rhetorica.store.db import STORE_FILENAME, Store
from rhetorica.study import planner
from rhetorica.study.config import StudyConfig
from rhetorica.study.inputs import load_documents, resolve_run_dir


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
    """

    run_dir: Path
    store_found: bool
    stages: list[StageStatus]
    problems: list[tuple[str, str, str]]
    superseded: pd.DataFrame

    @property
    def failed_units(self) -> int:
        """Current units stored as a failure (validation results that did not pass excluded)."""
        return sum(n for s in self.stages for status, n in s.failed.items() if status != "failed")


def _count(stored: dict[str, str], keys: list[str], stage: str, extra_pending: int = 0) -> StageStatus:
    done = [stored[k] for k in keys if k in stored]
    failed = Counter(s for s in done if s != "ok")
    return StageStatus(stage, len(keys) + extra_pending, len(done), len(keys) - len(done) + extra_pending, failed)


def study_status(config: StudyConfig, base_dir: Path) -> StudyStatus:
    """Per-stage status, input problems and superseded units of ``config``; writes nothing.

    Validation and review units of variants not yet rewritten cannot be keyed yet; they are counted
    as pending when the rewrite is pending and left out when it failed (or, under
    ``failed_variants: exclude``, when the variant failed validation). Without a store every
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
        def stored(stage: str) -> dict[str, str]:
            return plan.unit_statuses(store, stage) if store is not None else {}

        rewrites = planner.rewrite_units(documents, config.rewriters)
        rewrite_status = _count(stored("rewrite"), [u.key for u in rewrites], "rewrite")
        keys = {u.key for u in rewrites}
        variants = ([(Document.model_validate_json(doc), condition, rewriter, key)
                     for key, condition, rewriter, doc in plan.ok_variants(store, keys)] if store is not None else [])
        stages = [rewrite_status]
        if config.validation.enabled:
            checks = planner.validate_units(documents, variants, config.validation)
            stages.append(_count(stored("validate"), [u.key for u in checks], "validate", rewrite_status.pending))
            if config.validation.failed_variants == "exclude":
                passed = plan.passed_variant_keys(store) if store is not None else set()
                variants = [v for v in variants if v[3] in passed]
        inputs = planner.original_inputs(documents) + variants
        reviews = planner.review_units(inputs, config.reviewers, config.replicates)
        awaiting = rewrite_status.pending * len(config.reviewers) * config.replicates
        stages.append(_count(stored("review"), [u.key for u in reviews], "review", awaiting))
        superseded = (plan.superseded_units(store, {"rewrite": keys, "review": {u.key for u in reviews}})
                      if store is not None else pd.DataFrame(columns=plan.SUPERSEDED_COLUMNS))
    finally:
        if store is not None:
            store.close()
    return StudyStatus(run_dir, store is not None, stages, problems, superseded)


def stored_failures(run_dir: Path) -> Counter[tuple[str, str]]:
    """Units of the run's current plan stored as a failure, by (stage, status); empty without a
    store (see :func:`rhetorica.store.plan.failed_units`). Read-only."""
    path = run_dir / STORE_FILENAME
    if not path.is_file():
        return Counter()
    store = Store.open_readonly(path)
    try:
        return plan.failed_units(store)
    finally:
        store.close()
