"""Properties that must hold for any input: offsets, counts, lossless passages, no heavy imports."""

from __future__ import annotations

import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from rhetorica.validation.integrity import tfidf_cosine
from rhetorica.validation.metadiscourse import find_markers, marker_counts
from rhetorica.validation.passages import paragraphs, split_passages
from rhetorica.validation.spans import compare_spans
from rhetorica.tokenizer import tokenize

PIECES = [*"abcdeIJKLxyz", " ", " ", "\n", "\n\n", ".", ". ", "e.g. ", "$x$", "\\cite{k}", "-"]
PIECES += ["'", "\u2019", "0.72", "may ", "to a certain extent ", "clearly ", "\u0130", "# H\n"]
PIECES += ["$", "\\begin{equation}", "\\end{equation}", "```", "1. ", "Fig. ", "http://a.b/c "]
TEXTS = st.lists(st.sampled_from(PIECES), max_size=60).map("".join)


@settings(max_examples=200, deadline=None)
@given(TEXTS)
def test_word_offsets_point_into_the_text(text: str) -> None:
    tokens = tokenize(text)
    assert len(tokens.lower) == len(tokens.words) == len(tokens.sentence_ids)
    assert list(tokens.sentence_ids) == sorted(tokens.sentence_ids)
    for word, start, end in zip(tokens.words, tokens.starts, tokens.ends, strict=True):
        assert text[start:end] == word


@settings(max_examples=200, deadline=None)
@given(TEXTS)
def test_markers_never_overlap_and_counts_agree(text: str) -> None:
    matches = find_markers(text)
    for left, right in zip(matches, matches[1:], strict=False):
        assert left.word_index + left.n_words <= right.word_index
    counts = marker_counts(text)
    assert counts.hedges + counts.boosters == len(matches)


@settings(max_examples=100, deadline=None)
@given(st.lists(TEXTS, max_size=4), st.integers(min_value=1, max_value=6))
def test_passages_keep_every_word(texts: list[str], limit: int) -> None:
    passages = split_passages(texts, lambda s: len(s.split()), limit)
    assert all(len(p.split()) <= limit for p in passages)
    assert " ".join(passages).split() == " ".join(paragraphs(texts)).split()


@settings(max_examples=200, deadline=None)
@given(st.lists(TEXTS, min_size=1, max_size=4))
def test_a_text_compared_with_itself_is_fully_preserved(texts: list[str]) -> None:
    joined = "\n\n".join(texts)
    report = compare_spans(joined, joined)
    assert report.missing == [] and report.added == [] and report.kept_fraction == 1.0
    cosine = tfidf_cosine(texts, texts)
    assert cosine is None or abs(cosine - 1.0) < 1e-12
    assert (cosine is None) == (tokenize(joined).n_words == 0)


def test_importing_validation_loads_no_optional_extra() -> None:
    # the validation extra (torch, scikit-learn, sentence-transformers) loads only when a measure needs it
    code = (
        "import sys, rhetorica.validation; "
        "print(sorted(m for m in ('torch', 'sklearn', 'sentence_transformers') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
