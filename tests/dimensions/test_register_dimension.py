"""register_dimension: one call registers a dimension and its conditions, or nothing at all."""

from __future__ import annotations

import re

import pytest

from rhetorica.dimensions import register_dimension
from rhetorica.registry import conditions, dimensions
from rhetorica.rewriting.conditions import definition, parse_condition
from rhetorica.validation.shift import Dimension, Instructions, ShiftRule


def test_the_builtin_dimensions_register_their_conditions_with_their_texts() -> None:
    found = definition(parse_condition("confidence:-"))
    assert (found.dimension, found.description, found.instruction_file, found.instruction_version) == (
        "confidence", "low expressed confidence (more hedges, fewer boosters)", "confidence_minus.md", "v1")
    assert dimensions.entry("novelty").description == "shift measure: (novelty markers + boosters - hedges)/1k"
    assert dimensions.entry("injection").description == ("no shift expected: an instruction planted as its own "
                                                         "paragraph; the manuscript's prose is unchanged")


@pytest.mark.parametrize(("directions", "instructions", "problem"), [
    ({"up": "higher"}, None, "direction 'up' must be '+' or '-'"),
    ({"+": "higher", "-": "lower"}, Instructions("v1", texts={"+": "Style target: higher."}),
     "no instruction text for direction '-'"),
])
def test_a_bad_declaration_is_refused_and_registers_nothing(directions, instructions, problem) -> None:
    bad = Dimension("test-bad", ShiftRule("words", lambda m: float(m.words)), directions=directions,
                    instructions=instructions)
    with pytest.raises(ValueError, match=re.escape(f"dimension 'test-bad': {problem}")):
        register_dimension(bad)
    assert "test-bad" not in dimensions and "test-bad:+" not in conditions
