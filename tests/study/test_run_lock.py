"""Two real ``rhetorica run`` processes on one study: the second exits 1 naming the holder, or waits."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from rhetorica.store.db import Store

from .helpers import study_dict, write_study

REPO = Path(__file__).resolve().parents[2]
REVIEWS = 3 * 2  # papers x replicates (no rewriters)


def _start(study: Path, env: dict[str, str], point: str = "none", *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "tests.study.driver", point, "1", "--", "run", str(study), *args],
                            cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_for(path: Path, proc: subprocess.Popen, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.05)


def test_second_run_exits_naming_the_holder_then_waits_with_wait(shared_data: Path, tmp_path: Path) -> None:
    spec = study_dict(shared_data, tmp_path / "run", rewriters=[], concurrency=1)
    study = write_study(tmp_path / "s.yaml", spec)
    reached, release = tmp_path / "reached", tmp_path / "release"
    env = dict(os.environ, COLUMNS="200", RHETORICA_DRIVER_REACHED=str(reached),
               RHETORICA_DRIVER_RELEASE=str(release))
    holder = _start(study, env, "hold-in-call")  # holds the lock inside its first model call
    try:
        _wait_for(reached, holder)
        second = subprocess.run([sys.executable, "-m", "rhetorica", "run", str(study)], cwd=REPO, env=env,
                                capture_output=True, text=True, timeout=120)
        assert second.returncode == 1
        assert f"process {holder.pid} is running this study" in " ".join(second.stderr.split())
        assert "--wait" in second.stderr
        assert holder.poll() is None  # the holder was never disturbed

        waiter = _start(study, env, "none", "--wait")
        deadline = time.monotonic() + 120
        line = waiter.stderr.readline() if waiter.stderr else ""
        assert f"waiting: process {holder.pid} is running this study" in line, line
        assert time.monotonic() < deadline and waiter.poll() is None
        release.touch()
        out, err = holder.communicate(timeout=120)
        assert holder.returncode == 0, err
        assert f"Ran {REVIEWS} units" in out
        out, err = waiter.communicate(timeout=120)
        assert waiter.returncode == 0, err
        assert f"Nothing to do: all {REVIEWS} units were already in the store; 0 model calls made." in out
    finally:
        release.touch()
        for proc in (holder,):
            if proc.poll() is None:
                proc.kill()
    store = Store.in_dir(tmp_path / "run")
    try:
        calls = store.rows("SELECT COUNT(*) FROM model_calls WHERE cache_hit = 0")[0][0]
        runs = store.rows("SELECT COUNT(*) FROM runs")[0][0]
    finally:
        store.close()
    assert (calls, runs) == (REVIEWS, 2)  # every call made once; the refused run never started
