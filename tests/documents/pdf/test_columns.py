"""Fixed columns: hand-built rows of characters with the natural widths of Latin Modern Roman at
10 pt (``d`` 5.56, ``e`` 4.44, ``f`` 3.06 ...) placed in cells of 6 pt (listings' 0.6 em) or set
side by side as a proportional font sets them."""

from __future__ import annotations

import pytest

from rhetorica.documents.pdf.columns import fixed_columns

SIZE = 10.0
WIDTHS = {"d": 5.56, "e": 4.44, "f": 3.06, "s": 3.94, "t": 3.89, "p": 5.56, "y": 5.28, "=": 7.78,
          "x": 5.28, "*": 5.0, "2": 5.0, "1": 5.0, "0": 5.0, "6": 5.0, "7": 5.0,
          "−": 7.78, "ε": 4.05, "i": 2.78, "m": 8.33, "n": 5.56, "u": 5.56,
          "b": 5.56, "r": 3.92, "a": 5.0, "c": 4.44, "A": 7.5, "B": 7.08, "S": 5.56, "T": 7.22, "R": 7.36, "C": 7.22}


def in_cells(text: str, columns: list[int], pitch: float = 6.0) -> list[tuple[float, float]]:
    """Each character centred in the cell of its column: ``(origin, width)``."""
    return [(pitch * k + (pitch - WIDTHS[ch]) / 2, WIDTHS[ch]) for ch, k in zip(text, columns)]


def set_naturally(words: list[str], space: float = 3.33) -> tuple[str, list[tuple[float, float]]]:
    """Words set in the font's natural widths, letters touching, one word space between words."""
    cells, x = [], 0.0
    for word in words:
        for ch in word:
            cells.append((x, WIDTHS[ch]))
            x += WIDTHS[ch]
        x += space
    return "".join(words), cells


def test_a_row_in_cells_gives_each_character_its_column_and_the_cell_width() -> None:
    columns = [0, 1, 2, 4, 5, 6, 7]  # "def step": the space takes column 3
    found = fixed_columns("defstep", in_cells("defstep", columns), SIZE)
    assert found is not None
    assert found[0] == columns
    assert found[1] == pytest.approx(6.0)


def test_one_letter_words_every_two_cells_are_columns_of_the_cell_not_of_the_step() -> None:
    # "y = x * 2": every step 12 pt, over the 0.8 em (8 pt) a cell may span, so two cells a step
    found = fixed_columns("y=x*2", in_cells("y=x*2", [0, 2, 4, 6, 8]), SIZE)
    assert found is not None
    assert found[0] == [0, 2, 4, 6, 8]
    assert found[1] == pytest.approx(6.0)


def test_words_set_in_their_natural_widths_are_no_columns() -> None:
    text, cells = set_naturally(["def", "step", "time"])
    assert fixed_columns(text, cells, SIZE) is None


def test_characters_of_equal_width_in_cells_are_no_columns() -> None:
    # tabular digits in a table: every digit 5 pt wide, nothing imposed on a proportional font
    assert fixed_columns("20261207", in_cells("20261207", list(range(8))), SIZE) is None
    # letters of one width (d, n, p, u: 5.56 pt) in cells: the widths alone rule them out
    assert fixed_columns("dunpdunp", in_cells("dunpdunp", list(range(8))), SIZE) is None
    # one e (4.44 pt) among them: widths 5.56 / 4.44 = 1.25 x apart, under the 1.3 asked for
    assert fixed_columns("dunpdune", in_cells("dunpdune", list(range(8))), SIZE) is None


def test_too_few_characters_or_too_few_letters_are_no_columns() -> None:
    assert fixed_columns("def", in_cells("def", [0, 1, 2]), SIZE) is None
    # a matrix row "1 − ε 1 − ε" spaced evenly: no Latin letter
    assert fixed_columns("1−ε1−ε", in_cells("1−ε1−ε", list(range(6))), SIZE) is None


def test_a_centre_off_its_cell_by_half_a_cell_breaks_the_grid() -> None:
    cells = in_cells("mistuned", list(range(8)))
    assert fixed_columns("mistuned", cells, SIZE) is not None
    moved = list(cells)
    moved[3] = (moved[3][0] + 3.5, moved[3][1])  # "t" 0.58 of a cell to the right
    assert fixed_columns("mistuned", moved, SIZE) is None


def test_capitals_in_cells_are_no_columns() -> None:
    # a heading in capitals, letter-spaced in cells of 8 pt (0.8 em, none touching): on a grid,
    # but no identifier
    assert fixed_columns("ABSTRACT", in_cells("ABSTRACT", list(range(8)), pitch=8.0), SIZE) is None
    assert fixed_columns("AbSTRACT", in_cells("AbSTRACT", list(range(8)), pitch=8.0), SIZE) is None  # 1 of 8 lower
    assert fixed_columns("Abstract", in_cells("Abstract", list(range(8)), pitch=8.0), SIZE) is not None


def test_a_skipped_column_must_be_an_empty_cell() -> None:
    # "def step": the space's cell empty, the gap from f's advance to s's origin 1.5 cells wide
    cells = in_cells("defstep", [0, 1, 2, 4, 5, 6, 7])
    assert fixed_columns("defstep", cells, SIZE) is not None
    # f widened by 8 pt about its centre into the skipped cell: the gap shrinks from 8.5 to 4.5 pt,
    # under 0.8 x 6 pt
    wide = list(cells)
    wide[2] = (wide[2][0] - 4.0, wide[2][1] + 8.0)
    assert fixed_columns("defstep", wide, SIZE) is None


def test_text_and_cells_of_different_lengths_are_an_error() -> None:
    with pytest.raises(ValueError, match="3 characters but 2 cells"):
        fixed_columns("abc", [(0.0, 5.0), (6.0, 5.0)], SIZE)
