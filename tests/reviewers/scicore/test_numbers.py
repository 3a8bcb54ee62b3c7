"""Numbers of a text and their normalisation (hand-written cases)."""

from __future__ import annotations

from rhetorica.reviewers.scicore.numbers import appears, find_numbers, manuscript_values, normalise


def test_one_quantity_written_two_ways_is_one_value() -> None:
    assert [normalise(x) for x in ("0.5", ".5", "0.50", "1,000", "1000", "7.0", "12,345.60", "0")] == \
        ["0.5", "0.5", "0.5", "1000", "1000", "7", "12345.6", "0"]


def test_numbers_found_with_percent_flags_and_positions() -> None:
    found = find_numbers("In 2020, 45% of 1,000 runs and .5 of 12.3 per cent; 4\\% (LaTeX). GPT-4 and 3-5.")
    assert [(n.text, n.value, n.percent) for n in found] == [
        ("2020", "2020", False), ("45%", "45", True), ("1,000", "1000", False), (".5", "0.5", False),
        ("12.3 per cent", "12.3", True), ("4\\%", "4", True), ("4", "4", False), ("3", "3", False),
        ("5", "5", False)]
    assert found[1].start == 9


def test_a_sentence_final_period_is_not_a_decimal_point_and_pairs_split() -> None:
    found = find_numbers("It ends in 2020. Pairs (1,2) and 1,2345.")
    assert [n.value for n in found] == ["2020", "1", "2", "1", "2345"]


def test_percentages_match_their_fractions_both_ways_but_plain_numbers_do_not() -> None:
    values = manuscript_values("accuracy 45% and a rate of 0.3")
    assert values == frozenset({"45", "0.45", "0.3"})
    as_fraction, as_percent, plain, other = find_numbers("0.45 and 30% and 0.3 and 3")
    assert appears(as_fraction, values)                       # 45% written as 0.45
    assert appears(as_percent, values)                        # 0.3 written as 30%
    assert appears(plain, values)
    assert not appears(other, values)                         # a plain 3 is not 0.3 or 30%
    assert appears(find_numbers("0.003")[0], manuscript_values("0.3%"))
    assert not appears(find_numbers("45")[0], manuscript_values("0.45"))  # a plain 45 is not a fraction
