"""Untrusted text (model output, paper titles, failure reasons) in report.md and the .tex tables."""

from __future__ import annotations

import itertools
from pathlib import Path

import pandas as pd
from markdown_it import MarkdownIt

from rhetorica.report import latex
from tabulate import tabulate

from rhetorica.report.render import md_cell, md_code, md_escape, write_report

from .runs import make_run

HOSTILE = "<script>alert(1)</script> [click](javascript:alert(2)) ![x](http://evil/x.png) **bold** a|b `c` &lt;"


def test_md_escape_hand_written() -> None:
    assert md_escape("a_b *c* [d](e) <f> & g|h `i` \\j\nk") == (
        "a\\_b \\*c\\* \\[d\\](e) \\<f\\> \\& g\\|h \\`i\\` \\\\j k")  # no HTML entity


def test_markdown_report_renders_hostile_text_literally(tmp_path: Path) -> None:
    records = [("R", "p1", "original", 5), ("R", "p1", "confidence:+", None), ("R", "p2", "original", 6),
               ("R", "p2", "confidence:+", 7)]
    run = make_run(tmp_path / "run", records, status={1: "refused"}, reasons={1: HOSTILE}, truncated={0},
                   titles={"p1": HOSTILE}, problems=[("ingest", "bad.pdf", "error", HOSTILE)])
    write_report(run, n_resamples=20)
    md = (run / "report.md").read_text("utf-8")
    # rendered by an independent CommonMark renderer with GFM tables: no tag, link or image from the text
    page = MarkdownIt("commonmark").enable("table").render(md)
    assert "<script" not in page and "<a " not in page and "<strong>bold" not in page
    assert "<code>c</code>" not in page  # the text's `c` is no code of its own (a cell is one code span)
    assert "&lt;script" not in md and "&amp;" not in md  # the Markdown source holds no HTML entity of ours
    assert page.count("<img ") == page.count('<img src="plots/') == 4  # only the report's own figures (flow included)
    literal = ("&lt;script&gt;alert(1)&lt;/script&gt; [click](javascript:alert(2)) ![x](http://evil/x.png) "
               "**bold** a|b `c` &amp;lt;")
    # the refusal (failures), the title (truncation and the per-paper appendix), the problem (failures and the
    # study flow's unreadable inputs)
    assert page.count(literal) == 5


def test_latex_escape_hand_written() -> None:
    assert latex.escape("50% of $x_1$ & {y} #2 ~ ^ \\cmd <a> b|c\nd") == (
        "50\\% of \\$x\\_1\\$ \\& \\{y\\} \\#2 \\textasciitilde{} \\textasciicircum{} \\textbackslash{}cmd "
        "\\textless{}a\\textgreater{} b\\textbar{}c d")


def test_latex_table_escapes_a_hostile_reviewer_name() -> None:
    pooled = pd.DataFrame([{"reviewer": "r_1 \\input{/etc/passwd}", "n_groups": 2, "n_reviews": 4,
                            "pooled_sd": 1.0}])
    tex = latex.pooled_sd_latex(pooled)
    assert "\\input{" not in tex and "r\\_1 \\textbackslash{}input\\{/etc/passwd\\}" in tex


def test_pvalue_below_the_shown_floor_reads_literally_in_markdown_and_stays_escaped_in_html(tmp_path: Path) -> None:
    """Table 4: 16 papers, every one scored higher under ``confidence:+``: sign-test p = 2 / 2**16
    (below the 3-decimal floor) -> shown ``<0.001``. report.md writes it as such (a ``<`` before a
    digit is no markup); report.html escapes it. (This test used Table 1's TOST p of a judge whose
    rewrite never changes its score; zero-variance differences have no TOST p now: '–'.)"""
    from .judge_runs import run_judge_study

    records = [r for i in range(16) for r in (("R", f"p{i}", "original", 5), ("R", f"p{i}", "confidence:+", 7))]
    run = make_run(tmp_path / "run", records)
    write_report(run, n_resamples=20)
    md = (run / "report.md").read_text("utf-8")
    row = next(line for line in md.splitlines() if line.startswith("| R ") and "| confidence:+ |" in line)
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[:4] == ["R", "confidence:+", "original", "16"] and cells[8] == "<0.001"
    assert "&lt;0.001" not in md
    page = MarkdownIt("commonmark").enable("table").render(md)
    assert "<td>&lt;0.001</td>" in page  # a CommonMark renderer shows the text <0.001
    html = (run / "report.html").read_text("utf-8")
    assert ">&lt;0.001</td>" in html and "<0.001" not in html

    (tmp_path / "judges").mkdir()
    judged = run_judge_study(tmp_path / "judges")
    write_report(judged, n_resamples=20)
    md = (judged / "report.md").read_text("utf-8")
    row = next(line for line in md.splitlines() if line.startswith("| remor.praise "))
    cells = [c.strip() for c in row.strip("|").split("|")]
    # praise: polish:+ condition comes second; the first Table 1 (paraphrase) has praise 0.20 -> 0.20
    # (3 pairs with one score level: not informative, issue 36; every d = 0, so no TOST p)
    assert cells[:2] == ["remor.praise", "remor"] and cells[7:10] == ["0.10", "–", "not informative"]
    assert "| `remor.importance_relevance` " in md  # a text cell with Markdown punctuation: a code span


def test_ids_read_as_written_in_report_md_and_escaped_in_report_html(tmp_path: Path) -> None:
    """Document ids '<script>alert(1)</script>', 'a&b' and '_LGP9eHt4ae' (a PeerPrism review id), each
    with a refused review: report.md holds each id verbatim in a code span (it held '&lt;script&gt;',
    'a&amp;b' and '\\_LGP9eHt4ae', so a search for the id failed); a CommonMark renderer and
    report.html (rendered from the same cells by jinja2, not from the Markdown) show the text, no tag."""
    ids = ["<script>alert(1)</script>", "a&b", "_LGP9eHt4ae"]
    records = [("R", doc, arm, score) for doc in ids for arm, score in (("original", 5), ("confidence:+", None))]
    run = make_run(tmp_path / "run", records, status={1: "refused", 3: "refused", 5: "refused"})
    write_report(run, n_resamples=20)
    md = (run / "report.md").read_text("utf-8")
    for doc in ids:  # the Failures table's item: document / arm / reviewer / replicate
        assert f"| `{doc} / confidence:+ / R / rep 0` " in md
    assert "&lt;" not in md and "&amp;" not in md  # prose (captions) backslash-escapes: \\<, \\&, \\_
    page = MarkdownIt("commonmark").enable("table").render(md)
    assert "<script>" not in page and "<code>&lt;script&gt;alert(1)&lt;/script&gt; / confidence:+ / R / rep 0</code>" in page
    html = (run / "report.html").read_text("utf-8")
    assert "<script>alert(1)" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; / confidence:+ / R / rep 0" in html
    assert "a&amp;b / confidence:+ / R / rep 0" in html and "_LGP9eHt4ae / confidence:+ / R / rep 0" in html


#: characters that mean something to Markdown somewhere in a line, and plain ones
_PIECES = ("a", " ", "`", "``", "|", "\\", "*", "_", "<", ">", "&", "[", "]", "#", "-", "+", "=", "~", "1.", "2)")


def _generated_strings() -> list[str]:
    """Every string of one to three pieces of :data:`_PIECES` (20 + 400 + 8,000 sequences: 8,340
    distinct strings, 8,337 of them not blank)."""
    return sorted({"".join(p) for n in (1, 2, 3) for p in itertools.product(_PIECES, repeat=n)})


def _inline_texts(source: str) -> list[str]:
    """What a CommonMark renderer with GFM tables shows of ``source``: per block, its text (code
    spans' content as written, any other inline token as ``<type>``), other blocks as ``[type]``."""
    shown = []
    for token in MarkdownIt("commonmark").enable("table").parse(source):
        if token.type == "inline":
            shown.append("".join(c.content if c.type in ("text", "code_inline") else f"<{c.type}>"
                                 for c in token.children or []))
        elif token.type not in ("paragraph_open", "paragraph_close"):
            shown.append(f"[{token.type}]")
    return shown


def test_generated_text_reads_literally_in_every_place_report_md_puts_text() -> None:
    """A line, a bold caption, an emphasised title and a table cell each show the text as given
    (edge spaces aside: Markdown trims them), and the table keeps its two columns."""
    texts = [t for t in _generated_strings() if t.strip()]
    assert len(texts) == 8337  # before edge spaces were dropped and block openers escaped: 131 lines,
    # 813 captions, 813 titles and 458 cells did not read as given
    wrong: dict[str, list[str]] = {"line": [], "caption": [], "title": [], "cell": []}
    for text in texts:
        want = text.strip()
        if _inline_texts(md_escape(text)) != [want]:
            wrong["line"].append(text)
        if _inline_texts(f"**{md_escape(text)}**") != [f"<strong_open>{want}<strong_close>"]:
            wrong["caption"].append(text)
        if _inline_texts(f"_{md_escape(text)}_: note") != [f"<em_open>{want}<em_close>: note"]:
            wrong["title"].append(text)
        table = tabulate([["x", md_cell(text)]], headers=["h", "v"], tablefmt="github", disable_numparse=True)
        shown = _inline_texts(table)
        cells = [shown[i + 1] for i, token in enumerate(shown) if token in ("[th_open]", "[td_open]")]
        if cells != ["h", "v", "x", want]:
            wrong["cell"].append(text)
    assert {k: v[:5] for k, v in wrong.items()} == {"line": [], "caption": [], "title": [], "cell": []}


def test_a_code_span_fence_outgrows_the_backticks_it_holds_and_a_pipe_is_escaped() -> None:
    # hand-written: the fence is one backtick longer than the longest run inside; a span starting or
    # ending with a backtick is padded with a space (CommonMark 0.31, 6.1); | is \| (GFM tables)
    assert md_code("a`b") == "``a`b``"
    assert md_code("``x```y") == "```` ``x```y ````"
    assert md_code("`a|b`") == "`` `a\\|b` ``"
    assert md_code("  x  ") == "`x`"  # a table cell's edge spaces are not its text
