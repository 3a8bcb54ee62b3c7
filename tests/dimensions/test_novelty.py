"""The novelty dimension: hand-counted stance, comments and headings, lexicon, a real paragraph."""

from __future__ import annotations

import pytest

from rhetorica.dimensions import novelty as n
from rhetorica.validation.metadiscourse import load_metadiscourse_lexicon
from rhetorica.validation.rhetoric import load_lexicon
from rhetorica.tokenizer import tokenize
from tests.dimensions.paragraphs import DEFS, HEAD, RESULT, TAIL, assert_rewrites_move


def test_novelty_stance_counts_novelty_plus_boosters_minus_hedges() -> None:
    text = "We propose a novel method. It clearly outperforms the baseline. This may help."
    # 13 words; novelty: novel, outperforms (2); boosters: clearly (1); hedges: may (1)
    assert n.novelty_markers(text) == 2
    assert n.novelty_stance(text) == pytest.approx(1000 * (2 + 1 - 1) / 13)
    assert n.novelty_stance("$x$") is None


def test_comments_and_headings_never_count_even_from_tokens() -> None:
    text = "\\section{A novel view}\nWe study it. % a novel, unprecedented idea\nIt works.\n"
    # prose left: "We study it. It works." (5 words), no novelty marker, no hedge or booster
    assert n.novelty_stance(text) == 0.0
    assert n.novelty_stance(tokenize(text)) == 0.0  # Tokens of the raw text are re-tokenized
    assert n.novelty_stance(tokenize("We study a novel idea.")) == pytest.approx(1000 / 5)


def test_novelty_markers_never_count_twice_with_hedges_or_boosters() -> None:
    hyland = load_metadiscourse_lexicon()
    assert not set(load_lexicon("novelty").items) & (hyland.hedges | hyland.boosters)


def test_registered_with_its_directions_texts_measure_and_joint_position() -> None:
    d = n.DIMENSION
    assert (d.name, d.joint, d.measure is n.novelty_stance, d.shift.measure) == (
        "novelty", 1, True, "(novelty markers + boosters - hedges)/1k")
    assert dict(d.instructions.files) == {"+": "novelty_plus.md", "-": "novelty_minus.md"}
    assert d.lexicons() == {"novelty": "2026.12-1", "metadiscourse": load_metadiscourse_lexicon().version}


def test_hand_written_rewrites_move_the_measure(spatial: str) -> None:
    assert_rewrites_move("novelty", spatial)


def test_the_reconstructed_paragraph_is_the_real_one(spatial: str) -> None:
    assert " ".join(spatial.split()) == " ".join((HEAD + DEFS + RESULT + TAIL).split())
