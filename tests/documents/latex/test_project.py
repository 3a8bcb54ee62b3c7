"""Loading a LaTeX project, its editable paragraphs, replacements, copies and diffs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rhetorica.documents.options import DocumentReadError
from rhetorica.documents.latex.project import (
    EncodingError,
    LatexProject,
    apply_replacements,
    copy_project,
    editable_paragraphs,
    load_project,
    project_diff,
    write_variant,
)

#: Main files as the shared data's README describes the projects.
MAINS = {
    "cheblienet_neurips2021": "neurips_2021.tex",
    "chebnet_nips2016": "nips2016.tex",
    "fma_ismir2017": "fma.tex",
    "gcrn_iclr2017": "paper.tex",
    "scipy-1.0": "scipy-1.0/paper.tex",
    "stable-nalu_iclr2020": "main.tex",
}


def test_main_file_and_paragraphs_on_every_project(project: LatexProject) -> None:
    assert project.main == MAINS[project.root.name]
    paragraphs = project.paragraphs()
    assert len(paragraphs) >= 20
    seen: dict[str, set[int]] = {}
    for p in paragraphs:
        lines = project.read(p.file).split("\n")
        assert "\n".join(lines[p.start_line - 1 : p.end_line]) == p.text
        taken = seen.setdefault(p.file, set())
        span = set(range(p.start_line, p.end_line + 1))
        assert not taken & span, f"{p.key} overlaps another paragraph"
        taken |= span
        for line in p.text.split("\n"):
            assert not re.match(r"\s*\\(begin|end|section|subsection)\{", line), (p.key, line)
    main_lines = project.read(project.main).split("\n")
    begin = next(i for i, line in enumerate(main_lines, 1) if line.startswith("\\begin{document}"))
    assert all(p.start_line > begin for p in paragraphs if p.file == project.main)


def test_stable_nalu_includes_and_scipy_preamble_input(shared_data: Path) -> None:
    nalu = load_project(shared_data / "papers" / "stable-nalu_iclr2020")
    # main.tex lines 95-99 and 114-120 \input these; sections/results.tex includes results/*.tex
    for name in ("sections/introduction.tex", "sections/methods.tex", "sections/related-work.tex",
                 "sections/results.tex", "sections/conclusion.tex", "appendix/gradient-derivatives.tex",
                 "appendix/moments.tex", "appendix/simple-function-task.tex", "appendix/sequential-mnist.tex"):
        assert name in nalu.body_files
    assert "appendix/nalu-author-comments.tex" not in nalu.body_files  # never \input
    scipy = load_project(shared_data / "papers" / "scipy-1.0")
    # paper.tex line 50 (before \begin{document} at line 78): \input{core-dev}, the author list
    assert scipy.preamble_files == ("scipy-1.0/core-dev.tex",)
    assert "scipy-1.0/rebuttal.tex" not in scipy.tex_files
    assert not any(p.file == "scipy-1.0/core-dev.tex" for p in scipy.paragraphs())


def test_gcrn_abstract_paragraphs_are_its_source_lines(shared_data: Path) -> None:
    project = load_project(shared_data / "papers" / "gcrn_iclr2017")
    by_start = {p.start_line: p for p in project.paragraphs()}
    # paper.tex 105-116: \begin{abstract}, four text lines, a comment-only line (110), then five more
    # text lines: one paragraph (a comment line does not end a paragraph in TeX; issue 24 §10)
    first = by_start[106]
    assert first.end_line == 115
    assert first.text.split("\n")[0] == "\tThis paper introduces Graph Convolutional Recurrent"
    assert first.text.split("\n")[4].lstrip().startswith("%So far the only underlying structures")
    assert 110 not in by_start and 111 not in by_start and 104 not in by_start


def test_math_and_floats_are_not_editable(shared_data: Path) -> None:
    project = load_project(shared_data / "papers" / "gcrn_iclr2017")
    lines = project.read("paper.tex").split("\n")
    # paper.tex line 198 opens \begin{equation} \label{eqn:seq}
    assert lines[197].startswith("\\begin{equation}")
    end = next(i for i in range(197, len(lines)) if "\\end{equation}" in lines[i]) + 1
    for p in project.paragraphs():
        assert p.end_line < 198 or p.start_line > end
        assert "\\includegraphics" not in p.text


def test_replacement_changes_only_its_lines_and_diff_shows_it(tmp_path: Path, shared_data: Path) -> None:
    base = load_project(shared_data / "papers" / "gcrn_iclr2017")
    target = next(p for p in base.paragraphs() if p.start_line == 106)
    variant, diff = write_variant(base, tmp_path / "v1", {target: "\tThis paper presents GCRN."})
    old = base.read("paper.tex").split("\n")
    new = variant.read("paper.tex").split("\n")
    assert new[:105] == old[:105]
    assert new[105] == "\tThis paper presents GCRN."
    assert new[106:] == old[115:]  # the paragraph spans lines 106-115 (its comment line 110 included)
    assert "-\tThis paper introduces Graph Convolutional Recurrent\n" in diff
    assert "+\tThis paper presents GCRN.\n" in diff
    assert diff.startswith("--- a/paper.tex\n+++ b/paper.tex\n")
    assert (tmp_path / "v1.diff").read_text() == diff
    assert project_diff(base, copy_project(base, tmp_path / "same")) == ""


def test_several_replacements_in_one_file_and_stale_paragraph(tmp_path: Path, shared_data: Path) -> None:
    base = load_project(shared_data / "papers" / "chebnet_nips2016")
    work = copy_project(base, tmp_path / "w")
    first, second = work.paragraphs()[0], work.paragraphs()[1]
    old = work.read(base.main).split("\n")
    edited = apply_replacements(work, {second: "The second one, rewritten.", first: "The first one, rewritten.\n\nAnd split in two."})
    new = edited.read(base.main).split("\n")
    assert new[first.start_line - 1 : first.start_line + 2] == ["The first one, rewritten.", "", "And split in two."]
    shift = 3 - (first.end_line - first.start_line + 1)
    assert new[first.start_line + 2 : second.start_line - 1 + shift] == old[first.end_line : second.start_line - 1]
    assert new[second.start_line - 1 + shift] == "The second one, rewritten."
    assert new[second.start_line + shift :] == old[second.end_line :]
    assert [p.text for p in edited.paragraphs()[:3]] == ["The first one, rewritten.", "And split in two.", "The second one, rewritten."]
    with pytest.raises(ValueError, match="stale paragraph"):
        apply_replacements(edited, {first: "again"})


def test_copy_is_writable_and_leaves_symlinks_out(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "main.tex").write_text("\\documentclass{article}\n\\begin{document}\nSome words here now.\n\\end{document}\n")
    (src / "leak.tex").symlink_to("/etc/hostname")
    (src / "main.tex").chmod(0o444)
    copy = copy_project(load_project(src), tmp_path / "copy")
    assert not (copy.root / "leak.tex").exists()
    (copy.root / "main.tex").write_text("x")


def test_not_a_project(tmp_path: Path) -> None:
    with pytest.raises(DocumentReadError, match="no main .tex file"):
        load_project(tmp_path)
    with pytest.raises(DocumentReadError, match=r"no such folder \(a latex_project names the folder of a LaTeX "
                                                r"project; globs are not expanded\)"):
        load_project(tmp_path / "papers" / "t*")
    (tmp_path / "paper.tex").write_text("\\documentclass{article}")
    with pytest.raises(DocumentReadError, match=r"is a file, not a LaTeX project folder \(use path: for a single"):
        load_project(tmp_path / "paper.tex")


def test_file_level_write_only_for_editable_files(tmp_path: Path, shared_data: Path) -> None:
    work = copy_project(load_project(shared_data / "papers" / "scipy-1.0"), tmp_path / "w")
    text = work.read("scipy-1.0/poly.tex")
    work.write("scipy-1.0/poly.tex", text.replace("In the next layer", "At the next layer"))
    assert work.read("scipy-1.0/poly.tex") == text.replace("In the next layer", "At the next layer")
    for file in ("scipy-1.0/core-dev.tex", "scipy-1.0/references.bib", "scipy-1.0/rebuttal.tex"):
        with pytest.raises(ValueError, match="not an editable manuscript file"):
            work.write(file, "x")


LATIN1_MAIN = ("\\documentclass{article}\n\\usepackage[latin1]{inputenc}\n\\begin{document}\n"
               "Graph networks are na\u00efve about the caf\u00e9 and we study them here at length.\n\n"
               "Our method is simple and it seems to work in most cases we examined.\n\\end{document}\n")


def _latin1_project(tmp_path: Path) -> LatexProject:
    root = tmp_path / "latin1"
    root.mkdir()
    (root / "main.tex").write_bytes(LATIN1_MAIN.encode("latin-1"))
    return load_project(root)


def test_an_unchanged_rewrite_of_a_latin1_file_keeps_its_bytes(tmp_path: Path) -> None:
    project = _latin1_project(tmp_path)
    copy = copy_project(project, tmp_path / "copy")
    apply_replacements(copy, {p: p.text for p in copy.paragraphs()})
    assert (copy.root / "main.tex").read_bytes() == LATIN1_MAIN.encode("latin-1")


def test_a_rewritten_paragraph_of_a_latin1_file_is_written_in_latin1(tmp_path: Path) -> None:
    project = _latin1_project(tmp_path)
    copy = copy_project(project, tmp_path / "copy")
    second = copy.paragraphs()[1]
    assert second.text.startswith("Our method")
    apply_replacements(copy, {second: "Our method is clearly simple and works in every case we examined."})
    expected = LATIN1_MAIN.replace("Our method is simple and it seems to work in most cases we examined.",
                                   "Our method is clearly simple and works in every case we examined.")
    assert (copy.root / "main.tex").read_bytes() == expected.encode("latin-1")
    assert b"na\xefve about the caf\xe9" in (copy.root / "main.tex").read_bytes()
    with pytest.raises(EncodingError, match=r"main.tex: .*encoding \(latin-1\) cannot hold: '\u2014'"):
        apply_replacements(copy, {copy.paragraphs()[1]: "Our method \u2014 clearly simple \u2014 works well."})


def test_a_comment_line_does_not_split_a_paragraph() -> None:
    # issue 24 §10: "first paragraph per file" sent one sentence when a comment line split the prose
    text = ("\\begin{document}\n"
            "Graph networks learn from structure and they scale to large inputs.\n"
            "% TODO: say more about scaling\n"
            "They also transfer across graphs of different sizes in our tests.\n"
            "% a comment after the paragraph\n"
            "\n"
            "A second paragraph follows here with enough words to be prose.\n"
            "\\end{document}\n")
    paragraphs = editable_paragraphs("main.tex", text, is_main=True)
    assert [(p.start_line, p.end_line) for p in paragraphs] == [(2, 4), (7, 7)]
    assert paragraphs[0].text.splitlines()[1] == "% TODO: say more about scaling"
