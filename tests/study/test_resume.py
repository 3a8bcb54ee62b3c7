"""Kill the study process with SIGKILL at random points; each resume loses and duplicates nothing."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from rhetorica.store.db import Store
from rhetorica.store.export import assessments_table

from .helpers import study_dict, write_study


def _spec(shared_data: Path, out: Path) -> dict:
    return study_dict(
        shared_data, out,
        rewriters=[{"name": "rules", "kind": "rule-based", "conditions": ["confidence:+", "confidence:-"]}],
        reviewers=[{"name": "slow-mock", "model": "mock/reviewer", "options": {"latency_s": 0.05}}],
        replicates=3, concurrency=2,
    )


def _run(study: Path) -> subprocess.Popen:
    env = dict(os.environ, COLUMNS="120")
    return subprocess.Popen([sys.executable, "-m", "rhetorica", "run", str(study)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)


def _scores(run_dir: Path) -> dict[str, float]:
    store = Store.in_dir(run_dir)
    try:
        table = assessments_table(store)
    finally:
        store.close()
    assert table["unit_key"].is_unique
    return dict(zip(table["unit_key"], table["overall"], strict=True))


def test_sigkill_at_random_points_then_resume(shared_data: Path, tmp_path: Path) -> None:
    reference = write_study(tmp_path / "reference.yaml", _spec(shared_data, tmp_path / "reference"))
    assert _run(reference).wait(timeout=120) == 0
    expected = _scores(tmp_path / "reference")
    assert len(expected) == 3 * 3 * 3  # papers x (original + 2 variants) x replicates

    study = write_study(tmp_path / "killed.yaml", _spec(shared_data, tmp_path / "killed"))
    rng = random.Random(20261129)
    kills = 0
    for _ in range(10):
        proc = _run(study)
        time.sleep(rng.uniform(0.8, 2.5))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            kills += 1
        proc.wait(timeout=60)
        if (tmp_path / "killed" / "store.sqlite").exists():
            partial = _scores(tmp_path / "killed")  # readable after every kill, never a half-written unit
            assert all(expected[k] == v or (v != v and expected[k] != expected[k]) for k, v in partial.items())
    assert kills >= 5, "the study finished too fast to be killed; make the mock slower"
    final = _run(study)
    assert final.wait(timeout=120) == 0, final.stderr.read().decode() if final.stderr else ""
    assert _scores(tmp_path / "killed") == expected
