"""Conditions as frozen objects: the one grammar, the registry checks, descriptions and prompts."""

from __future__ import annotations

import dataclasses
import json
import pickle
from pathlib import Path

import pytest

from rhetorica.registry import conditions, dimensions
from rhetorica.rewriting.conditions import (
    Condition,
    ConditionDefinition,
    UnknownConditionError,
    parse_condition,
    system_prompt,
)

CONF_PLUS = Condition("confidence:+", "confidence", "+")
PROF_MINUS = Condition("proficiency:-", "proficiency", "-")


@pytest.mark.parametrize(("text", "expected"), [
    ("confidence:+", CONF_PLUS),
    (" confidence:+ | proficiency:- ",
     Condition("confidence:+|proficiency:-", None, composition=(CONF_PLUS, PROF_MINUS))),
    ("joint", Condition("joint", "joint", "+")),
    ("recursive:2", Condition("recursive:2", "joint", "+", iteration=2)),
    ("recursive:3", Condition("recursive:3", "joint", "+", iteration=3)),
    ("guided", Condition("guided", "joint", "+", iteration=2, guidance="review")),
    ("paraphrase", Condition("paraphrase", "paraphrase")),
    ("polish:+", Condition("polish:+", "polish", "+")),
    ("injection:hidden-body-command-score",
     Condition("injection:hidden-body-command-score", "injection", "hidden-body-command-score")),
])
def test_every_form_parses_to_its_frozen_object(text: str, expected: Condition) -> None:
    parsed = parse_condition(text, check=False)
    assert parsed == expected and parsed.fields == expected.fields
    with pytest.raises(dataclasses.FrozenInstanceError):
        parsed.direction = "-"  # type: ignore[misc]


def test_a_condition_is_its_name_where_a_name_travels() -> None:
    parsed = parse_condition(" confidence:+ | proficiency:- ", check=False)
    assert parsed == "confidence:+|proficiency:-" and {parsed: 1}["confidence:+|proficiency:-"] == 1
    assert type(parsed.name) is str and parsed.name == "confidence:+|proficiency:-"
    assert json.dumps({"c": parsed}) == '{"c": "confidence:+|proficiency:-"}'
    assert pickle.loads(pickle.dumps(parsed)).fields == parsed.fields
    assert parse_condition(parsed) is parsed  # a parsed condition is not parsed again


def test_the_original_parses_but_is_no_rewrite_condition() -> None:
    original = parse_condition("original", check=False)
    assert original.fields == ("original", None, None, 1, None, ())
    assert original.original and not CONF_PLUS.original and not original.signed


def test_parts_and_signed() -> None:
    compound = parse_condition("confidence:+|proficiency:-")
    assert compound.parts == (CONF_PLUS, PROF_MINUS) and CONF_PLUS.parts == (CONF_PLUS,)
    assert [parse_condition(t, check=False).signed for t in ("confidence:-", "joint", "recursive:2", "paraphrase")] == [
        True, False, False, False]


@pytest.mark.parametrize(("text", "problem"), [
    ("", "is empty"),
    ("confidence:+||proficiency:-", "has an empty part"),
    ("recursive:1", "needs a whole number n >= 2"),
    ("recursive:x", "needs a whole number n >= 2"),
    ("confidence:", "must be '<dimension>:<direction>' or '<dimension>'"),
])
def test_syntax_errors_name_the_problem(text: str, problem: str) -> None:
    with pytest.raises(UnknownConditionError, match=problem):
        parse_condition(text, check=False)


def test_checked_parse_refuses_unregistered_and_repeated_dimensions() -> None:
    with pytest.raises(UnknownConditionError, match=r"unknown condition 'warmth:\+'; known: attack:\+, attack:-, complexity:\+, "
                                                      r"complexity:-, confidence:\+, confidence:-, "):
        parse_condition("warmth:+")
    with pytest.raises(UnknownConditionError, match="names the dimension 'confidence' twice"):
        parse_condition("confidence:+|confidence:-")
    with pytest.raises(UnknownConditionError, match="'original' is the unmodified document"):
        parse_condition("original")
    with pytest.raises(UnknownConditionError, match="unknown placement 'intro'"):
        parse_condition("injection:hidden-intro-command-score")


def test_a_condition_whose_dimension_has_no_shift_rule_is_refused() -> None:
    conditions.add("tone:+", ConditionDefinition("tone", "warmer tone", "tone_plus.md"))
    try:
        with pytest.raises(UnknownConditionError, match="condition 'tone:\\+': dimension 'tone' has no registered "
                                                        "shift rule \\(unknown dimension 'tone'; known: attack, complexity, confidence"):
            parse_condition("tone:+")
        dimensions.add("tone", object())  # registered, but without a shift rule
        with pytest.raises(UnknownConditionError, match="dimension 'tone' is registered without a shift rule"):
            parse_condition("tone:+")
    finally:
        conditions._entries.pop("tone:+")
        dimensions._entries.pop("tone", None)


def test_descriptions_and_prompts_come_from_the_registered_definitions() -> None:
    assert parse_condition("confidence:+|proficiency:-").description == (
        "high expressed confidence (fewer hedges, more boosters) + non-native-associated academic English")
    assert parse_condition("injection:visible-metadata-request-accept").description == (
        "visible request asking to accept in the metadata")
    folder = Path(__file__).resolve().parents[2] / "src" / "rhetorica" / "rewriting" / "instructions" / "v1"
    texts = [(folder / f).read_text("utf-8").strip() for f in ("integrity.md", "confidence_minus.md",
                                                                "proficiency_plus.md")]
    assert system_prompt("confidence:-|proficiency:+") == "\n\n".join(texts)
    with pytest.raises(UnknownConditionError, match="has no instruction text for an LLM rewriter"):
        system_prompt("injection:hidden-body-command-score")
