"""Soft ratings from top-k log-probabilities equal hand computations, two-digit levels included."""

from __future__ import annotations

import math

import pytest

from rhetorica.models.logprobs import TokenLogprob, soft_rating, value_position

ln = math.log


def tok(text: str, p: float = 1.0, *top: tuple[str, float]) -> TokenLogprob:
    """A generated token of probability ``p`` with alternatives ``(text, probability)``."""
    return TokenLogprob(token=text, logprob=ln(p), top=[(t, ln(q)) for t, q in top])


def test_single_digit_levels_with_observed_end_of_number() -> None:
    tokens = [tok('{"'), tok("overall"), tok('":'), tok(" "),
              tok("4", 0.6, ("4", 0.6), ("3", 0.25), ("5", 0.1), ('"', 0.03)),
              tok("}", 0.9, ("}", 0.9), ("0", 0.1))]
    rating = soft_rating(tokens, "overall", 4, range(1, 6))
    # '4' then '}' is level 4 (0.6 * 0.9); '4' then '0' is 40, outside 1-5; '"' is no number
    assert rating.distribution == pytest.approx({"3": 0.25, "4": 0.54, "5": 0.1})
    assert rating.covered == pytest.approx(0.89)
    assert rating.outside == pytest.approx(0.03 + 0.06)
    assert rating.unresolved == 0
    assert rating.expected == pytest.approx((3 * 0.25 + 4 * 0.54 + 5 * 0.1) / 0.89)  # 3.8314...
    assert rating.expected == pytest.approx(3.831460674)


def test_two_digit_level_split_into_one_then_zero() -> None:
    tokens = [tok('"overall": '),
              tok("1", 0.5, ("1", 0.5), ("9", 0.3), ("8", 0.15), ("x", 0.02)),
              tok("0", 0.8, ("0", 0.8), (",", 0.15), (".", 0.05)),
              tok(",", 0.95, (",", 0.95), ("0", 0.05)),
              tok(' "x": 1}')]
    rating = soft_rating(tokens, "overall", 10, range(1, 11))
    # 10 = 1, 0, ','; 1 = 1, ','; 1.x and 100 are outside, as is 'x'
    assert rating.distribution == pytest.approx({"1": 0.075, "8": 0.15, "9": 0.3, "10": 0.38})
    assert list(rating.distribution) == ["1", "8", "9", "10"]
    assert rating.outside == pytest.approx(0.02 + 0.025 + 0.02)
    assert rating.covered == pytest.approx(0.905)
    assert rating.expected == pytest.approx(7.775 / 0.905)  # 8.5912...


def test_unobserved_prefix_of_a_longer_level_is_unresolved() -> None:
    tokens = [tok('"overall": '), tok("7", 0.6, ("7", 0.6), ("1", 0.2), ("8", 0.2)), tok("}")]
    rating = soft_rating(tokens, "overall", 7, range(1, 11))
    # '1' could be 1 or 10: its continuation was never generated, so it is counted as neither
    assert rating.distribution == pytest.approx({"7": 0.6, "8": 0.2})
    assert rating.unresolved == pytest.approx(0.2)
    assert rating.expected == pytest.approx((4.2 + 1.6) / 0.8)  # 7.25
    # its bounds: the unresolved 0.2 at 1 or at 10, over covered + unresolved = 1.0
    assert rating.low == pytest.approx(4.2 + 1.6 + 0.2 * 1)  # 6.0
    assert rating.high == pytest.approx(4.2 + 1.6 + 0.2 * 10)  # 7.8


def test_bounds_equal_the_expectation_when_nothing_is_unresolved() -> None:
    # the case: 0.54 covered with expectation 3.10, 0.46 unresolved on a 1-10 scale
    tokens = [tok('"overall": '), tok("3", 0.3, ("3", 0.3), ("2", 0.14), ("4", 0.1), ("1", 0.46)), tok("}")]
    rating = soft_rating(tokens, "overall", 3, range(1, 11))
    assert rating.covered == pytest.approx(0.54) and rating.unresolved == pytest.approx(0.46)
    assert rating.expected == pytest.approx((0.9 + 0.28 + 0.4) / 0.54)  # 2.926
    assert (rating.low, rating.high) == pytest.approx((1.58 + 0.46, 1.58 + 4.6))  # 2.04, 6.18
    tokens = [tok('"overall": '), tok("7", 0.6, ("7", 0.6), ("8", 0.4)), tok("}")]
    plain = soft_rating(tokens, "overall", 7, range(1, 11))
    assert plain.low == plain.high == pytest.approx(plain.expected) == pytest.approx(7.4)


def test_multi_digit_tokens_and_leading_space() -> None:
    # a tokenizer with whole numbers as tokens: ' 10' generated, '10' and ' 9' offered, ' 1' ambiguous
    tokens = [tok('"overall":'), tok(" 10", 0.7, (" 10", 0.7), (" 9", 0.2), (" 1", 0.05), ("10", 0.05)),
              tok("}", 1.0, ("}", 1.0))]
    rating = soft_rating(tokens, "overall", 10, range(1, 11))
    assert rating.distribution == pytest.approx({"9": 0.2, "10": 0.75})
    assert rating.unresolved == pytest.approx(0.05)
    assert rating.expected == pytest.approx(9.3 / 0.95)


def test_ordinal_levels_and_a_value_ending_inside_its_token() -> None:
    # ICLR's {1, 3, 5, 6, 8, 10}: '6,' ends the number inside the token; 7 is no level
    tokens = [tok('"rating": '), tok("6,", 0.5, ("6,", 0.5), ("8,", 0.3), ("7,", 0.1), ("6.", 0.1))]
    rating = soft_rating(tokens, "rating", 6, [1, 3, 5, 6, 8, 10])
    assert rating.distribution == pytest.approx({"6": 0.5, "8": 0.3})
    assert rating.outside == pytest.approx(0.2)
    assert rating.expected == pytest.approx((3 + 2.4) / 0.8)


def test_last_occurrence_with_the_parsed_value_is_read() -> None:
    tokens = [tok('<think>"overall": 3</think>{"overall": '), tok("8", 0.5, ("8", 0.5), ("6", 0.5)), tok("}")]
    assert value_position(tokens, "overall", 8) == (1, "")
    assert soft_rating(tokens, "overall", 8, range(1, 11)).expected == pytest.approx(7.0)


def test_value_not_in_tokens_is_missing_with_reason() -> None:
    rating = soft_rating([tok('{"overall": 5}')], "overall", 6, range(1, 11))
    assert rating.expected is None and rating.covered == 0
    assert rating.reason == '"overall": 6 was not found in the generated tokens'


def test_no_level_among_the_top_tokens_is_missing_with_reason() -> None:
    rating = soft_rating([tok('"overall": '), tok("5", 0.01, ('"', 0.9)), tok("}")], "overall", 5, range(6, 11))
    assert rating.expected is None
    assert rating.outside == pytest.approx(0.91)
    assert rating.reason == "no allowed level of overall among the top tokens at its position"


def test_an_occurrence_reads_that_entry_of_a_list_whatever_the_other_values() -> None:
    # two points of one answer, both helpfulness 4: the first and the second value are told apart
    tokens = [tok('[{"h": '), tok("4", 0.5, ("4", 0.5), ("2", 0.5)), tok('}, {"h": '),
              tok("4", 0.8, ("4", 0.8), ("5", 0.2)), tok("}]")]
    assert value_position(tokens, "h", 4, -2) == (1, "") and value_position(tokens, "h", 4, -1) == (3, "")
    assert soft_rating(tokens, "h", 4, range(1, 6), -2).expected == pytest.approx(3.0)  # 4 * 0.5 + 2 * 0.5
    assert soft_rating(tokens, "h", 4, range(1, 6), -1).expected == pytest.approx(4.2)  # 4 * 0.8 + 5 * 0.2
    # the entry's value must be the parsed one; an index past the list finds nothing
    assert value_position(tokens, "h", 5, -1) is None and value_position(tokens, "h", 4, -3) is None
