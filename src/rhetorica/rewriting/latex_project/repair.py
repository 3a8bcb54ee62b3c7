"""Rewrite a LaTeX project, check it, and send what is wrong back to the rewriter for repair.

Each attempt works on a fresh copy (attempt 0: of the baseline; attempt k: of attempt k-1's
output, so the rewriter repairs its own variant). The variant is checked for protected anchors
(:mod:`anchors`); one that passes is compiled with the baseline's substitutes (:mod:`compile`), and
errors the baseline does not have are the compile's complaints, and so is every attempt the
compile recorded that the baseline's did not (a shell command, a pipe, Lua, a file outside the
project: :func:`compile.find_dangers`), as ``file:line: dangerous: ...``. Anchor violations and new compile
errors go back to the rewriter with their exact messages, for at most ``repair_rounds`` repairs.
What is still wrong after that is ``discarded`` with its reasons — a result, never an exception; a
repair attempt whose rewriter fails (an agent's non-zero exit, a timeout) is ``discarded`` too, with
the messages it was to repair as the reasons and its failure after them. A
variant identical to the project it rewrites is wrong too (:data:`UNCHANGED`: it is neither checked
nor compiled, and is never reviewed as a rewrite). A variant that violates an anchor is not compiled (its compile errors could be caused by the
violation; the violation is fixed first).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from rhetorica.rewriting.latex_project.agent import run_agent
from rhetorica.rewriting.latex_project.anchors import Violation, check_anchors
from rhetorica.documents.latex.compile import (
    CompileResult,
    LogError,
    compile_project,
    compile_variant,
    new_dangers,
    new_errors,
)
from rhetorica.documents.latex.project import (
    LatexProject,
    changed_files,
    copy_project,
    file_digests,
    project_diff,
)

#: A rewriter: (working copy to edit, instruction, feedback messages from the previous attempt —
#: empty on the first) → the edited project. It raises :class:`RewriteFailed` when it cannot rewrite.
Rewriter = Callable[[LatexProject, str, Sequence[str]], LatexProject]

FEEDBACK_HEADER = (
    "Your previous version of this project was rejected for the reasons below. Fix exactly these "
    "problems and keep every other change you made:"
)


#: The message of an attempt whose project is byte-identical to the one it was to rewrite (sent back
#: like any other; a variant still unchanged after the repairs is discarded with it).
UNCHANGED = "the rewrite changed nothing"


#: Why a rewriter produced no project: the failure statuses of a model call (``truncated``: the
#: output hit its token cap; ``refused``, ``empty``, ``timeout``, ``error``).
FailureStatus = Literal["truncated", "refused", "empty", "timeout", "error"]


class RewriteFailed(Exception):
    """Raised by a rewriter that produced no project; ``status`` is a :data:`FailureStatus`."""

    def __init__(self, status: FailureStatus, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


class Attempt(BaseModel):
    """One attempt: its number (0 = the first rewrite), the feedback it was given, the anchor
    violations found, the compile result (``None`` when not compiled) and its new errors, and the
    messages that go back (empty when accepted)."""

    model_config = ConfigDict(frozen=True)

    number: int
    feedback: tuple[str, ...]
    violations: tuple[Violation, ...] = ()
    compiled: CompileResult | None = None
    new_errors: tuple[LogError, ...] = ()
    messages: tuple[str, ...] = ()


class RepairResult(BaseModel):
    """Outcome of :func:`rewrite_with_repair`.

    Attributes:
        status: ``ok`` (accepted), ``discarded`` (still wrong after the repair rounds), or the
            rewriter's :data:`FailureStatus` (it produced no project).
        project: the accepted variant (``None`` unless ``ok``).
        diff: its unified diff against the baseline (``""`` unless ``ok``).
        reasons: why it was discarded or failed (the last attempt's messages; after a failed
            repair, the messages it was to repair, then its failure).
        attempts: every attempt in order.
        baseline_compile: the baseline's compile (``None`` when no variant needed one).
    """

    model_config = ConfigDict(frozen=True)

    status: Literal["ok", "discarded", "truncated", "refused", "empty", "timeout", "error"]
    project: LatexProject | None = None
    diff: str = ""
    reasons: tuple[str, ...] = ()
    attempts: tuple[Attempt, ...] = ()
    baseline_compile: CompileResult | None = None


def compose_instruction(instruction: str, feedback: Sequence[str]) -> str:
    """The instruction followed, when there is feedback, by :data:`FEEDBACK_HEADER` and one
    ``- message`` line per problem."""
    if not feedback:
        return instruction
    return instruction.rstrip() + "\n\n" + FEEDBACK_HEADER + "\n" + "\n".join(f"- {m}" for m in feedback) + "\n"


def rewrite_with_repair(
    baseline: LatexProject,
    instruction: str,
    rewriter: Rewriter,
    work_dir: Path,
    *,
    repair_rounds: int = 2,
    baseline_compile: CompileResult | None = None,
    compile_options: dict[str, Any] | None = None,
) -> RepairResult:
    """Rewrite ``baseline`` with ``rewriter``, check and compile, repair up to ``repair_rounds`` times.

    Args:
        baseline: the original project (never modified).
        instruction: the rewrite instruction.
        rewriter: see :data:`Rewriter`.
        work_dir: folder for the attempts (``attempt-0``, ``attempt-1``, ...; the accepted one's diff
            is written beside it as ``attempt-N.diff``).
        repair_rounds: repairs after the first attempt (0 = accept or discard the first).
        baseline_compile: the baseline's compile when already done (otherwise it is compiled when a
            variant first passes the checker, and never when none does).
        compile_options: passed to the compiles (``timeout_s``, ``max_file_bytes``).

    Raises:
        ValueError: ``repair_rounds`` is negative.
    """
    if repair_rounds < 0:
        raise ValueError(f"repair_rounds must be 0 or more, got {repair_rounds}")
    options = compile_options or {}
    base_compile = baseline_compile  # compiled when a variant first passes the checker
    work_dir = Path(work_dir)
    work_dir.mkdir(parents=True, exist_ok=True)
    source, feedback = baseline, ()
    attempts: list[Attempt] = []
    messages: tuple[str, ...] = ()
    for number in range(repair_rounds + 1):
        working = copy_project(source, work_dir / f"attempt-{number}")
        try:
            variant = rewriter(working, instruction, feedback)
        except RewriteFailed as exc:
            attempts.append(Attempt(number=number, feedback=feedback, messages=(exc.reason,)))
            if feedback:  # a failed repair: what it was to repair stays the reason, the failure follows it
                return RepairResult(status="discarded", reasons=(*feedback, f"repair attempt {number} failed ({exc.status}): "
                                                                            f"{exc.reason}"),
                                    attempts=tuple(attempts), baseline_compile=base_compile)
            return RepairResult(status=exc.status, reasons=(exc.reason,), attempts=tuple(attempts), baseline_compile=base_compile)
        if not project_diff(baseline, variant):
            attempts.append(Attempt(number=number, feedback=feedback, messages=(UNCHANGED,)))
            messages = (UNCHANGED,)
            source, feedback = variant, messages
            continue
        report = check_anchors(baseline, variant)
        compiled, errors, dangers = None, (), ()
        if report.ok:
            base_compile = base_compile or compile_project(baseline, **options)
            compiled = compile_variant(variant, base_compile, **options)
            errors = new_errors(base_compile, compiled)
            dangers = new_dangers(base_compile, compiled)
        messages = (report.messages + tuple(f"{d.file}:{d.line}: dangerous: {d.message}" if d.file else f"dangerous: {d.message}"
                                            for d in dangers) + tuple(f"compile error: {e}" for e in errors))
        attempts.append(Attempt(number=number, feedback=feedback, violations=report.violations, compiled=compiled,
                                new_errors=errors, messages=messages))
        if not messages:
            diff = project_diff(baseline, variant)
            (work_dir / f"attempt-{number}.diff").write_text(diff, encoding="utf-8")
            return RepairResult(status="ok", project=variant, diff=diff, attempts=tuple(attempts), baseline_compile=base_compile)
        source, feedback = variant, messages
    return RepairResult(status="discarded", reasons=messages, attempts=tuple(attempts), baseline_compile=base_compile)


def agent_rewriter(command: Sequence[str], *, protect: Sequence[LatexProject] = (), **options: Any) -> Rewriter:
    """A :data:`Rewriter` that runs an external agent (:func:`agent.run_agent`) on the working copy,
    with the feedback appended to the instruction (:func:`compose_instruction`). ``options`` are
    :func:`run_agent`'s keyword options (``instruction_via``, ``timeout_s``, ``env_allow``).

    The agent is not sandboxed beyond running in a copy: the files of every project in ``protect``
    (the source project a study rewrites) are hashed before and after each run, and a run that
    changed, added or removed any of them fails (``error``: "the agent changed the source project:
    main.tex") — its variant would have been made from a baseline that no longer exists."""

    def rewrite(project: LatexProject, instruction: str, feedback: Sequence[str]) -> LatexProject:
        run_dir = project.root.parent / f"{project.root.name}-agent"
        before = [file_digests(p.root) for p in protect]
        result = run_agent(command, project, compose_instruction(instruction, feedback), run_dir, **options)
        for source, digests in zip(protect, before, strict=True):
            changed = changed_files(digests, file_digests(source.root) if source.root.is_dir() else {})
            if changed:
                shown = ", ".join(changed[:5]) + (f" and {len(changed) - 5} more" if len(changed) > 5 else "")
                raise RewriteFailed("error", f"the agent changed the source project: {shown} (in {source.root}; "
                                             "restore it before a rerun)")
        if result.status != "ok" or result.project is None:
            raise RewriteFailed("timeout" if result.status == "timeout" else "error", result.reason or result.status)
        return result.project

    return rewrite


__all__ = ["UNCHANGED", "Attempt", "FailureStatus", "RepairResult", "RewriteFailed", "Rewriter", "agent_rewriter", "compose_instruction",
           "rewrite_with_repair"]
