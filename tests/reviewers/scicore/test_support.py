"""Lexical support of claims, computed by hand on the test manuscript."""

from __future__ import annotations

from rhetorica.reviewers.scicore.support import ManuscriptPassages, terms
from tests.reviewers.scicore.helpers import DOC


def test_terms_drop_stop_words_and_attribution_and_stem() -> None:
    # the, that, are: stop words; manuscript, states: attribution; proposed -> propos, filters -> filter
    assert terms("The manuscript states that the proposed Chebyshev spectral filters are strictly localized.") == \
        frozenset({"propos", "chebys", "spectr", "filter", "strict", "locali"})
    assert terms("graphs and the loss") == frozenset({"graph", "loss"})


def test_support_is_the_best_share_over_sentences_and_adjacent_pairs() -> None:
    passages = ManuscriptPassages(DOC.to_markdown())
    # 6 terms: sentence 1 holds propos, chebys, spectr, filter (4/6), sentence 2 filter, strict,
    # locali (3/6); the pair of both holds all six
    both = passages.support("The manuscript states that the proposed Chebyshev spectral filters are strictly "
                            "localized.")
    assert both.score == 1.0 and both.missing == ()
    assert both.passage.startswith("We propose Chebyshev") and both.passage.endswith("number of edges.")
    # isotro, filter, fail, imagen: "The filters are isotropic." holds 2 of 4 = 0.5
    half = passages.support("The manuscript claims isotropic filters fail on ImageNet.")
    assert (half.score, half.passage, half.missing) == (0.5, "The filters are isotropic.", ("fail", "imagen"))
    none = passages.support("The manuscript states that the method outperforms transformers on ImageNet.")
    assert (none.score, none.passage, none.missing) == (0.0, "", ("imagen", "method", "outper", "transf"))
    assert passages.support("The manuscript states that.").score == 0.0  # no content words
