"""Worst-case searches on LaTeX projects (``latex_project`` documents, issue 27 §1).

A candidate of a search on a project is made and checked through the path of the six-dimension
project rewrites (:mod:`rhetorica.study.project_rewrite`): the paragraphs of the search's scope
(:func:`scope_paragraphs`) of the current best project are sent one at a time to the proposing
model (:func:`~rhetorica.study.project_rewrite.paragraph_rewriter`, the candidate's seed) under the
move's instruction; the copy goes through the anchor checker and the compile with the baseline's
substitutes, with the rewriter's ``project.repair_rounds`` repairs and ``project.compile_timeout_s``
(the two ``project`` settings an ``attack`` rewriter reads;
:func:`~rhetorica.study.project_rewrite.rewrite_project`); an accepted copy's PDF is read into a
document as every project variant is (:func:`~rhetorica.study.project_inputs.read_compiled`), which
the search then validates and the target reviews. A candidate still violating an anchor or failing
to compile fails with those reasons (it is never reviewed, so never kept).

Files: ``<run dir>/latex/variants/<unit key>/`` holds, as for a project rewrite, the winner's
``project/``, ``variant.diff`` (against the baseline), ``variant.pdf`` and ``result.json``
(``status``, ``reasons``, the winner's ``attempts``, and ``candidates``: per proposal its seed,
status, reasons and attempts). Each candidate's working folders (``candidates/<seed>/``) are
deleted when the search ends.
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
from pathlib import Path
from typing import Any

from rhetorica.documents.latex.source import comment_start, input_commands, read_group, resolve_input
from rhetorica.documents.models import Document
from rhetorica.models.api import ModelAPI
from rhetorica.models.call import CallContext
from rhetorica.documents.latex.compile import CompileResult
from rhetorica.documents.latex.project import LatexProject, Paragraph, copy_project, project_diff
from rhetorica.study.config import RewriterSpec, StudyConfig
from rhetorica.study.project_inputs import read_compiled
from rhetorica.study.project_rewrite import model_asker, paragraph_rewriter, rewrite_project

#: Offset of a proposal's retry seed (a paragraph cut at its token cap), far above every search seed.
RETRY_SEED_OFFSET = 1_000_000

_LEVELS = ("part", "chapter", "section", "subsection", "subsubsection", "paragraph", "subparagraph")
_HEADING = re.compile(rf"\\({'|'.join(_LEVELS)})\*?\s*(?:\[[^\]]*\])?\s*(?=\{{)")


def _title(raw: str) -> str:
    """A heading's title as compared with a scope's names: commands and braces dropped, spaces
    collapsed, lower case."""
    return " ".join(re.sub(r"\\[a-zA-Z@]+\*?|[{}~]", " ", raw).split()).lower()


def paragraph_places(project: LatexProject) -> dict[str, tuple[bool, tuple[str, ...]]]:
    """Where each editable paragraph stands, by :attr:`Paragraph.key`: ``(inside the abstract
    environment, titles of its enclosing headings, outermost first)``, read in document order
    (an included body file at its ``\\input``/``\\include``)."""
    place: dict[tuple[str, int], tuple[bool, tuple[str, ...]]] = {}
    state: dict[str, Any] = {"abstract": False, "headings": {}}
    main_dir = (project.root / project.main).parent
    seen: set[str] = set()

    def walk(file: str) -> None:
        seen.add(file)
        for number, line in enumerate(project.read(file).split("\n"), start=1):
            cut = comment_start(line)
            code = line if cut is None else line[:cut]
            if "\\begin{abstract}" in code:
                state["abstract"] = True
            for m in _HEADING.finditer(code):
                group = read_group(code, m.end())
                level = _LEVELS.index(m.group(1))
                state["headings"] = {k: v for k, v in state["headings"].items() if k < level}
                state["headings"][level] = _title(group[0] if group else "")
            place[(file, number)] = (state["abstract"], tuple(state["headings"][k] for k in sorted(state["headings"])))
            if "\\end{abstract}" in code:
                state["abstract"] = False
            for _, _, name in input_commands(code):
                target = resolve_input(name, (project.root / file).parent, main_dir, project.root)
                rel = target.resolve().as_posix() if isinstance(target, Path) else None
                root = project.root.as_posix() + "/"
                if rel and rel.startswith(root) and rel[len(root):] in project.body_files and rel[len(root):] not in seen:
                    walk(rel[len(root):])

    walk(project.main)
    for file in project.body_files:  # included in a way the walk does not follow: after the rest
        if file not in seen:
            walk(file)
    return {p.key: place[(p.file, p.start_line)] for p in project.paragraphs()}


def scope_paragraphs(project: LatexProject, scope: str | list[str]) -> list[Paragraph]:
    """The editable paragraphs a search on ``project`` rewrites (the scope of
    :class:`~rhetorica.attack.options.AttackOptions`): ``abstract`` — those inside the
    ``abstract`` environment, else those under the first paragraph's headings; ``all`` — every
    editable paragraph; a list of titles — those under a heading (at any level) with one of the
    titles (case-insensitive, commands dropped).

    Raises:
        ValueError: no paragraph in scope (no editable paragraph, or a named heading the project
            lacks: the message names what is missing and the headings it has).
    """
    paragraphs = project.paragraphs()
    places = paragraph_places(project)
    if not paragraphs:
        raise ValueError(f"project {project.root.name!r} has no editable paragraph to rewrite")
    if scope == "all":
        return paragraphs
    if scope == "abstract":
        inside = [p for p in paragraphs if places[p.key][0]]
        first = places[paragraphs[0].key][1]
        return inside or [p for p in paragraphs if not places[p.key][0] and places[p.key][1] == first]
    wanted = {_title(t) for t in scope}
    chosen = [p for p in paragraphs if wanted & set(places[p.key][1])]
    found = {t for p in chosen for t in places[p.key][1]} & wanted
    if wanted - found:
        titles = sorted({t for _, path in places.values() for t in path})
        raise ValueError(f"project {project.root.name!r} has no editable paragraph under a heading titled "
                         f"{', '.join(map(repr, sorted(wanted - found)))} (its headings: "
                         f"{', '.join(map(repr, titles)) or 'none'})")
    return chosen


class ProjectCandidates:
    """The candidates of one search on a project: ``propose`` makes one, ``finish`` stores the winner.

    Args:
        original: the ``latex_project`` document searched.
        baseline: its baseline project; ``base_compile`` its compile.
        scope: the search's scope (checked by :func:`scope_paragraphs` on each source project).
        rewriter: the ``attack`` rewriter configuration (its sampling and ``project`` settings).
        model: the proposing model; ``context`` the unit's call context.
        config: the study (the PDF reading options).
        out: the unit's variant folder (:func:`~rhetorica.study.project_rewrite.variant_dir`;
            emptied here).
    """

    def __init__(self, original: Document, baseline: LatexProject, base_compile: CompileResult, scope: str | list[str],
                 rewriter: RewriterSpec, model: ModelAPI, context: CallContext, config: StudyConfig, out: Path) -> None:
        self.original, self.baseline, self.base_compile, self.scope = original, baseline, base_compile, scope
        self.rewriter, self.model, self.context, self.config, self.out = rewriter, model, context, config, out
        if out.exists():
            shutil.rmtree(out)  # a rerun of a search starts clean (its calls come from the cache)
        out.mkdir(parents=True)
        self.projects: dict[str, tuple[LatexProject, Path, list[dict[str, Any]]]] = {
            original.content_hash: (baseline, Path(), [])}
        self.records: list[dict[str, Any]] = []

    async def propose(self, base: Document, instruction: str, seed: int) -> tuple[Document | None, str | None]:
        """Rewrite the scope of ``base``'s project under ``instruction`` with sampling seed ``seed``.

        Returns:
            ``(candidate document, None)``, or ``(None, reason)``: the rewrite failed
            (``<status>: <reason>``), was still wrong after the repairs (``discarded: <anchor or
            compile messages>``) or its PDF could not be read.
        """
        source = self.projects[base.content_hash][0]
        folder = self.out / "candidates" / str(seed)
        latencies: list[float] = []
        ask = model_asker(self.model, self.rewriter, self.context, asyncio.get_running_loop(), latencies,
                          seeds=(seed, seed + RETRY_SEED_OFFSET))
        rewriter = paragraph_rewriter(ask, None, choose=lambda project: scope_paragraphs(project, self.scope))
        result, summary = await rewrite_project(source, instruction, rewriter, folder, self.rewriter.project,
                                                self.base_compile, latencies)
        self.records.append({"seed": seed, **summary})
        if result.status != "ok" or result.project is None:
            return None, f"{result.status}: {' | '.join(result.reasons) or result.status}"
        candidate = read_compiled(folder / "variant.pdf", self.original, self.config)
        if isinstance(candidate, str):
            self.records[-1] |= {"status": "error", "reasons": [candidate]}
            return None, candidate
        self.projects.setdefault(candidate.content_hash, (result.project, folder, summary["attempts"]))
        return candidate, None

    def finish(self, winner: Document | None, status: str, reason: str | None) -> None:
        """Store the winner as a project variant (``project/``, ``variant.diff``, ``variant.pdf``)
        and ``result.json``; delete the candidates' working folders."""
        attempts: list[dict[str, Any]] = []
        if winner is not None:
            project, folder, attempts = self.projects[winner.content_hash]
            accepted = copy_project(project, self.out / "project")
            (self.out / "variant.diff").write_text(project_diff(self.baseline, accepted), encoding="utf-8")
            shutil.copyfile(folder / "variant.pdf", self.out / "variant.pdf")
        summary = {"status": status, "reasons": [reason] if reason else [], "upstream": None, "attempts": attempts,
                   "candidates": self.records}
        (self.out / "result.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
        shutil.rmtree(self.out / "candidates", ignore_errors=True)

