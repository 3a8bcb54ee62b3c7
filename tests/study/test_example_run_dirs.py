"""Every example study writes its run under the repository's ``runs/`` folder, not under ``examples/``."""

from __future__ import annotations

from pathlib import Path

import pytest

from rhetorica.study.config import load_study
from rhetorica.study.inputs import resolve_run_dir

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", sorted(p.name for p in (REPO / "examples").glob("*.yaml")))
def test_example_run_dir_is_under_the_repository_runs_folder(name: str) -> None:
    config, base_dir = load_study(REPO / "examples" / name)
    run_dir = resolve_run_dir(config, base_dir)
    assert run_dir.parent == (REPO / "runs").resolve(), run_dir
