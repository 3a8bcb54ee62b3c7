"""Word diffs: hand-computed runs, and the two sides give back the two texts."""

from __future__ import annotations

import json

import pytest

from rhetorica.report.viewer.diff import WORD_DIFF_CAP, Segment, document_diff, document_sections, word_diff


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


def test_lines_are_aligned_first_and_only_the_changed_line_is_word_diffed() -> None:
    # hand-checked: lines 1 and 3 are equal, line 2 differs in one word
    assert word_diff("alpha beta\ngamma delta\nepsilon\n", "alpha beta\ngamma DELTA\nepsilon\n") == [
        Segment("equal", "alpha beta\ngamma "), Segment("delete", "delta"), Segment("insert", "DELTA"),
        Segment("equal", "\nepsilon\n")]


def _lines(n: int) -> list[str]:
    return [f"line {i} of the long paragraph, words.\n" for i in range(n)]


def test_a_megabyte_paragraph_of_short_lines_is_diffed_line_by_line() -> None:
    original = _lines(30_000)
    rewrite = list(original)
    for i in range(0, 30_000, 100):  # one word changed in every 100th line: 300 changes
        rewrite[i] = rewrite[i].replace("long", "lengthy")
    a, b = "".join(original), "".join(rewrite)
    assert len(a) > 1_000_000
    runs = word_diff(a, b)
    assert [s.text for s in runs if s.op == "delete"] == ["long"] * 300
    assert [s.text for s in runs if s.op == "insert"] == ["lengthy"] * 300
    assert "".join(s.text for s in runs if s.op != "insert") == a
    assert "".join(s.text for s in runs if s.op != "delete") == b
    assert not any(s.note for s in runs)


def test_a_changed_paragraph_over_the_cap_is_deleted_and_inserted_whole_with_a_note() -> None:
    words = [f"w{i}" for i in range(WORD_DIFF_CAP + 1)]  # distinct words: a quick match if it ran
    a = "intro line\n" + " ".join(words) + "\n"
    b = "intro line\n" + " ".join(["changed", *words[1:]]) + "\n"
    note = (f"paragraph too long for a word diff: {WORD_DIFF_CAP + 1} words (over {WORD_DIFF_CAP}); "
            "shown deleted and inserted whole")
    assert word_diff(a, b) == [Segment("equal", "intro line\n"), Segment("delete", a[11:], note),
                               Segment("insert", b[11:], note)]
    section = document_diff(_doc(a), _doc(b))[0]
    assert (section.notes, section.deleted_words, section.inserted_words) == ([note], WORD_DIFF_CAP + 1, WORD_DIFF_CAP + 1)


def test_many_repeated_lines_are_one_changed_stretch_not_a_quadratic_alignment() -> None:
    a, b = "same\n" * 30_000, "same\n" * 29_999 + "other\n"  # 30,000 x 29,999 equal-line pairs
    runs = word_diff(a, b)
    assert [(s.op, s.text) for s in runs] == [("delete", a), ("insert", b)]
    assert runs[0].note.startswith("paragraph too long for a word diff: 30000 words")
