"""The line-end hyphen rule (:mod:`rhetorica.documents.pdf.hyphens`; issue 39) and its word list.

Hand cases: each branch of :func:`real_hyphen`, with the pieces and the document's words given. The
list is checked against its derivation (``rhetorica/data/wordlists/README.md``) re-run on the
installed wordfreq; its threshold's calibration is ``benchmarks/hyphen_calibration.py``.
"""

from __future__ import annotations

import math

import pytest

from rhetorica.documents.pdf.hyphens import particle_words, real_hyphen, solid_words


@pytest.mark.parametrize(("left", "right", "document", "real"), [
    # a piece holding a hyphen: TeX breaks such a word only at its hyphens
    ("out-of", "distribution", set(), True),
    ("out", "of-distribution", set(), True),
    # the document writes the hyphenated form elsewhere, even where English writes it solid
    ("some", "what", {"some", "what", "some-what"}, True),
    # the document writes the joined form elsewhere, even where both pieces are its words
    ("lower", "bound", {"lower", "bound", "lowerbound"}, False),
    # both pieces are the document's words: English writes these solid (the four words issue 39's
    # harness left split but one; Zipf 4.25, 4.66, 4.55) ...
    ("guide", "lines", {"guide", "lines"}, False),
    ("per", "form", {"per", "form"}, False),
    ("some", "what", {"some", "what"}, False),
    # ... and these with a hyphen, or too rarely solid to tell (longterm: Zipf 2.75 < 3.5)
    ("lower", "bound", {"lower", "bound"}, True),
    ("long", "term", {"long", "term"}, True),
    # after a particle prefix a rarer word is enough (overtraining: Zipf 1.91 >= 1.5; issue 39's
    # last split word) ...
    ("over", "training", {"over", "training"}, False),
    ("under", "fitting", {"under", "fitting"}, True),  # underfitting: not a word of wordfreq
    ("over", "smoothing", {"over", "smoothing"}, True),  # oversmoothing: neither
    # ... but only right after the prefix, and never against the document's own usage
    ("overt", "raining", {"overt", "raining"}, True),
    ("over", "training", {"over", "training", "over-training"}, True),
    ("non", "linear", {"non", "linear"}, True),  # not a particle: nonlinear (Zipf 3.27) is no word of either list
    # a piece that is no word of the document (a hyphenation point): joined with or without the list
    ("sum", "maries", {"sum"}, False),
    ("co", "operate", {"co", "operate"}, False),
])
def test_real_hyphen_hand_cases(left: str, right: str, document: set[str], real: bool) -> None:
    assert real_hyphen(left, right, document) is real


def test_solid_words_are_two_words_put_together() -> None:
    solid = solid_words()
    assert len(solid) == 2409
    assert {"guidelines", "perform", "somewhat", "something", "without"} <= solid
    assert not {"lowerbound", "longterm", "tradeoff", "overtraining", "wellknown", "nonlinear"} & solid
    assert all(w.isascii() and w.isalpha() and w.islower() and len(w) >= 6 for w in solid)


def test_particle_words_open_with_a_particle_and_three_more_letters() -> None:
    particle = particle_words()
    assert len(particle) == 882
    assert {"outperform", "overtraining", "overfitting", "underestimate", "outcome"} <= particle
    assert not {"oversmoothing", "underfitting", "overparameterized", "outof", "over"} & particle
    assert all(any(w.startswith(p) and len(w) >= len(p) + 3 for p in ("out", "over", "under")) for w in particle)


def test_shipped_solid_list_matches_its_derivation_from_wordfreq() -> None:
    wordfreq = pytest.importorskip("wordfreq")
    from importlib import metadata

    if metadata.version("wordfreq") != "3.1.1":
        pytest.skip("the shipped list was derived from wordfreq 3.1.1")
    frequencies = wordfreq.get_frequency_dict("en", "best")
    words = {w for w, p in frequencies.items()
             if w.isascii() and w.isalpha() and w.islower() and math.log10(p * 1e9) >= 3.5}
    derived = {w for w in words if any(w[:i] in words and w[i:] in words for i in range(3, len(w) - 2))}
    assert derived == solid_words()
    rare = {w for w, p in frequencies.items()
            if w.isascii() and w.isalpha() and w.islower() and math.log10(p * 1e9) >= 1.5}
    assert {w for w in rare if any(w.startswith(p) and len(w) >= len(p) + 3 for p in ("out", "over", "under"))} \
        == particle_words()
    # the Zipf values the hand cases quote, from wordfreq's own function
    assert [wordfreq.zipf_frequency(w, "en") for w in ("guidelines", "perform", "somewhat", "overtraining",
                                                       "longterm", "nonlinear", "underfitting")] == \
        [4.25, 4.66, 4.55, 1.91, 2.75, 3.27, 0.0]
