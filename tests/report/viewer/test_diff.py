"""Word diffs: hand-computed runs, and the two sides give back the two texts."""

from __future__ import annotations

import json

import pytest

from rhetorica.report.viewer.diff import Segment, document_diff, document_sections, word_diff


def test_replaced_word_is_a_delete_then_an_insert() -> None:
    assert word_diff("the cat sat down", "the dog sat down") == [
        Segment("equal", "the "), Segment("delete", "cat"), Segment("insert", "dog"), Segment("equal", " sat down")]


def test_inserted_and_deleted_words() -> None:
    # the longest common run of tokens is matched first: " show gains" with its leading space, so
    # the space before the new word goes with it
    assert word_diff("results show gains", "results clearly show gains") == [
        Segment("equal", "results"), Segment("insert", " clearly"), Segment("equal", " show gains")]
    assert word_diff("we may see it", "we see it") == [
        Segment("equal", "we"), Segment("delete", " may"), Segment("equal", " see it")]


def test_each_side_reconstructs_its_text() -> None:
    a = "Our method is  fast.\nIt beats the baseline by 3 points on two of the three tasks."
    b = "Our novel method is remarkably fast.\nIt clearly beats the strong baseline by 3 points on all tasks."
    runs = word_diff(a, b)
    assert "".join(s.text for s in runs if s.op != "insert") == a
    assert "".join(s.text for s in runs if s.op != "delete") == b


def _doc(*texts: str) -> str:
    return json.dumps({"sections": [{"title": f"S{i}", "text": t} for i, t in enumerate(texts)]})


def test_document_diff_pairs_sections_and_counts_words() -> None:
    diffs = document_diff(_doc("a b c", "same text"), _doc("a x c", "same text", "new section here"))
    assert [(d.title, d.deleted_words, d.inserted_words, d.changed) for d in diffs] == [
        ("S0", 1, 1, True), ("S1", 0, 0, False), ("S2", 0, 3, True)]


def test_missing_document_has_no_sections_and_a_bad_one_is_an_error() -> None:
    assert document_sections(None) == []
    with pytest.raises(ValueError, match="no sections list"):
        document_sections(json.dumps({"title": "x"}))
