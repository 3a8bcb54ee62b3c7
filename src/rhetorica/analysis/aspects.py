"""What reviews argue: net polarity per aspect and arm, paired arm differences, and the link between
the overall rating and the share of positive mentions ('Style over Substance', STUDIES.md §1,
"Aspects"; the aspects of Lu, Kuznetsov & Gurevych, Findings of EMNLP 2025).

Inputs are two tidy tables:

- ``reviews``: one row per annotated ``ok`` assessment — ``unit_key`` (the assessment),
  ``reviewer``, ``document_id``, ``arm`` and, for the correlation, ``overall``;
- ``mentions``: one row per verified mention (:mod:`rhetorica.reviewers.aspects`) —
  ``unit_key`` (the assessment it annotates), ``aspect``, ``polarity`` (positive | negative).

Net polarity of one review on one aspect = #positive − #negative mentions; a review that does not
mention an aspect has net 0 on it (a count, not an imputation). Replicates are averaged within
(reviewer, paper, arm) first: papers are the unit. A paired difference between two arms is taken
within each paper reviewed under both, then averaged over papers (the study's "within-paper
differences averaged"; it reports Presentation +0.16 native − non-native and +0.29 high − low
confidence). The share of positive mentions of a review = #positive / (#positive + #negative);
reviews without polar mentions have no share and are left out of the correlation (the study:
r = 0.81 between overall rating and that share).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import stats

from rhetorica.analysis.equivalence import all_equal
from rhetorica.analysis.tidy import require_columns

REVIEW_KEYS = ["reviewer", "document_id", "arm"]

DIFFERENCE_COLUMNS = ["reviewer", "aspect", "first", "second", "mean_difference", "sd", "n_papers", "ci_low",
                      "ci_high"]


def review_polarity(mentions: pd.DataFrame, reviews: pd.DataFrame, aspects: Sequence[str]) -> pd.DataFrame:
    """Positive, negative and net counts of every review on every aspect.

    Args:
        mentions: verified mentions (``unit_key``, ``aspect``, ``polarity``).
        reviews: annotated reviews (``unit_key``, ``reviewer``, ``document_id``, ``arm``).
        aspects: the taxonomy's aspect names (every review gets a row for each).

    Returns:
        One row per (review, aspect): the review's keys, ``aspect``, ``positive``, ``negative``,
        ``net`` (integers ≥ 0, ≥ 0, any sign).

    Raises:
        ValueError: a missing column, a mention of a review not in ``reviews``, an aspect not in
            ``aspects`` or a polarity other than positive/negative.
    """
    require_columns(mentions, ["unit_key", "aspect", "polarity"], "mentions")
    require_columns(reviews, ["unit_key", *REVIEW_KEYS], "reviews")
    if reviews["unit_key"].duplicated().any():
        raise ValueError("reviews: a unit_key occurs twice (one row per assessment)")
    stray = sorted(set(mentions["unit_key"]) - set(reviews["unit_key"]))
    if stray:
        raise ValueError(f"mentions of assessments not in reviews: {stray[:5]}")
    unknown = sorted(set(mentions["aspect"]) - set(aspects))
    if unknown:
        raise ValueError(f"mentions of unknown aspects: {unknown}")
    bad = sorted(set(mentions["polarity"]) - {"positive", "negative"})
    if bad:
        raise ValueError(f"mentions with polarity other than positive/negative: {bad}")
    counts = (mentions.assign(n=1).pivot_table(index=["unit_key", "aspect"], columns="polarity", values="n",
                                               aggfunc="sum", fill_value=0)
              .reindex(columns=["positive", "negative"], fill_value=0))
    grid = pd.MultiIndex.from_product([reviews["unit_key"], list(aspects)], names=["unit_key", "aspect"])
    counts = counts.reindex(grid, fill_value=0).reset_index()
    counts.columns.name = None
    counts["net"] = counts["positive"] - counts["negative"]
    return reviews[["unit_key", *REVIEW_KEYS]].merge(counts, on="unit_key")


def paper_net_polarity(mentions: pd.DataFrame, reviews: pd.DataFrame, aspects: Sequence[str]) -> pd.DataFrame:
    """Net polarity per (reviewer, paper, arm, aspect), replicates averaged (column ``net``)."""
    per_review = review_polarity(mentions, reviews, aspects)
    return per_review.groupby([*REVIEW_KEYS, "aspect"], as_index=False, sort=False)["net"].mean()


def net_polarity(mentions: pd.DataFrame, reviews: pd.DataFrame, aspects: Sequence[str]) -> pd.DataFrame:
    """Mean net polarity per (reviewer, arm, aspect) over papers.

    Returns:
        Columns ``reviewer``, ``arm``, ``aspect``, ``net_polarity`` (mean over papers of the
        replicate-averaged net count), ``n_papers``.
    """
    papers = paper_net_polarity(mentions, reviews, aspects)
    out = papers.groupby(["reviewer", "arm", "aspect"], as_index=False, sort=False).agg(
        net_polarity=("net", "mean"), n_papers=("document_id", "nunique"))
    return out


def net_polarity_difference(mentions: pd.DataFrame, reviews: pd.DataFrame, aspects: Sequence[str],
                            first: str, second: str, *, level: float = 0.95) -> pd.DataFrame:
    """Within-paper difference of net polarity, ``first`` − ``second``, per reviewer and aspect.

    Only papers reviewed (and annotated) under both arms by that reviewer count. This frame is also
    the data of the per-aspect plot (one point per aspect with its interval).

    Args:
        first, second: the two arms (e.g. ``proficiency:+`` and ``proficiency:-``).
        level: coverage of the t interval of the mean difference, in (0, 1).

    Returns:
        :data:`DIFFERENCE_COLUMNS`, aspects in the order given: ``mean_difference`` (mean over
        papers), ``sd`` (sample SD of the paper differences, ddof 1), ``n_papers``, and the
        Student-t interval ``ci_low`` / ``ci_high`` (NaN with fewer than 2 papers).
    """
    papers = paper_net_polarity(mentions, reviews, aspects)
    wide = papers[papers["arm"].isin([first, second])].pivot_table(
        index=["reviewer", "document_id", "aspect"], columns="arm", values="net").reset_index()
    diffs: dict[tuple[str, str], np.ndarray] = {}
    if first in wide.columns and second in wide.columns:
        wide["difference"] = wide[first] - wide[second]
        for (reviewer, aspect), group in wide.groupby(["reviewer", "aspect"]):
            diffs[(reviewer, aspect)] = group["difference"].dropna().to_numpy(dtype=float)
    empty = np.array([], dtype=float)
    rows = [_summary(reviewer, aspect, first, second, diffs.get((reviewer, aspect), empty), level)
            for reviewer in sorted(papers["reviewer"].unique()) for aspect in aspects]
    return pd.DataFrame(rows, columns=DIFFERENCE_COLUMNS)


def _summary(reviewer: str, aspect: str, first: str, second: str, diffs: np.ndarray, level: float) -> dict:
    n = len(diffs)
    mean = float(diffs.mean()) if n else float("nan")
    sd = float(diffs.std(ddof=1)) if n > 1 else float("nan")
    if n > 1 and not all_equal(diffs):  # sd 0: the t interval is not computable, never [mean, mean]
        half = float(stats.t.ppf(0.5 + level / 2, n - 1)) * sd / np.sqrt(n)
        low, high = mean - half, mean + half
    else:
        low = high = float("nan")
    return {"reviewer": reviewer, "aspect": aspect, "first": first, "second": second, "mean_difference": mean,
            "sd": sd, "n_papers": n, "ci_low": low, "ci_high": high}


class ShareCorrelation(NamedTuple):
    """Pearson correlation of the overall rating with the share of positive mentions.

    Attributes:
        r: Pearson's r in [-1, 1] (NaN with fewer than 3 reviews or no variance).
        p_value: two-sided p of scipy.stats.pearsonr (NaN when r is).
        n: reviews used (those with a rating and at least one polar mention).
    """

    r: float
    p_value: float
    n: int


def positive_share(mentions: pd.DataFrame, reviews: pd.DataFrame) -> pd.Series:
    """Share of positive mentions per review (index ``unit_key``; reviews without mentions absent)."""
    require_columns(mentions, ["unit_key", "polarity"], "mentions")
    require_columns(reviews, ["unit_key"], "reviews")
    polar = mentions[mentions["unit_key"].isin(reviews["unit_key"])]
    return polar.groupby("unit_key")["polarity"].apply(lambda p: float((p == "positive").mean()))


def positive_share_correlation(mentions: pd.DataFrame, reviews: pd.DataFrame) -> ShareCorrelation:
    """Correlate each review's ``overall`` with its share of positive mentions (scipy.stats.pearsonr).

    Reviews without a rating (NaN) or without polar mentions are left out (missing stays missing).
    """
    require_columns(reviews, ["unit_key", "overall"], "reviews")
    share = positive_share(mentions, reviews)
    joined = reviews.set_index("unit_key")[["overall"]].join(share.rename("share"), how="inner").dropna()
    n = len(joined)
    if n < 3 or joined["share"].nunique() < 2 or joined["overall"].nunique() < 2:
        return ShareCorrelation(float("nan"), float("nan"), n)
    result = stats.pearsonr(joined["overall"].to_numpy(dtype=float), joined["share"].to_numpy(dtype=float))
    return ShareCorrelation(float(result.statistic), float(result.pvalue), n)
