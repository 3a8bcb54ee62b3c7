"""LaTeX rendering of symbols printed by code: pifont's ``\\ding`` (issue 24)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf._codecs.zapfding import _zapfding_encoding  # oracle: ZapfDingbats.afm + Adobe glyph list

from rhetorica.documents import read_document
from rhetorica.documents.latex.render import Renderer, dingbat, tidy


def test_dingbat_agrees_with_the_zapfdingbats_encoding_for_every_glyph() -> None:
    codes = [c for c in range(33, 255) if ord(_zapfding_encoding[c]) > 0xFF]  # pypdf leaves unassigned codes as Latin-1
    assert len(codes) == 94 + 14 + 94 - 1  # 0x21-0x7E, 0x80-0x8D, 0xA1-0xFE without 0xF0
    assert {c: dingbat(str(c)) for c in codes} == {c: _zapfding_encoding[c] for c in codes}


@pytest.mark.parametrize(("code", "char"), [
    ("51", "✓"), ("55", "✗"), ("52", "✔"), ("56", "✘"), ("72", "★"), ("172", "①"),
    ("'63", "✓"), ('"33', "✓"), ("`3", "✓"),
])
def test_dingbat_codes_as_tex_writes_them(code: str, char: str) -> None:
    assert dingbat(code) == char


@pytest.mark.parametrize("code", ["240", "255", "32", "x", ""])
def test_dingbat_without_glyph_prints_nothing(code: str) -> None:
    assert dingbat(code) == ""


def test_ding_in_a_table_reads_as_the_check_mark_not_its_code(tmp_path: Path) -> None:
    project = tmp_path / "paper"
    project.mkdir()
    (project / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{pifont,amssymb}\n"
        "\\newcommand{\\cmark}{\\ding{51}}\\newcommand{\\xmark}{\\ding{55}}\n\\begin{document}\n"
        "\\section{Intro}\nFeatures \\Pisymbol{pzd}{72} and \\checkmark.\n"
        "\\begin{tabular}{lcc}\nSciPy & \\cmark & \\xmark \\\\\n\\end{tabular}\n\\end{document}\n"
    )
    text = read_document(project).sections[0].text
    assert text.split("\n") == ["Features ★ and ✓.", "", "| SciPy | ✓ | ✗ |"]


def test_plain_runs_dashes_and_quotes_render_as_typeset() -> None:
    # hand-computed: --- em dash, -- en dash, a lone hyphen kept, `` and '' straight quotes, ~ a space, & a cell bar " | "
    renderer = Renderer()
    assert renderer.render("pages 3--5 --- see ``this'' x-y~z & w") == 'pages 3–5 — see "this" x-y z  |  w'


def test_math_spans_are_found_after_long_plain_text() -> None:
    renderer = Renderer()
    text = "plain " * 50 + r"$a+b$ and \(c\) and \begin{equation}d\end{equation} end"
    protected = renderer.protect_math(text)
    assert renderer.math == ["$a+b$", r"\(c\)", r"\begin{equation}d\end{equation}"]
    assert protected == "plain " * 50 + "\x000\x00 and \x001\x00 and \n\n\x002\x00\n\n end"


def test_tidy_makes_each_run_of_spaces_tabs_and_no_break_spaces_one_space():
    # hand-written: a single tab or no-break space becomes a space, mixed runs become one space
    assert tidy("a\tb\u00a0c  \t\u00a0 d e\n\n\tf \u00a0 g") == "a b c d e\n\nf g"
    assert tidy("x\u00a0\u00a0,y") == "x,y"  # the run before punctuation goes, as a space run does


@pytest.mark.parametrize("code", [
    "\\pdfliteral direct{3 Tr}", "\\pdfliteral{0 0 1 rg}", "\\pdfliteral page {q 1 0 0 1 0 0 cm}",
    "\\pdfliteral shipout direct {0 Tr}", "\\pdfrender{TextRenderingMode=3}",
])
def test_pdf_page_code_and_render_settings_print_no_words(code: str) -> None:
    # pdfTeX's \pdfliteral hands its argument to the PDF page as code; pdfrender's keys are settings
    assert Renderer().render(f"Before {code}after.") == "Before after."
