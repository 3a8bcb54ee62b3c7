"""CPU the ``rhetorica`` command line spends before it answers (issue 34 item 3).

Run: ``PYTHONPATH=src .venv/bin/python benchmarks/bench_cli_start.py [--repeat 5] [--smoke]``.

Each command runs as a fresh child process (``python -m rhetorica ...``, what the console script
does) ``--repeat`` times, interleaved with ``python -c pass`` so that both see the same load; the
child's user + system CPU seconds come from ``os.wait4``. Prints per command the median and the
minimum, and the median less the bare interpreter's, in CPU seconds:

- ``python -c pass``: the interpreter alone (the floor);
- ``rhetorica --help``, ``rhetorica scan --help``, ``rhetorica status --help``: help only;
- ``rhetorica list``: every registered component (it imports the registries it lists).

The issue's target is at most 0.3 s CPU (median) for each ``--help``; this script reports, never
asserts (speed is not a unit test). ``--smoke`` (run by the test suite): one repeat, and a check
that each command exited 0 and printed something.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMANDS: dict[str, list[str]] = {
    "python -c pass": ["-c", "pass"],
    "rhetorica --help": ["-m", "rhetorica", "--help"],
    "rhetorica scan --help": ["-m", "rhetorica", "scan", "--help"],
    "rhetorica status --help": ["-m", "rhetorica", "status", "--help"],
    "rhetorica list": ["-m", "rhetorica", "list"],
}


def child_cpu(args: list[str]) -> tuple[float, int, int]:
    """User + system CPU seconds of ``python args`` run to its end, its exit status and the bytes
    it printed on stdout."""
    env = dict(os.environ, COLUMNS="100")
    with subprocess.Popen([sys.executable, *args], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL) as child:
        printed = len(child.stdout.read()) if child.stdout else 0
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime, child.returncode, printed


def measure(repeat: int) -> dict[str, list[float]]:
    """Name -> CPU seconds of each run; the commands take turns so each round sees the same load.

    Raises:
        RuntimeError: a command exited non-zero or printed nothing (its name is in the message).
    """
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for _ in range(repeat):
        for name, args in COMMANDS.items():
            cpu, code, printed = child_cpu(args)
            if code != 0 or (printed == 0 and name != "python -c pass"):
                raise RuntimeError(f"{name}: exit status {code}, {printed} bytes printed")
            times[name].append(cpu)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--smoke", action="store_true", help="one repeat (the test suite's check)")
    args = parser.parse_args()
    times = measure(1 if args.smoke else args.repeat)
    floor = statistics.median(times["python -c pass"])
    print(f"CPU seconds (user+sys), median and minimum of {len(times['python -c pass'])}, python {sys.version.split()[0]}")
    print(f"{'command':<26}{'median':>8}{'min':>8}{'- python':>10}")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"{name:<26}{median:>8.3f}{min(values):>8.3f}{median - floor:>10.3f}")


if __name__ == "__main__":
    main()
