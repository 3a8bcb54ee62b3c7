"""The repair loop with scripted rewriters: accepted, caught and sent back, discarded, repaired."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from rhetorica.documents.latex.project import (
    LatexProject,
    Paragraph,
    apply_replacements,
    copy_project,
    load_project,
)
from rhetorica.rewriting.latex_project.repair import (
    FEEDBACK_HEADER,
    RewriteFailed,
    agent_rewriter,
    compose_instruction,
    rewrite_with_repair,
)
from tests.rewriting.latex_project.conftest import FAULTS, Fault, baseline_compile, inject, wording

needs_tex = pytest.mark.skipif(shutil.which("latexmk") is None, reason="TeX Live is not installed")


class Scripted:
    """Attempt 0 edits wording and puts ``fault`` in (when given); a later attempt undoes the fault
    when ``repairs`` is true and changes nothing otherwise. Records the feedback of each attempt."""

    def __init__(self, fault: str | None = None, *, repairs: bool = False) -> None:
        self.fault_name, self.repairs = fault, repairs
        self.fault: Fault | None = None
        self.feedback: list[tuple[str, ...]] = []

    def __call__(self, project: LatexProject, instruction: str, feedback: Sequence[str]) -> LatexProject:
        self.feedback.append(tuple(feedback))
        if len(self.feedback) == 1:
            wording(project)
            if self.fault_name:
                self.fault = inject(load_project(project.root, project.main), self.fault_name)
        elif self.repairs and self.fault is not None:
            old = self.fault.paragraph
            faulty = Paragraph(file=old.file, start_line=old.start_line, end_line=old.end_line, text=self.fault.new_text)
            apply_replacements(project, {faulty: old.text})
        return load_project(project.root, project.main)


@needs_tex
def test_wording_rewrite_is_accepted_and_compiles(project: LatexProject, tmp_path: Path) -> None:
    rewriter = Scripted()
    result = rewrite_with_repair(project, "Rewrite.", rewriter, tmp_path, baseline_compile=baseline_compile(project))
    assert result.status == "ok", result.reasons
    assert len(result.attempts) == 1 and rewriter.feedback == [()]
    compiled = result.attempts[0].compiled
    assert compiled is not None and compiled.pdf_bytes > 10_000 and result.attempts[0].new_errors == ()
    assert "In short, " in result.diff
    assert (tmp_path / "attempt-0.diff").read_text() == result.diff


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_unrepaired_fault_is_sent_back_then_discarded(project: LatexProject, tmp_path: Path, fault: str) -> None:
    rewriter = Scripted(fault)
    result = rewrite_with_repair(project, "Rewrite.", rewriter, tmp_path, repair_rounds=2)
    assert rewriter.fault is not None
    expected = rewriter.fault.message
    assert result.status == "discarded"
    assert result.reasons == (expected,)
    assert [a.messages for a in result.attempts] == [(expected,)] * 3
    assert rewriter.feedback == [(), (expected,), (expected,)]
    assert all(a.compiled is None for a in result.attempts)  # a violating variant is never compiled
    assert result.project is None and result.diff == "" and result.baseline_compile is None


@needs_tex
@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_fault_fixed_by_the_repair_is_accepted(shared_data: Path, tmp_path: Path, fault: str) -> None:
    project = load_project(shared_data / "papers" / "gcrn_iclr2017")
    rewriter = Scripted(fault, repairs=True)
    result = rewrite_with_repair(project, "Rewrite.", rewriter, tmp_path, repair_rounds=1,
                                 baseline_compile=baseline_compile(project))
    assert rewriter.fault is not None
    assert result.status == "ok", result.reasons
    assert rewriter.feedback == [(), (rewriter.fault.message,)]
    assert result.attempts[1].messages == () and result.attempts[1].new_errors == ()
    assert "In short, " in result.diff


def test_zero_rounds_discards_at_once(shared_data: Path, tmp_path: Path) -> None:
    project = load_project(shared_data / "papers" / "gcrn_iclr2017")
    result = rewrite_with_repair(project, "x", Scripted("drop_cite"), tmp_path / "a", repair_rounds=0)
    assert result.status == "discarded" and len(result.attempts) == 1
    with pytest.raises(ValueError, match="repair_rounds"):
        rewrite_with_repair(project, "x", Scripted(), tmp_path / "b", repair_rounds=-1)


def test_rewriter_failure_is_a_result(shared_data: Path, tmp_path: Path) -> None:
    project = load_project(shared_data / "papers" / "gcrn_iclr2017")

    def fails(p: LatexProject, instruction: str, feedback: Sequence[str]) -> LatexProject:
        raise RewriteFailed("timeout", "agent exceeded 5 s")

    result = rewrite_with_repair(project, "x", fails, tmp_path)
    assert (result.status, result.reasons) == ("timeout", ("agent exceeded 5 s",))


def test_compose_instruction() -> None:
    assert compose_instruction("Do it.", []) == "Do it."
    assert compose_instruction("Do it.\n", ["a.tex:3: number: expected '1', found '2'"]) == (
        f"Do it.\n\n{FEEDBACK_HEADER}\n- a.tex:3: number: expected '1', found '2'\n"
    )


AGENT = r"""
import pathlib, sys
instruction = sys.stdin.read()
main = pathlib.Path("paper.tex")
text = main.read_text()
if "expected 'lstm'" in instruction:  # told what it broke: cite it again, in another place
    text = text.replace("memory (LSTM) introduced earlier", "memory (LSTM)~\\citep{lstm} introduced earlier")
else:
    text = text.replace("introduced by \\citet{lstm}", "introduced earlier")
main.write_text(text)
"""


@needs_tex
def test_agent_rewriter_is_told_the_violation_and_fixes_it(shared_data: Path, tmp_path: Path) -> None:
    project = load_project(shared_data / "papers" / "gcrn_iclr2017")
    source = project.read("paper.tex")
    assert source.count("{lstm}") == 1 and source.count("memory (LSTM) introduced by \\citet{lstm}") == 1
    script = tmp_path / "agent.py"
    script.write_text(AGENT)
    rewriter = agent_rewriter([sys.executable, str(script)], timeout_s=30)
    result = rewrite_with_repair(project, "Rewrite.", rewriter, tmp_path / "work", repair_rounds=1,
                                 baseline_compile=baseline_compile(project))
    line = source[: source.index("\\citet{lstm}")].count("\n") + 1
    assert result.attempts[0].messages == (f"paper.tex:{line}: citation: expected 'lstm', found nothing",)
    assert result.attempts[1].feedback == result.attempts[0].messages
    assert result.status == "ok", result.reasons


def test_an_agent_that_edits_the_source_project_fails_the_rewrite(tmp_path: Path) -> None:
    root = tmp_path / "source"
    root.mkdir()
    (root / "main.tex").write_text("\\documentclass{article}\n\\begin{document}\nOriginal words stay here.\n\\end{document}\n")
    source = load_project(root)
    tamper = (f"import pathlib; p = pathlib.Path({str(root / 'main.tex')!r}); "
              "p.write_text(p.read_text().replace('Original', 'Tampered'))")
    rewriter = agent_rewriter([sys.executable, "-c", tamper], protect=(source,), timeout_s=30)
    result = rewrite_with_repair(source, "Rewrite.", rewriter, tmp_path / "work", repair_rounds=0)
    assert result.status == "error"
    assert result.reasons == (f"the agent changed the source project: main.tex (in {root.resolve()}; restore it "
                              "before a rerun)",)
    untouched = agent_rewriter([sys.executable, "-c", "pass"], protect=(source,), timeout_s=30)
    assert untouched(copy_project(source, tmp_path / "other"), "Rewrite.", ()).main == "main.tex"


def test_an_unchanged_variant_is_sent_back_then_discarded_uncompiled(tmp_path: Path) -> None:
    root = tmp_path / "source"
    root.mkdir()
    (root / "main.tex").write_text("\\documentclass{article}\n\\begin{document}\nOriginal words stay here.\n\\end{document}\n")
    seen: list[tuple[str, ...]] = []

    def unchanged(p: LatexProject, instruction: str, feedback: Sequence[str]) -> LatexProject:
        seen.append(tuple(feedback))
        return p

    result = rewrite_with_repair(load_project(root), "Rewrite.", unchanged, tmp_path / "work", repair_rounds=1)
    assert (result.status, result.reasons) == ("discarded", ("the rewrite changed nothing",))
    assert seen == [(), ("the rewrite changed nothing",)]
    assert [a.compiled for a in result.attempts] == [None, None] and result.baseline_compile is None


def test_a_failed_repair_keeps_the_violation_it_was_to_repair(shared_data: Path, tmp_path: Path) -> None:
    # issue 24 §10: the reason was the agent's exit status, not the violation that caused the repair
    project = load_project(shared_data / "papers" / "gcrn_iclr2017")
    source = project.read("paper.tex")

    def breaks_then_fails(p: LatexProject, instruction: str, feedback: Sequence[str]) -> LatexProject:
        if feedback:
            raise RewriteFailed("error", "agent exited with status 1")
        p.write("paper.tex", p.read("paper.tex").replace("introduced by \\citet{lstm}", "introduced earlier"))
        return p

    result = rewrite_with_repair(project, "x", breaks_then_fails, tmp_path, repair_rounds=1)
    line = source[: source.index("\\citet{lstm}")].count("\n") + 1
    violation = f"paper.tex:{line}: citation: expected 'lstm', found nothing"
    assert result.status == "discarded"
    assert result.reasons == (violation, "repair attempt 1 failed (error): agent exited with status 1")
    assert [a.messages for a in result.attempts] == [(violation,), ("agent exited with status 1",)]


@needs_tex
def test_a_pipe_reached_through_the_originals_own_macro_is_caught_by_the_compile(tmp_path: Path) -> None:
    """The static checks pass (\\probe is the original's, its argument has no pipe); TeX's search for
    the file '|touch x' is recorded and sent back with its line, then the variant is discarded."""
    root = tmp_path / "base"
    root.mkdir()
    (root / "main.tex").write_text(
        "\\documentclass{article}\n\\newcommand{\\probe}[1]{\\IfFileExists{|#1}{}{}}\n\\begin{document}\n"
        "We probe \\probe{true} in this paragraph of ordinary words.\n\\end{document}\n")
    base = load_project(root)

    def rewrite(project: LatexProject, instruction: str, feedback: Sequence[str]) -> LatexProject:
        main = project.root / "main.tex"
        main.write_text(main.read_text().replace("of ordinary words.", "of ordinary words.\nAgain \\probe{touch x} here."))
        return load_project(project.root, project.main)

    result = rewrite_with_repair(base, "Rewrite.", rewrite, tmp_path / "work", repair_rounds=1)
    assert result.status == "discarded"
    assert result.attempts[0].violations == ()
    assert result.reasons == ("main.tex:5: dangerous: pipe: TeX was asked to open or test '|touch x'",)
    assert result.baseline_compile is not None
    assert [d.message for d in result.baseline_compile.dangers] == ["pipe: TeX was asked to open or test '|true'"]
