"""Every benchmark script runs: its ``--smoke`` mode (a few seconds) as a subprocess.

A script is any ``benchmarks/**/*.py`` with a ``__main__`` block, so a new benchmark is covered
without editing this file; helper modules (no ``__main__`` block) are imported by the scripts and
covered through them. The full runs stay manual (they print speed numbers, never asserted here).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "benchmarks"
#: seconds one smoke run may take on the 2-core development machine before it counts as broken
SMOKE_TIMEOUT_S = 180


#: scripts whose smoke mode needs a server the test starts, each with the test that runs it
SMOKED_ELSEWHERE = {"reliability/run.py": ROOT / "tests" / "models" / "test_reliability_benchmark.py"}
#: further loopback modes of a script, each smoked too (modes that start a real server are not)
MODES = {"bench_prefix_cache.py": (("--server", "slots", "--slots", "2"), ("--server", "vllm"))}


def benchmark_scripts() -> list[Path]:
    """Every script under benchmarks/ (a file with a ``__main__`` block), sorted, less
    :data:`SMOKED_ELSEWHERE`."""
    return sorted(p for p in BENCHMARKS.rglob("*.py")
                  if 'if __name__ == "__main__":' in p.read_text(encoding="utf-8")
                  and p.relative_to(BENCHMARKS).as_posix() not in SMOKED_ELSEWHERE)


def test_discovery_finds_the_known_scripts() -> None:
    found = {p.relative_to(BENCHMARKS).as_posix() for p in benchmark_scripts()}
    assert {"bench_providers.py", "bench_analysis.py", "bench_spine.py", "fidelity/run.py"} <= found
    assert "common.py" not in found and "fidelity/corpus.py" not in found
    for script, test in SMOKED_ELSEWHERE.items():  # each left out here has its own smoke test
        assert (BENCHMARKS / script).is_file() and "--smoke" in test.read_text(encoding="utf-8"), script


def smoke_runs() -> list[tuple[Path, tuple[str, ...]]]:
    """(script, extra arguments): every script plain, then each of its :data:`MODES`."""
    return [(p, mode) for p in benchmark_scripts()
            for mode in ((), *MODES.get(p.relative_to(BENCHMARKS).as_posix(), ()))]


@pytest.mark.parametrize(("script", "mode"), smoke_runs(),
                         ids=lambda v: v.relative_to(BENCHMARKS).as_posix() if isinstance(v, Path) else " ".join(v))
def test_smoke_mode_runs(script: Path, mode: tuple[str, ...]) -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, str(script), "--smoke", *mode], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=SMOKE_TIMEOUT_S, check=False)
    assert done.returncode == 0, f"{script.name} --smoke exited {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    assert done.stdout.strip(), f"{script.name} --smoke printed nothing"
