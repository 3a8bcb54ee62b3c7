"""Stratified paper-level percentile bootstrap (the six-dimension study's confidence intervals).

Papers are resampled with replacement *within* each human-rating stratum, keeping every stratum's
size, once for every statistic computed on those papers, and the statistic gives each stratum
equal weight (Efron & Tibshirani 1993, "An Introduction
to the Bootstrap", ch. 13 percentile interval; stratified resampling as in Davison & Hinkley 1997,
Sec. 3.7).
"""

from __future__ import annotations

import warnings

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.float64]


def stratum_weighted_mean(values: Array, strata: npt.ArrayLike) -> Array:
    """Mean per stratum, then the unweighted mean of the stratum means.

    Args:
        values: ``(n_papers, k)`` per-paper statistics (no NaN).
        strata: ``(n_papers,)`` stratum label of each paper.

    Returns:
        ``(k,)`` equal-stratum-weight means (NaN for ``n_papers == 0``).
    """
    values = np.asarray(values, dtype=float).reshape(len(values), -1)
    labels = np.asarray(strata, dtype=object)
    if len(values) == 0:
        return np.full(values.shape[1], np.nan)
    means = [values[labels == s].mean(axis=0) for s in _unique(labels)]
    return np.mean(means, axis=0)


def _unique(labels: npt.NDArray[np.object_]) -> list[object]:
    seen: dict[object, None] = {}
    for s in labels:
        seen.setdefault(s, None)
    return list(seen)


def resample_counts(
    n: int, n_resamples: int, rng: np.random.Generator, dtype: npt.DTypeLike = np.int64
) -> npt.NDArray[np.int64] | Array:
    """``(n_resamples, n)`` counts of n draws with replacement from n items, one row per resample.

    The draws are counted a block of rows at a time (each block's counts fit in the processor's
    cache: several times faster than counting all rows at once, and faster than sorting the draws);
    the counts depend only on ``n``, ``n_resamples`` and the state of ``rng``. ``dtype`` is the
    array's type (``float`` for products: the counts are converted as they are stored).
    """
    draws = rng.integers(0, n, size=(n_resamples, n), dtype=np.int64 if n > 2**31 - 1 else np.int32)
    counts = np.empty((n_resamples, n), dtype=dtype)
    step = max(1, _COUNT_BLOCK // max(n, 1))
    for first in range(0, n_resamples, step):
        last = min(n_resamples, first + step)
        flat = (np.arange(last - first, dtype=np.int64)[:, None] * n + draws[first:last]).ravel()
        counts[first:last] = np.bincount(flat, minlength=(last - first) * n).reshape(last - first, n)
    return counts


_COUNT_BLOCK = 1 << 18
"""Counts per block of rows in :func:`resample_counts` (2 MiB of int64)."""


def stratified_bootstrap_columns(
    values: Array,
    strata: npt.ArrayLike,
    *,
    n_resamples: int = 5000,
    seed: int = 0,
) -> Array:
    """Bootstrap distributions of the equal-stratum-weight mean of many statistics at once.

    The papers (rows) are resampled once per stratum (strata in order of first appearance, each
    stratum's draws from its own stream seeded by ``(seed, position, stratum size)``), and every
    column is averaged over the resampled papers that have it (NaN = the paper lacks that
    statistic): per stratum ``counts @ values / counts @ present``, then the unweighted mean over the
    strata in which the column has at least one paper. A column without missing values is the
    stratified bootstrap of :func:`stratum_weighted_mean` (stratum sizes kept); a column with
    missing papers is the case-resampling (ratio) bootstrap of the same mean, whose resample is
    undefined (NaN) when it draws none of the column's papers of one of its strata. A column that
    no stratum holds for two papers or more (:func:`resamplable`) has no bootstrap distribution
    (every resample would repeat the point estimate, a zero-width interval from one paper per
    stratum): all its resamples are NaN, so its interval is not computable.

    Args:
        values: ``(n_papers, k)`` per-paper statistics, NaN where a paper has none.
        strata: ``(n_papers,)`` stratum label of each paper.
        n_resamples: number of resamples B (>= 1).
        seed: seed of ``numpy.random.default_rng``.

    Returns:
        ``(B, k)`` resampled statistics; NaN for a column that is not :func:`resamplable` and for
        undefined resamples.

    Raises:
        ValueError: on ``n_resamples < 1`` or no papers.
    """
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be >= 1, got {n_resamples}")
    v = np.asarray(values, dtype=float).reshape(len(values), -1)
    if len(v) == 0:
        raise ValueError("bootstrap needs at least one paper")
    labels = np.asarray(strata, dtype=object)
    present = ~np.isnan(v)
    filled = np.where(present, v, 0.0)
    total = np.zeros((n_resamples, v.shape[1]))
    n_strata = np.zeros(v.shape[1])
    for position, group in enumerate(_unique(labels)):
        rows = np.flatnonzero(labels == group)
        has = present[rows].any(axis=0)
        counts = resample_counts(len(rows), n_resamples, np.random.default_rng([seed, position, len(rows)]), float)
        # papers drawn per column: integer sums (exact in any order), one product per distinct pattern
        patterns, column_pattern = np.unique(present[rows], axis=1, return_inverse=True)
        drawn = (counts @ patterns.astype(float))[:, column_pattern.ravel()]
        with np.errstate(invalid="ignore", divide="ignore"):
            means = (counts @ filled[rows]) / drawn
        total += np.where(has, means, 0.0)
        n_strata += has
    with np.errstate(invalid="ignore"):
        out = total / np.where(n_strata > 0, n_strata, np.nan)
    out[:, ~resamplable(v, labels)] = np.nan
    return out


def resamplable(values: Array, strata: npt.ArrayLike) -> npt.NDArray[np.bool_]:
    """Per column of ``values`` (``(n_papers, k)``, NaN = paper without the statistic): whether some
    stratum holds the statistic for at least two papers. Only then can a within-stratum resample
    differ from the sample, so only then does a paper bootstrap give an interval; with one paper
    (or one per stratum) there is none."""
    v = np.asarray(values, dtype=float).reshape(len(values), -1)
    labels = np.asarray(strata, dtype=object)
    present = ~np.isnan(v)
    out = np.zeros(v.shape[1], dtype=bool)
    for group in _unique(labels):
        out |= present[labels == group].sum(axis=0) >= 2
    return out


def stratified_bootstrap(
    values: Array,
    strata: npt.ArrayLike,
    *,
    n_resamples: int = 5000,
    seed: int = 0,
) -> Array:
    """Bootstrap distribution of :func:`stratum_weighted_mean`.

    Args:
        values: ``(n_papers, k)`` per-paper statistics (no NaN).
        strata: ``(n_papers,)`` stratum labels.
        n_resamples: number of resamples B (>= 1).
        seed: seed of ``numpy.random.default_rng``; the same seed and input give the same output.

    Returns:
        ``(B, k)`` array of resampled statistics (:func:`stratified_bootstrap_columns`).

    Raises:
        ValueError: on ``n_resamples < 1``, NaN values or no papers.
    """
    v = np.asarray(values, dtype=float)
    if np.isnan(v).any():
        raise ValueError("bootstrap values contain NaN; drop missing papers first")
    return stratified_bootstrap_columns(v, strata, n_resamples=n_resamples, seed=seed)


def percentile_ci(samples: Array, level: float = 0.95) -> tuple[Array, Array]:
    """Percentile interval of bootstrap samples.

    Args:
        samples: ``(B, k)`` resampled statistics.
        level: coverage in (0, 1).

    Returns:
        ``(low, high)`` arrays of shape ``(k,)``: the ``(1-level)/2`` and ``(1+level)/2``
        quantiles (numpy's default linear interpolation) of each column's defined (non-NaN)
        resamples; NaN for a column without any.

    Raises:
        ValueError: if ``level`` is not in (0, 1).
    """
    if not 0 < level < 1:
        raise ValueError(f"confidence level must lie in (0, 1), got {level}")
    alpha = (1 - level) / 2
    if np.isnan(samples).any():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN columns stay NaN
            low, high = np.nanquantile(samples, [alpha, 1 - alpha], axis=0)
    else:
        low, high = np.quantile(samples, [alpha, 1 - alpha], axis=0)
    return low, high
