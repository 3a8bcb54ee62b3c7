"""The register dimension: hand-counted technicality and a real paragraph."""

from __future__ import annotations

import pytest

from rhetorica.dimensions import register as r
from tests.dimensions.paragraphs import assert_rewrites_move


def test_register_counts_rare_words_formal_markers_and_math() -> None:
    text = "Let $x$ denote the input. We use it."
    # 7 words; outside the top-2000 list: denote, input; formal and frequent: let; one math region
    assert r.register_counts(text) == (2, 1, 1)
    assert r.register_technicality(text) == pytest.approx(1000 * 4 / 7)


def test_hand_written_rewrites_move_the_measure(spatial: str) -> None:
    assert_rewrites_move("register", spatial)
