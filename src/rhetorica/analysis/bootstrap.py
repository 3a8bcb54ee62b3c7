"""Stratified paper-level percentile bootstrap (the six-dimension study's confidence intervals).

Papers are resampled with replacement *within* each human-rating stratum, keeping every stratum's
size, and the statistic gives each stratum equal weight (Efron & Tibshirani 1993, "An Introduction
to the Bootstrap", ch. 13 percentile interval; stratified resampling as in Davison & Hinkley 1997,
Sec. 3.7).
"""

from __future__ import annotations

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
        ``(B, k)`` array of resampled statistics.

    Raises:
        ValueError: on ``n_resamples < 1``, NaN values, or no papers.
    """
    values = np.asarray(values, dtype=float).reshape(len(values), -1)
    labels = np.asarray(strata, dtype=object)
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be >= 1, got {n_resamples}")
    if len(values) == 0:
        raise ValueError("bootstrap needs at least one paper")
    if np.isnan(values).any():
        raise ValueError("bootstrap values contain NaN; drop missing papers first")
    rng = np.random.default_rng(seed)
    total = np.zeros((n_resamples, values.shape[1]))
    groups = _unique(labels)
    for s in groups:
        block = values[labels == s]
        idx = rng.integers(0, len(block), size=(n_resamples, len(block)))
        total += block[idx].mean(axis=1)
    return total / len(groups)


def percentile_ci(samples: Array, level: float = 0.95) -> tuple[Array, Array]:
    """Percentile interval of bootstrap samples.

    Args:
        samples: ``(B, k)`` resampled statistics.
        level: coverage in (0, 1).

    Returns:
        ``(low, high)`` arrays of shape ``(k,)``: the ``(1-level)/2`` and ``(1+level)/2``
        quantiles (numpy's default linear interpolation).

    Raises:
        ValueError: if ``level`` is not in (0, 1).
    """
    if not 0 < level < 1:
        raise ValueError(f"confidence level must lie in (0, 1), got {level}")
    alpha = (1 - level) / 2
    low, high = np.quantile(samples, [alpha, 1 - alpha], axis=0)
    return low, high
