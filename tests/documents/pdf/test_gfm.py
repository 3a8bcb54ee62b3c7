"""GFM tables and fenced code blocks, read back by markdown-it-py (CommonMark + GFM tables)."""

from __future__ import annotations

import pytest

from rhetorica.documents.pdf.gfm import fenced_code, gfm_table
from tests.documents.pdf.markdown_oracle import code_blocks, tables


def test_a_table_has_a_header_and_a_delimiter_row_and_parses_as_one() -> None:
    text = gfm_table([["Method", "F1"], ["Ours", "0.91"]])
    assert text == "| Method | F1 |\n| --- | --- |\n| Ours | 0.91 |"
    assert tables(text) == [[["Method", "F1"], ["Ours", "0.91"]]]


@pytest.mark.parametrize("rows", [
    [["Group 1"], ["a", "b", "c"]],  # a one-cell header over three columns
    [["a", "b", "c"], ["Total", "9"]],  # a short row
    [["a", "", "c"], ["", "", ""]],  # empty cells, an empty row
    [["x|y", "|"], ["a || b", "c\\|d"]],  # bars in cells, one after a backslash
    [["only"]],  # one cell
    [["line\nbreak", "tab\there"], ["1", "2"]],
])
def test_every_row_has_the_columns_of_the_widest_and_bars_stay_in_their_cell(rows: list[list[str]]) -> None:
    [parsed] = tables(gfm_table(rows))
    width = max(len(r) for r in rows)
    assert [len(r) for r in parsed] == [width] * len(rows)
    assert [r[:len(c)] for r, c in zip(parsed, rows, strict=True)] == [
        [" ".join(cell.split()) for cell in c] for c in rows]


def test_an_empty_table_is_an_error() -> None:
    with pytest.raises(ValueError, match="at least one row"):
        gfm_table([])


@pytest.mark.parametrize("code", [
    "def f(x):\n    return x + 1",
    "print('```')\n\n    indented after a blank line",
    "a = `b`\n`````\nc",
])
def test_a_fenced_block_holds_its_code_verbatim(code: str) -> None:
    assert code_blocks(f"Prose.\n\n{fenced_code(code)}\n\nMore prose.\n") == [code]
