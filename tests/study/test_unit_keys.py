"""Unit keys do not change between versions: a store written by an older rhetorica resumes with 0 calls.

``fixtures/unit_keys.json`` holds the keys the main branch computed for :func:`key_study` before the
stage graph (written with ``tests/study/key_fixture.py``). With ``RHETORICA_BASELINE_SRC`` set to
an older checkout's ``src`` folder, the study is also run by that code in a subprocess and resumed
by this one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.study.key_fixture import key_study, stored_keys

FIXTURE = Path(__file__).parent / "fixtures" / "unit_keys.json"
ROOT = Path(__file__).resolve().parents[2]


def _run(study: Path) -> object:
    import asyncio

    from rhetorica.study.config import load_study
    from rhetorica.study.runner import StudyRunner

    config, base = load_study(study)
    runner = StudyRunner(config, base)
    try:
        return asyncio.run(runner.run())
    finally:
        runner.store.close()


def test_keys_equal_the_fixture(tmp_path):
    run_dir = tmp_path / "run"
    summary = _run(key_study(run_dir))
    assert summary.units_run == 12 + 60
    assert stored_keys(run_dir) == json.loads(FIXTURE.read_text())


@pytest.mark.skipif(not os.environ.get("RHETORICA_BASELINE_SRC"), reason="RHETORICA_BASELINE_SRC not set")
def test_store_of_older_code_resumes_with_zero_calls(tmp_path):
    run_dir = tmp_path / "run"
    env = {**os.environ, "PYTHONPATH": f"{os.environ['RHETORICA_BASELINE_SRC']}{os.pathsep}{ROOT}"}
    subprocess.run([sys.executable, "-m", "tests.study.key_fixture", str(run_dir), str(tmp_path / "keys.json")],
                   check=True, env=env, cwd=ROOT, capture_output=True)
    summary = _run(run_dir.parent / "run.yaml")
    assert (summary.units_run, summary.model_calls, summary.units_skipped) == (0, 0, 72)
