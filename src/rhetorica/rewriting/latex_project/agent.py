"""Run an external agent command that edits a LaTeX project folder in place, in a copy.

Any CLI can be the agent (a coding agent, a script). It runs with its working folder set to a copy
of the project, the instruction text given on stdin (``instruction_via="stdin"``) or written to a
file outside the copy whose path replaces ``{instruction_file}`` in the command, and ``{project}``
replaced by the copy's path. The command is an argument list, never run through a shell. Its
environment holds only ``PATH``, ``HOME``/``TMPDIR`` (a fresh folder), ``LANG`` and the variables
named in ``env_allow`` — no API key reaches it unless listed — plus :data:`RUN_TAG`. A wall-clock
limit kills the whole process group; when the agent ends (or is killed), every process still
carrying its run's tag is killed too (Linux), so a detached grandchild (``setsid``) does not outlive
the run unless it also cleared its environment. The result is the edited copy, which then goes through the same anchor checks and
compile as any rewrite.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from rhetorica.documents.options import DocumentReadError
from rhetorica.documents.latex.project import LatexProject, copy_project, load_project

#: Characters of stdout/stderr kept in the result.
OUTPUT_TAIL_CHARS = 4000
#: Environment variable holding a random tag of one agent run; when the run ends, every process
#: still carrying it is killed (descendants that left the agent's process group included).
RUN_TAG = "RHETORICA_AGENT_RUN"


class AgentResult(BaseModel):
    """Outcome of one agent run.

    Attributes:
        status: ``ok`` (exit status 0), ``timeout`` or ``error`` (non-zero exit, command not found,
            a symbolic link in the edited copy pointing outside it, or the edited copy is no longer
            a LaTeX project).
        project: the edited copy (``None`` unless ``ok``).
        reason: why not ``ok``.
        returncode: the exit status (``None`` when killed or not started).
        stdout_tail / stderr_tail: the last :data:`OUTPUT_TAIL_CHARS` characters of each.
        seconds: wall-clock time.
    """

    model_config = ConfigDict(frozen=True)

    status: Literal["ok", "timeout", "error"]
    project: LatexProject | None = None
    reason: str | None = None
    returncode: int | None = None
    stdout_tail: str = ""
    stderr_tail: str = ""
    seconds: float = 0.0


def run_agent(
    command: Sequence[str],
    project: LatexProject,
    instruction: str,
    work_dir: Path,
    *,
    instruction_via: Literal["stdin", "file"] = "stdin",
    timeout_s: float = 600.0,
    env_allow: Sequence[str] = (),
) -> AgentResult:
    """Copy ``project`` to ``work_dir/project`` and run the agent there.

    Args:
        command: argument list; ``{project}`` and ``{instruction_file}`` in any argument are replaced.
        project: the project to edit (never modified).
        instruction: the instruction text.
        work_dir: a folder for this run (created; must not contain ``project`` yet).
        instruction_via: ``stdin`` or ``file`` (``work_dir/instruction.txt``).
        timeout_s: wall-clock limit in seconds.
        env_allow: names of environment variables passed through from this process.

    Returns:
        An :class:`AgentResult` (failures are results, never raised).

    Raises:
        ValueError: ``command`` is empty.
    """
    if not command:
        raise ValueError("the agent command is empty")
    work_dir = Path(work_dir)
    work_dir.mkdir(parents=True, exist_ok=True)
    copy = copy_project(project, work_dir / "project")
    instruction_file = work_dir / "instruction.txt"
    instruction_file.write_text(instruction, encoding="utf-8")
    home = work_dir / "home"
    home.mkdir(exist_ok=True)
    argv = [a.replace("{project}", str(copy.root)).replace("{instruction_file}", str(instruction_file)) for a in command]
    tag = secrets.token_hex(16)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "TMPDIR": str(home), "LANG": "C.UTF-8"}
    env.update({name: os.environ[name] for name in env_allow if name in os.environ})
    env[RUN_TAG] = tag
    started = time.monotonic()
    try:
        proc = subprocess.Popen(
            argv, cwd=copy.root, env=env, stdin=subprocess.PIPE if instruction_via == "stdin" else subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        )
    except OSError as exc:
        return AgentResult(status="error", reason=f"agent command {argv[0]!r} could not start: {exc}")
    try:
        out, err = proc.communicate(instruction.encode() if instruction_via == "stdin" else None, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        _kill(proc.pid)
        out, err = proc.communicate()
        return AgentResult(status="timeout", reason=f"agent exceeded {timeout_s:g} s", stdout_tail=_tail(out),
                           stderr_tail=_tail(err), seconds=time.monotonic() - started)
    finally:
        _kill(proc.pid)
        _kill_tagged(tag)
    seconds = time.monotonic() - started
    if proc.returncode != 0:
        return AgentResult(status="error", reason=f"agent exited with status {proc.returncode}: {_tail(err, 300).strip()}",
                           returncode=proc.returncode, stdout_tail=_tail(out), stderr_tail=_tail(err), seconds=seconds)
    outside = _links_outside(copy.root)
    if outside:
        shown = "; ".join(f"{name}: a symlink to a path outside the project copy (refused)" for name in outside[:5])
        return AgentResult(status="error", reason=shown + (f"; and {len(outside) - 5} more" if len(outside) > 5 else ""),
                           returncode=0, stdout_tail=_tail(out), stderr_tail=_tail(err), seconds=seconds)
    try:
        edited = load_project(copy.root, copy.main)
    except (DocumentReadError, OSError, ValueError) as exc:
        return AgentResult(status="error", reason=f"the edited project cannot be read: {exc}", returncode=0,
                           stdout_tail=_tail(out), stderr_tail=_tail(err), seconds=seconds)
    return AgentResult(status="ok", project=edited, returncode=0, stdout_tail=_tail(out), stderr_tail=_tail(err), seconds=seconds)


def _links_outside(root: Path) -> list[str]:
    """Relative paths of the symbolic links under ``root`` that resolve outside it (or nowhere), sorted."""
    root = root.resolve()
    found = []
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder) / name
            if path.is_symlink():
                target = path.resolve()
                if target != root and root not in target.parents:
                    found.append(path.relative_to(root).as_posix())
    return sorted(found)


def _kill_tagged(tag: str) -> None:
    """SIGKILL every process of this user whose environment holds ``RUN_TAG=tag`` (Linux ``/proc``;
    nothing elsewhere): the agent's descendants that left its process group (``setsid``)."""
    needle = f"{RUN_TAG}={tag}".encode()
    proc = Path("/proc")
    if not proc.is_dir():
        return
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:  # gone, or another user's
            continue
        if needle in environ.split(b"\0"):
            _kill_one(int(entry.name))


def _kill_one(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _kill(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _tail(data: bytes | None, limit: int = OUTPUT_TAIL_CHARS) -> str:
    text = (data or b"").decode("utf-8", errors="replace")
    return text[-limit:]
