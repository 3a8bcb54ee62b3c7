"""Hedges and boosters: lexicon, longest-match matcher and per-1,000-words rates."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from rhetorica.documents.models import Document
from rhetorica.validation.metadiscourse import (
    Lexicon,
    find_markers,
    load_metadiscourse_lexicon,
    marker_counts,
    parse_lexicon,
)


def test_lexicon_loads_with_version_and_disjoint_lists() -> None:
    lexicon = load_metadiscourse_lexicon()
    assert lexicon.version == "2026.11-1"
    assert not lexicon.hedges & lexicon.boosters
    assert {"may", "might", "perhaps", "to a certain extent", "tend to"} <= lexicon.hedges
    assert {"clearly", "certain", "in fact", "demonstrate", "no doubt"} <= lexicon.boosters


def test_longest_match_counts_to_a_certain_extent_once_as_a_hedge() -> None:
    matches = find_markers("To a certain extent, the result is certain.")
    assert [(m.item, m.category) for m in matches] == [
        ("to a certain extent", "hedge"),
        ("certain", "booster"),
    ]
    assert (matches[0].start, matches[0].end, matches[0].n_words) == (0, 19, 4)


def test_whole_words_only_and_case_and_punctuation_ignored() -> None:
    text = "The mayor showcased a clearness test. Clearly, it MAY work; (perhaps)."
    assert [m.item for m in find_markers(text)] == ["clearly", "may", "perhaps"]


def test_multi_word_items_do_not_cross_sentences() -> None:
    assert find_markers("We tend. To agree is easy.") == []
    assert [m.item for m in find_markers("We tend to agree.")] == ["tend to"]


def test_rates_per_thousand_words_hand_computed() -> None:
    # 20 words; hedges: "may", "in most cases"; booster: "clearly"
    text = (
        "This may hold in most cases and clearly helps the model learn structure from "
        "data across many different graph types."
    )
    counts = marker_counts(text)
    assert (counts.words, counts.hedges, counts.boosters) == (20, 2, 1)
    assert counts.hedges_per_1k == pytest.approx(100.0)
    assert counts.boosters_per_1k == pytest.approx(50.0)
    assert marker_counts("$x$").hedges_per_1k is None


def test_overlapping_lists_are_rejected() -> None:
    with pytest.raises(ValidationError, match="both lists"):
        Lexicon(version="x", hedges=frozenset({"may"}), boosters=frozenset({"may"}))
    with pytest.raises(ValidationError, match="lower-case"):
        Lexicon(version="x", hedges=frozenset({"May"}), boosters=frozenset())


def test_malformed_lexicon_file_names_the_line() -> None:
    with pytest.raises(ValueError, match="custom.tsv:3"):
        parse_lexicon("# v version 1\nitem\tcategory\tsource\nmay\tmaybe\tx\n", name="custom.tsv")
    with pytest.raises(ValueError, match="version"):
        parse_lexicon("item\tcategory\n", name="custom.tsv")


def test_custom_lexicon_is_used() -> None:
    lexicon = parse_lexicon("# version 0.1\nitem\tcategory\tsource\narguably\thedge\tme\n")
    assert [m.item for m in find_markers("Arguably, this may work.", lexicon)] == ["arguably"]


def test_real_papers_have_both_hedges_and_boosters(shared_papers: dict[str, Document]) -> None:
    for name, doc in shared_papers.items():
        counts = marker_counts("\n\n".join(s.text for s in doc.sections))
        assert counts.hedges > 10 and counts.boosters > 10, name
        assert counts.hedges_per_1k is not None and 1.0 < counts.hedges_per_1k < 30.0, name
