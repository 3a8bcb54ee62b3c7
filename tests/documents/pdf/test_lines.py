"""Script marks: which glyphs are superscripts or subscripts of a line, and how they are written."""

from __future__ import annotations

import pytest

from rhetorica.documents.pdf.lines import script_kind, script_text


@pytest.mark.parametrize(("size", "baseline", "kind"), [
    (7.0, 96.0, "^"),   # 70 % of 10 pt, 4 pt (0.4 em) above the line's baseline at 100 pt
    (7.0, 102.0, "_"),  # 2 pt (0.2 em) below
    (7.0, 100.0, ""),   # smaller on the baseline: small capitals, not a script
    (10.0, 96.0, ""),   # raised but as large as the line: no script
    (8.5, 98.5, "^"),   # 85 % and 1.5 pt (0.15 em) higher: the limits themselves
    (8.6, 98.5, ""),    # 86 %: too large
    (7.0, 98.6, ""),    # 1.4 pt higher: under 0.15 em
    (7.0, 100.9, "_"),  # 0.9 pt lower: over 0.08 em
])
def test_script_kind_by_size_and_baseline(size: float, baseline: float, kind: str) -> None:
    assert script_kind(size, baseline, 10.0, 100.0) == kind


@pytest.mark.parametrize(("mark", "text", "written"), [
    ("^", "6", "^6"), ("^", "16", "^16"), ("^", "−4", "^−4"), ("^", "-1.5", "^-1.5"), ("_", "i", "_i"),
    ("_", "ij", "_{ij}"), ("^", "l−1", "^{l−1}"), ("^", "+7.8·10^3", "^{+7.8·10^3}"), ("^", " 2 ", "^2"),
])
def test_script_text_braces_only_what_is_not_one_number_or_character(mark: str, text: str, written: str) -> None:
    assert script_text(mark, text) == written
