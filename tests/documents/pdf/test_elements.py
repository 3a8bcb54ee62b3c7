"""Layout elements kept out of the running text (issue 39), on small PDFs written operator by
operator: a code listing with line numbers, a ruled table with row-group labels (one column of a
two-column page), a drawn plot with tick labels and a legend."""

from __future__ import annotations

from pathlib import Path

from rhetorica.documents import read_document
from rhetorica.documents.pdf.elements import in_columns
from rhetorica.documents.pdf.lines import Line
from tests.documents.pdf.content import line, rule, write
from tests.documents.pdf.markdown_oracle import code_blocks, tables

TITLE = line(150, 750, "A Study of Layout Elements", 18, "F2")
PROSE = [
    "We study how a reviewing model reacts when the wording of a manuscript changes",
    "while its content stays fixed, and each rewrite keeps the claims and numbers.",
]
CODE = ["from quillfield import reader", 'doc = reader.open("paper.pdf")', "for block in doc.blocks:",
        "    print(block.kind)"]


def _text(y: float, lines: list[str], x: float = 72) -> list:
    return [line(x, y - 12 * k, text) for k, text in enumerate(lines)]


def _column(prose: str) -> list[str]:
    """``prose`` cut into lines of at most 40 characters (a column of Helvetica 10 pt, 200 pt)."""
    out = [""]
    for word in prose.split():
        if len(out[-1]) + len(word) >= 40:
            out.append("")
        out[-1] = f"{out[-1]} {word}".strip()
    return out


def test_a_numbered_code_listing_is_one_fenced_block_without_its_numbers(tmp_path: Path) -> None:
    # set in the lower half of the page in a font smaller than the text, each line opening with a
    # number: the layout of a footnote, which the listing's lines were read as
    page = [TITLE, line(72, 700, "1 Method", 12, "F2"), *_text(680, PROSE), *_text(340, PROSE)]
    for k, code in enumerate(CODE):
        page += [line(80, 300 - 11 * k, str(k + 1), 6), line(95, 300 - 11 * k, code, 9, "F3")]
    page += _text(240, PROSE)
    doc = read_document(write(tmp_path / "code.pdf", [page]))
    assert doc.sections[0].text.split("\n\n") == [
        " ".join(PROSE), " ".join(PROSE), "```\n" + "\n".join(CODE) + "\n```", " ".join(PROSE)]
    assert [(r.item, r.text) for r in doc.removed if r.item == "code line numbers"] == [
        ("code line numbers", "4 numbers (1-4)")]


def test_a_ruled_table_in_one_column_is_one_block_with_its_group_labels(tmp_path: Path) -> None:
    above, below = _column(" ".join(PROSE)), _column(" ".join(PROSE[::-1]))
    left = [line(72, 700, "1 Results", 12, "F2"), *_text(680, above), line(72, 620, "Table 1: Scores by group.")]
    left += [rule(72, 280, 610, 0.8), rule(72, 280, 594, 0.5), rule(72, 280, 500, 0.8)]
    rows = [("Model", "Recall", "F1"), ("Tiny",), ("Base", "0.41", "0.52"), ("Large", "0.47", "0.58"),
            ("Long",), ("Base", "0.31", "0.42"), ("Large", "0.37", "0.48")]
    for k, row in enumerate(rows):
        y = 600 if k == 0 else 582 - 12 * (k - 1)
        for x, cell in zip((76, 180, 240), row):
            left.append(line(x, y, cell, 9, "F2" if len(row) == 1 else "F1"))
    left += _text(480, below)
    right = _text(700, _column(" ".join(PROSE * 6)), x=320)  # prose beside the table, row for row
    doc = read_document(write(tmp_path / "table.pdf", [[TITLE, *left, *right]]))
    assert [s.title for s in doc.sections] == ["Results"]
    assert doc.sections[0].text.split("\n\n") == [
        " ".join(PROSE), "Table 1: Scores by group.",
        "| Model | Recall | F1 |\n| --- | --- | --- |\n| Tiny |  |  |\n| Base | 0.41 | 0.52 |\n| Large | 0.47 | 0.58 |\n"
        "| Long |  |  |\n| Base | 0.31 | 0.42 |\n| Large | 0.37 | 0.48 |",
        " ".join(PROSE[::-1]) + " " + " ".join(PROSE * 6)]


def test_the_labels_of_a_drawn_plot_are_removed_and_audited(tmp_path: Path) -> None:
    page = [TITLE, line(72, 700, "1 Results", 12, "F2"), *_text(680, PROSE)]
    page += ["0.5 w 150 450 200 150 re S", "150 460 m 250 520 l 350 590 l S"]  # axis box and a series
    page += [line(146 + 50 * k, 438, str(10 * k)) for k in range(5)]  # x tick labels under the box
    page += [line(132, 450 + 50 * k, f"0.{2 * k}") for k in range(4)]  # y tick labels left of it
    page += [line(220, 424, "Training steps"), line(290, 470, "Quillbank", 8)]  # axis title, legend
    page += [line(72, 400, "Figure 1: Accuracy over the training steps."), *_text(370, PROSE)]
    doc = read_document(write(tmp_path / "plot.pdf", [page]))
    assert doc.sections[0].text.split("\n\n") == [
        " ".join(PROSE), "Figure 1: Accuracy over the training steps.", " ".join(PROSE)]
    [figure] = [r for r in doc.removed if r.item == "figure text"]
    assert sorted(figure.text.split()) == sorted(
        ["0", "10", "20", "30", "40", "0.0", "0.2", "0.4", "0.6", "Training", "steps", "Quillbank"])


def test_a_listing_row_with_an_aligned_comment_stays_in_the_listing(tmp_path: Path) -> None:
    # a comment set far right of its code (a gap wider than a column gutter) is a fragment of its own
    page = [TITLE, line(72, 700, "1 Method", 12, "F2"), *_text(680, PROSE)]
    for k, code in enumerate(CODE):
        page.append(line(95, 600 - 11 * k, code, 9, "F3"))
    page += [line(400, 589, "# one file", 9, "F3"), *_text(540, PROSE)]
    doc = read_document(write(tmp_path / "comment.pdf", [page]))
    # the comment's column: (400 - 95) / (0.6 x 9 pt, Courier's pitch) = 56.5 -> 56, after 30 characters
    listing = "\n".join(CODE).replace('open("paper.pdf")', 'open("paper.pdf")' + " " * 26 + "# one file")
    assert doc.sections[0].text.split("\n\n") == [" ".join(PROSE), "```\n" + listing + "\n```", " ".join(PROSE)]


def test_a_title_block_line_right_above_a_drawing_is_no_label(tmp_path: Path) -> None:
    # acmart floats a figure to the top of page 1's column, 7 pt under the authors' block: its
    # lines (larger than the running text) were taken as labels, and the author names leaked
    page = [TITLE, line(330, 712, "Tomasz Wielgosz", 12), line(330, 698, "Harbourside Vision Group", 11),
            "0.5 w 330 610 200 80 re S", "330 620 m 530 680 l S", line(420, 600, "Steps", 8),
            line(72, 660, "1 Introduction", 12, "F2"), *_text(640, [p[:40] for p in PROSE])]
    doc = read_document(write(tmp_path / "authors.pdf", [page]))
    [figure] = [r for r in doc.removed if r.item == "figure text"]
    assert figure.text == "Steps"
    assert "Tomasz Wielgosz" in next(r.text for r in doc.removed if r.item == "author block")


STEPS = ["foreach every line in reading order do", "drop lines drawn at an angle;",
         "merge each line with the next when the gap is", "end", "label each merged block by its font;"]


def test_an_algorithm_with_numbered_steps_is_one_fenced_block(tmp_path: Path) -> None:
    # algorithm2e: each step's number a small run of its own on the step's baseline; step 3 wraps
    page = [TITLE, line(72, 700, "1 Method", 12, "F2"), *_text(680, PROSE),
            line(72, 640, "Algorithm 1: Reading one page in layout order."),
            line(80, 627, "Input: positioned lines of one page"), line(80, 615, "Output: labelled text blocks")]
    y = 603.0
    for k, step in enumerate(STEPS):
        page += [line(72, y, str(k + 1), 6), line(80 if k in (0, 3) else 92, y, step)]
        if k == 2:
            y -= 12
            page.append(line(98, y, "small;"))
        y -= 12
    page += _text(520, PROSE)
    doc = read_document(write(tmp_path / "algorithm.pdf", [page]))
    assert doc.sections[0].text.split("\n\n") == [
        " ".join(PROSE), "Algorithm 1: Reading one page in layout order.",
        "```\nInput: positioned lines of one page\nOutput: labelled text blocks\n1 foreach every line in reading order do\n"
        "2 drop lines drawn at an angle;\n3 merge each line with the next when the gap is small;\n4 end\n"
        "5 label each merged block by its font;\n```",
        " ".join(PROSE)]


def test_footnotes_on_consecutive_rows_are_no_algorithm(tmp_path: Path) -> None:
    # three one-line footnotes numbered 1-3 right below each other: their marks are raised off the
    # baseline, so they are no step numbers
    notes = ["The first note explains the protocol.", "The second note names the raters.",
             "The third note gives the dates."]
    rows = [(72, 668, [("F1", 10, 0, "We count every sentence"), ("F1", 7, 4, "1"), ("F1", 10, 0, " of the corpus once"),
                       ("F1", 7, 4, "2"), ("F1", 10, 0, " and report it"), ("F1", 7, 4, "3"), ("F1", 10, 0, " below.")])]
    page = [TITLE, line(72, 700, "1 Introduction", 12, "F2"), *rows, *_text(640, PROSE * 3)]
    for k, note in enumerate(notes):
        page += [line(72, 110 - 10 * k + 3, str(k + 1), 6), line(78, 110 - 10 * k, note, 8)]
    doc = read_document(write(tmp_path / "notes.pdf", [page]))
    assert doc.sections[0].text.split("\n\n")[1:4] == [f"[^{k + 1}]: {note}" for k, note in enumerate(notes)]


SHORT_STEPS = ["foreach line in reading order do", "drop the lines drawn at an angle to the text;",
               "merge the line with the next one;", "end"]


def test_an_algorithm_in_the_left_column_keeps_the_right_column_out(tmp_path: Path) -> None:
    # issue 39: a step's row met the right column's line beside it (on the step's baseline) within
    # three font sizes (the gutter) and took it in; the algorithm package's caption ("Algorithm 1 Title", no colon) right
    # above the steps is the element's caption, so the sentence it interrupts is joined again
    right_prose = _column(" ".join(PROSE * 3))
    left = [line(72, 700, "1 Method", 12, "F2"), line(72, 680, "We read every page of the corpus in the"),
            line(72, 668, "order of its columns, one by one, as"), line(72, 652, "Algorithm 1 Reading one page in order.")]
    for k, step in enumerate(SHORT_STEPS):
        left += [line(72, 640 - 12 * k, f"{k + 1}:", 8), line(84 if k in (0, 3) else 96, 640 - 12 * k, step)]
    left += [line(72, 580, "a person reads a page of a journal.")]
    right = _text(700, right_prose, x=300)
    doc = read_document(write(tmp_path / "beside.pdf", [[TITLE, *left, *right]]))
    assert doc.sections[0].text.split("\n\n") == [
        "We read every page of the corpus in the order of its columns, one by one, as a person reads a page of a "
        "journal.", "Algorithm 1 Reading one page in order.",
        "```\n1: foreach line in reading order do\n2: drop the lines drawn at an angle to the text;\n"
        "3: merge the line with the next one;\n4: end\n```",
        " ".join(PROSE * 3)]


def test_a_listing_s_identifiers_are_no_words_of_the_text(tmp_path: Path) -> None:
    # issue 39: "ing" is a name in the listing, so "build-" + "ing" kept its hyphen ("build" and
    # "ing" both read as words); the running text alone says "ing" is only a piece
    code = ["ing = reader.read(paper)", "for block in ing.blocks:", "    print(block.kind)"]
    prose = ["We build the reader from small parts, and these build-", "ing blocks are tested one by one."]
    page = [TITLE, line(72, 700, "1 Method", 12, "F2"), *_text(680, prose), *_text(340, PROSE)]
    for k, text in enumerate(code):
        page += [line(80, 300 - 11 * k, str(k + 1), 6), line(95, 300 - 11 * k, text, 9, "F3")]
    doc = read_document(write(tmp_path / "names.pdf", [page]))
    assert doc.sections[0].text.split("\n\n")[0] == (
        "We build the reader from small parts, and these building blocks are tested one by one.")
    assert "```\n" + "\n".join(code) + "\n```" in doc.sections[0].text


def _cell(x0: float, x1: float, y: float, text: str) -> Line:
    return Line(page=0, x0=x0, top=y, x1=x1, bottom=y + 7.0, text=text, size=10.0)


def test_cells_go_to_the_columns_their_boxes_overlap() -> None:
    # columns from the full rows: [70, 100], [120, 140], [160, 180] (pt); rows 12 pt apart
    rows = [
        [_cell(70, 100, 100, "Model"), _cell(120, 140, 100, "Recall"), _cell(160, 180, 100, "F1")],
        [_cell(70, 90, 112, "Tiny")],  # a group label: first column
        [_cell(70, 95, 124, "Base"), _cell(162, 180, 124, "0.52")],  # an empty middle cell
        [_cell(125, 140, 136, "0.47"), _cell(162, 180, 136, "0.58")],  # beside a two-row label
        [_cell(70, 92, 142, "Pair")],  # the label, set 6 pt below the row above: joins it
        [_cell(125, 140, 148, "0.31"), _cell(162, 180, 148, "0.42")],
        [_cell(70, 180, 160, "Spanning note")],  # overlaps all three: starts in the first
    ]
    assert in_columns(rows) == [["Model", "Recall", "F1"], ["Tiny", "", ""], ["Base", "", "0.52"],
                                ["Pair", "0.47", "0.58"], ["", "0.31", "0.42"], ["Spanning note", "", ""]]


CALL = "value = combine(first, second)"


def test_one_monospaced_line_set_apart_is_a_listing_and_one_in_a_paragraph_is_text(tmp_path: Path) -> None:
    # 10 pt lines 12 pt apart; the displayed line 20 pt below and above its neighbours (verbatim's
    # space), the inline one at the paragraph's pitch (a \texttt line or a URL)
    shown = [TITLE, line(72, 700, "1 Method", 12, "F2"), *_text(680, PROSE), line(72, 636, CALL, 10, "F3"),
             *_text(616, PROSE)]
    doc = read_document(write(tmp_path / "shown.pdf", [shown]))
    assert doc.sections[0].text.split("\n\n") == [" ".join(PROSE), f"```\n{CALL}\n```", " ".join(PROSE)]
    inline = [TITLE, line(72, 700, "1 Method", 12, "F2"), *_text(680, PROSE), line(72, 656, CALL, 10, "F3"),
              *_text(644, PROSE)]
    doc = read_document(write(tmp_path / "inline.pdf", [inline]))
    assert "```" not in doc.sections[0].text and CALL in doc.sections[0].text


def test_a_blank_line_inside_a_listing_is_kept(tmp_path: Path) -> None:
    # 9 pt code 11 pt apart; the third row 22 pt below the second: one pitch skipped (1.2 x 9 pt = 10.8)
    code = ["def first(a):", "    return a + 1", "", "def second(a):", "    return a - 1"]
    page = [TITLE, line(72, 700, "1 Method", 12, "F2"), *_text(680, PROSE), *_text(560, PROSE)]
    page += [line(80, 640 - 11 * k, text, 9, "F3") for k, text in enumerate(code) if text]
    doc = read_document(write(tmp_path / "blank.pdf", [page]))
    assert code_blocks(doc.to_markdown()) == ["\n".join(code)]


def test_a_row_of_cells_right_below_a_ruled_table_does_not_replace_it(tmp_path: Path) -> None:
    # a displayed formula cut by wide gaps 14 pt under the bottom rule: a row of cells of its own,
    # the ruled table above it kept whole
    page = [TITLE, line(72, 700, "1 Results", 12, "F2"), *_text(680, PROSE), line(72, 650, "Table 1: Scores.")]
    page += [rule(72, 300, 640, 0.8), rule(72, 300, 624, 0.5), rule(72, 300, 596, 0.8)]
    for y, row in ((630, ("Model", "F1")), (612, ("Base", "0.52")), (600, ("Large", "0.58"))):
        page += [line(76, y, row[0], 9), line(240, y, row[1], 9)]
    page += [line(100, 582, "y = a"), line(250, 582, "(1)"), *_text(560, PROSE)]
    doc = read_document(write(tmp_path / "below.pdf", [page]))
    assert tables(doc.to_markdown())[0] == [["Model", "F1"], ["Base", "0.52"], ["Large", "0.58"]]
