"""read_group: balanced groups, escapes and other brackets (hand-computed cases, and an oracle); ^^ decoding."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rhetorica.documents.latex.source import (decode_carets, find_main_file, project_folders, read_group,
                                              several_projects_problem)
from rhetorica.documents.options import DocumentReadError


@pytest.mark.parametrize(("text", "start", "brackets", "expected"), [
    ("{a{b}c}d", 0, ("{", "}"), ("a{b}c", 7)),
    ("  {x}", 0, ("{", "}"), ("x", 5)),  # spaces before the group are skipped
    ("\n\n{x}", 0, ("{", "}"), None),  # a blank line ends the search
    ("x{a}", 0, ("{", "}"), None),  # no group at start
    (r"{a\}b}c", 0, ("{", "}"), (r"a\}b", 6)),  # an escaped brace does not close
    ("{a{b", 0, ("{", "}"), ("a{b", 4)),  # unclosed: runs to the end
    ("[a{]}b]c", 0, ("[", "]"), ("a{]}b", 7)),  # a brace group inside [..] is skipped whole
    ("[a[b]c]", 0, ("[", "]"), ("a[b]c", 7)),
    ("{ab\\", 0, ("{", "}"), ("ab\\", 4)),  # a trailing backslash
])
def test_read_group_hand_cases(text: str, start: int, brackets: tuple[str, str],
                               expected: tuple[str, int] | None) -> None:
    assert read_group(text, start, *brackets) == expected


def _reference(text: str, start: int, open_: str = "{", close: str = "}") -> tuple[str, int] | None:
    """The character-by-character reading read_group replaced (the same rules, one step per character)."""
    i = start
    while i < len(text) and text[i] in " \t\n" and not text.startswith("\n\n", i):
        i += 1
    if i >= len(text) or text[i] != open_:
        return None
    depth, j = 0, i
    while j < len(text):
        ch = text[j]
        if ch == "\\":
            j += 2
            continue
        if ch == "{" and open_ != "{":
            inner = _reference(text, j)
            j = inner[1] if inner else j + 1
            continue
        if ch == open_:
            depth += 1
        elif ch == close:
            depth -= 1
            if depth == 0:
                return text[i + 1 : j], j + 1
        j += 1
    return text[i + 1 :], len(text)


def test_read_group_agrees_with_a_character_by_character_reading() -> None:
    rng = random.Random(7)
    alphabet = "{}[]\\ a\n%"
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        start = rng.randint(0, len(text))
        for brackets in (("{", "}"), ("[", "]")):
            assert read_group(text, start, *brackets) == _reference(text, start, *brackets), (text, start)


@pytest.mark.parametrize(("raw", "decoded"), [
    ("^^5cwrite", "\\write"),          # two lowercase hex digits
    ("\\wr^^69te", "\\write"),
    ("\\wr^^)te", "\\write"),          # ")" is 0x29, + 64 = 0x69 "i"
    ("a^^Ib", "a\tb"),                 # "I" is 0x49, - 64 = 0x09 (tab)
    ("^^5e^69", "i"),                  # a decoded "^" starts a new escape
    ("^^5C", "uC"),                    # upper-case hex is not hex to TeX: "^^5" (0x35 + 64 = "u"), "C"
    ("x^2", "x^2"),
])
def test_caret_escapes_decode_as_tex_reads_them(raw: str, decoded: str) -> None:
    assert decode_carets(raw) == decoded


MAIN = "\\documentclass{article}\\title{T}\\begin{document}\\begin{abstract}A.\\end{abstract}\\section{I}x\\end{document}\n"
FIGURE = "\\documentclass{standalone}\\begin{document}\\tikz\\draw (0,0)--(1,1);\\end{document}\n"


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_project_folders_on_a_generated_corpus(tmp_path: Path) -> None:
    """120 generated folders: 60 hold k = 2..6 projects (each at depth 1 or 2 below its subfolder,
    some with a rebuttal beside the paper); 60 are one project (its main at the top, or in a subfolder
    beside standalone figures and a section file that has a preamble but is \\input). The rule finds
    exactly the k projects of the first and none in the second."""
    rng = random.Random(7)
    several = single = 0
    for n in range(120):
        root = tmp_path / f"f{n}"
        if n % 2 == 0:
            k = 2 + n % 5
            names = [f"proj{j}" for j in range(k)]
            files = {}
            for name in names:
                inner = f"{name}/src/" if rng.random() < 0.5 else f"{name}/"
                files[f"{inner}main.tex"] = MAIN
                if rng.random() < 0.5:
                    files[f"{inner}rebuttal.tex"] = MAIN.replace("\\title{T}", "")
            _write(root, files)
            assert project_folders(root) == sorted(names), n
            with pytest.raises(DocumentReadError, match=f"holds {k} LaTeX projects, not one"):
                find_main_file(root)
            several += 1
        else:
            top = rng.random() < 0.5
            files = {"main.tex" if top else "paper/main.tex": MAIN.replace("\\section{I}x", "\\input{sec/intro}"),
                     "sec/intro.tex": MAIN, "figures/fig1.tex": FIGURE, "figures/fig2.tex": FIGURE}
            _write(root, files)
            assert project_folders(root) == [], n
            assert find_main_file(root) == root / ("main.tex" if top else "paper/main.tex")
            single += 1
    assert (several, single) == (60, 60)


def test_the_shared_papers_folder_holds_six_projects(shared_data: Path) -> None:
    papers = shared_data / "papers"
    assert project_folders(papers) == ["cheblienet_neurips2021", "chebnet_nips2016", "fma_ismir2017",
                                       "gcrn_iclr2017", "scipy-1.0", "stable-nalu_iclr2020"]
    assert project_folders(papers / "scipy-1.0") == []  # one project, its main two folders down
    assert several_projects_problem(papers, ["a", "b"]) == (
        f"holds 2 LaTeX projects, not one (a, b); name each project folder, or the glob '{papers.as_posix()}/*' "
        "for one document each")
