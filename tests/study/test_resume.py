"""Kill the study process with SIGKILL at deterministic points; resuming loses and duplicates nothing.

The points (tests/study/driver.py): right after the k-th committed unit, during the commit of the
k-th unit, inside the k-th model call. With ``concurrency: 1`` the units run in plan order, so
the number of units in the store after each kill is known exactly.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

from rhetorica.store.db import Store
from rhetorica.study.config import load_study
from rhetorica.study.runner import StudyRunner

from .helpers import study_dict, write_study

REPO = Path(__file__).resolve().parents[2]
REWRITES = 3 * 2  # papers x rule-based conditions (no model call)
REVIEWS = 3 * 3 * 3  # papers x (original + 2 variants) x replicates


def _spec(shared_data: Path, out: Path) -> dict:
    return study_dict(
        shared_data, out,
        rewriters=[{"name": "rules", "kind": "rule-based", "conditions": ["confidence:+", "confidence:-"]}],
        reviewers=[{"name": "mock", "model": "mock/reviewer"}],
        replicates=3, concurrency=1,
    )


def _drive(study: Path, point: str, k: int) -> subprocess.CompletedProcess:
    env = dict(os.environ, COLUMNS="120")
    return subprocess.run([sys.executable, "-m", "tests.study.driver", point, str(k), "--", "run", str(study)],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=300)


def _units(run_dir: Path) -> dict[str, tuple]:
    """Every stored unit by key: (table, status, scores, raw text / content hash)."""
    store = Store.open_readonly(run_dir / "store.sqlite")
    try:
        units = {r[0]: ("variants", r[1], r[2]) for r in store.rows(
            "SELECT unit_key, status, content_hash FROM variants")}
        scores = ", ".join(f"(SELECT value FROM scores s WHERE s.unit_key = assessments.unit_key AND s.metric = '{m}')"
                           for m in ("overall", "soundness", "significance", "evidence", "clarity", "confidence"))
        for r in store.rows(f"SELECT unit_key, status, {scores}, raw_text FROM assessments"):
            assert r[0] not in units
            units[r[0]] = ("assessments", *tuple(r)[1:])
        paid = store.rows("SELECT unit_key, COUNT(*) FROM model_calls WHERE status = 'ok' AND cache_hit = 0 "
                          "GROUP BY unit_key")
    finally:
        store.close()
    assert all(n == 1 for _, n in paid), "a model answer was paid for twice"
    return units


def test_sigkill_at_deterministic_points_then_resume(shared_data: Path, tmp_path: Path) -> None:
    reference_study = write_study(tmp_path / "reference.yaml", _spec(shared_data, tmp_path / "reference"))
    config, base = load_study(reference_study)
    runner = StudyRunner(config, base)  # the uninterrupted run, in this process
    summary = asyncio.run(runner.run())
    runner.store.close()
    assert summary.units_run == REWRITES + REVIEWS
    expected = _units(tmp_path / "reference")
    assert len(expected) == REWRITES + REVIEWS

    study = write_study(tmp_path / "killed.yaml", _spec(shared_data, tmp_path / "killed"))
    run_dir = tmp_path / "killed"
    committed = 0
    # (point, k, units committed by that process before it died). Reviews run originals first
    # (9 distinct calls); the reviews of variants identical to their original are cache hits.
    for point, k, new_units in (("kill-after-commit", 8, 8),   # 6 rewrites + 2 reviews, then killed
                                ("kill-in-call", 3, 2),        # 2 calls answer, the 3rd never returns
                                ("kill-in-commit", 3, 2),      # the 3rd unit of this process never commits
                                ("kill-after-commit", 5, 5)):
        result = _drive(study, point, k)
        assert result.returncode == -signal.SIGKILL, (point, result.returncode, result.stderr[-2000:])
        partial = _units(run_dir)  # readable after every kill, never a half-written unit
        committed += new_units
        assert len(partial) == committed, (point, len(partial), committed)
        assert all(expected[key] == value for key, value in partial.items())
    final = _drive(study, "none", 0)
    assert final.returncode == 0, final.stderr[-2000:]
    assert f"Ran {REWRITES + REVIEWS - committed} units" in final.stdout
    assert _units(run_dir) == expected
