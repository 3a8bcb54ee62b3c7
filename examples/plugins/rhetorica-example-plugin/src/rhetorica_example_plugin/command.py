"""An evaluator that runs an external command: the ``example-command`` evaluator kind.

The command gets the manuscript as Markdown on stdin and must print one JSON object on the
evaluator's form (``review-000`` by default) on stdout. Outcomes follow rhetorica's statuses:
exit status other than 0 → ``error`` (with the last line of stderr), no output → ``empty``, not a
JSON object or not on the form → ``malformed`` (never clipped or repaired), over ``timeout_s`` →
``timeout`` (the process is killed). Nothing is retried: a deterministic command gives the same
answer again, and rhetorica's store already resumes finished units.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import shlex
import sys
from importlib import resources
from typing import TYPE_CHECKING, Any

from rhetorica.evaluation import Evaluation, Target
from rhetorica.forms import FormError, get_form
from rhetorica.status import Status

if TYPE_CHECKING:
    from rhetorica.models.call import CallContext

#: The bundled toy reviewer, run with the current interpreter when no command is given.
DEFAULT_SCRIPT = "rhetorica_example_plugin.reviewer_script"


class CommandEvaluator:
    """Runs ``command`` once per target (a factory: ``CommandEvaluator(name, **options)``).

    Args:
        name: the reviewer configuration's name in the study.
        command: the command line, as a list of arguments or one shell-quoted string; default:
            ``<this Python> -m rhetorica_example_plugin.reviewer_script``.
        form: the registered form the output must fit (default ``review-000``).
        timeout_s: wall-clock limit per call in seconds (> 0).

    Raises:
        ValueError: an empty command or a non-positive ``timeout_s``.
        rhetorica.registry.UnknownComponentError: an unknown form.
    """

    def __init__(self, name: str, *, command: list[str] | str | None = None, form: str = "review-000",
                 timeout_s: float = 60.0) -> None:
        argv = shlex.split(command) if isinstance(command, str) else list(command or [])
        if command is not None and not argv:
            raise ValueError("command: give the program to run (a list of arguments or one string)")
        if not timeout_s > 0:
            raise ValueError(f"timeout_s: must be > 0, got {timeout_s}")
        self.name = name
        self.form = get_form(form)
        self.command = argv
        self.timeout_s = float(timeout_s)

    def _argv(self) -> list[str]:
        return self.command or [sys.executable, "-m", DEFAULT_SCRIPT]

    def spec(self) -> dict[str, Any]:
        """The command (the bundled script is named by its module and the hash of its source, not
        by the interpreter's path), the form and its version, and the time limit."""
        if self.command:
            program: dict[str, Any] = {"command": self.command}
        else:
            source = (resources.files("rhetorica_example_plugin") / "reviewer_script.py").read_bytes()
            program = {"script": DEFAULT_SCRIPT, "script_sha256": hashlib.sha256(source).hexdigest()}
        return {"kind": "example-command", **program, "form": self.form.name, "form_version": self.form.version,
                "timeout_s": self.timeout_s}

    async def evaluate(self, target: Target, context: CallContext) -> Evaluation:
        """Run the command on ``target.document``; never raises for a failed assessment."""
        try:
            process = await asyncio.create_subprocess_exec(
                *self._argv(), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE)
        except OSError as exc:
            return Evaluation(Status.ERROR, reason=f"cannot start {self._argv()[0]!r}: {exc}")
        try:
            out, err = await asyncio.wait_for(process.communicate(target.document.to_markdown().encode("utf-8")),
                                              self.timeout_s)
        except TimeoutError:
            process.kill()
            await process.wait()
            return Evaluation(Status.TIMEOUT, reason=f"no answer within {self.timeout_s:g} s")
        text = out.decode("utf-8", errors="replace")
        if process.returncode != 0:
            last = (err.decode("utf-8", errors="replace").strip().splitlines() or [""])[-1]
            return Evaluation(Status.ERROR, reason=f"exit status {process.returncode}: {last[:200]}", raw_text=text)
        if not text.strip():
            return Evaluation(Status.EMPTY, reason="the command printed nothing")
        return self._read(text)

    def _read(self, text: str) -> Evaluation:
        try:
            payload = json.loads(text)
        except json.JSONDecodeError as exc:
            return Evaluation(Status.MALFORMED, reason=f"not JSON: {exc.msg} at line {exc.lineno}", raw_text=text)
        if not isinstance(payload, dict):
            return Evaluation(Status.MALFORMED, reason="not a JSON object", raw_text=text)
        try:
            scores = self.form.check_scores(payload)
            texts = self.form.check_texts(payload)
        except FormError as exc:
            return Evaluation(Status.MALFORMED, reason=str(exc), raw_text=text)
        return Evaluation(Status.OK, scores=scores, payload={**texts, **scores}, raw_text=text)
