"""Settings of the LaTeX-project rewriter kinds (``latex-project``, ``agent``) in a study file.

A rewriter of either kind carries them under ``project:``::

    rewriters:
      - name: small
        kind: latex-project
        model: embedded/qwen2.5-0.5b
        conditions: [novelty:+, joint, recursive:2, guided]
        project: {repair_rounds: 2, max_paragraphs_per_file: 3}
      - name: agent
        kind: agent
        conditions: [novelty:+]
        project: {command: [my-agent, "{project}"], timeout_s: 900}

See :mod:`rhetorica.study.project_rewrite` for how they are used.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from rhetorica.rewriting.conditions import condition_depth, upstream_condition

#: Deepest workflow chain (``recursive:<n>``) a study may list.
MAX_DEPTH = 5


class ProjectRewriteSettings(BaseModel):
    """How a project rewriter works on a LaTeX project.

    Attributes:
        repair_rounds: repairs after the first attempt (0-10); a variant still violating an anchor
            or failing to compile after them is ``discarded``.
        max_paragraphs_per_file: ``latex-project`` only: rewrite at most this many editable
            paragraphs of each manuscript file (the first ones, in file order); ``None``: all.
        command: ``agent`` only: the agent's argument list (``{project}`` and
            ``{instruction_file}`` are replaced, see :func:`rhetorica.rewriting.latex_project.agent.run_agent`).
        instruction_via: ``agent`` only: ``stdin`` or ``file``.
        timeout_s: ``agent`` only: wall-clock limit per agent run, seconds.
        env_allow: ``agent`` only: environment variables passed through to the agent.
        compile_timeout_s: wall-clock limit per compile, seconds.
        review_max_input_words: ``guided`` only: the intermediate review reads at most this many
            words of the compiled joint variant (``None``: all; small-context models need a limit).
        review_max_tokens: ``guided`` only: output cap of the intermediate review, tokens
            (``None``: the reviewers' default,
            :data:`~rhetorica.reviewers.llm_reviewer.DEFAULT_REVIEW_TOKENS`).
    """

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    repair_rounds: int = Field(default=2, ge=0, le=10)
    max_paragraphs_per_file: int | None = Field(default=None, ge=1)
    command: list[str] | None = Field(default=None, min_length=1)
    instruction_via: Literal["stdin", "file"] = "stdin"
    timeout_s: float = Field(default=600.0, gt=0)
    env_allow: list[str] = Field(default_factory=list)
    compile_timeout_s: float = Field(default=120.0, gt=0)
    review_max_input_words: int | None = Field(default=None, ge=50)
    review_max_tokens: int | None = Field(default=None, ge=1)


def check_project_rewriter(spec: Any, kind: Any) -> str | None:
    """Why a rewriter (a :class:`~rhetorica.study.config.RewriterSpec`) of a project kind (its
    :class:`~rhetorica.kinds.RewriterKind` ``kind`` with ``uses_project``) is not usable as
    configured (completing "rewriter <name> of kind <kind> ..."), or ``None``; for other kinds,
    the ``project`` settings given that the kind does not read (its ``project_settings``) are refused."""
    defaults = type(spec.project)()
    # settings that differ from the defaults (a saved study.json lists every setting, defaults too)
    given = {name for name in type(spec.project).model_fields if getattr(spec.project, name) != getattr(defaults, name)}
    if not kind.uses_project:
        other = sorted(given - kind.project_settings)
        if other and kind.project_settings:
            return (f"does not use project.{', project.'.join(other)} (it reads only project."
                    f"{', project.'.join(sorted(kind.project_settings))})")
        return "does not use 'project' settings (only the latex-project and agent kinds do)" if other else None
    if kind.agent and not spec.project.command:
        return "needs project.command (the agent's argument list)"
    other = sorted(given & (_PARAGRAPH_ONLY if kind.agent else _AGENT_ONLY))
    if other:
        return f"does not use project.{', project.'.join(other)} (a setting of the other project kind)"
    if kind.agent:
        problem = _command_problem(spec.project.command, spec.project.instruction_via)
        if problem:
            return problem
    listed = set(spec.conditions)
    for name in spec.conditions:
        if condition_depth(name) > MAX_DEPTH:
            return f"cannot run {name!r}: workflow chains go up to recursive:{MAX_DEPTH}"
        up = upstream_condition(name)
        if up is not None and up not in listed:
            return f"lists {name!r} without {up!r}, whose variant it rewrites further"
    if "guided" in listed and spec.model is None:
        return "needs a 'model' for 'guided' (the rewriting model reviews the intermediate variant)"
    return None


#: Settings only the ``agent`` kind uses, and only the ``latex-project`` kind.
_AGENT_ONLY = frozenset({"command", "instruction_via", "timeout_s", "env_allow"})
_PARAGRAPH_ONLY = frozenset({"max_paragraphs_per_file"})
#: Placeholders an agent command may hold (:func:`rhetorica.rewriting.latex_project.agent.run_agent`).
AGENT_PLACEHOLDERS = ("{project}", "{instruction_file}")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def _command_problem(command: list[str], instruction_via: str) -> str | None:
    """Why an agent command cannot run as configured: an unknown ``{placeholder}``,
    ``instruction_via: file`` without ``{instruction_file}``, or a program that is neither an
    existing absolute path nor a name found on ``PATH`` (the agent runs in the project copy, so a
    relative path would be looked up there)."""
    unknown = sorted({m for arg in command for m in _PLACEHOLDER.findall(arg) if m not in AGENT_PLACEHOLDERS})
    if unknown:
        return (f"has unknown placeholder(s) {', '.join(unknown)} in project.command (known: "
                f"{', '.join(AGENT_PLACEHOLDERS)})")
    if instruction_via == "file" and not any("{instruction_file}" in arg for arg in command):
        return "has project.instruction_via 'file' but no {instruction_file} in project.command to receive it"
    program = command[0]
    if "{" in program:
        return None  # a placeholder: only known when the agent runs
    if "/" in program:
        path = Path(program)
        if not path.is_absolute():
            return (f"runs the relative path {program!r} (project.command): give an absolute path or a name on "
                    "PATH (the agent runs in the project copy)")
        if not (path.is_file() and os.access(path, os.X_OK)):
            return f"runs {program!r} (project.command), which is not an executable file"
        return None
    if shutil.which(program) is None:
        return f"runs {program!r} (project.command), which is not found on PATH"
    return None

