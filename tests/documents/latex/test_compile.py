"""Compiling projects safely: baselines with substitutes, no shell escape, limits, log parsing."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pypdfium2
import pytest

from rhetorica.documents.latex.compile import (
    LogError,
    compile_project,
    compile_variant,
    find_dangers,
    new_dangers,
    new_errors,
    parse_log,
)
from rhetorica.documents.latex.project import LatexProject, copy_project, load_project
from tests.rewriting.latex_project.conftest import baseline_compile, wording

pytestmark = pytest.mark.skipif(shutil.which("latexmk") is None, reason="TeX Live is not installed (scripts/install-test-system-deps.sh)")

#: The style or class each shared project loads but the shared copy lacks (their README says the
#: .sty/.cls/.bst files were removed), plus `nth`, which Debian's TeX Live 2022 does not ship.
MISSING = {
    "cheblienet_neurips2021": ("neurips_2021.sty: substitute package",),
    "chebnet_nips2016": ("nips2016.sty: substitute package",),
    "fma_ismir2017": ("ismir.sty: substitute package",),
    "gcrn_iclr2017": ("nips_2017.sty: substitute package",),
    "scipy-1.0": ("nth.sty: substitute package", "wlscirep.cls: substitute class (article)"),
    "stable-nalu_iclr2020": ("iclr2020_conference.sty: substitute package", "iclr2020_conference.bst: substitute bibliography style (plainnat)"),
}


def test_every_baseline_compiles_with_its_substitutes_said(project: LatexProject) -> None:
    result = baseline_compile(project)
    name = project.root.name
    assert result.status == "ok", result.errors
    assert result.pdf_bytes > 10_000
    assert result.notes[: len(MISSING[name])] == MISSING[name]
    figures = [n for n in result.notes if n.endswith("missing figure drawn as a box")]
    for note in figures:  # only figures the shared copy really lacks are replaced
        assert not (project.root / note.split(":")[0]).exists()
    tables = [n.split(":")[0] for n in result.notes if n.endswith("missing plot data replaced by a two-point placeholder table")]
    if name == "cheblienet_neurips2021":
        # its pgfplots read Data/*.dat, which the shared copy does not have
        assert tables == ["Data/r2_eigenval.dat", "Data/s2_eigenval.dat", "Data/se2_eigenval.dat", "Data/so3_eigenval.dat"]
        assert not (project.root / "Data").exists()
        assert "TikZ externalization disabled (it needs shell escape)" in result.notes
    else:
        assert tables == []


def test_substitute_class_defines_what_journal_classes_bring(tmp_path: Path) -> None:
    """A project whose class is missing still gets ``\\citen`` with several keys (the substitute's
    one-argument commands take their argument: ``\\figref{x}`` prints "Figure 1"), ``\\intercal``
    (amssymb) and ``\\url``, as the scipy-1.0 paper needs under ``wlscirep``."""
    root = tmp_path / "p"
    root.mkdir()
    (root / "main.tex").write_text(
        "\\documentclass{nosuchjournal}\n"
        "\\newcommand{\\inlinecite}[1]{\\footnotesize\\citen{#1}}\n"
        "\\begin{document}\n"
        "\\begin{figure}\\caption{A}\\label{x}\\end{figure}\n"
        "See \\figref{x}, $A^{\\intercal}$, \\url{https://example.org/a_b} and "
        "\\begin{tabular}{l}\\inlinecite{a, b}\\\\\\end{tabular}.\n"
        "\\begin{thebibliography}{9}\\bibitem{a} A.\\bibitem{b} B.\\end{thebibliography}\n"
        "\\end{document}\n")
    result = compile_project(load_project(root), pdf_out=tmp_path / "out.pdf")
    assert result.notes == ("nosuchjournal.cls: substitute class (article)",)
    assert result.status == "ok", result.errors
    pdf = pypdfium2.PdfDocument(tmp_path / "out.pdf")
    text = " ".join(" ".join(page.get_textpage().get_text_range() for page in pdf).split())
    assert "See Figure 1," in text and "[1, 2]" in text


def test_missing_pgfplots_table_gets_a_placeholder(tmp_path: Path) -> None:
    body = ("\\begin{tikzpicture}\\begin{axis}\\addplot table {Data/points.dat};\\end{axis}\\end{tikzpicture}\n"
            "\\input{Data/other.tex}")
    root = tmp_path / "p"
    root.mkdir()
    (root / "main.tex").write_text("\\documentclass{article}\\usepackage{pgfplots}\n\\begin{document}\n" + body + "\n\\end{document}\n")
    result = compile_project(load_project(root))
    assert result.notes == ("Data/points.dat: missing plot data replaced by a two-point placeholder table",)
    assert result.status == "failed"  # a missing \\input is not plot data: it stays an error
    assert [e.message for e in result.errors] == ["LaTeX Error: File `Data/other.tex' not found."]
    assert not (root / "Data").exists()


def test_wording_variant_has_no_new_errors(project: LatexProject, tmp_path: Path) -> None:
    base = baseline_compile(project)
    variant = copy_project(project, tmp_path / "v")
    wording(variant)
    compiled = compile_variant(load_project(variant.root, variant.main), base)
    assert compiled.substitutes == base.substitutes
    assert compiled.pdf_bytes > 10_000
    assert new_errors(base, compiled) == ()


def _mini(root: Path, body: str) -> LatexProject:
    root.mkdir(parents=True)
    (root / "main.tex").write_text("\\documentclass{article}\n\\begin{document}\n" + body + "\n\\end{document}\n")
    return load_project(root)


def test_write18_runs_nothing(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.mkdir()
    body = (
        f"\\immediate\\write18{{touch {victim}/immediate-ran}}\n"
        f"\\write18{{touch {victim}/deferred-ran}}\n"
        "Text that still typesets."
    )
    project = _mini(tmp_path / "p", body)
    before = sorted(p.name for p in project.root.iterdir())
    result = compile_project(project)
    assert result.pdf_bytes > 0
    assert list(victim.iterdir()) == []
    # refused, and recorded: pdfTeX logs each attempt, which makes the compile dangerous (issue 35)
    assert result.status == "dangerous"
    assert [str(d) for d in result.dangers] == [
        f"main.tex:3: shell command attempted: touch {victim}/immediate-ran (runsystem ... disabled)",
        f"main.tex:4: shell command attempted: touch {victim}/deferred-ran (runsystem ... disabled)"]
    assert sorted(p.name for p in project.root.iterdir()) == before  # the project itself is never written


@pytest.mark.parametrize("target", ["{victim}/absolute.txt", "../relative.txt", ".hidden"])
def test_immediate_write_cannot_leave_the_temp_copy(tmp_path: Path, target: str) -> None:
    victim = tmp_path / "victim"
    victim.mkdir()
    name = target.format(victim=victim)
    body = f"\\newwrite\\out\\immediate\\openout\\out={name} \\immediate\\write\\out{{x}}\\immediate\\closeout\\out\nText."
    project = _mini(tmp_path / "p", body)
    result = compile_project(project)
    assert list(victim.iterdir()) == []
    assert not (tmp_path / "relative.txt").exists() and not (project.root / ".hidden").exists()
    assert result.status == "dangerous"  # the refused write is an attempt to leave the project
    assert [str(d) for d in result.dangers] == [
        f"main.tex:3: file outside the project: write of {name} (refused by openout_any)"]
    assert [str(e) for e in result.errors] == [f"main.tex:3: I can't write on file `{name}'."]


def test_write_inside_the_copy_is_allowed_and_discarded(tmp_path: Path) -> None:
    body = "\\newwrite\\out\\immediate\\openout\\out=inside.txt \\immediate\\write\\out{x}\\immediate\\closeout\\out\nText."
    project = _mini(tmp_path / "p", body)
    assert compile_project(project).status == "ok"
    assert not (project.root / "inside.txt").exists()


def test_latexmkrc_in_project_is_not_run(tmp_path: Path) -> None:
    project = _mini(tmp_path / "p", "Text.")
    marker = tmp_path / "rc-ran"
    for name in ("latexmkrc", ".latexmkrc"):
        (project.root / name).write_text(f'system("touch {marker}");\n')
    assert compile_project(project).status == "ok"
    assert not marker.exists()


def test_timeout_kills_the_compile(tmp_path: Path) -> None:
    project = _mini(tmp_path / "p", "\\def\\loop{\\loop}\\loop")
    result = compile_project(project, timeout_s=3, fallback=False)
    assert result.status == "timeout"
    assert result.reason == "compile exceeded 3 s"
    assert result.seconds < 10


def test_output_size_limit(tmp_path: Path) -> None:
    body = ("\\newwrite\\big\\immediate\\openout\\big=big.txt\n"
            "\\count255=0 \\loop\\immediate\\write\\big{0123456789012345678901234567890123456789}"
            "\\advance\\count255 by 1 \\ifnum\\count255<100000 \\repeat\\immediate\\closeout\\big\nText.")
    result = compile_project(_mini(tmp_path / "p", body), max_file_bytes=200_000, fallback=False)
    assert result.status == "error"
    assert result.reason == "output file over 200000 bytes: big.txt"


def test_new_errors_ignore_baseline_errors_and_line_shifts(tmp_path: Path) -> None:
    base = compile_project(_mini(tmp_path / "b", "Text \\undefinedone.\n"))
    var = compile_project(_mini(tmp_path / "v", "More.\n\nText \\undefinedone.\nNow \\undefinedtwo."))
    assert [str(e) for e in base.errors] == ["main.tex:3: Undefined control sequence."]
    assert [str(e) for e in new_errors(base, var)] == ["main.tex:6: Undefined control sequence."]


def test_parse_log() -> None:
    log = (
        "(./main.tex\n"
        "./main.tex:12: Undefined control sequence.\n"
        "l.12 \\foo\n"
        "/tmp/b/project/sections/a.tex:3: LaTeX Error: File `x.sty' not found.\n"
        "! Emergency stop.\n"
        "! TeX capacity exceeded, sorry [main memory size=5000000].\n"
    )
    assert parse_log(log, Path("/tmp/b/project")) == [
        LogError(file="main.tex", line=12, message="Undefined control sequence."),
        LogError(file="sections/a.tex", line=3, message="LaTeX Error: File `x.sty' not found."),
        LogError(file="", line=0, message="TeX capacity exceeded, sorry [main memory size=5000000]."),
    ]


def test_bad_main_name_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "p"
    root.mkdir()
    (root / "a;b.tex").write_text("\\documentclass{article}\\begin{document}x\\end{document}")
    with pytest.raises(ValueError, match="refusing to compile"):
        compile_project(load_project(root))


def test_an_input_line_over_the_buffer_is_named_from_the_terminal_output(tmp_path: Path) -> None:
    import subprocess

    buf_size = int(subprocess.run(["kpsewhich", "-var-value", "buf_size"], capture_output=True, text=True,
                                  check=True).stdout)
    project = _mini(tmp_path / "p", "word " * (buf_size // 5 + 1000))  # one line longer than TeX's buffer
    result = compile_project(project)
    assert (result.status, result.pdf_bytes) == ("failed", 0)
    assert result.errors == (LogError(file="", line=0, message=f"Unable to read an entire line---bufsize={buf_size}."),)
    assert result.reason == f"1 error(s), first: Unable to read an entire line---bufsize={buf_size}."


def test_what_tex_was_asked_to_do_makes_the_compile_dangerous(tmp_path: Path) -> None:
    """Read back from pdfTeX's log, kpathsea's search trace and the recorder: an expl3 shell
    command, one reached through \\let, two pipes opened or tested, Lua, a read outside the project,
    and (fatal, so last) an \\input of a pipe."""
    body = ("\\IfFileExists{|\"echo hi\"}{yes}{no}\n"
            "\\ExplSyntaxOn\n\\sys_shell_now:n{touch~one}\n\\ExplSyntaxOff\n"
            "\\let\\w\\write \\immediate\\w18{touch two}\n"
            "\\newread\\r \\openin\\r=|\"echo x\" \\ifeof\\r closed\\fi\n"
            "\\directlua{os.execute(\"touch three\")}\n"
            "\\openin\\r=/etc/hostname \\ifeof\\r closed\\fi\n"
            "\\input|\"echo y\"")
    project = _mini(tmp_path / "p", body)
    result = compile_project(project, fallback=False)
    assert result.status == "dangerous"
    assert [str(d) for d in result.dangers] == [
        "main.tex:5: shell command attempted: touch one (runsystem ... disabled)",
        "main.tex:7: shell command attempted: touch two (runsystem ... disabled)",
        "main.tex:3: pipe: TeX was asked to open or test '|echo hi'",
        "main.tex:8: pipe: TeX was asked to open or test '|echo x'",
        "main.tex:11: pipe: TeX was asked to open or test '|echo y'",
        "main.tex:10: file outside the project: read of /etc/hostname (refused by openin_any)",
        "main.tex:9: \\directlua: Lua code (pdfTeX does not run it; LuaTeX would)",
    ]
    assert not list(tmp_path.rglob("one")) and not list(tmp_path.rglob("two"))


def test_the_recorder_list_names_files_outside_the_project_and_tex_live(tmp_path: Path) -> None:
    build = tmp_path / "project"
    build.mkdir()
    (build / "main.tex").write_text("\\documentclass{article}\n\\begin{document}\n\\input{/etc/passwd}\n\\end{document}\n")
    article = subprocess.run(["kpsewhich", "article.cls"], capture_output=True, text=True, check=True).stdout.strip()
    fls = (f"PWD {build}\nINPUT {article}\nINPUT ./main.tex\nINPUT main.aux\nINPUT /etc/passwd\n"
           f"OUTPUT ../../elsewhere.txt\nOUTPUT {tmp_path}/home/x.log\n")
    assert [str(d) for d in find_dangers("", "", fls, build, tmp_path)] == [
        "main.tex:3: file outside the project read: /etc/passwd",
        "file outside the project written: ../../elsewhere.txt",
    ]


def test_a_variant_gets_only_the_dangers_its_baseline_lacks(tmp_path: Path) -> None:
    base = compile_project(_mini(tmp_path / "b", "\\immediate\\write18{ls}\nText."), fallback=False)
    var = compile_project(_mini(tmp_path / "v", "More.\n\n\\immediate\\write18{ls}\n\\immediate\\write18{id}\nText."),
                          fallback=False)
    assert [str(d) for d in new_dangers(base, var)] == ["main.tex:6: shell command attempted: id (runsystem ... disabled)"]
