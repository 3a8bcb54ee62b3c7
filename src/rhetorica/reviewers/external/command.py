"""An external command as a reviewer: it reads the manuscript and writes one review as JSON.

Registered as evaluator kind ``command``. Study configuration (the settings of
:class:`CommandOptions` go under the reviewer's ``options``)::

    reviewers:
      - name: ai-scientist-cli
        kind: command
        options:
          args: [python, review.py, "{input}", --seed, "{replicate}"]
          input: markdown          # markdown | text | pdf
          output: stdout           # stdout | file ("{output}" in args, or $RHETORICA_OUTPUT)
          adapter: ai-scientist    # native | ai-scientist | openreview | scale-1-6
          timeout_s: 900
          pass_env: [OPENAI_API_KEY]

Placeholders replaced in ``args`` (exact tokens, anywhere in an argument): ``{input}`` (path of
the manuscript: a temporary ``manuscript.md`` / ``manuscript.txt``, or the blinded copy of the
paper's PDF, :func:`rhetorica.documents.inputs.pdf_input`), ``{output}``
(path where the review file must be written), ``{replicate}``, ``{document_id}``. Without
``{input}``, Markdown or text goes to the command's standard input (a PDF needs ``{input}``).

Environment: the command sees only :data:`BASE_ENV` (taken from rhetorica's environment when
set), the ``pass_env`` names (passed through, e.g. one API key — no key reaches a command unless
listed), the literal ``env`` values, and ``RHETORICA_REPLICATE``, ``RHETORICA_DOCUMENT_ID``,
``RHETORICA_INPUT_FORMAT`` (and ``RHETORICA_OUTPUT`` for file output). ``env`` values and
``pass_env`` *names* are part of the cache key; passed-through values are not, so put anything
that changes the review (a model name, a base URL) in ``args`` or ``env``.

Process lifetime: the command runs in its own session (its own process group, with every child
it starts). Past ``timeout_s``, or when the run is interrupted, the whole group is killed. The
group is also killed when the rhetorica process ends without doing so itself — SIGTERM, or a
SIGKILL, which no handler can catch: a small watchdog process (:class:`_Watchdog`, one per
rhetorica process) holds the read end of a pipe whose only write end rhetorica holds, and lists
the groups of the commands running; the kernel closes a dead process's descriptors, so the
watchdog reads end-of-file whatever killed rhetorica, and SIGKILLs every group still listed.
(``PR_SET_PDEATHSIG`` would reach only the command itself, not the children it started, and only
on Linux.)

Outcomes: exit status 0 with a JSON object → validated review; past ``timeout_s`` → the whole
process group is killed and the unit is ``timeout``; a non-zero exit or a command that cannot be
started → ``error`` (with the end of its stderr); nothing written → ``empty``; more than
``max_output_bytes`` (default 1 MB) of output → ``malformed``, the first ``max_output_bytes`` kept
as the raw text (standard error is capped the same way); anything but one JSON object, or a
review that does not map onto the form → ``malformed``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rhetorica.evaluation import Target
from rhetorica.reviewers.external.base import REASON_CHARS, ExternalReviewer, InputFormat, Manuscript, Reply
from rhetorica.status import Status

#: Variables a command always gets from rhetorica's environment (when set): none holds a secret.
BASE_ENV = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "SYSTEMROOT")


#: The watchdog's program (``python -I -S -c``; standard library only). Its standard input lists
#: process groups, ``N`` when a command's group starts and ``-N`` when it ended; at end of input
#: (the rhetorica process that holds the pipe ended, however) it SIGKILLs every group still listed.
_WATCHDOG_PROGRAM = """
import os, signal
groups, rest = set(), b""
while chunk := os.read(0, 4096):
    *lines, rest = (rest + chunk).split(b"\\n")
    for line in lines:
        group = int(line)
        groups.add(group) if group > 0 else groups.discard(-group)
for group in groups:
    try:
        os.killpg(group, signal.SIGKILL)
    except OSError:
        pass
"""


class _Watchdog:
    """Kills the process groups of the commands still running when this process ends, however it
    ends (see the module docstring). One per process, started with its first command."""

    def __init__(self) -> None:
        self._process: subprocess.Popen[bytes] | None = None
        self._owner = 0  # the pid that started the watchdog (a forked child starts its own)

    def watch(self, group: int) -> None:
        """List ``group`` (a command's process group, started now)."""
        self._send(f"{group}\n")

    def release(self, group: int) -> None:
        """Take ``group`` off the list (its command ended and was waited for)."""
        self._send(f"-{group}\n")

    def _send(self, line: str) -> None:
        process = self._process
        if process is None or self._owner != os.getpid() or process.poll() is not None:
            process = self._process = subprocess.Popen(
                [sys.executable, "-I", "-S", "-c", _WATCHDOG_PROGRAM], stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
            self._owner = os.getpid()
        assert process.stdin is not None
        with contextlib.suppress(BrokenPipeError):
            process.stdin.write(line.encode("ascii"))
            process.stdin.flush()


_WATCHDOG = _Watchdog()

#: Bytes of a command's standard output (or output file) and of its standard error kept by default.
DEFAULT_MAX_OUTPUT_BYTES = 1_000_000


class CommandOptions(BaseModel):
    """Options of a ``command`` reviewer.

    Attributes:
        args: the command and its arguments (no shell); placeholders as in the module docstring.
        input: what the command reads: ``markdown``, ``text`` or ``pdf``.
        output: ``stdout`` or ``file`` (the review JSON written to ``{output}``).
        adapter, form, mapping, rating_field: the native → rhetorica form mapping
            (:func:`rhetorica.reviewers.external.adapters.get_adapter`).
        timeout_s: wall-clock limit of one run in seconds (> 0).
        cwd: working directory (default: rhetorica's).
        env: literal variables set for the command (part of the cache key).
        pass_env: names of variables passed through from rhetorica's environment (e.g. an API key).
        version: bump to invalidate cached answers after changing the command's code.
        max_output_bytes: most bytes of standard output (or of the output file) and of standard
            error kept (>= 1; default 1 MB = 1,000,000 bytes); the rest is read and dropped, and a
            review cut so is ``malformed``.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    args: list[str] = Field(min_length=1)
    input: InputFormat = "markdown"
    output: Literal["stdout", "file"] = "stdout"
    adapter: str = "native"
    form: str | None = None
    mapping: dict[int, int] | None = None
    rating_field: str = "rating"
    timeout_s: float = Field(default=600.0, gt=0)
    cwd: str | None = None
    env: dict[str, str] = Field(default_factory=dict)
    pass_env: list[str] = Field(default_factory=list)
    version: str = "1"
    max_output_bytes: int = Field(default=DEFAULT_MAX_OUTPUT_BYTES, ge=1)

    @model_validator(mode="after")
    def _pdf_needs_a_path(self) -> CommandOptions:
        if self.input == "pdf" and not any("{input}" in a for a in self.args):
            raise ValueError("input 'pdf' needs the '{input}' placeholder in args (a PDF cannot go to stdin)")
        return self


class CommandReviewer(ExternalReviewer):
    """A reviewer system run as a local command (see the module docstring)."""

    kind = "command"

    def __init__(self, name: str, options: CommandOptions) -> None:
        super().__init__(name, options)
        self.options = options

    def system_spec(self) -> dict[str, Any]:
        o = self.options
        return {"args": o.args, "output": o.output, "cwd": o.cwd, "env": dict(sorted(o.env.items())),
                "pass_env": sorted(o.pass_env), "version": o.version}

    def environment(self, target: Target, output_path: Path | None) -> dict[str, str]:
        """The command's whole environment (see the module docstring)."""
        env = {k: os.environ[k] for k in (*BASE_ENV, *self.options.pass_env) if k in os.environ}
        env.update(self.options.env)
        env.update({"RHETORICA_REPLICATE": str(target.replicate), "RHETORICA_DOCUMENT_ID": target.document_id,
                    "RHETORICA_INPUT_FORMAT": self.input_format})
        if output_path is not None:
            env["RHETORICA_OUTPUT"] = str(output_path)
        return env

    async def invoke(self, manuscript: Manuscript, target: Target) -> Reply:
        with tempfile.TemporaryDirectory(prefix="rhetorica-command-") as scratch:
            folder = Path(scratch)
            uses_input = any("{input}" in a for a in self.options.args)
            if manuscript.pdf_path is not None:
                input_path = manuscript.pdf_path
            else:
                input_path = folder / ("manuscript.md" if manuscript.format == "markdown" else "manuscript.txt")
                if uses_input:
                    input_path.write_text(manuscript.text or "", encoding="utf-8")
            output_path = folder / "review.json" if self.options.output == "file" else None
            values = {"{input}": str(input_path), "{output}": str(output_path or ""),
                      "{replicate}": str(target.replicate), "{document_id}": target.document_id}
            argv = [_fill(a, values) for a in self.options.args]
            stdin = None if uses_input else (manuscript.text or "").encode("utf-8")
            reply = await self._run(argv, stdin, self.environment(target, output_path))
            if reply.status != Status.OK or output_path is None:
                return reply
            if not output_path.is_file():
                return Reply(Status.EMPTY, "", f"the command exited 0 without writing its output file {output_path.name}")
            cap = self.options.max_output_bytes
            with output_path.open("rb") as handle:
                data = handle.read(cap + 1)
            text = data[:cap].decode("utf-8", errors="replace")
            if len(data) > cap:
                return Reply(Status.MALFORMED, text, f"the output file is longer than {cap:,} bytes; it was cut there")
            return Reply(Status.OK, text) if text.strip() else Reply(Status.EMPTY, "", "the output file is empty")

    async def _run(self, argv: list[str], stdin: bytes | None, env: dict[str, str]) -> Reply:
        try:
            process = await asyncio.create_subprocess_exec(
                *argv, stdin=asyncio.subprocess.PIPE if stdin is not None else asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, cwd=self.options.cwd, env=env,
                start_new_session=True)
        except OSError as exc:
            return Reply(Status.ERROR, "", f"cannot start {argv[0]!r}: {exc}")
        _WATCHDOG.watch(process.pid)  # its own session: the group id is its pid
        try:
            return await self._finish(process, stdin)
        finally:
            _WATCHDOG.release(process.pid)

    async def _finish(self, process: asyncio.subprocess.Process, stdin: bytes | None) -> Reply:
        """Feed, read and wait for the started command (its group killed on timeout or interruption)."""
        cap = self.options.max_output_bytes
        try:
            (stdout, stdout_cut), (stderr, _), _ = await asyncio.wait_for(
                asyncio.gather(_read_capped(process.stdout, cap), _read_capped(process.stderr, cap),
                               _feed(process, stdin)),
                timeout=self.options.timeout_s)
            await asyncio.wait_for(process.wait(), timeout=self.options.timeout_s)
        except asyncio.TimeoutError:
            _kill_group(process)
            await process.wait()
            return Reply(Status.TIMEOUT, "", f"the command ran past its {self.options.timeout_s:g} s limit")
        except BaseException:
            _kill_group(process)
            raise
        if process.returncode != 0:
            tail = stderr.decode("utf-8", errors="replace").strip()[-REASON_CHARS // 2:]
            return Reply(Status.ERROR, stdout.decode("utf-8", errors="replace"),
                         f"the command exited with status {process.returncode}" + (f": {tail}" if tail else ""))
        if self.options.output == "file":
            return Reply(Status.OK, "")
        text = stdout.decode("utf-8", errors="replace")
        if stdout_cut:
            return Reply(Status.MALFORMED, text, f"the command printed more than {cap:,} bytes; its output was cut there")
        return Reply(Status.OK, text) if text.strip() else Reply(Status.EMPTY, "", "the command printed nothing")


async def _read_capped(stream: asyncio.StreamReader | None, cap: int) -> tuple[bytes, bool]:
    """The first ``cap`` bytes of ``stream`` and whether there were more (the rest is read to the
    end and dropped, so the command never blocks on a full pipe)."""
    kept = bytearray()
    cut = False
    while stream is not None and (chunk := await stream.read(1 << 16)):
        room = cap - len(kept)
        if len(chunk) > room:
            kept += chunk[:max(room, 0)]
            cut = True
        else:
            kept += chunk
    return bytes(kept), cut


async def _feed(process: asyncio.subprocess.Process, data: bytes | None) -> None:
    """Write ``data`` to the command's standard input and close it (a command that stops reading
    early is not an error here)."""
    if data is None or process.stdin is None:
        return
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        process.stdin.write(data)
        await process.stdin.drain()
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        process.stdin.close()


def _fill(arg: str, values: dict[str, str]) -> str:
    for token, value in values.items():
        arg = arg.replace(token, value)
    return arg


def _kill_group(process: asyncio.subprocess.Process) -> None:
    """Kill the command and everything it started (it runs in its own session)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


def command_reviewer(name: str, **options: Any) -> CommandReviewer:
    """Factory of the ``command`` evaluator kind.

    Raises:
        pydantic.ValidationError: an unknown or ill-typed option (names it).
        ValueError: an unknown adapter or an adapter option it does not take.
    """
    return CommandReviewer(name, CommandOptions(**options))
