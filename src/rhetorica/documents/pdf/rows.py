"""A page's fragments joined into visual rows, the cells of a table row, and whether a page is set in
two columns."""

from __future__ import annotations

import re
from itertools import pairwise

from rhetorica.documents.pdf.lines import Line, PageLines, script_kind, script_text


def merge_rows(lines: list[Line]) -> list[Line]:
    """Sort by row and join fragments of one visual row (superscripts, split runs) left to right
    (:func:`visual_rows`, :func:`join_row`); a layout element (``Line.element``) stays whole."""
    return [join_row(row) for row in visual_rows(lines)]


def visual_rows(lines: list[Line]) -> list[list[Line]]:
    """``lines`` in visual rows, top to bottom, each left to right; a layout element
    (``Line.element``) is a row of its own. A fragment joins the row of the first fragment above it
    when its middle lies within that one's box (20 % of its height of slack) or that one's middle
    lies within its box (the same slack: a small raised footnote mark that starts the row), and it
    is at most 2.2 x as tall."""
    rows: list[list[Line]] = []
    for line in sorted(lines, key=lambda ln: (ln.top, ln.x0)):
        if rows and not line.element and not rows[-1][0].element:
            ref = rows[-1][0]
            height = max(ref.bottom - ref.top, 1.0)
            center = (line.top + line.bottom) / 2
            inside = ref.top - 0.2 * height <= center <= ref.bottom + 0.2 * height \
                or abs((ref.top + ref.bottom) / 2 - (line.top + line.bottom) / 2) <= 0.7 * (line.bottom - line.top)
            if inside and line.bottom - line.top <= 2.2 * height:
                rows[-1].append(line)
                continue
        rows.append([line])
    return [sorted(row, key=lambda ln: ln.x0) for row in rows]


def _main(row: list[Line]) -> Line:
    return max(row, key=lambda ln: len(ln.text))


def join_row(row: list[Line], main: Line | None = None) -> Line:
    """The fragments of one visual row (left to right) as one line, its size and baseline those of
    ``main`` (by default its longest fragment). Pieces under 0.08 em apart are joined without a
    space, a gap wider than a word space (one em: table cells, side-by-side author names) with
    three."""
    if len(row) == 1 and main is None:
        return row[0]
    main = main or _main(row)
    text = _row_piece(row[0], main)
    for prev, cur in pairwise(row):
        gap = cur.x0 - prev.x1
        piece = _row_piece(cur, main)
        # no space under 0.08 em (a word cut into two runs, "di" + "fferent" at a ligature: a
        # word space is 0.2 em or more)
        joint = "" if gap < max(0.5, 0.08 * main.size) or text.endswith("\u00ad") \
            or (piece != cur.text and gap < 0.3 * main.size) \
            else " " if gap < max(main.size, 1.0) else "   "
        text += joint + piece
    return Line(
        page=main.page, x0=row[0].x0, top=min(ln.top for ln in row), x1=max(ln.x1 for ln in row),
        bottom=max(ln.bottom for ln in row), text=text, size=main.size, baseline=main.baseline,
        mono=all(ln.mono for ln in row),
        bold=sum(len(ln.text) for ln in row if ln.bold) >= 0.9 * sum(len(ln.text) for ln in row),
        italic=sum(len(ln.text) for ln in row if ln.italic) >= 0.9 * sum(len(ln.text) for ln in row),
        smallcaps=sum(len(ln.text) for ln in row if ln.smallcaps) >= 0.5 * sum(len(ln.text) for ln in row),
    )


def row_cells(row: list[Line]) -> list[Line]:
    """The cells of one visual row of a table (its fragments left to right): the runs of fragments
    between gaps of one em or more (where :func:`join_row` puts three spaces), each joined into
    one line with its box."""
    main = _main(row)
    cells: list[list[Line]] = [[row[0]]]
    for prev, cur in pairwise(row):
        if cur.x0 - prev.x1 >= max(main.size, 1.0):
            cells.append([])
        cells[-1].append(cur)
    return [cell for cell in (join_row(c, main) for c in cells) if cell.text.strip()]


def _row_piece(line: Line, main: Line) -> str:
    """``line``'s text in a row whose longest line is ``main``: written as a superscript or
    subscript of it when it is one (:func:`~rhetorica.documents.pdf.lines.script_kind`), as the
    stacked ``^{+8%}_{−5%}`` of a table cell that PDFium gives as lines of their own."""
    if line is main or not line.baseline or not main.baseline:
        return line.text
    kind = script_kind(line.size, line.baseline, main.size, main.baseline)
    return script_text(kind, line.text) if kind else line.text


def table_cells(line: Line) -> list[str]:
    """The cells of a table row: a line cut by wide gaps (three spaces, see :func:`merge_rows`)
    into at least two cells of at most 8 words, 4 on average (in a row of four cells or more, one
    cell may hold more: a long title whose gap to the next column is narrow); ``[]`` for any other
    line."""
    cells = [c.strip() for c in re.split(r" {3,}", line.text.strip()) if c.strip()]
    if len(cells) < 2:
        return []
    counts = sorted(len(c.split()) for c in cells)
    longest = counts[-2] if len(cells) >= 4 else counts[-1]
    return cells if longest <= 8 and sum(counts) <= 4 * len(cells) else []


COLUMN_SLACK = 0.02  # share of the page width: a line ending this far past the middle is in the left half


def two_column(page: PageLines, *, short: bool = False) -> bool:
    """Whether ``page`` is set in two columns: at least 5 substantial lines (25 characters or more;
    an element's rows counted) sit wholly in each half, or the page's lines stand side by side in
    two columns however few they are (:func:`side_by_side`). With ``short`` (a page of a document
    whose pages are mostly two-column: a last page the text fills only in part) 2 in each half
    do, when the lines wholly in a half outnumber the substantial lines crossing the middle."""
    mid = page.width / 2
    slack = page.width * COLUMN_SLACK
    counts = [sum(ln.text.count("\n") + 1 for ln in page.lines if side(ln) and len(ln.text) >= 25)
              for side in (lambda ln: ln.x1 <= mid + slack, lambda ln: ln.x0 >= mid - slack)]
    if not short:
        return min(counts) >= 5 or side_by_side(page)
    across = sum(ln.x0 < mid - slack and ln.x1 > mid + slack and len(ln.text) >= 25 for ln in page.lines)
    return min(counts) >= 2 and sum(counts) > across


def side_by_side(page: PageLines) -> bool:
    """Whether ``page``'s text stands in two columns by its layout, however few lines each holds
    (a short page: 1-4 lines a column). The lines wholly in the left half and those wholly in the
    right half (upright text, no layout element) are two columns when, where both halves hold text
    (from the lower of their first lines' tops to the higher of their last lines' bottoms), no line
    of 25 characters or more crosses the gap between them (a one-column page's prose crosses the
    middle), the gap is at least 3 pt wide, each half holds at least 2 lines where both do
    (columns stand side by side, not one above the other), one of them substantial."""
    mid = page.width / 2
    slack = page.width * COLUMN_SLACK
    lines = [ln for ln in page.lines if not ln.rotated and not ln.element and ln.text.strip()]
    left = [ln for ln in lines if ln.x1 <= mid + slack and ln.x0 + ln.x1 < 2 * mid]
    right = [ln for ln in lines if ln.x0 >= mid - slack and ln.x0 + ln.x1 >= 2 * mid]
    if not left or not right:
        return False
    top = max(min(ln.top for ln in left), min(ln.top for ln in right))
    bottom = min(max(ln.bottom for ln in left), max(ln.bottom for ln in right))
    left = [ln for ln in left if ln.bottom > top and ln.top < bottom]
    right = [ln for ln in right if ln.bottom > top and ln.top < bottom]
    if len(left) < 2 or len(right) < 2:
        return False
    gap0, gap1 = max(ln.x1 for ln in left), min(ln.x0 for ln in right)
    crossing = [ln for ln in lines if ln.bottom > top and ln.top < bottom and ln.x0 < gap0 and ln.x1 > gap1]
    if gap1 - gap0 < 3 or any(len(ln.text.strip()) >= 25 for ln in crossing):
        return False
    return all(any(len(ln.text.strip()) >= 25 for ln in half) for half in (left, right))
