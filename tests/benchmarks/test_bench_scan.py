"""``benchmarks/bench_scan.py --smoke`` runs in seconds and shows a linear, cached scan (issue 26 item 1).

Speed numbers themselves live in benchmarks/results/scan.txt, not in assertions."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_scan_smoke_runs_and_a_rerun_scans_nothing(shared_data: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_scan.py"), "--smoke"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert len(re.findall(r"^papers  \S+ +cpu", done.stdout, re.M)) == 2
    assert re.search(r"^cached  first run: 4 scans; re-run: 0 scans, 4 cache hits", done.stdout, re.M), done.stdout
