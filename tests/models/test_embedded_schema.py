"""The embedded provider's output schema: bounded integer scales become enums the grammar enforces.

The oracle is llama-cpp-python's own schema-to-grammar converter: before the change an integer
field compiled to the unbounded ``integer`` rule (a 1-5 judge score could be written as 8).
"""

from __future__ import annotations

import json

import pytest

from rhetorica.models.providers.embedded import bounded_schema

SCHEMA = {"type": "object", "required": ["a", "b", "c", "d"], "properties": {
    "a": {"type": "integer", "minimum": 1, "maximum": 5},
    "b": {"type": "number", "minimum": 0.0, "maximum": 1.0},
    "c": {"type": "integer", "minimum": 0},
    "d": {"type": "integer", "minimum": 0, "maximum": 100}}}


def test_bounded_integers_become_their_values() -> None:
    props = bounded_schema(SCHEMA, 240, 3)["properties"]
    assert props["a"]["enum"] == [1, 2, 3, 4, 5]
    assert props["d"]["enum"] == list(range(101))
    assert "enum" not in props["b"] and "enum" not in props["c"]  # a number, an open count: unchanged
    assert SCHEMA["properties"]["a"] == {"type": "integer", "minimum": 1, "maximum": 5}  # input not modified


def test_grammar_admits_only_the_scale() -> None:
    grammar = pytest.importorskip("llama_cpp.llama_grammar")
    rules = grammar.json_schema_to_gbnf(json.dumps(bounded_schema(SCHEMA, 240, 3))).splitlines()
    assert 'a ::= "1" | "2" | "3" | "4" | "5"' in rules
    assert 'a-kv ::= "\\"a\\"" space ":" space a' in rules
    assert 'c-kv ::= "\\"c\\"" space ":" space integer' in rules
