"""Rows of a page (:mod:`rhetorica.documents.pdf.rows`) on hand-placed fragments (points)."""

from __future__ import annotations

from rhetorica.documents.pdf.lines import Line, PageLines
from rhetorica.documents.pdf.rows import merge_rows, row_cells, side_by_side, two_column


def _piece(x0: float, x1: float, text: str) -> Line:
    return Line(page=0, x0=x0, top=263.3, x1=x1, bottom=272.3, text=text, size=10.0, baseline=270.1)


def test_pieces_closer_than_a_word_space_are_one_word() -> None:
    # issue 39: PDFium gave "di" and "fferent" (cut at the ligature) as two runs 0.6 pt apart
    # (0.06 em at 10 pt; joined under 0.08 em); a word space is 0.2 em or more, a cell gap 1 em or more
    row = [_piece(37.7, 140.9, "having to handle all the di"), _piece(141.5, 200.0, "fferent compilers,"),
           _piece(202.4, 260.0, "and the tables"), _piece(272.0, 300.0, "0.92")]
    [merged] = merge_rows(row)
    assert merged.text == "having to handle all the different compilers, and the tables   0.92"
    assert (merged.x0, merged.x1) == (37.7, 300.0)


def test_a_table_row_is_cut_into_cells_at_gaps_of_one_em() -> None:
    # gaps at 10 pt: 2.4 pt (a word space) joins, 12 pt and 10 pt (one em or more) cut
    row = [_piece(72.0, 90.0, "Run"), _piece(92.4, 100.0, "12"), _piece(112.0, 130.0, "0.41"), _piece(140.0, 160.0, "0.52")]
    cells = row_cells(row)
    assert [(c.text, c.x0, c.x1) for c in cells] == [("Run 12", 72.0, 100.0), ("0.41", 112.0, 130.0),
                                                      ("0.52", 140.0, 160.0)]
    assert merge_rows(row)[0].text == "Run 12   0.41   0.52"  # the same cuts as the joined row's wide gaps


def _at(x0: float, x1: float, top: float, text: str) -> Line:
    return Line(page=0, x0=x0, top=top, x1=x1, bottom=top + 9.0, text=text, size=9.0, baseline=top + 7.0)


# acmart sigconf, issue 39 (c_acm): a title block, then two columns of three lines each, side by side
# (columns 54-294 and 318-558 pt on a 612 pt page)
TITLE = [_at(263.8, 348.4, 83.0, "Short Case"), _at(269.8, 343.6, 120.0, "Secret University")]
LEFT = [_at(54.2, 123.7, 149.0, "ABSTRACT"), _at(54.3, 293.5, 164.0, "We study robust estimation of sparse signals"),
        _at(54.1, 160.0, 175.0, "and show a new bound.")]
RIGHT = [_at(318.5, 446.0, 149.0, "1 INTRODUCTION"), _at(318.5, 557.7, 164.0, "Robust estimation is a classical problem."),
         _at(318.3, 400.0, 175.0, "We conclude here.")]


def test_two_columns_of_three_lines_side_by_side_are_two_columns() -> None:
    # 1 substantial line (25 characters or more) a column: the count of two_column's first rule
    # (5 a half) does not see the columns; their layout does
    page = PageLines(index=0, width=612.0, height=792.0, lines=TITLE + LEFT + RIGHT)
    assert side_by_side(page)
    assert two_column(page)


def test_a_line_of_prose_across_the_gap_makes_one_column() -> None:
    across = _at(54.3, 557.0, 186.0, "A line of the one column set across the whole width of the page.")
    page = PageLines(index=0, width=612.0, height=792.0, lines=TITLE + LEFT + [across] + RIGHT
                     + [_at(54.3, 160.0, 197.0, "the end of a paragraph."), _at(318.5, 400.0, 197.0, "(1)")])
    assert not side_by_side(page)


def test_halves_one_above_the_other_are_no_columns() -> None:
    # the right half's lines all sit below the left half's: where both halves hold text, the right
    # one holds a single line
    low = [_at(ln.x0, ln.x1, ln.top + 40.0, ln.text) for ln in RIGHT]
    assert not side_by_side(PageLines(index=0, width=612.0, height=792.0, lines=TITLE + LEFT + low))


def test_a_gap_under_3_points_is_no_gutter() -> None:
    # a left line ending 1 pt before a right line starts: two runs of one row, not two columns
    near = [_at(54.3, 317.5, ln.top, ln.text) if len(ln.text) >= 25 else ln for ln in LEFT]
    assert not side_by_side(PageLines(index=0, width=612.0, height=792.0, lines=TITLE + near + RIGHT))
