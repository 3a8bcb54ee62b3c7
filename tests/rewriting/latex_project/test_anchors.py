"""The protected-anchor checker on every shared project and on hand-made cases."""

from __future__ import annotations

from pathlib import Path

import pytest

from rhetorica.rewriting.latex_project.anchors import Violation, check_anchors, extract_anchors
from rhetorica.documents.latex.project import LatexProject, apply_replacements, copy_project, load_project
from tests.rewriting.latex_project.conftest import FAULTS, inject, wording


def test_unchanged_and_wording_only_pass(project: LatexProject, tmp_path: Path) -> None:
    assert check_anchors(project, copy_project(project, tmp_path / "same")).ok
    variant = copy_project(project, tmp_path / "v")
    assert wording(variant) >= 10
    report = check_anchors(project, load_project(variant.root, variant.main))
    assert report.violations == ()


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_each_fault_gives_exactly_its_violation(project: LatexProject, tmp_path: Path, fault: str) -> None:
    variant = copy_project(project, tmp_path / "v")
    expected = inject(variant, fault)
    report = check_anchors(project, load_project(variant.root, variant.main))
    assert report.messages == (expected.message,)


def _mini(root: Path, body: str, preamble: str = "", extra: dict[str, str] | None = None) -> LatexProject:
    root.mkdir(parents=True)
    (root / "main.tex").write_text("\\documentclass{article}\n" + preamble + "\\begin{document}\n" + body + "\\end{document}\n")
    for name, text in (extra or {}).items():
        (root / name).write_text(text)
    return load_project(root)


BODY = (
    "We cite \\citep{a,b} and \\citet{c} here, see Table~\\ref{t} and \\cref{s,e}.\n"
    "A URL \\url{https://x.org} and \\href{https://y.org}{text}; we got 95.3\\% and 1,000 runs.\n"
    "\\begin{equation}\\label{e}\n  E = m c^2\n\\end{equation}\n"
    "Inline $a+b$ and \\(x\\). % a comment \\cite{ignored} 42\n"
    "\\begin{verbatim}\ncode  here\n\\end{verbatim}\n"
    "\\includegraphics[width=2cm]{fig/plot.pdf}\n"
)


def test_anchor_kinds_extracted_by_hand(tmp_path: Path) -> None:
    anchors = extract_anchors(_mini(tmp_path / "p", BODY))
    by_kind: dict[str, list[tuple[int, str]]] = {}
    for a in anchors:
        by_kind.setdefault(a.kind, []).append((a.line, a.value))
    assert by_kind["citation"] == [(3, "a"), (3, "b"), (3, "c")]
    assert by_kind["reference"] == [(3, "t"), (3, "s"), (3, "e")]
    assert by_kind["label"] == [(5, "e")]
    assert by_kind["url"] == [(4, "https://x.org"), (4, "https://y.org")]
    assert by_kind["graphics"] == [(12, "fig/plot.pdf")]
    assert sorted(v for _, v in by_kind["math"]) == sorted(
        ["\\begin{equation}\\label{e} E = m c^2 \\end{equation}", "$a+b$", "\\(x\\)"]
    )
    assert by_kind["verbatim"] == [(9, "\\begin{verbatim}\ncode  here\n\\end{verbatim}")]
    assert by_kind["number"] == [(4, "95.3"), (4, "1000")]  # the comment's 42 and \cite are ignored


def _violations(tmp_path: Path, new_body: str, **kwargs: object) -> tuple[Violation, ...]:
    base = _mini(tmp_path / "base", BODY, **kwargs)  # type: ignore[arg-type]
    var = copy_project(base, tmp_path / "var")
    (var.root / "main.tex").write_text((base.root / "main.tex").read_text().replace(BODY, new_body))
    return check_anchors(base, load_project(var.root)).violations


def test_changes_are_located_with_expected_and_found(tmp_path: Path) -> None:
    new = BODY.replace("\\citet{c}", "\\citet{d}").replace("E = m c^2", "E = m  c^3").replace("1,000", "1000")
    new = new.replace("https://y.org", "https://z.org").replace("code  here", "code here")
    got = {(v.kind, v.line, v.expected, v.found) for v in _violations(tmp_path, new)}
    assert got == {
        ("citation", 3, "c", "d"),
        ("url", 4, "https://y.org", "https://z.org"),
        ("math", 5, "\\begin{equation}\\label{e} E = m c^2 \\end{equation}", "\\begin{equation}\\label{e} E = m c^3 \\end{equation}"),
        ("verbatim", 9, "\\begin{verbatim}\ncode  here\n\\end{verbatim}", "\\begin{verbatim}\ncode here\n\\end{verbatim}"),
    }


def test_moving_and_rewording_keeps_anchors(tmp_path: Path) -> None:
    lines = BODY.split("\n")
    moved = "\n".join([lines[1], "Reworded: " + lines[0]] + lines[2:])
    assert _violations(tmp_path, moved.replace("  E = m c^2", "E   =  m c^2")) == ()


def test_dangerous_primitives_and_inputs(tmp_path: Path) -> None:
    new = BODY + "\\immediate\\write18{rm -rf x}\n\\openout3=evil.txt\n\\input{/etc/passwd}\n\\input{../outside}\n"
    got = [(v.kind, v.line, v.found) for v in _violations(tmp_path, new) if v.kind == "dangerous"]
    assert got == [
        ("dangerous", 13, "\\immediate\\write"),
        ("dangerous", 14, "\\openout"),
        ("dangerous", 15, "\\input{/etc/passwd}"),
        ("dangerous", 16, "\\input{../outside}"),
    ]


def test_existing_dangerous_primitive_is_not_new(tmp_path: Path) -> None:
    body = BODY + "\\write18{ls}\n"
    base = _mini(tmp_path / "b", body)
    var = copy_project(base, tmp_path / "v")
    assert check_anchors(base, var).ok


def test_preamble_bibliography_and_other_files(tmp_path: Path) -> None:
    base = _mini(tmp_path / "b", BODY, preamble="\\usepackage{amsmath}\n", extra={"refs.bib": "@article{a,}\n", "fig.png": "PNG"})
    var = copy_project(base, tmp_path / "v")
    main = var.root / "main.tex"
    main.write_text(main.read_text().replace("\\usepackage{amsmath}", "\\usepackage{amsmath,hyperref}"))
    (var.root / "refs.bib").write_text("@article{a,}\n@article{z,}\n")
    (var.root / "fig.png").unlink()
    (var.root / "notes.txt").write_text("new")
    got = [v.message for v in check_anchors(base, load_project(var.root)).violations]
    assert got == [
        "fig.png:1: file: expected 'the file', found nothing",
        "main.tex:2: preamble: expected '\\usepackage{amsmath}', found '\\usepackage{amsmath,hyperref}'",
        "notes.txt:1: file: expected nothing, found 'a new file'",
        "refs.bib:2: bibliography: expected 'the file unchanged', found 'a changed file'",
    ]


def test_macro_definition_in_body(tmp_path: Path) -> None:
    base = _mini(tmp_path / "b", "\\newcommand{\\acc}{95\\%}\n" + BODY)
    var = copy_project(base, tmp_path / "v")
    main = var.root / "main.tex"
    main.write_text(main.read_text().replace("{95\\%}", "{99\\%}"))
    (v,) = check_anchors(base, load_project(var.root)).violations
    assert (v.kind, v.line, v.expected, v.found) == ("macro", 3, "\\newcommand{\\acc}{95\\%}", "\\newcommand{\\acc}{99\\%}")


def test_paragraph_edit_through_api_reports_variant_line(tmp_path: Path) -> None:
    base = _mini(tmp_path / "b", "Intro words here.\n\nWe ran 12 trials in all.\n")
    var = copy_project(base, tmp_path / "v")
    para = next(p for p in var.paragraphs() if "12" in p.text)
    apply_replacements(var, {para: "Across all runs,\nwe ran 13 trials."})
    (v,) = check_anchors(base, load_project(var.root)).violations
    assert v.message == "main.tex:6: number: expected '12', found '13'"


def test_a_url_left_as_plain_text_is_told_as_a_removed_url_command(tmp_path: Path) -> None:
    # issue 24 §10: "url: expected 'https://x.org', found nothing" when only \url{} was removed
    plain = _violations(tmp_path / "a", BODY.replace("\\url{https://x.org}", "https://x.org"))
    assert [v.message for v in plain] == [
        "main.tex:4: url: \\url{} was removed around 'https://x.org' (the URL is left as plain text); "
        "put it back in \\url{}"]
    gone = _violations(tmp_path / "b", BODY.replace("A URL \\url{https://x.org} and ", "A URL and "))
    assert [v.message for v in gone] == ["main.tex:4: url: expected 'https://x.org', found nothing"]


# Disguised \write18 forms (issue 24 item 9): each new construct is rejected on its own line, with
# the exact token sequence (whitespace removed) as the value found. BODY has 12 lines, so the first
# added line is line 13.
@pytest.mark.parametrize(("added", "expected"), [
    pytest.param("\\csname immediate\\endcsname\\csname write\\endcsname\\numexpr\\sixt@@n+\\tw@\\relax{rm x}\n",
                 [(13, "\\csnameimmediate\\endcsname"), (13, "\\csnamewrite\\endcsname")], id="csname"),
    pytest.param("\\immediate\\wr^^69te18{rm x}\n", [(13, "\\immediate\\wr"), (13, "^^69")], id="caret-escape"),
    pytest.param("^^5cimmediate^^5cwrite18{rm x}\n", [(13, "^^5c"), (13, "^^5c")], id="caret-backslash"),
    pytest.param("\\let\\w=\\write\nText.\n\\w18{rm x}\n", [(13, "\\let\\w=\\write")], id="let-alias"),
    pytest.param("\\global\\let\\x\\immediate\n", [(13, "\\global\\let\\x\\immediate")], id="global-let"),
    pytest.param("\\catcode`\\|=0 |write18{rm x}\n", [(13, "\\catcode`\\|=0")], id="catcode"),
    pytest.param("\\write\\sixt@@n{hello}\n", [(13, "\\write\\sixt@@n")], id="write-any-stream"),
    pytest.param("\\def\\input{x}\n", [(13, "\\def\\input"), (13, "\\input{x}")],
                 id="def-of-a-primitive"),
])
def test_disguised_shell_escape_is_rejected_with_its_line(tmp_path: Path, added: str,
                                                           expected: list[tuple[int, str]]) -> None:
    got = [(v.line, v.found) for v in _violations(tmp_path, BODY + added) if v.kind == "dangerous"]
    assert got == expected


def test_a_let_of_an_ordinary_macro_is_not_dangerous(tmp_path: Path) -> None:
    assert [v for v in _violations(tmp_path, BODY + "\\let\\oldfoo\\textbf\n") if v.kind == "dangerous"] == []


def test_a_disguised_construct_the_baseline_had_passes(tmp_path: Path) -> None:
    body = BODY + "\\csname immediate\\endcsname\\csname write\\endcsname18{ls}\n\\let\\w=\\write\n"
    base = _mini(tmp_path / "b", body)
    var = copy_project(base, tmp_path / "v")
    (var.root / "main.tex").write_text((base.root / "main.tex").read_text().replace("\\let\\w=\\write\n",
                                                                                    "Some words.\n\\let\\w=\\write\n"))
    assert check_anchors(base, load_project(var.root)).ok
