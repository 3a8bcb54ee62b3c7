"""Build small studies over the real shared papers, reviewed by the mock provider."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

PAPERS = ("gcrn_iclr2017", "chebnet_nips2016", "fma_ismir2017")


def study_dict(data: Path, out: Path, **overrides: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "name": "mock-study",
        "output_dir": str(out),
        "documents": [{"path": str(data / "papers" / p)} for p in PAPERS],
        "document_options": {"max_words": 400},
        "rewriters": [
            {"name": "rules", "kind": "rule-based", "conditions": ["confidence:+", "confidence:-"]},
            {"name": "echo", "kind": "llm", "model": "mock/echo", "conditions": ["proficiency:+", "proficiency:-"]},
        ],
        "reviewers": [{"name": "mock-reviewer", "model": "mock/reviewer", "sampling": {"temperature": 0.7}}],
        "replicates": 2,
        "validation": {"enabled": False},  # the validation stage has its own tests
    }
    spec.update(overrides)
    return spec


def write_study(path: Path, spec: dict[str, Any]) -> Path:
    path.write_text(yaml.safe_dump(spec), encoding="utf-8")
    return path


def save_run_study(config: Any, run_dir: Path) -> None:
    """Save ``config`` (a :class:`~rhetorica.study.config.StudyConfig`) as the run's ``study.json``,
    as ``rhetorica run`` does (a bare :class:`~rhetorica.study.runner.StudyRunner` does not): what
    the report reads."""
    from rhetorica.store.runs import STUDY_FILE

    (run_dir / STUDY_FILE).write_text(config.model_dump_json(indent=2), encoding="utf-8")
