"""JSON-lines reading: each object with its line number; bad lines listed, never fatal."""

from __future__ import annotations

from rhetorica.files import json_objects


def test_json_objects_keeps_objects_and_lists_bad_lines():
    problems: list[str] = []
    lines = ['{"a": 1}', "", "   ", "[1, 2]", "{not json", '{"b": "x"}']
    assert json_objects(lines, "pairs.jsonl", problems) == [(1, {"a": 1}), (6, {"b": "x"})]
    assert problems == ["pairs.jsonl:4: not a JSON object",
                        "pairs.jsonl:5: not JSON (Expecting property name enclosed in double quotes)"]
