"""The complexity dimension: the index by hand, its shift rule, and a real paragraph."""

from __future__ import annotations

import math

import pytest

from rhetorica.dimensions import complexity as c
from rhetorica.validation.measures import measure_text
from tests.dimensions.paragraphs import assert_rewrites_move, shift_measure


def test_complexity_index_is_the_geometric_mean_of_sentence_length_and_ag() -> None:
    text = "The zygote grew. The quixotic zygote grew fast."
    # 8 words, 2 sentences: MLS 4; advanced types zygote, grew, quixotic: AG = 3 / sqrt(8)
    assert c.mean_sentence_length(text) == 4.0
    assert c.complexity_index(text) == pytest.approx(math.sqrt(4 * 3 / math.sqrt(8)))
    assert shift_measure("complexity", text) == pytest.approx(math.sqrt(4 * 3 / math.sqrt(8)))
    assert measure_text(text).dimensions["complexity"] == pytest.approx(math.sqrt(4 * 3 / math.sqrt(8)))


def test_the_check_reads_the_validated_texts_lexical_measures() -> None:
    text = "The zygote grew. % quixotic zygote\nIt grew."
    # recorded index, comment blanked: "The zygote grew. It grew." 5 words, 2 sentences, MLS 2.5;
    # advanced types zygote, grew: AG = 2 / sqrt(5)
    assert measure_text(text).dimensions["complexity"] == pytest.approx(math.sqrt(2.5 * 2 / math.sqrt(5)))
    # the check uses the validation table's tokenization (comment words counted, as it always has):
    # 7 words, 2 sentences; advanced types zygote, grew, quixotic: AG = 3 / sqrt(7)
    assert shift_measure("complexity", text) == pytest.approx(math.sqrt(7 / 2 * 3 / math.sqrt(7)))


def test_hand_written_rewrites_move_the_measure(spatial: str) -> None:
    assert_rewrites_move("complexity", spatial)
