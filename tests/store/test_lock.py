"""The run lock: one holder per run directory, its pid in the message, released on exit."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rhetorica.store.lock import LOCK_FILENAME, RunLockedError, run_lock


def test_second_holder_is_refused_with_the_holder_pid(tmp_path: Path) -> None:
    run_dir = tmp_path / "a" / "run"
    with run_lock(run_dir):
        assert (run_dir / LOCK_FILENAME).read_text() == f"{os.getpid()}\n"
        with pytest.raises(RunLockedError) as caught, run_lock(run_dir):  # a second open file: refused
            pass
        assert caught.value.pid == os.getpid()
        assert f"process {os.getpid()} is running this study" in str(caught.value)
        assert "--wait" in str(caught.value)
    with run_lock(run_dir):  # released when the block ends
        pass


def test_lock_of_a_killed_holder_is_free(tmp_path: Path) -> None:
    code = ("import os, signal, sys; from pathlib import Path; from rhetorica.store.lock import run_lock\n"
            "with run_lock(Path(sys.argv[1])):\n    os.kill(os.getpid(), signal.SIGKILL)")
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == -9, proc.stderr
    assert (tmp_path / LOCK_FILENAME).read_text().strip().isdigit()  # the stale file stays ...
    with run_lock(tmp_path):  # ... and blocks nothing
        pass


def test_lock_holder_reads_the_lock_without_taking_it(tmp_path: Path) -> None:
    from rhetorica.store.lock import lock_holder

    run_dir = tmp_path / "run"
    assert lock_holder(run_dir) is None  # no lock file
    code = ("import sys; from pathlib import Path; from rhetorica.store.lock import run_lock\n"
            "with run_lock(Path(sys.argv[1])):\n    print('held', flush=True); sys.stdin.read()")
    holder = subprocess.Popen([sys.executable, "-c", code, str(run_dir)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        assert lock_holder(run_dir) == holder.pid
        assert lock_holder(run_dir) == holder.pid  # asking twice took nothing
        with pytest.raises(RunLockedError), run_lock(run_dir):  # still held by the other process
            pass
    finally:
        holder.kill()
        holder.wait()
    assert lock_holder(run_dir) is None  # released when its holder ended
    assert lock_holder(run_dir, locks=tmp_path / "no-such-table") is None  # no lock table: unknown, no notice
