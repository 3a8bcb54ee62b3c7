"""Run directories with a real store holding hand-written rows, for report tests."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rhetorica.store.runs import STUDY_FILE
from rhetorica.store.db import Store
from rhetorica.study.config import StudyConfig, parse_study

Record = tuple[str, str, str, float | None]
"""(reviewer, document_id, arm, overall); arm ``"original"`` or a condition label."""


def hand_study(study: dict[str, Any] | None = None, reviewers: Iterable[str] = ()) -> StudyConfig:
    """The validated study of a hand-written run: one ``mock/reviewer`` reviewer configuration per
    name of ``reviewers`` (as the stored rows of :func:`make_run` say; ``R`` when none), validation
    off, ``study`` over that."""
    declared = [{"name": name, "model": "mock/reviewer"} for name in dict.fromkeys(reviewers or ["R"])]
    return parse_study({"name": "hand-study", "documents": ["papers/*"], "reviewers": declared,
                        "validation": {"enabled": False}, **(study or {})})


def make_run(
    run_dir: Path,
    records: list[Record],
    *,
    study: dict[str, Any] | None = None,
    human: dict[str, float] | None = None,
    replicates: dict[int, int] | None = None,
    status: dict[int, str] | None = None,
    criteria: dict[int, dict[str, float]] | None = None,
    reasons: dict[int, str] | None = None,
    truncated: set[int] | None = None,
    titles: dict[str, str] | None = None,
    problems: list[tuple[str, str, str, str]] | None = None,
    artefacts: dict[int, dict[str, Any]] | None = None,
) -> Path:
    """Write ``study.json`` (:func:`hand_study` of ``records`` and ``study``) and a store whose
    assessments are ``records``.

    ``replicates`` / ``status`` / ``criteria`` / ``reasons`` map a record index to its replicate,
    status, criterion scores or failure reason (default "scripted failure"); ``truncated`` holds the
    record indices whose input was cut (``input_truncated = 1``); ``human`` gives documents a mean
    human score and ``titles`` a title (default: the id); ``problems`` are (stage, item, status,
    reason) rows of the run; ``artefacts`` maps a record index to its artefacts (name -> value).
    """
    run_dir.mkdir(parents=True, exist_ok=True)
    spec = hand_study(study, [r[0] for r in records])
    (run_dir / STUDY_FILE).write_text(spec.model_dump_json(indent=2), encoding="utf-8")
    store = Store.in_dir(run_dir)
    try:
        for doc in sorted({r[1] for r in records}):
            store.insert("documents", {
                "document_id": doc, "content_hash": f"h-{doc}", "kind": "manuscript", "title": (titles or {}).get(doc, doc),
                "human_score": (human or {}).get(doc), "document_json": "{}"})
        for i, (reviewer, doc, arm, overall) in enumerate(records):
            state = (status or {}).get(i, "ok")
            scores = {"overall": overall, **(criteria or {}).get(i, {})} if state == "ok" else {}
            store.save_assessment({
                "unit_key": f"u{i}", "document_id": doc, "variant_key": None if arm == "original" else f"v-{doc}-{arm}",
                "input_hash": f"i-{doc}-{arm}", "condition": arm, "rewriter": "none" if arm == "original" else "rw",
                "reviewer": reviewer, "model": "mock/reviewer", "protocol": "default", "form": "review-000@1",
                "replicate": (replicates or {}).get(i, 0), "status": state,
                "reason": None if state == "ok" else (reasons or {}).get(i, "scripted failure"),
                "input_truncated": int(i in (truncated or set()))},
                {k: v for k, v in scores.items() if v is not None}, (artefacts or {}).get(i))
        if problems:
            store.insert("runs", {"study_name": spec.name, "spec_hash": "h", "started_at": "2026-01-01T00:00:00"})
            for stage, item, state, reason in problems:
                store.insert("problems", {"run_id": 1, "stage": stage, "item": item, "status": state,
                                          "reason": reason})
    finally:
        store.close()
    return run_dir


def run_study(spec: dict[str, Any], base_dir: Path) -> Path:
    """Run the study ``spec`` in this process (models from the registry, the mock provider included),
    saving its ``study.json`` as ``rhetorica run`` does; returns the run directory."""
    return run_study_summary(spec, base_dir)[0]


def run_study_summary(spec: dict[str, Any], base_dir: Path, model_factory: Any = None) -> tuple[Path, Any]:
    """:func:`run_study` with the runner's ``model_factory`` (default: the registry); returns the run
    directory and the run's :class:`~rhetorica.study.runner.RunSummary`."""
    import asyncio

    from rhetorica.study.config import parse_study
    from rhetorica.study.runner import StudyRunner

    config = parse_study(spec)
    runner = StudyRunner(config, base_dir, **({"model_factory": model_factory} if model_factory else {}))
    (runner.run_dir / STUDY_FILE).write_text(config.model_dump_json(indent=2), encoding="utf-8")
    try:
        summary = asyncio.run(runner.run())
    finally:
        runner.store.close()
    return runner.run_dir, summary
