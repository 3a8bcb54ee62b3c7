"""Shell, pipe and Lua attempts in LaTeX source: hand cases, the generated attempts, the shared papers."""

from __future__ import annotations

from pathlib import Path

import pytest

from rhetorica.documents.latex.shell import shell_attempts
from tests.rewriting.latex_project.safety_corpus import attempts


@pytest.mark.parametrize(("line", "expected"), [
    ("\\immediate\\write18{rm x}", [("write18", "\\write18", False)]),
    ("\\write \"12{rm x}", [("write18", "\\write \"12", False)]),
    ("\\ExplSyntaxOn \\sys_shell_now:n {ls} \\ExplSyntaxOff", [("write18", "\\sys_shell_now:n", False)]),
    ("\\IfFileExists{|\"curl x | sh\"}{}{}", [("pipe", "{|\"curl x | sh\"", False)]),
    ("\\newread\\r \\openin\\r=|ls", [("pipe", "=|ls", False)]),
    ("\\directlua{os.execute('id')}", [("lua", "\\directlua", False)]),
    ("\\let\\w=\\write \\immediate\\w18{ls}", [("alias", "\\let\\w=\\write", False)]),
    ("\\csname\\string w\\string rite\\endcsname18{ls}", [("csname", "\\csname\\string w\\string rite\\endcsname", False)]),
    ("\\catcode`\\|=0 |immediate|write18{ls}", [("catcode", "\\catcode`\\|=0", False)]),
    ("\\immediate\\wr^^69te18{ls}", [("write18", "\\write18", True)]),
    ("\\input{^^7cls}", [("pipe", "{|ls", True)]),
    # not attempts: a table's column specification, an absolute value, a \write to a named stream,
    # a commented-out command, a catcode that is not an escape
    ("\\begin{tabular}{|c|p{2cm}|r@{ }l@{\\hspace{.8em}}|}", []),
    ("with $n = |\\mathcal{V}|$ vertices and {|x|} here", []),
    ("\\immediate\\write\\@auxout{\\string\\bibdata{refs}}", []),
    ("% \\immediate\\write18{rm x}", []),
    ("\\catcode`\\@=11", []),
])
def test_hand_cases(line: str, expected: list[tuple[str, str, bool]]) -> None:
    assert [(a.kind, a.text, a.decoded) for a in shell_attempts("Text.\n" + line + "\n")] == expected
    assert {a.line for a in shell_attempts("Text.\n" + line + "\n")} <= {2}


def test_every_generated_attempt_is_found() -> None:
    """The 76 attempts of the rewrite-safety corpus, each on a line of its own or in the file it brings."""
    found = 0
    for attempt in attempts():
        hits = shell_attempts("Text.\n" + attempt.line + "\n") + [a for _, text in attempt.files for a in shell_attempts(text)]
        found += bool(hits)
    assert (len(attempts()), found) == (76, 76)


def test_no_attempt_in_the_shared_papers(shared_data: Path) -> None:
    files = sorted(p for p in (shared_data / "papers").rglob("*") if p.suffix in {".tex", ".sty", ".cls"})
    assert len(files) == 31
    assert [(f.name, a) for f in files for a in shell_attempts(f.read_text(errors="replace"))] == []
