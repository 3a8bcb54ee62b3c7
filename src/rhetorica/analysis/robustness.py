"""Rhetorical robustness of a reviewer configuration (the RobustReview study, STUDIES.md §4).

Robustness is within-paper stability across content-preserving rewrites *and* between-paper
discrimination; human alignment is reported separately. All measures read paper-level scores:
replicates are averaged within (reviewer, paper, arm) first, missing stays missing. The arms of a
paper ("variants", the original included) are nested in the paper.

Measures (our operationalisation where the study names a measure without a formula):

- ``mad``: mean absolute drift, the mean over (paper, rewrite) of ``|y_rewrite - y_original|``.
- ``drift_sd``: standard deviation (ddof=1) of the signed drifts ``y_rewrite - y_original`` over
  the same (paper, rewrite) pairs.
- ``icc1``: one-way random-effects, single-measure ICC with variants nested in papers,
  ``(MSB - MSW) / (MSB + (k0 - 1) MSW)`` (Shrout & Fleiss 1979, ICC(1,1); McGraw & Wong 1996,
  ICC(1)); ``k0 = (N - sum n_i^2 / N) / (a - 1)`` handles unequal variant counts (Snedecor &
  Cochran 1989, Sec. 13.11) and equals k when balanced.
- ``icc_a1``: two-way, absolute agreement, single measure, arms as fixed "raters"
  (McGraw & Wong 1996, ICC(A,1); Shrout & Fleiss ICC(2,1)), on papers scored under every arm.
- ``spr``: between-paper SD / within-paper SD from the one-way variance components
  ``s_b^2 = (MSB - MSW) / k0`` (floored at 0) and ``s_w^2 = MSW``; so ``icc1 = spr^2 / (1 + spr^2)``
  whenever ``MSB >= MSW``. A sum of squares (within, between papers; ICC(A,1)'s rows, columns
  and error) at most ``ZERO_RTOL`` times the sum of squared scores is floating-point noise (every
  variant of each paper scored the same, e.g. a replicate mean of 5/3, or every score 0.1) and
  counts as 0: SPR is then infinite, not ~1e14, and with every score equal ICC(1), ICC(A,1) and
  SPR are NaN (0 / 0), never 1 or an ICC(A,1) of 1.6 made of rounding.
- ``discriminability``: probability that a random rewrite of the higher-rated paper scores above
  a random rewrite of the lower-rated one, ties counting 1/2, averaged over all paper pairs
  ordered by the reviewer's mean score of their originals (pairs whose originals tie are
  skipped; with no ordered pair, i.e. fewer than two papers or every original tied, it is not
  computable: NaN, never the chance value 0.5).
  Only rewrites are compared, so the score that orders the pair does not also decide it.
- ``human_mae`` / ``human_spearman``: mean absolute error and Spearman rank correlation between
  the reviewer's original-arm paper score and the paper's mean human score.
- ``false_robustness``: ``mad <= low_drift`` while ``discriminability <= 0.5 + chance_margin``,
  i.e. stability obtained by collapsing scores rather than by reading the science; ``None`` (not
  computable) where either is NaN (:func:`false_robustness`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

import numpy as np
import numpy.typing as npt
import pandas as pd

from rhetorica.analysis.discriminability import discriminability, discriminability_interval
from rhetorica.analysis.paired import wide_paper_scores
from rhetorica.analysis.tidy import document_info, primary_metric
from rhetorica.labels import ORIGINAL
from scipy.stats import spearmanr

Array = npt.NDArray[np.float64]

ZERO_RTOL = 1e-12
"""Relative tolerance under which a sum of squares (or a spread) counts as exactly 0: rounding in
the means of identical scores leaves ~1e-31 on scores of order 1-10 (relative 1e-32), real
variance on a 1-10 scale is many orders larger."""

ROBUSTNESS_COLUMNS = [
    "reviewer",
    "n_papers",
    "n_variants",
    "mad",
    "drift_sd",
    "icc1",
    "icc_a1",
    "spr",
    "discriminability",
    "human_mae",
    "human_spearman",
    "n_human",
    "false_robustness",
]


class OneWay(NamedTuple):
    """One-way ANOVA of variants nested in papers."""

    msb: float
    msw: float
    k0: float
    icc1: float
    spr: float


def one_way(scores: Array, groups: npt.ArrayLike) -> OneWay:
    """One-way random-effects ANOVA, ICC(1) and SPR for scores grouped by paper.

    Args:
        scores: ``(N,)`` variant scores (no NaN).
        groups: ``(N,)`` paper id of each score.

    Returns:
        :class:`OneWay` (NaN fields when there are fewer than two papers or no within-paper
        degrees of freedom). ``msw`` and ``msb`` are 0 when their sums of squares are at most
        ``ZERO_RTOL * sum(scores**2)`` (rounding noise); ``spr`` is ``inf`` when within-paper
        variance is 0 and between-paper variance is positive.
    """
    y = np.asarray(scores, dtype=float)
    codes, _ = pd.factorize(np.asarray(groups))
    a = int(codes.max()) + 1 if len(codes) else 0
    n_total = len(y)
    if a < 2 or n_total - a < 1:
        return OneWay(np.nan, np.nan, np.nan, np.nan, np.nan)
    n_i = np.bincount(codes, minlength=a).astype(float)
    means = np.bincount(codes, weights=y, minlength=a) / n_i
    grand = y.mean()
    msb = _variance(float(np.sum(n_i * (means - grand) ** 2)), y) / (a - 1)
    msw = _variance(float(np.sum((y - means[codes]) ** 2)), y) / (n_total - a)
    k0 = float((n_total - np.sum(n_i**2) / n_total) / (a - 1))
    denom = msb + (k0 - 1) * msw
    icc1 = (msb - msw) / denom if denom > 0 else np.nan
    var_b = max((msb - msw) / k0, 0.0)
    if msw > 0:
        spr = float(np.sqrt(var_b / msw))
    else:
        spr = np.inf if var_b > 0 else np.nan
    return OneWay(msb, msw, k0, float(icc1), spr)


def _variance(sum_of_squares: float, y: Array) -> float:
    """A sum of squared deviations of ``y``, 0 when at most :data:`ZERO_RTOL` times ``sum(y**2)``
    (the rounding of means of identical values such as 0.1, not variance; negative rounding too)."""
    return sum_of_squares if sum_of_squares > ZERO_RTOL * float(np.sum(y**2)) else 0.0


def icc_a1(matrix: Array) -> float:
    """ICC(A,1): two-way model, absolute agreement, single measure (McGraw & Wong 1996).

    Args:
        matrix: ``(n_papers, k_arms)`` complete score matrix (rows with NaN must be removed).

    Returns:
        ``(MSR - MSE) / (MSR + (k-1) MSE + k (MSC - MSE) / n)``; NaN with fewer than 2 rows or
        columns or a zero denominator.
    """
    y = np.asarray(matrix, dtype=float)
    if y.ndim != 2 or y.shape[0] < 2 or y.shape[1] < 2:
        return np.nan
    n, k = y.shape
    grand = y.mean()
    ssr = _variance(float(k * np.sum((y.mean(axis=1) - grand) ** 2)), y)
    ssc = _variance(float(n * np.sum((y.mean(axis=0) - grand) ** 2)), y)
    sse = _variance(float(np.sum((y - grand) ** 2) - ssr - ssc), y)
    msr, msc, mse = ssr / (n - 1), ssc / (k - 1), sse / ((n - 1) * (k - 1))
    denom = msr + (k - 1) * mse + k * (msc - mse) / n
    return float((msr - mse) / denom) if denom > 0 else np.nan


def _discriminability_input(wide: pd.DataFrame) -> tuple[Array, Array, npt.NDArray[np.int64]]:
    """(original score per paper, rewrite scores, paper index of each) from a paper x arm table."""
    rewrites = wide.drop(columns=[ORIGINAL])
    long = rewrites.stack().dropna()
    paper_pos = wide.index.get_indexer(long.index.get_level_values(0))
    return wide[ORIGINAL].to_numpy(dtype=float), long.to_numpy(dtype=float), paper_pos


def discriminability_table(
    df: pd.DataFrame,
    *,
    score: str | None = None,
    alpha: float = 0.05,
    n_resamples: int = 1000,
    seed: int = 0,
) -> pd.DataFrame:
    """Discriminability per reviewer with its paper-bootstrap interval
    (:func:`discriminability_interval`).

    Args:
        df: tidy assessments.
        score: score column.
        alpha: two-sided level of the interval.
        n_resamples: bootstrap resamples.
        seed: bootstrap seed.

    Returns:
        DataFrame ``reviewer, n_papers, discriminability, low, high``; ``n_papers`` counts papers
        with an original and at least one rewrite score (NaN values when fewer than two).

    Raises:
        ValueError: on a missing column or an out-of-range score.
    """
    score = score or primary_metric(df)
    rows = []
    for reviewer, wide in _reviewer_tables(df, score):
        if wide.empty:  # no score at all: no row
            continue
        if ORIGINAL not in wide.columns or wide.shape[1] < 2:
            rows.append({"reviewer": reviewer, "n_papers": 0, "discriminability": np.nan, "low": np.nan,
                         "high": np.nan})
            continue
        original, values, paper = _discriminability_input(wide)
        usable = int((~np.isnan(original) & (np.bincount(paper, minlength=len(original)) > 0)).sum())
        point, low, high = discriminability_interval(original, values, paper, alpha=alpha,
                                                     n_resamples=n_resamples, seed=seed)
        rows.append({"reviewer": reviewer, "n_papers": usable, "discriminability": point, "low": low,
                     "high": high})
    return pd.DataFrame(rows, columns=["reviewer", "n_papers", "discriminability", "low", "high"])


def _reviewer_tables(df: pd.DataFrame, score: str) -> Iterator[tuple[str, pd.DataFrame]]:
    """Each reviewer (sorted) with its paper x arm table of paper scores (index ``document_id``,
    columns ``arm``, both sorted): the papers and arms with at least one score; empty without any.

    Raises:
        ValueError: as :func:`rhetorica.analysis.paired.paper_scores`.
    """
    w = wide_paper_scores(df, score)
    values = w.table.to_numpy(dtype=float)
    documents = w.table.index.get_level_values("document_id")
    for i, reviewer in enumerate(w.reviewers):
        rows = np.flatnonzero(w.codes == i)
        has = ~np.isnan(values[rows])
        papers, arms = has.any(axis=1), has.any(axis=0)
        yield reviewer, pd.DataFrame(values[rows[papers]][:, arms], index=documents[rows[papers]],
                                     columns=w.table.columns[arms])


def false_robustness(mad: float, disc: float, low_drift: float, chance_margin: float) -> bool | None:
    """The false-robustness flag: ``mad <= low_drift`` and ``disc <= 0.5 + chance_margin``; ``None``
    (not computable, neither yes nor no) unless both MAD and discriminability are computed, so a
    configuration with 0 or 1 paper, or with every original tied, gets no verdict."""
    if not (np.isfinite(mad) and np.isfinite(disc)):
        return None
    return bool(mad <= low_drift and disc <= 0.5 + chance_margin)


def _reviewer_row(
    wide: pd.DataFrame, human: pd.Series, low_drift: float, chance_margin: float
) -> dict[str, object]:
    scored = ~np.isnan(wide.to_numpy())
    row: dict[str, object] = {
        "n_papers": int(wide.shape[0]),
        "n_variants": int(scored.sum()),
    }
    # the (paper, arm) scores in paper then arm order, grouped by paper
    ow = one_way(wide.to_numpy()[scored], np.nonzero(scored)[0])
    row["icc1"], row["spr"] = ow.icc1, ow.spr
    complete = np.ascontiguousarray(wide.dropna().to_numpy())  # row-major: numpy's sums in one order
    row["icc_a1"] = icc_a1(complete) if wide.shape[1] >= 2 else np.nan
    if ORIGINAL in wide.columns:
        base = wide[ORIGINAL]
        rewrites = wide.drop(columns=[ORIGINAL])
        drift = rewrites.sub(base, axis=0).to_numpy().ravel()
        drift = drift[~np.isnan(drift)]
        row["mad"] = float(np.mean(np.abs(drift))) if drift.size else np.nan
        row["drift_sd"] = float(np.std(drift, ddof=1)) if drift.size >= 2 else np.nan
        row["discriminability"] = discriminability(*_discriminability_input(wide))
        h = human.reindex(base.index)
        both = base.notna() & h.notna()
        row["n_human"] = int(both.sum())
        row["human_mae"] = float((base[both] - h[both]).abs().mean()) if both.any() else np.nan
        if both.sum() >= 2:

            row["human_spearman"] = float(spearmanr(base[both], h[both]).statistic)
        else:
            row["human_spearman"] = np.nan
    else:
        row.update(
            mad=np.nan,
            drift_sd=np.nan,
            discriminability=np.nan,
            n_human=0,
            human_mae=np.nan,
            human_spearman=np.nan,
        )
    mad, disc = float(row["mad"]), float(row["discriminability"])  # type: ignore[arg-type]
    row["false_robustness"] = false_robustness(mad, disc, low_drift, chance_margin)
    return row


def robustness_table(
    df: pd.DataFrame,
    *,
    score: str | None = None,
    low_drift: float = 0.25,
    chance_margin: float = 0.05,
) -> pd.DataFrame:
    """The RobustReview metrics, one row per reviewer configuration.

    Args:
        df: tidy assessments (``human_score`` optional, on the same scale as ``score``).
        score: score column.
        low_drift: MAD (score points) at or below which a reviewer counts as "stable" for the
            false-robustness flag.
        chance_margin: discriminability within this distance above 0.5 counts as chance.

    Returns:
        DataFrame with :data:`ROBUSTNESS_COLUMNS` (see the module docstring for each measure);
        ``n_papers`` papers with at least one score, ``n_variants`` paper-arm scores.

    Raises:
        ValueError: on a missing column or an out-of-range score.
    """
    score = score or primary_metric(df)
    tables = list(_reviewer_tables(df, score))
    human = document_info(df)["human_score"]
    rows = []
    for reviewer, wide in tables:
        row = _reviewer_row(wide, human, low_drift, chance_margin)
        row["reviewer"] = reviewer
        rows.append(row)
    return pd.DataFrame(rows, columns=ROBUSTNESS_COLUMNS)
