"""Fixtures for the LaTeX-project tests: every LaTeX project in ../shared/data/papers, compiled once.

The fault injectors here find their target with their own plain searches of the source (not with
the checker's extraction), so the expected violation — file, line, values — is independent of the
code under test.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from rhetorica.documents.latex.compile import CompileResult, compile_project
from rhetorica.documents.latex.project import LatexProject, Paragraph, apply_replacements, load_project

PAPERS = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "papers"
#: Every folder of ../shared/data/papers that holds a .tex file with \documentclass.
PROJECTS = sorted(
    d.name for d in PAPERS.iterdir()
    if d.is_dir() and any("\\documentclass" in p.read_text(errors="replace") for p in d.rglob("*.tex"))
) if PAPERS.is_dir() else []

_BASELINES: dict[str, CompileResult] = {}


@pytest.fixture(params=PROJECTS)
def project(request: pytest.FixtureRequest, shared_data: Path) -> LatexProject:
    return load_project(shared_data / "papers" / request.param)


def baseline_compile(project: LatexProject) -> CompileResult:
    """The baseline's compile, once per test session."""
    key = str(project.root)
    if key not in _BASELINES:
        _BASELINES[key] = compile_project(project)
    return _BASELINES[key]


def line_of(paragraph: Paragraph, offset: int) -> int:
    """Source line of ``offset`` within ``paragraph.text``."""
    return paragraph.start_line + paragraph.text.count("\n", 0, offset)


def wording(project: LatexProject) -> int:
    """Edit wording only: put "In short, " before every paragraph that starts with a capitalised
    plain word (no command, math or number touched). Returns how many paragraphs changed."""
    edits = {}
    for p in project.paragraphs():
        stripped = p.text.lstrip()
        if re.match(r"[A-Z][a-z]+ ", stripped):
            indent = p.text[: len(p.text) - len(stripped)]
            edits[p] = indent + "In short, " + stripped[0].lower() + stripped[1:]
    apply_replacements(project, edits)
    return len(edits)


@dataclass(frozen=True)
class Fault:
    """A fault put into a project and the exact violation message it must produce."""

    paragraph: Paragraph
    new_text: str
    message: str


def _project_text(project: LatexProject) -> str:
    return "\n".join(project.read(f) for f in (project.main, *project.body_files))


def drop_cite(project: LatexProject) -> Fault:
    """Remove a whole one-key ``\\cite...{key}`` whose key is cited nowhere else."""
    text = _project_text(project)
    for p in project.paragraphs():
        for m in re.finditer(r"~?\\cite[a-z]*\{([^{},]+)\}", p.text):
            key = m.group(1).strip()
            if len(re.findall(r"[{,]\s*" + re.escape(key) + r"\s*[,}]", text)) == 1:
                new = p.text[: m.start()] + p.text[m.end():]
                return Fault(p, new, f"{p.file}:{line_of(p, m.start())}: citation: expected '{key}', found nothing")
    raise AssertionError(f"{project.root.name}: no uniquely cited key in a paragraph")


def alter_number(project: LatexProject) -> Fault:
    """Change a number standing alone in running text (outside math and braces, before any
    comment): ``n`` → ``n`` + "7"."""
    for p in project.paragraphs():
        for m in re.finditer(r"(?<= )(\d+(?:\.\d+)?)(?=[ ,;:)]|\.\s)", p.text):
            before = p.text[: m.start()]
            line_before = before[before.rfind("\n") + 1:]
            if before.count("$") % 2 or before.count("{") != before.count("}") or "%" in line_before:
                continue
            new = p.text[: m.start()] + m.group(1) + "7" + p.text[m.end():]
            return Fault(p, new, f"{p.file}:{line_of(p, m.start())}: number: expected '{m.group(1)}', found '{m.group(1)}7'")
    raise AssertionError(f"{project.root}: no plain number in a paragraph")


def edit_math(project: LatexProject) -> Fault:
    """Add ``+ 1`` inside the first one-line inline ``$...$`` of a paragraph."""
    for p in project.paragraphs():
        m = re.search(r"(?<!\\)\$([^$\n]+)\$", p.text)
        if m:
            new = p.text[: m.end(1)] + " + 1" + p.text[m.end(1):]
            inner = " ".join(m.group(1).split())
            return Fault(p, new, f"{p.file}:{line_of(p, m.start())}: math: expected '${inner}$', found '${inner} + 1$'")
    raise AssertionError(f"{project.root.name}: no inline math in a paragraph")


def add_write18(project: LatexProject) -> Fault:
    """Append ``\\write18{touch pwned}`` to the first paragraph."""
    p = project.paragraphs()[0]
    return Fault(p, p.text + r" \write18{touch pwned}", f"{p.file}:{p.end_line}: dangerous: expected nothing, found '\\write18'")


FAULTS = {"drop_cite": drop_cite, "alter_number": alter_number, "edit_math": edit_math, "add_write18": add_write18}


def inject(project: LatexProject, fault_name: str) -> Fault:
    """Find the fault's target in ``project`` and write it."""
    fault = FAULTS[fault_name](project)
    apply_replacements(project, {fault.paragraph: fault.new_text})
    return fault
