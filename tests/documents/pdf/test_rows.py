"""Rows of a page (:mod:`rhetorica.documents.pdf.rows`) on hand-placed fragments (points)."""

from __future__ import annotations

from rhetorica.documents.pdf.lines import Line
from rhetorica.documents.pdf.rows import merge_rows, row_cells


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
