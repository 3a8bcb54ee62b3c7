"""What is done, pending and failed in a study, computed from the plan and the store (no model calls)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from rhetorica.study import planner
from rhetorica.study.config import StudyConfig
from rhetorica.study.runner import StudyRunner


@dataclass
class StageStatus:
    """Counts for one stage: planned units, done (any stored status), pending, failed by status."""

    stage: str
    units: int
    done: int
    pending: int
    failed: Counter[str] = field(default_factory=Counter)


def _count(runner: StudyRunner, table: str, keys: list[str], stage: str, extra_pending: int = 0) -> StageStatus:
    status = "CASE passed WHEN 1 THEN 'ok' ELSE 'failed' END" if table == "checks" else "status"
    stored = {r[0]: r[1] for r in runner.store.rows(f"SELECT unit_key, {status} FROM {table}")}
    done = [stored[k] for k in keys if k in stored]
    failed = Counter(s for s in done if s != "ok")
    return StageStatus(stage, len(keys) + extra_pending, len(done), len(keys) - len(done) + extra_pending, failed)


def study_status(config: StudyConfig, base_dir: Path) -> tuple[list[StageStatus], list[tuple[str, str, str]]]:
    """Per-stage status and the input problems found while planning.

    Validation and review units of variants not yet rewritten cannot be keyed yet; they are counted
    as pending when the rewrite is pending and left out when it failed (or, under
    ``failed_variants: exclude``, when the variant failed validation).
    """
    problems: list[tuple[str, str, str]] = []
    runner = StudyRunner(config, base_dir)
    try:
        documents = runner.load_documents(problems)
        rewrites = planner.rewrite_units(documents, config.rewriters)
        rewrite_status = _count(runner, "variants", [u.key for u in rewrites], "rewrite")
        variants = runner.variant_inputs(rewrites)
        stages = [rewrite_status]
        if config.validation.enabled:
            checks = planner.validate_units(documents, variants, config.validation)
            stages.append(_count(runner, "checks", [u.key for u in checks], "validate", rewrite_status.pending))
            if config.validation.failed_variants == "exclude":
                passed = runner.passed_variant_keys()
                variants = [v for v in variants if v[3] in passed]
        inputs = planner.original_inputs(documents) + variants
        reviews = planner.review_units(inputs, config.reviewers, config.replicates)
        awaiting = rewrite_status.pending * len(config.reviewers) * config.replicates
        stages.append(_count(runner, "assessments", [u.key for u in reviews], "review", awaiting))
    finally:
        runner.store.close()
    return stages, problems
