"""Layout elements set apart from the running text of a page before it is read: code listings,
tables and the text of drawn figures.

Each is found by layout alone, on a page's fragments (before they are joined into rows), in this
order, after the limits of large operators are written into their operators' fragments
(:func:`~rhetorica.documents.pdf.limits.attach_limits`):

1. code (:func:`code_blocks`): a run of rows set wholly in a monospaced font or in fixed columns
   (:mod:`~rhetorica.documents.pdf.columns`, each fragment's cell width its pitch), each right below the
   last (a gap under one font size) or below up to two blank lines with no other line beside the
   gap (:func:`_continues`), every row starting at or right of the run's left edge and within its
   width (a row's further fragments, an aligned comment, go with it): at least two rows, or one
   row of three words or more, not bold, displayed (:func:`_set_apart`: the lines above and below
   it 1.5 font sizes away or more; a typewriter name in a paragraph, a heading or a file name is
   no listing); a number (non-monospaced or not) at the left of each row, counting up, is the
   listing's line number and is removed (audited). The run becomes one ``"code"`` element, each
   fragment of a row at its character column (indentation and aligned comments kept) and each
   skipped line pitch a blank line;
1b. algorithms (:func:`numbered_steps`): a run of at least three rows whose step numbers count up
   by one, each number set on its row's baseline at its left (a fragment of its own, as
   algorithm2e sets it, or opening the row with a colon, ``3:``, as algpseudocode does), the
   numbers aligned (within three font sizes) and each row right below the last (under 1.5 line
   heights), with the labelled lines right above the first step (``Input:``, ``Require:``: a
   capitalised word and a colon) and a step's wrapped lines (right below it, starting under its
   text), becomes one ``"code"`` element, numbers kept; on a two-column page a step stays on its
   number's side of the middle (the other column's line beside it is no part of it). A footnote's mark
   is raised off its row's baseline, a numbered list's number has a period;
2. tables (:func:`ruled_tables`): the fragments between horizontal rules of the same width (both
   ends within 2 pt; ``\\toprule``, ``\\midrule``, ``\\bottomrule``, ``\\hline``), when no
   fragment there runs across most of the rule (a line of prose: set between two rules it is a
   framed paragraph, not a table) and at least one row holds two cells; a caption between two
   rules ends the table above it (two tables of one width stacked on a page are two tables). A
   row's cells are its runs of fragments between gaps of one em
   (:func:`~rhetorica.documents.pdf.rows.row_cells`), placed in the table's columns by their
   boxes (:func:`in_columns`). The rows become one ``"table"`` element, a GFM table
   (:func:`~rhetorica.documents.pdf.gfm.gfm_table`: its first row the header, every row as wide
   as the table);
3. figure text (:func:`figure_text`): the fragments inside a drawing (paths with area, images and
   forms closer than :data:`DRAWING_JOIN` to each other) or next to it (tick labels, axis titles,
   legends: within :data:`LABEL_REACH` x their font size, growing the drawing as they join), which
   are no caption, no line of prose (six words or more) and set no larger than the running text
   (half a point of slack; a title block's names and affiliations right above a figure at the top
   of page 1 are larger). They are removed, one audit entry per drawing.

An element is a :class:`~rhetorica.documents.pdf.lines.Line` whose ``element`` names its kind: the
reading order places it whole, and the block pass makes it one block, never a heading, a footnote
or part of a sentence.
"""

from __future__ import annotations

import re
import statistics
from itertools import pairwise

from rhetorica.documents.models import RemovedItem
from rhetorica.documents.pdf.gfm import gfm_table
from rhetorica.documents.pdf.limits import attach_limits
from rhetorica.documents.pdf.lines import Graphic, Line, PageLines
from rhetorica.documents.pdf.rows import COLUMN_SLACK, row_cells, two_column, visual_rows

CAPTION = re.compile(r"^(Figure|Fig\.|Table|Algorithm|Listing)\s*[A-Z]?\d+[.:]|^TABLE [IVXLC]+$")
NUMBER = re.compile(r"^\d{1,4}:?$")
RULE_SLACK = 2.0  # points: the rules of one table share both ends
DRAWING_JOIN = 6.0  # points: drawn objects this close belong to one drawing
LABEL_REACH = 0.8  # a label within this many font sizes of a drawing belongs to it
PROSE_WORDS = 6
Box = tuple[float, float, float, float]  # x0, top, x1, bottom in points
CODE_PITCH = 1.2  # a listing's line pitch in font sizes (TeX's \\baselineskip: 12 pt for 10 pt type)
MIN_DRAWING = 12.0  # points: a drawing at least this wide and tall (no glyph drawn as a path)


def set_apart(page: PageLines, body: float, removed: list[RemovedItem]) -> PageLines:
    """``page`` with its code listings and tables as element lines and its figure text removed
    (steps 1-3 of the module docstring; ``body``: the running text's font size in points);
    removals are audited in ``removed``."""
    lines, code = code_blocks(attach_limits(page.lines), page.index, removed)
    lines, steps = numbered_steps(lines, page.width * (0.5 - COLUMN_SLACK) if two_column(page) else None)
    code += steps
    drawn = drawings(page.graphics)
    lines, tables = ruled_tables(lines, page.graphics, drawn)
    lines = figure_text(lines, drawn, body, page.index, removed)
    return PageLines(index=page.index, width=page.width, height=page.height,
                     lines=sorted(lines + code + tables, key=lambda ln: (ln.top, ln.x0)), graphics=page.graphics)


def _element(kind: str, lines: list[Line], text: str) -> Line:
    """One element line over ``lines``: their box, their median font size."""
    return Line(
        page=lines[0].page, x0=min(ln.x0 for ln in lines), top=min(ln.top for ln in lines),
        x1=max(ln.x1 for ln in lines), bottom=max(ln.bottom for ln in lines), text=text,
        size=statistics.median(ln.size for ln in lines), element=kind,
        mono=kind == "code",
    )


def _same_row(a: Line, b: Line) -> bool:
    return abs((a.top + a.bottom) - (b.top + b.bottom)) / 2 < 0.5 * max(a.bottom - a.top, b.bottom - b.top, 1.0)


def _middle(row: list[Line]) -> float:
    return statistics.fmean((ln.top + ln.bottom) / 2 for ln in row)


def _continues(run: list[list[Line]], row: list[Line], others: list[Line]) -> bool:
    """Whether ``row`` (monospaced fragments) goes on the listing ``run``: it starts at or right of
    the run's left edge and within its width, right below its last row (a gap under one font
    size) or below up to two blank lines (its middle at most three line pitches below the last
    row's, :data:`CODE_PITCH` font sizes each) with no other line of the page in the gap beside
    it."""
    left, right = min(ln.x0 for ln in run[0]), max(ln.x1 for x in run for ln in x)
    if not left - 1 <= row[0].x0 <= right:
        return False
    last = max(ln.bottom for ln in run[-1])
    top, size = min(ln.top for ln in row), max(ln.size for ln in row)
    if 0 <= top - last < size:
        return True
    x1 = max(ln.x1 for ln in row)
    return 0 <= _middle(row) - _middle(run[-1]) <= 3 * CODE_PITCH * size + 0.5 * size and not any(
        last < (ln.top + ln.bottom) / 2 < top and ln.x0 < max(right, x1) and ln.x1 > left for ln in others)


def _set_apart(row: list[Line], lines: list[Line]) -> bool:
    """Whether a single row of monospaced fragments is a displayed line (a one-line listing): the
    nearest lines above and below it that share part of its width are at least 1.5 font sizes
    away, middle to middle (running text is set at about 1.2), or there is none."""
    size, middle = max(ln.size for ln in row), _middle(row)
    x0, x1 = min(ln.x0 for ln in row), max(ln.x1 for ln in row)
    beside = [(ln.top + ln.bottom) / 2 for ln in lines if ln not in row and ln.x0 < x1 and ln.x1 > x0]
    above = [middle - m for m in beside if m < middle]
    below = [m - middle for m in beside if m > middle]
    return all(min(gaps) >= 1.5 * size for gaps in (above, below) if gaps)


def code_blocks(lines: list[Line], page: int, removed: list[RemovedItem]) -> tuple[list[Line], list[Line]]:
    """``(other lines, code elements)``: step 1 of the module docstring."""
    runs: list[list[list[Line]]] = []  # runs of rows of monospaced fragments
    mono = [ln for ln in lines if ln.mono and not ln.rotated]
    others = [ln for ln in lines if not ln.mono and not ln.rotated and not NUMBER.match(ln.text.strip())]
    for row in _rows(mono):
        run = next((r for r in runs if _continues(r, row, others)), None)
        if run is None:
            runs.append([row])
        else:
            run.append(row)
    taken: set[int] = set()
    out: list[Line] = []
    for rows in runs:
        if len(rows) < 2 and not (_set_apart(rows[0], lines) and len(" ".join(ln.text for ln in rows[0]).split()) >= 3
                                  and not any(ln.bold for ln in rows[0])):
            continue
        run = [ln for row in rows for ln in row]
        left = min(ln.x0 for ln in run)
        numbers = sorted((ln for ln in lines if NUMBER.match(ln.text.strip()) and not ln.rotated
                          and left - 4 * ln.size <= ln.x1 <= left and any(_same_row(ln, row[0]) for row in rows)),
                         key=lambda ln: ln.top)
        values = [int(ln.text.strip().rstrip(":")) for ln in numbers]
        if numbers and len(numbers) >= 0.5 * len(rows) and all(b > a for a, b in pairwise(values)):
            removed.append(RemovedItem(item="code line numbers", location=f"page {page + 1}",
                                       text=f"{len(numbers)} numbers ({values[0]}-{values[-1]})"))
            taken.update(map(id, numbers))
        # the cell a fragment in fixed columns was measured in; else the ink of n characters of a
        # typewriter font spans about n - 1/2 character cells
        pitches = [ln.pitch for ln in run if ln.pitch > 0]
        pitch = statistics.median(pitches) if pitches else \
            max(statistics.median((ln.x1 - ln.x0) / max(len(ln.text) - 0.5, 0.5) for ln in run), 0.1)
        text = [_cells(rows[0], left, pitch)]
        for above, row in pairwise(rows):  # a blank line: a line pitch skipped
            skipped = round((_middle(row) - _middle(above)) / (CODE_PITCH * max(ln.size for ln in row))) - 1
            text += [""] * max(skipped, 0) + [_cells(row, left, pitch)]
        out.append(_element("code", run, "\n".join(text)))
        taken.update(map(id, run))
    return [ln for ln in lines if id(ln) not in taken], out


STEP = re.compile(r"^(\d{1,3}):(?:\s|$)")
LABELLED = re.compile(r"^[A-Z][a-z]+:\s")


def _step(number: Line, lines: list[Line], gutter: float | None) -> list[Line] | None:
    """The fragments of ``number``'s row that make its step (``number`` first): the fragments to its
    right, each within three font sizes of the last and on ``number``'s side of the ``gutter`` (a
    two-column page's right half starts there: the other column's line is no part of the step), when the first sits
    on its baseline; ``None`` when ``number`` starts no step."""
    text = number.text.strip()
    colon = STEP.match(text)
    if not (NUMBER.match(text) or colon):
        return None
    row = sorted((ln for ln in lines if ln is not number and not ln.element and _same_row(ln, number)
                  and ln.x0 >= number.x1 - 0.5 and (gutter is None or (ln.x0 < gutter) == (number.x0 < gutter))),
                 key=lambda ln: ln.x0)
    out = [number]
    for line in row:
        if line.x0 - out[-1].x1 > 3 * max(line.size, 1.0):
            break
        out.append(line)
    if colon and len(text) > len(colon.group(0)):  # "1: measure the angle ..." in one fragment
        return out
    if len(out) < 2 or abs(out[1].baseline - number.baseline) > 0.15 * max(out[1].size, 1.0) or not number.baseline:
        return None
    return out


def numbered_steps(lines: list[Line], gutter: float | None = None) -> tuple[list[Line], list[Line]]:
    """``(other lines, algorithm elements)``: step 1b of the module docstring; ``gutter``: where
    the right half of a two-column page (:func:`~rhetorica.documents.pdf.rows.two_column`) starts,
    else ``None``."""
    steps: list[tuple[int, list[Line]]] = []
    for line in sorted(lines, key=lambda ln: (ln.top, ln.x0)):
        step = None if line.rotated or line.element else _step(line, lines, gutter)
        if step is not None:
            steps.append((int(re.match(r"\d+", line.text.strip()).group(0)), step))  # type: ignore[union-attr]
    starts = {id(ln) for _, step in steps for ln in step}
    for _, step in steps:  # a step's wrapped lines: right below it, under its text
        text_x0 = step[1].x0 if len(step) > 1 else step[0].x0
        while True:
            last = max(step, key=lambda ln: ln.bottom)
            more = [ln for ln in lines if id(ln) not in starts and ln not in step and not ln.element
                    and 0 <= ln.top - last.bottom < 0.8 * max(ln.size, 1.0)
                    and text_x0 - 1 <= ln.x0 < max(x.x1 for x in step)]
            if not more:
                break
            step += sorted(more, key=lambda ln: ln.x0)
    runs: list[list[tuple[int, list[Line]]]] = []
    for value, step in steps:
        run = next((r for r in runs if value == r[-1][0] + 1 and abs(step[0].x0 - r[-1][1][0].x0) < 3 * step[0].size
                    and 0 <= step[0].top - max(ln.bottom for ln in r[-1][1]) < 1.5 * max(ln.size for ln in step)), None)
        if run is None:
            runs.append([(value, step)])
        else:
            run.append((value, step))
    taken: set[int] = set()
    out: list[Line] = []
    for run in runs:
        if len(run) < 3:
            continue
        rows = [step for _, step in run]
        left = min(ln.x0 for ln in rows[0])
        while True:  # the labelled lines right above the first step
            first = rows[0]
            above = [ln for ln in lines if id(ln) not in taken and ln not in first and LABELLED.match(ln.text.strip())
                     and 0 <= first[0].top - ln.bottom < 0.8 * max(ln.size, 1.0) and abs(ln.x0 - left) < 3 * ln.size]
            if not above:
                break
            rows.insert(0, above[:1])
        text = "\n".join(" ".join(ln.text.strip() for ln in row) for row in rows)
        out.append(_element("code", [ln for row in rows for ln in row], text))
        taken.update(id(ln) for row in rows for ln in row)
    return [ln for ln in lines if id(ln) not in taken], out


def _rows(lines: list[Line]) -> list[list[Line]]:
    """``lines`` in rows (:func:`_same_row` as the row's first), each left to right."""
    rows: list[list[Line]] = []
    for line in sorted(lines, key=lambda ln: (ln.top, ln.x0)):
        if rows and _same_row(rows[-1][0], line):
            rows[-1].append(line)
        else:
            rows.append([line])
    return [sorted(row, key=lambda ln: ln.x0) for row in rows]


def _cells(row: list[Line], left: float, pitch: float) -> str:
    """A row of monospaced fragments as text: each fragment at its character column counted from
    ``left`` in steps of ``pitch`` points (the indentation and the alignment of a listing)."""
    text = ""
    for line in row:
        column = round((line.x0 - left) / pitch)
        text += " " * max(column - len(text), 1 if text else 0) + line.text.strip()
    return text


def ruled_tables(lines: list[Line], graphics: list[Graphic], drawn: list[Box]) -> tuple[list[Line], list[Line]]:
    """``(other lines, table elements)``: step 2 of the module docstring; rules inside a drawing
    (``drawn``: a plot's axis, a legend's samples) are the drawing's."""
    rules = sorted((g for g in graphics if g.kind == "rule"
                    and not any(_near(d, (g.x0, g.top, g.x1, g.bottom), DRAWING_JOIN) for d in drawn)), key=lambda g: g.top)
    groups: list[list[Graphic]] = []
    for rule in rules:
        group = next((g for g in groups if abs(g[0].x0 - rule.x0) <= RULE_SLACK and abs(g[0].x1 - rule.x1) <= RULE_SLACK), None)
        if group is None:
            groups.append([rule])
        elif rule.top - group[-1].bottom > 0.5:  # a doubled rule (\hline\hline) is one rule
            group.append(rule)
    taken: set[int] = set()
    out: list[Line] = []
    for group in groups:
        width = group[0].x1 - group[0].x0
        span: list[Line] = []
        spans: list[list[Line]] = []
        for above, below in pairwise(group):
            inside = [ln for ln in lines if id(ln) not in taken and above.bottom <= (ln.top + ln.bottom) / 2 <= below.top
                      and above.x0 - RULE_SLACK <= (ln.x0 + ln.x1) / 2 <= above.x1 + RULE_SLACK]
            if any(ln.x1 - ln.x0 >= 0.8 * width and len(ln.text.split()) >= PROSE_WORDS or CAPTION.match(ln.text.strip())
                   for ln in inside):
                spans.append(span)
                span = []
                continue
            span += inside
        spans.append(span)
        for found in spans:
            cells = [row_cells(row) for row in visual_rows(found)]
            if len(cells) < 2 or not any(len(c) >= 2 for c in cells):
                continue
            out.append(_element("table", found, gfm_table(in_columns(cells))))
            taken.update(map(id, found))
    return [ln for ln in lines if id(ln) not in taken], out


def in_columns(rows: list[list[Line]]) -> list[list[str]]:
    """The texts of a table's cells (``rows``: each row's cells left to right, with their boxes)
    in its columns: as many columns as the row with the most cells, each column spanning the
    boxes of its cells in the rows that fill every column. A cell of a shorter row (an empty cell
    left out, a row-group label, a short row, the rows beside a label that spans two) goes to the
    first column its box overlaps (a cell spanning columns starts there; the column with the
    nearest middle when it overlaps none), right of its row's last cell; the other columns of the row are empty (``""``). A row whose cells cannot be placed so
    keeps them in order from the first column. A row set between two rows, less than 1.6 of its
    font sizes from the middle of the one above to the middle of the one below (rows one line
    apart), whose cells lie
    in columns both leave empty, is a label spanning the two (``\\multirow``): it joins the row
    above."""
    width = max(len(row) for row in rows)
    full = [row for row in rows if len(row) == width]
    spans = [(min(row[k].x0 for row in full), max(row[k].x1 for row in full)) for k in range(width)]
    out: list[list[str]] = []
    for row in rows:
        texts = [c.text.strip() for c in row]
        placed = [""] * width
        column = -1
        for cell, text in zip(row, texts, strict=True):
            overlaps = [k for k in range(width) if cell.x0 < spans[k][1] and spans[k][0] < cell.x1]
            best = overlaps[0] if overlaps else min(range(width), key=lambda k: abs(cell.x0 + cell.x1 - sum(spans[k])))
            column = max(best, column + 1)
            if column >= width:
                break
            placed[column] = text
        else:
            out.append(placed)
            continue
        out.append(texts + [""] * (width - len(texts)))
    middles = [statistics.fmean((c.top + c.bottom) / 2 for c in row) for row in rows]
    k = 1
    while k < len(out) - 1:  # a cell spanning two rows (\multirow) is set between them
        filled = [j for j, text in enumerate(out[k]) if text]
        size = max(c.size for c in rows[k])
        if all(not out[k - 1][j] and not out[k + 1][j] for j in filled) \
                and middles[k - 1] < middles[k] < middles[k + 1] and middles[k + 1] - middles[k - 1] < 1.6 * size:
            out[k - 1] = [a or b for a, b in zip(out[k - 1], out[k], strict=True)]
            del out[k], rows[k], middles[k]
        k += 1
    return out


def _near(a: Box, b: Box, reach: float) -> bool:
    return a[0] - reach <= b[2] and b[0] - reach <= a[2] and a[1] - reach <= b[3] and b[1] - reach <= a[3]


def drawings(graphics: list[Graphic]) -> list[Box]:
    """Boxes ``(x0, top, x1, bottom)`` of the page's drawings: its shapes and thin lines (no
    horizontal rules: those are tables' and fractions') joined when closer than
    :data:`DRAWING_JOIN`; a drawing holds a shape and is at least :data:`MIN_DRAWING` wide and
    tall."""
    boxes = [((g.x0, g.top, g.x1, g.bottom), g.kind == "shape") for g in graphics if g.kind != "rule"]
    merged: list[tuple[Box, bool]] = []
    for box, shape in sorted(boxes, key=lambda b: b[0][1]):
        while True:
            hit = next((k for k, (m, _) in enumerate(merged) if _near(m, box, DRAWING_JOIN)), None)
            if hit is None:
                break
            (m, s) = merged.pop(hit)
            box = (min(m[0], box[0]), min(m[1], box[1]), max(m[2], box[2]), max(m[3], box[3]))
            shape = shape or s
        merged.append((box, shape))
    return [b for b, shape in merged if shape and b[2] - b[0] >= MIN_DRAWING and b[3] - b[1] >= MIN_DRAWING]


def figure_text(lines: list[Line], drawn: list[Box], body: float, page: int,
                removed: list[RemovedItem]) -> list[Line]:
    """The lines that are no figure text (``drawn``: the page's :func:`drawings`; ``body``: the
    running text's font size): step 3 of the module docstring."""
    gone: set[int] = set()
    for box in drawn:
        labels: list[Line] = []
        grown = True
        while grown:
            grown = False
            for line in lines:
                if id(line) in gone or line.element or CAPTION.match(line.text.strip()) \
                        or len(line.text.split()) >= PROSE_WORDS or line.size > body + 0.5:
                    continue
                if _near(box, (line.x0, line.top, line.x1, line.bottom), LABEL_REACH * max(line.size, 4.0)):
                    labels.append(line)
                    gone.add(id(line))
                    box = (min(box[0], line.x0), min(box[1], line.top), max(box[2], line.x1), max(box[3], line.bottom))
                    grown = True
        if labels:
            removed.append(RemovedItem(item="figure text", location=f"page {page + 1}",
                                       text=" ".join(ln.text.strip() for ln in labels)))
    return [ln for ln in lines if id(ln) not in gone]
