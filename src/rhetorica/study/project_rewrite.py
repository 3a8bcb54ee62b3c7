"""Rewrite units of the LaTeX-project rewriter kinds (``latex-project``, ``agent``) in a study.

The six-dimension study (STUDIES.md §2) rewrites whole LaTeX projects. A ``latex_project``
document (:mod:`rhetorica.study.project_inputs`) carries its project folder and its baseline
compile; a rewrite unit of a project kind

1. starts from the baseline project (``joint`` and the twelve conditions) or from the accepted
   project of the variant it follows (``recursive:<n>``: ``recursive:<n-1>`` or ``joint``;
   ``guided``: ``joint``) — an edge of the unit graph (:mod:`rhetorica.study.workflow_stages`);
2. for ``guided``, takes the ``ok`` review of that variant by the rewriting model, a unit of its
   own (:mod:`rhetorica.study.guided`): its text fields, blinded with the variant's identity, go
   into :func:`rhetorica.rewriting.six_dimensions.guided_prompt`; the unit makes rewrite calls only;
3. rewrites a copy with the kind's rewriter — ``latex-project``: the model rewrites editable
   paragraphs one at a time (at most ``project.max_paragraphs_per_file`` per file) under the
   condition's six-dimension prompt; ``agent``: the external command edits the copy
   (:func:`rhetorica.rewriting.latex_project.repair.agent_rewriter`);
4. goes through :func:`rhetorica.rewriting.latex_project.repair.rewrite_with_repair` (anchor
   checker, compile with the baseline's substitutes, ``project.repair_rounds`` repairs); what is
   still wrong is ``discarded`` with its reasons and never reviewed;
5. for an accepted variant, reads its compiled PDF with rhetorica's PDF reader into the variant
   document (the same path as the baseline).

Everything is kept under ``<run dir>/latex/variants/<unit key>/``: ``attempts/attempt-N`` (each
attempt's project), ``project/`` (the accepted project), ``variant.diff`` (unified diff against
the original baseline), ``variant.pdf``, ``review.json`` (guided only: the review record it was
shown) and ``result.json`` (status, reasons, every attempt's messages and seconds: ``rewrite_s``
wall time of the rewriter, ``calls`` and ``model_s`` its model calls and their latency,
``compile_s``; then ``read_s``, the PDF read of an accepted variant).
``benchmarks/six_dimensions_profile.py`` sums them per stage.
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rhetorica.rewriting.conditions import JOINT, Condition
from rhetorica.status import Status
from dataclasses import replace
from rhetorica.documents.inputs import record_input, text_input
from rhetorica.marker import TEXT_MARKER
from rhetorica.models.api import ChatMessage, GenerateConfig, ModelAPI
from rhetorica.models.call import call_model, CallContext
from rhetorica.rewriting import six_dimensions as six
from rhetorica.documents.latex.project import (
    EncodingError,
    apply_replacements,
    copy_project,
    load_project,
    project_diff,
    LatexProject,
    Paragraph,
)
from rhetorica.rewriting.latex_project.repair import (
    RewriteFailed,
    agent_rewriter,
    compose_instruction,
    rewrite_with_repair,
    FailureStatus,
    RepairResult,
    Rewriter,
)
from rhetorica.documents.latex.compile import CompileResult
from rhetorica.rewriting.llm import OUTPUT_TOKEN_FACTOR
from rhetorica.study import planner
from rhetorica.study.planned_calls import REPAIR_ROUNDS, PlannedCall, rewrite_cap, with_truncation_retry
from rhetorica.study.project_inputs import META_KEY, baseline_of, read_compiled
from rhetorica.documents.models import Document
from rhetorica.kinds import RunContext
from rhetorica.study.config import RewriterSpec
from rhetorica.study.project_settings import ProjectRewriteSettings


#: Model-call statuses a paragraph rewrite fails with as they are (any other failure is ``error``).
_CALL_FAILURES: dict[Status, FailureStatus] = {Status.TRUNCATED: "truncated", Status.REFUSED: "refused",
                                               Status.EMPTY: "empty", Status.TIMEOUT: "timeout", Status.ERROR: "error"}

_LOCATION = re.compile(r"^(?:compile error: )?([^\s:]+):(\d+):")


def instruction(condition: Condition, agent: bool, review: str | None = None) -> str:
    """The instruction of one rewrite: the condition's or workflow's six-dimension system prompt,
    for an agent followed by :func:`~rhetorica.rewriting.six_dimensions.agent_task_prompt`.

    Raises:
        ValueError: ``guided`` without a review, or an unknown condition.
    """

    if condition.guidance == "review":
        system = six.guided_prompt(review or "")
    elif condition.dimension == JOINT:
        system = six.joint_prompt()
    else:
        system = six.condition_prompt(condition.name)
    return system + "\n\n" + six.agent_task_prompt() if agent else system


def variant_dir(run_dir: Path, unit_key: str) -> Path:
    """Folder of one project rewrite's files in the run directory."""
    return Path(run_dir) / "latex" / "variants" / unit_key


def chosen_paragraphs(project: LatexProject, max_per_file: int | None) -> list[Paragraph]:
    """The editable paragraphs a ``latex-project`` rewrite sends: the first ``max_per_file`` of
    every manuscript file, in file order (all with ``None``)."""
    chosen = []
    counts: dict[str, int] = {}
    for p in project.paragraphs():
        counts[p.file] = counts.get(p.file, 0) + 1
        if max_per_file is None or counts[p.file] <= max_per_file:
            chosen.append(p)
    return chosen


def paragraph_messages(instruction_text: str, notes: Sequence[str], paragraph: str) -> list[ChatMessage]:
    """The messages of one paragraph rewrite: the instruction (with the feedback ``notes`` of a
    repair, :func:`~rhetorica.rewriting.latex_project.repair.compose_instruction`) as the system
    message; the task and the paragraph after the text marker as the user message."""

    return [ChatMessage(role="system", content=compose_instruction(instruction_text, notes)),
            ChatMessage(role="user", content=f"{six.task_prompt()}\n\n{TEXT_MARKER}\n{paragraph}")]


def planned_calls(unit: Any, agent: bool) -> list[PlannedCall]:
    """The model calls of one project rewrite unit, for ``rhetorica estimate`` (built by the
    functions the run uses; nothing is read but the baseline project's files).

    - ``latex-project``: one call per chosen paragraph of the baseline (:func:`chosen_paragraphs`;
      a variant keeps the baseline's paragraphs, so ``recursive:<n>`` and ``guided`` send as
      many), output at its cap (:func:`~rhetorica.study.planned_calls.rewrite_cap`); then, in the
      term :data:`~rhetorica.study.planned_calls.REPAIR_ROUNDS`, every chosen paragraph again in
      each of ``project.repair_rounds`` repairs (a repair sends back only the paragraphs its
      messages point into: at most all of them); and each call's second seed when it comes back
      truncated (:func:`~rhetorica.study.planned_calls.with_truncation_retry`). The guided second rewrite's
      prompt is counted with a one-line stand-in for the review's text (which adds at most the
      review's output cap per call; the review itself is a unit of :mod:`rhetorica.study.guided`).
    - ``agent``: none of its own (the external command).
    """


    rw: RewriterSpec = unit.rewriter
    meta = unit.document.metadata.get(META_KEY)
    if rw.served_model is None or not isinstance(meta, dict):
        return []
    settings = rw.project
    if agent:
        return []
    project = load_project(Path(meta["root"]), meta["main"])
    text = instruction(unit.condition, agent, "summary:\n(the intermediate review's text fields)")
    first = [PlannedCall(rw.served_model, paragraph_messages(text, (), p.text), rewrite_cap(rw.served_model, p.text))
             for p in chosen_paragraphs(project, settings.max_paragraphs_per_file)]
    return with_truncation_retry(first + [replace(c, term=REPAIR_ROUNDS) for c in first] * settings.repair_rounds)


def paragraph_rewriter(ask: Callable[[list[ChatMessage], str], str], max_per_file: int | None, *,
                       choose: Callable[[LatexProject], list[Paragraph]] | None = None) -> Rewriter:
    """The ``latex-project`` kind's rewriter: each chosen editable paragraph is sent alone.

    The first attempt rewrites the first ``max_per_file`` editable paragraphs of every manuscript
    file (all with ``None``), or the paragraphs ``choose`` picks from the project it is given (a
    search's scope, :func:`rhetorica.attack.project.scope_paragraphs`). A repair attempt sends back only the paragraphs a feedback message
    points into (``file:line:``), with those messages appended to the instruction
    (:func:`~rhetorica.rewriting.latex_project.repair.compose_instruction`); messages that point
    nowhere go with every chosen paragraph.

    Args:
        ask: ``(messages, paragraph text) -> rewritten paragraph``; raises
            :class:`~rhetorica.rewriting.latex_project.repair.RewriteFailed` when the model fails.
        max_per_file: see above.
        choose: see above (``None``: by ``max_per_file``).
    """

    def rewrite(project: LatexProject, instruction_text: str, feedback: Sequence[str]) -> LatexProject:
        chosen = choose(project) if choose else chosen_paragraphs(project, max_per_file)
        work: list[tuple[Any, list[str]]] = [(p, []) for p in chosen] if not feedback else []
        if feedback:
            placed: dict[Any, list[str]] = {}
            loose = []
            for message in feedback:
                m = _LOCATION.match(message)
                hits = [p for p in chosen if m and p.file == m[1] and p.start_line <= int(m[2]) <= p.end_line]
                for p in hits:
                    placed.setdefault(p, []).append(message)
                if not hits:
                    loose.append(message)
            work = [(p, placed.get(p, []) + loose) for p in chosen if p in placed or loose]
        replacements = {}
        for p, notes in work:
            text = ask(paragraph_messages(instruction_text, notes, p.text), p.text)
            indent = p.text[: len(p.text) - len(p.text.lstrip())]
            trail = p.text[len(p.text.rstrip()):]  # the source's own spacing around the paragraph stays
            replacements[p] = indent + text.strip() + trail
        try:
            return apply_replacements(project, replacements) if replacements else project
        except EncodingError as exc:
            raise RewriteFailed("error", str(exc)) from None

    return rewrite


def model_asker(model: ModelAPI, rw: RewriterSpec, context: CallContext, loop: asyncio.AbstractEventLoop,
                latencies: list[float], seeds: tuple[int, int] = (0, 1)) -> Callable[[list[ChatMessage], str], str]:
    """A blocking ``ask`` for :func:`paragraph_rewriter` that runs the model call on ``loop``
    (the rewrite itself runs in a worker thread): one paragraph in, one paragraph out (blank-line
    stop, budget 2x the paragraph's tokens + 32, sampling seed ``seeds[0]``, one retry with
    ``seeds[1]`` when truncated). Each call's latency (seconds) is appended to ``latencies``."""

    def ask(messages: list[ChatMessage], paragraph: str) -> str:
        cap = int(model.count_tokens(paragraph) * OUTPUT_TOKEN_FACTOR) + 32
        for seed in seeds:
            config = GenerateConfig(temperature=rw.sampling.temperature, top_p=rw.sampling.top_p, max_tokens=cap,
                                    seed=seed, stop=["\n\n"])
            output = asyncio.run_coroutine_threadsafe(call_model(model, messages, config, context=context), loop).result()
            latencies.append(output.latency_s)
            if output.status != Status.TRUNCATED:
                break
        if output.status != Status.OK or not output.text.strip():
            status = Status.EMPTY if output.status == Status.OK else output.status
            raise RewriteFailed(_CALL_FAILURES.get(status, "error"), f"paragraph rewrite: {status}: {output.error or 'no text'}")
        text = output.text.strip()
        return text[len(TEXT_MARKER):].strip() if text.startswith(TEXT_MARKER) else text

    return ask


async def execute(unit: Any, ctx: RunContext, agent: bool) -> dict[str, Any]:
    """Run one project rewrite unit (a :class:`~rhetorica.study.planner.RewriteUnit`, or a
    :class:`~rhetorica.study.workflow_stages.FollowUpUnit` with its ``upstream`` variant; a
    :class:`~rhetorica.study.guided.GuidedRewriteUnit` also carries the ``review`` it is shown) in
    the run context ``ctx``, by an ``agent`` command or a paragraph model; returns its ``variants`` row.

    Failures are rows: ``error`` (not a project document, the upstream project missing, the
    rewriter failed), the paragraph rewrite's model failure as it is
    (``truncated`` twice, ``refused``, ``empty``, ``timeout``), ``discarded`` (reasons joined by
    ``" | "``).
    """

    rw: RewriterSpec = unit.rewriter
    document: Document = unit.document
    row: dict[str, Any] = {
        "unit_key": unit.key, "document_id": document.id, "condition": unit.condition, "rewriter": rw.name,
        "prompt_version": planner.rewriter_prompt_version(rw, unit.condition), "original_hash": document.content_hash,
    }

    def failed(status: Status, reason: str) -> dict[str, Any]:
        return row | {"status": str(status), "reason": reason, "content_hash": None, "document_json": None}

    found = baseline_of(document)
    if found is None:
        return failed(Status.ERROR, f"document {document.id!r} is not a latex_project document; "
                                    f"rewriter kind {rw.kind!r} rewrites LaTeX projects")
    baseline, base_compile = found
    upstream = getattr(unit, "upstream", None)
    source = baseline
    if upstream is not None:
        up_dir = variant_dir(ctx.run_dir, upstream.key) / "project"
        try:
            source = load_project(up_dir, baseline.main)
        except (OSError, ValueError) as exc:
            return failed(Status.ERROR, f"the project of variant {upstream.condition} ({upstream.key[:12]}) "
                                        f"cannot be read from {up_dir}: {exc}")
    out = variant_dir(ctx.run_dir, unit.key)
    if out.exists():
        shutil.rmtree(out)  # a rerun of a failed unit starts clean
    out.mkdir(parents=True)
    context = ctx.calls(unit.key)
    review = _shown_review(unit, context, out)
    text = instruction(unit.condition, agent, review)
    settings = rw.project
    latencies: list[float] = []  # every paragraph-rewrite call's latency, seconds
    if agent:
        assert settings.command is not None
        protect = tuple({baseline.root: baseline, source.root: source}.values())  # the original and the upstream
        rewriter = agent_rewriter(settings.command, protect=protect, instruction_via=settings.instruction_via,
                                  timeout_s=settings.timeout_s, env_allow=settings.env_allow)
    else:
        assert rw.model is not None
        model = ctx.model(rw.model, rw.options.as_kwargs())
        rewriter = paragraph_rewriter(model_asker(model, rw, context, asyncio.get_running_loop(), latencies),
                                      settings.max_paragraphs_per_file)
    pdf = out / "variant.pdf"
    result, summary = await rewrite_project(source, text, rewriter, out, settings, base_compile, latencies)
    summary["upstream"] = upstream.key if upstream else None
    if result.status != "ok" or result.project is None:
        _write_result(out, summary)
        return failed(Status(result.status), " | ".join(result.reasons) or result.status)
    accepted = copy_project(result.project, out / "project")
    (out / "variant.diff").write_text(project_diff(baseline, accepted), encoding="utf-8")
    started = time.perf_counter()
    variant = read_compiled(pdf, document, ctx.config)
    _write_result(out, summary | {"read_s": round(time.perf_counter() - started, 3)})
    if isinstance(variant, str):
        return failed(Status.ERROR, variant)
    return row | {"status": str(Status.OK), "reason": None, "content_hash": variant.content_hash,
                  "document_json": variant.model_dump_json()}


async def rewrite_project(source: LatexProject, text: str, rewriter: Rewriter, out: Path,
                          settings: ProjectRewriteSettings, base_compile: CompileResult,
                          latencies: list[float]) -> tuple[RepairResult, dict[str, Any]]:
    """Step 4 of a project rewrite (module docstring): ``source`` rewritten under ``text`` by
    ``rewriter``, checked and compiled with the baseline's substitutes (``base_compile``),
    repaired up to ``settings.repair_rounds`` times, in a worker thread; the attempts under
    ``out/attempts``, an accepted variant's PDF at ``out/variant.pdf``.

    Returns:
        The repair result and its ``result.json`` summary (``status``, ``reasons``, ``attempts``
        with their messages, compile status and seconds, and the rewriter's timings read from
        ``latencies``, the list its model calls append to).
    """
    spent: list[dict[str, Any]] = []  # per attempt: rewrite_s, calls, model_s
    result = await asyncio.to_thread(
        rewrite_with_repair, source, text, _timed(rewriter, latencies, spent), out / "attempts",
        repair_rounds=settings.repair_rounds, baseline_compile=base_compile,
        compile_options={"timeout_s": settings.compile_timeout_s, "pdf_out": out / "variant.pdf"})
    return result, {
        "status": result.status, "reasons": list(result.reasons),
        "attempts": [{"number": a.number, "messages": list(a.messages),
                      "compiled": a.compiled.status if a.compiled else None,
                      "compile_s": round(a.compiled.seconds, 3) if a.compiled else None, **times}
                     for a, times in zip(result.attempts, spent, strict=True)]}


def _timed(rewriter: Rewriter, latencies: list[float], spent: list[dict[str, Any]]) -> Rewriter:
    """``rewriter`` that appends, per attempt, its wall time (``rewrite_s``), the model calls it
    made and their latency (``calls``, ``model_s``; read from ``latencies``) to ``spent``."""

    def rewrite(project: LatexProject, instruction_text: str, feedback: Sequence[str]) -> LatexProject:
        before, started = len(latencies), time.perf_counter()
        try:
            return rewriter(project, instruction_text, feedback)
        finally:
            spent.append({"rewrite_s": round(time.perf_counter() - started, 3), "calls": len(latencies) - before,
                          "model_s": round(sum(latencies[before:]), 3)})

    return rewrite


def _write_result(out: Path, summary: dict[str, Any]) -> None:
    (out / "result.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")


def _shown_review(unit: Any, context: CallContext, out: Path) -> str | None:
    """The text a guided rewrite is shown: the text fields of its unit's ``review``
    (:attr:`rhetorica.study.guided.GuidedReview.text`; the record kept as ``review.json``), blinded
    with the reviewed variant's identity like every reviewer input
    (:func:`rhetorica.documents.inputs.text_input`) and recorded; ``None`` for a unit without one."""
    review = getattr(unit, "review", None)
    if review is None:
        return None
    (out / "review.json").write_text(json.dumps(review.record, indent=2), encoding="utf-8")
    return record_input(context, text_input(review.text, review.variant.document, "guided feedback")).text
