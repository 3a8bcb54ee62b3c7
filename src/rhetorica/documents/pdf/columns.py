"""Text set in fixed columns: a proportional font whose characters each sit in a cell of one width.

LaTeX's ``listings`` package sets code this way by default (``columns=fixed``, a cell of
``basewidth`` = 0.6 em; ``\\lst@column@fixed`` in listings.sty): the letters keep their natural
widths, but every word starts on the grid and is spread over as many cells as it has letters, so
the row reads as monospaced although no font says so. A word wider than its cells (a long
identifier in a wide font) pushes the rest of its row off the grid; that row is not recognised.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

import numpy as np

MIN_CHARACTERS = 4
"""Characters (spaces not counted) a fragment needs before its layout is judged."""
WIDTH_SPREAD = 1.3
"""The widest natural width at least this x the narrowest: equal widths (tabular digits, a
typewriter font) are no sign of columns imposed on a proportional font."""
TOLERANCE = 0.4
"""Each character's centre lies within this share of the pitch of its column's centre."""
TOUCHING = 1 / 3
"""At most this share of neighbouring characters touch (a gap under :data:`TOUCH` em): a cell is
wider than most letters, so letters stand apart; the letters of a word set in its font touch."""
TOUCH = 0.05
LOWER = 0.5
"""At least this share of the Latin letters are lower case (identifiers; a heading in capitals or
small capitals, letter-spaced, is no code)."""
EMPTY_CELL = 0.8
"""A skipped column is an empty cell: the gap across it (from a character's advance to the next
one's origin) is at least this x the pitch."""
MAX_PITCH = 0.8
"""Em: a cell is at most this wide (listings' default is 0.6 em), so a median step wider than it
spans several cells (a row of one-letter words: ``y = x``)."""
LETTERS = 1 / 3
"""At least this share of the characters are Latin letters (code is written in words; a matrix's
``1 − ε 1 − ε`` in evenly spaced columns is no code)."""


def fixed_columns(text: str, cells: Sequence[tuple[float, float]], size: float) -> tuple[list[int], float] | None:
    """``(the column of each character, the pitch in points)`` of a fragment set in fixed columns,
    or ``None`` when it is not.

    ``text``: the characters that are no space, left to right; ``cells``: ``(origin x, natural
    width)`` of each in points (the natural width is the font's advance, not the ink); ``size``:
    the font size in points. The fragment is set in fixed columns when all of these hold:

    - it has at least :data:`MIN_CHARACTERS` (4) characters, at least :data:`LETTERS` (1/3) of
      them Latin letters, at least :data:`LOWER` (1/2) of those lower case;
    - their natural widths are unequal: the widest at least :data:`WIDTH_SPREAD` (1.3) x the
      narrowest (tabular digits, all of one width, never qualify);
    - they stand apart: at most :data:`TOUCHING` (1/3) of neighbours touch (a gap under
      :data:`TOUCH`, 0.05 em);
    - their centres lie on one grid: the median step between neighbouring centres, divided by
      the fewest whole cells that make it at most :data:`MAX_PITCH` (0.8) em, is the first
      pitch; each step rounded to whole pitches (at least 1: no two characters in one cell; a
      space takes whole cells) gives the columns; pitch ``p`` and offset are fitted by least
      squares to the centres at their columns (twice, the columns recounted with the fitted
      pitch), and every centre lies within :data:`TOLERANCE` (0.4) x ``p`` of its column's;
    - every skipped column is an empty cell (:data:`EMPTY_CELL`, 0.8 x ``p`` of gap).

    Columns count from 0 at the first character. Measured (tests/documents/pdf): every row of the
    generated listings in the roman font but the one with a 22-letter identifier qualifies (largest
    centre error 0.27 x ``p``); of 75 generated pages of prose, headings, tables, equations and
    captions only 24 formulas of single letters in TeX's math spacing (``u = c ◦ d + e``) do,
    which the reader tells apart by their italic letters
    (:data:`~rhetorica.documents.pdf.backends.MATH_ITALIC`). Of the fidelity harness's 81 PDFs
    (454 pages) none does; before :data:`LOWER` and :data:`EMPTY_CELL`, 13 letter-spaced capital
    headings of one shared PDF, a label in capitals of another and a letter-spaced plot label did.

    Raises:
        ValueError: ``text`` and ``cells`` differ in length.
    """
    if len(cells) != len(text):
        raise ValueError(f"{len(text)} characters but {len(cells)} cells")
    letters = [ch for ch in text if "a" <= ch.lower() <= "z"]
    if len(cells) < MIN_CHARACTERS or len(letters) < LETTERS * len(text) \
            or sum(ch.islower() for ch in letters) < LOWER * len(letters):
        return None
    widths = [w for _, w in cells]
    if min(widths) <= 0 or max(widths) < WIDTH_SPREAD * min(widths):
        return None
    gaps = [b[0] - a[0] - a[1] for a, b in zip(cells, cells[1:])]
    if sum(abs(g) < TOUCH * size for g in gaps) > TOUCHING * len(gaps):
        return None
    centres = [x + w / 2 for x, w in cells]
    steps = [b - a for a, b in zip(centres, centres[1:])]
    pitch = statistics.median(steps)
    if pitch <= 0:
        return None
    pitch /= math.ceil(pitch / (MAX_PITCH * size))  # "y = x" in cells: every step two cells
    for _ in range(2):  # columns from the pitch, then the pitch refitted to the columns
        columns = [0]
        for step in steps:
            skip = round(step / pitch)
            if skip < 1:
                return None
            columns.append(columns[-1] + skip)
        if columns[-1] == 0:
            return None
        pitch, offset = (float(v) for v in np.polyfit(columns, centres, 1))  # least squares
        if pitch <= 0:
            return None
    if any(abs(c - offset - pitch * k) > TOLERANCE * pitch for k, c in zip(columns, centres)):
        return None
    if any(b - a > 1 and gap < EMPTY_CELL * pitch for a, b, gap in zip(columns, columns[1:], gaps)):
        return None
    return columns, pitch
