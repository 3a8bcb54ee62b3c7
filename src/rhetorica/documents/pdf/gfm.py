"""The Markdown a PDF's tables and code listings are written in: GitHub-flavoured Markdown (GFM
spec 0.29, section 4.10 tables; CommonMark 0.31, section 4.5 fenced code blocks)."""

from __future__ import annotations

import re


def gfm_table(rows: list[list[str]]) -> str:
    """``rows`` (each a list of cell texts, the first the header row) as one GFM table: the header
    row, a delimiter row (``| --- |`` per column), then the other rows, every row with as many
    cells as the widest row (short rows padded with empty cells on the right, as a row-group label
    or a short row leaves the columns after it empty). A ``|`` in a cell is written ``\\|`` (GFM
    splits cells before it reads inline markup) and a cell's line breaks become spaces.

    Raises:
        ValueError: ``rows`` is empty.
    """
    if not rows:
        raise ValueError("a table needs at least one row")
    width = max(max(len(row) for row in rows), 1)

    def line(cells: list[str]) -> str:
        cells = [re.sub(r"\s+", " ", c).strip().replace("|", "\\|") for c in cells]
        return "| " + " | ".join(cells + [""] * (width - len(cells))) + " |"

    return "\n".join([line(rows[0]), "| " + " | ".join(["---"] * width) + " |", *map(line, rows[1:])])


def fenced_code(text: str) -> str:
    """``text`` as a fenced code block: its lines as they are (indentation kept), fenced with
    backticks, one more than its longest run of them and at least three, so that no line of the
    code closes the block."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}\n{text}\n{fence}"
