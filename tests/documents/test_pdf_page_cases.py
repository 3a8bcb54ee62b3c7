"""Page layouts a fresh user's trial broke (issue 39), compiled with pdflatex from the generated
sources of tests/documents/page_cases.py and scored against them: every sentence found whole, in
order, under its heading, with nothing of a header or a watermark in the text. Skipped without
TeX Live."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.documents.page_cases import Score, read_family

pytestmark = pytest.mark.skipif(shutil.which("pdflatex") is None, reason="TeX Live is not installed")


def _wrong(scores: dict[str, Score | None]) -> dict[str, Score | None]:
    return {name: s for name, s in scores.items() if s is None or not s.ok}


def test_short_two_column_pages_are_read_column_by_column(tmp_path: Path) -> None:
    # 3 classes x 1-12 lines a column; before the layout rule of rows.side_by_side 20 of the 36
    # were read row by row across the columns (22 sentences lost into the title block, 16 cut apart)
    scores = read_family("short", tmp_path)
    assert len(scores) == 36
    assert _wrong(scores) == {}
    assert sum(s.sentences for s in scores.values() if s) == 213
