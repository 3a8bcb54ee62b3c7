"""Run a validated study once, under its run directory's lock, saving the study beside the store; the
report is written before the lock is released, so that a waiting run or ``rhetorica report`` never
finds half of it."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rhetorica.files import write_atomic

from rhetorica.store.lock import run_lock
from rhetorica.store.runs import STUDY_FILE, open_run_store, read_run_study
from rhetorica.study.inputs import resolve_run_dir
from rhetorica.store.db import Store
from rhetorica.study.config import ConfigError, StudyConfig, parse_study
from rhetorica.study.runner import StudyRunner, ProgressSink, RunSummary
from rhetorica.study.status import stage_failures



@dataclass
class StudyRun:
    """What :func:`execute_study` did.

    Attributes:
        run_dir: the run directory (absolute).
        summary: the runner's summary of this run.
        failures: the study's current units stored as a failure after the run (this run's or an
            earlier one's), by ``(stage, status)``.
        report: what the ``report`` callable of :func:`execute_study` returned (None without one).
    """

    run_dir: Path
    summary: RunSummary
    failures: Counter[tuple[str, str]]
    report: Any = None


def execute_study(
    config: StudyConfig,
    base_dir: Path,
    *,
    run_dir: Path | None = None,
    retry_failed: bool = False,
    wait: bool = False,
    on_wait: Callable[[int | None], None] | None = None,
    progress: ProgressSink | None = None,
    report: Callable[[StudyRun], Any] | None = None,
) -> StudyRun:
    """Run ``config`` (resumable) under the run directory's lock and save it as ``study.json`` there.

    Args:
        config: the validated study.
        base_dir: folder its relative paths are resolved against.
        run_dir: override of ``config.output_dir``.
        retry_failed: also re-run units stored as a failure.
        wait: wait for another process running the same study instead of raising.
        on_wait: called once with that process's pid (``None`` when unknown) when waiting starts.
        progress: progress sink of the runner.
        report: called with the finished run (its store closed) while the lock is still held;
            ``rhetorica run`` writes its report here, so that a second run waiting for the lock,
            or ``rhetorica report``, starts only once the report is whole. Its result is
            :attr:`StudyRun.report`.

    Returns:
        :class:`StudyRun`.

    Raises:
        rhetorica.study.config.ConfigError: the run directory is a file or cannot be created.
        rhetorica.store.lock.RunLockedError: another process runs the study (and not ``wait``).
        KeyboardInterrupt: interrupted; every finished unit is saved.
    """

    target = resolve_run_dir(config, base_dir, run_dir)
    try:  # what the checks of resolve_run_dir cannot foresee (a folder of /proc, a full disk)
        target.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        where = f": {exc.filename}" if exc.filename and str(exc.filename) != str(target) else ""
        raise ConfigError(f"{'run directory' if run_dir else 'output_dir'} {target}: cannot be created "
                          f"({exc.strerror or exc}{where})") from exc
    with run_lock(target, wait=wait, on_wait=on_wait):
        runner = StudyRunner(config, base_dir, run_dir=target, progress=progress)
        write_atomic(runner.run_dir / STUDY_FILE, config.model_dump_json(indent=2))
        try:
            summary = asyncio.run(runner.run(retry_failed=retry_failed))
            done = StudyRun(runner.run_dir, summary, stage_failures(runner.store, runner.walked))
        finally:
            runner.store.close()
        if report is not None:
            done.report = report(done)
        return done


def revalidate_run(run_dir: Path, thresholds: dict[str, float | bool],
                   report: Callable[[Path], Any] | None = None) -> tuple[RunSummary, Any]:
    """Validate every stored variant of the run in ``run_dir`` again (no model calls), under the run
    directory's lock, with ``thresholds`` overriding the study's validation thresholds; validation
    is switched on and the updated study is saved as ``study.json``.

    Args:
        run_dir: a run directory (holds ``study.json``).
        thresholds: ``validation.thresholds`` keys and values to override (e.g.
            ``{"min_semantic_similarity": 0.8}``); empty: the study's own.
        report: called with ``run_dir`` after the validation while the lock is still held
            (``rhetorica validate`` writes the report here, as ``rhetorica run`` does).

    Returns:
        ``(summary, report)``: the runner's summary (``units_run`` variants validated now,
        ``problems`` per item) and what ``report`` returned (None without one).

    Raises:
        FileNotFoundError: ``run_dir`` has no ``study.json``.
        ValueError: ``study.json`` cannot be read.
        rhetorica.study.config.ConfigError: an override makes the study invalid.
        rhetorica.store.lock.RunLockedError: another process runs the study.
    """

    study_file = run_dir / STUDY_FILE
    if not study_file.exists():
        raise FileNotFoundError(f"{run_dir}: no {STUDY_FILE} here; is this a rhetorica run directory?")
    spec = read_run_study(run_dir)
    spec.setdefault("validation", {}).setdefault("thresholds", {}).update(thresholds)
    spec["validation"]["enabled"] = True
    config = parse_study(spec, source=str(study_file))
    with run_lock(run_dir):
        write_atomic(study_file, config.model_dump_json(indent=2))
        runner = StudyRunner(config, run_dir, run_dir=run_dir)
        try:
            summary = asyncio.run(runner.validate_stored())
        finally:
            runner.store.close()
        return summary, (report(run_dir) if report is not None else None)


def release_abandoned_calls(run_dir: Path) -> tuple[int, float]:
    """Stop counting the abandoned calls of the run in ``run_dir`` in its budget, under the run
    directory's lock: calls still ``in_flight`` there (left by a process that ended) are marked
    abandoned first, then every abandoned call is set ``released`` with cost 0. For when the
    provider's bill shows that they were not charged; the rows stay in the call log.

    Returns:
        ``(calls released, US dollars no longer counted)``.

    Raises:
        FileNotFoundError: ``run_dir`` holds no store.
        rhetorica.store.lock.RunLockedError: another process runs the study.
        rhetorica.store.db.StoreError: the file is not a rhetorica store.
    """

    open_run_store(run_dir).close()  # read-only first: a file that is no rhetorica store is refused untouched
    with run_lock(run_dir):
        store = Store.in_dir(run_dir)
        try:
            store.abandon_in_flight()
            return store.release_abandoned()
        finally:
            store.close()
