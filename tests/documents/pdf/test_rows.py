"""Rows of a page (:mod:`rhetorica.documents.pdf.rows`) on hand-placed fragments (points)."""

from __future__ import annotations

from rhetorica.documents.pdf.lines import Line
from rhetorica.documents.pdf.rows import merge_rows


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
