"""Net polarity per aspect and arm, within-paper differences, and the rating-share correlation, on
scripted annotations with hand-computed values."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from rhetorica.analysis.aspects import (
    net_polarity,
    net_polarity_difference,
    positive_share_correlation,
    review_polarity,
)
from rhetorica.reviewers.aspects import load_taxonomy, parse_annotation

ASPECTS = load_taxonomy().names

# Two papers, arms "nat" / "non", one reviewer; paper A under "nat" has two replicates.
REVIEWS = pd.DataFrame([
    ("a-nat-0", "R", "A", "nat", 6.0), ("a-nat-1", "R", "A", "nat", 7.0), ("a-non-0", "R", "A", "non", 3.0),
    ("b-nat-0", "R", "B", "nat", 5.0), ("b-non-0", "R", "B", "non", 8.0),
], columns=["unit_key", "reviewer", "document_id", "arm", "overall"])

TEXTS = {
    "a-nat-0": "Clear writing. Nice figures. The method is unjustified.",
    "a-nat-1": "Clear writing.",
    "a-non-0": "Hard to read. The method is unjustified.",
    "b-nat-0": "A novel idea.",
    "b-non-0": "Clear writing. A novel idea.",
}
ANNOTATIONS = {  # what a scripted annotator answered; one phrase per review of a-nat-0 is not in the text
    "a-nat-0": [("presentation", "positive", "Clear writing."), ("presentation", "positive", "Nice figures."),
                ("methodology", "negative", "The method is unjustified."),
                ("results", "positive", "Strong results."), ("theory", "positive", "Elegant proofs.")],
    "a-nat-1": [("presentation", "positive", "Clear writing.")],
    "a-non-0": [("presentation", "negative", "Hard to read."), ("methodology", "negative", "The method is unjustified.")],
    "b-nat-0": [("novelty", "positive", "A novel idea.")],
    "b-non-0": [("presentation", "positive", "Clear writing."), ("novelty", "positive", "A novel idea.")],
}


def mentions() -> pd.DataFrame:
    rows = []
    for key, items in ANNOTATIONS.items():
        answer = json.dumps({"mentions": [{"aspect": a, "polarity": p, "phrase": t} for a, p, t in items]})
        result = parse_annotation(answer, TEXTS[key])
        rows += [(key, m.aspect, m.polarity) for m in result.mentions]
    return pd.DataFrame(rows, columns=["unit_key", "aspect", "polarity"])


def test_unverified_phrase_and_unknown_aspect_never_reach_the_counts() -> None:
    table = mentions()
    assert len(table) == 9  # 11 scripted: 'results' is no aspect name, 'Elegant proofs.' is not in the review
    assert "theory" not in set(table["aspect"])
    per_review = review_polarity(table, REVIEWS, ASPECTS)
    assert len(per_review) == 5 * 16
    row = per_review.set_index(["unit_key", "aspect"]).loc[("a-nat-0", "presentation")]
    assert (row["positive"], row["negative"], row["net"]) == (2, 0, 2)


def test_net_polarity_per_arm_averages_replicates_then_papers() -> None:
    table = net_polarity(mentions(), REVIEWS, ASPECTS).set_index(["arm", "aspect"])["net_polarity"]
    # presentation: A nat (2 + 1) / 2 = 1.5, B nat 0 -> 0.75; A non -1, B non 1 -> 0
    assert table[("nat", "presentation")] == 0.75 and table[("non", "presentation")] == 0.0
    # methodology: A nat (-1 + 0) / 2 = -0.5, B nat 0 -> -0.25; A non -1, B non 0 -> -0.5
    assert table[("nat", "methodology")] == -0.25 and table[("non", "methodology")] == -0.5
    assert table[("nat", "novelty")] == 0.5 and table[("nat", "theory")] == 0.0


def test_within_paper_differences_are_exact() -> None:
    diff = net_polarity_difference(mentions(), REVIEWS, ASPECTS, "nat", "non").set_index("aspect")
    # presentation: A 1.5 - (-1) = 2.5, B 0 - 1 = -1 -> mean 0.75, sd sqrt(2 * 1.75^2) = 2.4749
    assert diff.loc["presentation", "mean_difference"] == 0.75
    assert diff.loc["presentation", "sd"] == pytest.approx(1.75 * np.sqrt(2))
    # t(0.975, 1) = 12.7062 (table value); half width = 12.7062 * sd / sqrt(2) = 12.7062 * 1.75
    assert diff.loc["presentation", "ci_high"] - 0.75 == pytest.approx(12.7062 * 1.75, rel=1e-4)
    # methodology: A -0.5 - (-1) = 0.5, B 0 - 0 = 0 -> 0.25; novelty: A 0, B 0 -> 0
    assert diff.loc["methodology", "mean_difference"] == 0.25
    assert diff.loc["novelty", "mean_difference"] == 0.0
    # novelty's two differences are both 0: sd 0, so the t interval is not computable (was [0, 0])
    assert diff.loc["novelty", "sd"] == 0.0
    assert np.isnan(diff.loc["novelty", "ci_low"]) and np.isnan(diff.loc["novelty", "ci_high"])
    assert (diff["n_papers"] == 2).all() and list(diff.index) == list(ASPECTS)


def test_paper_missing_from_one_arm_is_left_out_of_the_differences() -> None:
    reviews = REVIEWS[REVIEWS["unit_key"] != "b-non-0"]
    table = mentions()
    diff = net_polarity_difference(table[table["unit_key"] != "b-non-0"], reviews, ASPECTS, "nat", "non")
    row = diff.set_index("aspect").loc["presentation"]
    assert (row["mean_difference"], row["n_papers"]) == (2.5, 1) and np.isnan(row["ci_low"])


def test_rating_correlates_with_the_share_of_positive_mentions() -> None:
    result = positive_share_correlation(mentions(), REVIEWS)
    # shares: a-nat-0 2/3, a-nat-1 1, a-non-0 0, b-nat-0 1, b-non-0 1; ratings 6, 7, 3, 5, 8
    expected = np.corrcoef([6, 7, 3, 5, 8], [2 / 3, 1, 0, 1, 1])[0, 1]
    assert result.n == 5 and result.r == pytest.approx(expected)
    # by hand: Sxy = 2.7333, Sxx = 14.8, Syy = 0.75556 -> r = 2.7333 / sqrt(14.8 * 0.75556) = 0.8174
    assert result.r == pytest.approx(0.8174, abs=1e-4)


def test_bad_tables_are_named() -> None:
    with pytest.raises(ValueError, match="mentions of unknown aspects: \\['style'\\]"):
        review_polarity(pd.DataFrame([("a-nat-0", "style", "positive")], columns=["unit_key", "aspect", "polarity"]),
                        REVIEWS, ASPECTS)
    with pytest.raises(ValueError, match="reviews lacks column"):
        review_polarity(mentions(), REVIEWS.drop(columns="arm"), ASPECTS)
