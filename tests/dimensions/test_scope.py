"""The scope dimension: hand-counted generality and a real paragraph."""

from __future__ import annotations

import pytest

from rhetorica.dimensions import scope as s
from tests.dimensions.paragraphs import assert_rewrites_move


def test_scope_generality_counts_general_minus_limiting() -> None:
    text = "The method generalizes to any graph and every task. It was tested in our experiments."
    # 15 words; general: generalizes, any, every; limiting: "in our experiments" (one phrase)
    assert s.scope_counts(text) == (3, 1)
    assert s.scope_generality(text) == pytest.approx(1000 * 2 / 15)
    assert s.DIMENSION.lexicons() == {"scope": "2026.12-1"}


def test_hand_written_rewrites_move_the_measure(spatial: str) -> None:
    assert_rewrites_move("scope", spatial)
