"""Install rhetorica as users do, one clean virtual environment per profile, and check its command line.

Usage::

    python3 scripts/check_install_profiles.py                 # the default profiles
    python3 scripts/check_install_profiles.py --profiles core,demo --keep --work /tmp/profiles
    python3 scripts/check_install_profiles.py --source /tmp/scratch-copy   # check another tree

What it does, for each profile (:data:`PROFILES`):

1. ``python -m venv`` a new environment and ``pip install`` the wheel of the tree with the profile's
   extras (``pip install 'rhetorica-0.1.0-py3-none-any.whl[extras]'``, the same as ``pip install
   '.[extras]'`` without the in-tree ``build/`` folder; ``--no-compile``: bytecode is written on
   first import, for the modules used only). The wheel is built once, from a copy of the
   tree's files (``git ls-files``: tracked and untracked, less the ignored). pip's own cache serves
   the dependencies, so a second run downloads nothing. A profile with the ``embedded`` extra first
   runs ``scripts/install_llama_cpp.py install`` with that environment's Python: the portable
   llama-cpp-python wheel is built once into ``~/.cache/rhetorica-wheels`` (``make demo`` and
   ``make test`` build the same one) and installed from there.
2. ``rhetorica --help`` (the console script) and ``rhetorica PATH --help`` for every command PATH
   of the click command tree (walked inside the environment, nested groups included; asked in one
   process through typer's CliRunner, so each command module is imported once) must exit 0, print
   a usage line and no traceback.
3. Each command of :data:`NEEDS` whose extras the profile lacks must exit with its status and print
   exactly one line on stderr naming every missing extra (``pip install 'rhetorica[...]'``), never a
   traceback.
4. A study with mock models (:data:`MOCK_STUDY`: a Markdown manuscript, a rule-based rewrite, a mock
   reviewer) runs end to end with ``rhetorica run`` and exits 0 in every profile: the runner's own
   imports (scheduler, stages, report) need no extra. ``--help`` alone imports no runner module;
   a model-cache probe importing ``aiohttp`` (the ``openai`` extra) once stopped ``make demo``
   while every ``--help`` passed.

Prints one line per check that failed, a line per profile with its wall time, and exits 1 when a
check failed (0 otherwise). Needs Python >= 3.11 with pip (and git for a git tree); nothing else.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: profile -> the extras it installs. ``demo`` is what ``make demo`` installs; the others are one
#: extra alone each. Left out by default (``--profiles`` names them): ``validation`` and
#: ``embedded`` alone (the demo profile installs both, so only their absence from each other would
#: be new, and torch alone costs most of a profile's install time). Not profiles: the ``bench``
#: extra (benchmark tooling, no command of its own), ``all`` (the union of four profiles checked
#: here) and ``test`` (``make test`` installs it).
PROFILES: dict[str, tuple[str, ...]] = {
    "core": (),
    "demo": ("embedded", "validation"),
    "openai": ("openai",),
    "anthropic": ("anthropic",),
    "google": ("google",),
    "datasets": ("datasets",),
    "validation": ("validation",),
    "embedded": ("embedded",),
}
DEFAULT_PROFILES = ("core", "demo", "openai", "anthropic", "google", "datasets")


@dataclass(frozen=True)
class Need:
    """A command that needs extras: its arguments after ``rhetorica`` (``{tmp}`` is a scratch
    folder), the extras, and its exit status when one of them is missing."""

    argv: tuple[str, ...]
    extras: tuple[str, ...]
    exit_status: int = 2


NEEDS = (
    Need(("demo",), ("embedded", "validation")),
    Need(("demo", "judges"), ("embedded", "validation")),
    Need(("dataset", "openreview", "TEST.cc/2026/Conference", "--out", "{tmp}/dataset",
          "--baseurl", "http://127.0.0.1:9"), ("datasets",)),
)

#: a study every profile runs (check 4): file name -> text, written into the profile's scratch folder
MOCK_STUDY = {
    "paper.md": "# Graph filters for molecules\n\n## Abstract\n\nWe study spectral graph filters and show "
                "that they improve property prediction on three benchmarks.\n\n## Introduction\n\nGraph "
                "neural networks are widely used. Our method is clearly better and the results are strong. We "
                "evaluate it on three public datasets and report mean and deviation over five seeds.\n",
    "study.yaml": "name: profile-check\noutput_dir: run\ndocuments:\n  - path: paper.md\nrewriters:\n"
                  "  - {name: rules, kind: rule-based, conditions: [\"confidence:+\"]}\nreviewers:\n"
                  "  - {name: mock, model: mock/a}\nvalidation: {enabled: false}\n",
}

#: run inside the environment: walks the click command tree (nested groups included) and asks each
#: command's --help in this one process (each command module is imported once), as JSON
HELP_OF_EVERY_COMMAND = r"""
import json, traceback, typer
from typer.testing import CliRunner
from rhetorica.cli.app import app

root = typer.main.get_command(app)
ctx = typer.Context(root, info_name="rhetorica")
runner = CliRunner()
found = []

def walk(group, path):
    for name in group.list_commands(ctx):
        result = runner.invoke(app, [*path, name, "--help"])
        crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
        found.append({"path": [*path, name], "exit": result.exit_code, "usage": "Usage" in result.output,
                      "error": "".join(traceback.format_exception(result.exception))[-800:] if crashed else None})
        if result.exit_code == 0 and not crashed:
            command = group.get_command(ctx, name)
            if hasattr(command, "list_commands"):
                walk(command, [*path, name])

walk(root, [])
print(json.dumps(found))
"""


@dataclass
class Outcome:
    """What one profile's checks found: commands checked, failures (one line each), seconds."""

    profile: str
    commands: int = 0
    needs_checked: int = 0
    failures: list[str] = field(default_factory=list)
    install_s: float = 0.0
    total_s: float = 0.0


def run(argv: list[str], *, cwd: Path | None = None, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, COLUMNS="100")
    env.pop("PYTHONPATH", None)  # the environment's own install, never a source tree
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False)


def copy_tree(source: Path, dest: Path) -> None:
    """The files of ``source`` that git would commit (tracked and untracked, less the ignored),
    or, outside git, every file less build output and caches."""
    listed = run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=source)
    if listed.returncode == 0:
        for name in filter(None, listed.stdout.split("\0")):
            path = source / name
            if path.is_file():
                (dest / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, dest / name)
        return
    shutil.copytree(source, dest, dirs_exist_ok=True, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", "runs", ".pytest_cache"))


def build_wheel(source: Path, work: Path) -> Path:
    """The wheel of ``source``, built from a clean copy of its files.

    Raises:
        RuntimeError: the build failed (pip's output in the message).
    """
    copy = work / "source"
    copy_tree(source, copy)
    done = run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(work / "dist"), str(copy)],
               timeout=900)
    wheels = sorted((work / "dist").glob("rhetorica-*.whl"))
    if done.returncode != 0 or not wheels:
        raise RuntimeError(f"building the wheel failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return wheels[0]


def one_line_problem(done: subprocess.CompletedProcess[str], expected: int, extras: list[str]) -> str | None:
    """What is wrong with the answer of a command that lacks ``extras`` (``None``: nothing)."""
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    if "Traceback" in done.stderr or "Traceback" in done.stdout:
        return f"a traceback instead of one line: {done.stderr.strip()[-400:]}"
    if done.returncode != expected:
        return f"exit {done.returncode}, expected {expected}: {done.stderr.strip()[-400:]}"
    if len(lines) != 1:
        return f"{len(lines)} lines on stderr, expected 1: {done.stderr.strip()[-400:]}"
    if not all(extra in lines[0] for extra in extras) or "pip install 'rhetorica[" not in lines[0]:
        return f"the line does not name the extra(s) {', '.join(extras)} to install: {lines[0]}"
    return None


def check_profile(name: str, wheel: Path, work: Path, source: Path) -> Outcome:
    """Create the profile's environment, install, and run every check (see the module docstring)."""
    outcome = Outcome(name)
    started = time.perf_counter()
    extras = PROFILES[name]
    venv = work / f"venv-{name}"
    python, rhetorica = venv / "bin" / "python", venv / "bin" / "rhetorica"
    steps = [[sys.executable, "-m", "venv", str(venv)]]
    if "embedded" in extras:
        steps.append([str(python), str(source / "scripts" / "install_llama_cpp.py"), "install"])
    steps.append([str(python), "-m", "pip", "install", "--quiet", "--no-compile",
                  f"{wheel}[{','.join(extras)}]" if extras else str(wheel)])
    for step in steps:
        done = run(step, timeout=3600)
        if done.returncode != 0:
            outcome.failures.append(f"install step {' '.join(step[1:3])} exited {done.returncode}: "
                                    f"{(done.stdout + done.stderr).strip()[-1500:]}")
            outcome.total_s = time.perf_counter() - started
            return outcome
    outcome.install_s = time.perf_counter() - started
    scratch = work / f"scratch-{name}"
    scratch.mkdir()
    top = run([str(rhetorica), "--help"], cwd=scratch)
    if top.returncode != 0 or "Usage" not in top.stdout or "Traceback" in top.stderr:
        outcome.failures.append(f"rhetorica --help exited {top.returncode}: {top.stderr.strip()[-1500:]}")
    walked = run([str(python), "-c", HELP_OF_EVERY_COMMAND], cwd=scratch)
    try:
        helps = json.loads(walked.stdout)
    except json.JSONDecodeError:
        outcome.failures.append(f"walking the command tree failed: {walked.stderr.strip()[-1500:]}")
        helps = []
    for answer in helps:
        outcome.commands += 1
        if answer["exit"] != 0 or not answer["usage"] or answer["error"]:
            outcome.failures.append(f"rhetorica {' '.join(answer['path'])} --help exited {answer['exit']}"
                                    + (f": {answer['error']}" if answer["error"] else ""))
    for need in NEEDS:
        missing = [e for e in need.extras if e not in extras]
        if not missing:
            continue
        argv = [a.replace("{tmp}", str(scratch)) for a in need.argv]
        problem = one_line_problem(run([str(rhetorica), *argv], cwd=scratch), need.exit_status, missing)
        outcome.needs_checked += 1
        if problem:
            outcome.failures.append(f"rhetorica {' '.join(argv)} (without {', '.join(missing)}): {problem}")
    for file_name, text in MOCK_STUDY.items():
        (scratch / file_name).write_text(text, encoding="utf-8")
    study = run([str(rhetorica), "run", "study.yaml"], cwd=scratch)
    if study.returncode != 0 or "Traceback" in study.stderr:
        outcome.failures.append(f"rhetorica run (a mock study) exited {study.returncode}: "
                                f"{(study.stdout + study.stderr).strip()[-1500:]}")
    outcome.total_s = time.perf_counter() - started
    return outcome


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profiles", default=",".join(DEFAULT_PROFILES),
                        help=f"comma-separated, from {', '.join(PROFILES)} (default: {','.join(DEFAULT_PROFILES)})")
    parser.add_argument("--source", type=Path, default=ROOT, help="the tree to install (default: this repository)")
    parser.add_argument("--work", type=Path, default=None, help="folder for the environments (default: a temporary one)")
    parser.add_argument("--keep", action="store_true", help="keep the environments (default: removed at the end)")
    args = parser.parse_args()
    names = [n.strip() for n in args.profiles.split(",") if n.strip()]
    unknown = [n for n in names if n not in PROFILES]
    if unknown:
        parser.error(f"unknown profile(s) {', '.join(unknown)}; known: {', '.join(PROFILES)}")
    work = args.work or Path(tempfile.mkdtemp(prefix="rhetorica-profiles-"))
    work.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    failed = 0
    try:
        wheel = build_wheel(args.source.resolve(), work)
        print(f"wheel {wheel.name} built in {time.perf_counter() - started:.1f} s", flush=True)
        for name in names:
            outcome = check_profile(name, wheel, work, args.source.resolve())
            for failure in outcome.failures:
                print(f"FAIL [{name}] {failure}", flush=True)
            failed += bool(outcome.failures)
            print(f"{'ok  ' if not outcome.failures else 'FAIL'} {name:<11} extras [{','.join(PROFILES[name])}]: "
                  f"{outcome.commands} command(s) --help, {outcome.needs_checked} missing-extra check(s), "
                  f"{len(outcome.failures)} failure(s); install {outcome.install_s:.1f} s, total {outcome.total_s:.1f} s",
                  flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"{len(names) - failed}/{len(names)} profile(s) passed in {time.perf_counter() - started:.1f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
