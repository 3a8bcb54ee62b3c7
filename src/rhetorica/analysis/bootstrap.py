"""Stratified paper-level percentile bootstrap (the six-dimension study's confidence intervals).

Papers are resampled with replacement *within* each human-rating stratum, keeping every stratum's
size, and the statistic gives each stratum equal weight (Efron & Tibshirani 1993, "An Introduction
to the Bootstrap", ch. 13 percentile interval; stratified resampling as in Davison & Hinkley 1997,
Sec. 3.7).
"""

from __future__ import annotations

from collections.abc import Sequence

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


def _stratum_counts(n: int, position: int, n_resamples: int, seed: int) -> Array:
    """``(B, n)`` resample counts (draws of n papers with replacement, B times) of the stratum
    at ``position`` with ``n`` papers.

    Its random stream is seeded by ``(seed, position, n)`` alone, so the draws of one stratum do
    not depend on the other strata: inputs differing in one stratum's size share the rest.
    """
    rng = np.random.default_rng([seed, position, n])
    idx = rng.integers(0, n, size=(n_resamples, n), dtype=np.int32)
    rows = np.arange(n_resamples, dtype=np.int64)[:, None] * n
    counts = np.bincount((rows + idx).ravel(), minlength=n_resamples * n)
    return counts.reshape(n_resamples, n).astype(float)


def stratified_bootstrap_many(
    items: Sequence[tuple[Array, npt.ArrayLike]],
    *,
    n_resamples: int = 5000,
    seed: int = 0,
) -> list[Array]:
    """Bootstrap distributions of :func:`stratum_weighted_mean` for several inputs at once.

    Papers are resampled with replacement within each stratum (strata in order of first
    appearance; each stratum's draws come from its own stream, see :func:`_stratum_counts`) and
    every resample's statistic is ``sum_s mean_s / S``, computed as one matrix product of the
    resample counts with the values. Inputs with equal stratum sizes share their draws (common
    random numbers), so each result equals
    ``stratified_bootstrap(values, strata, n_resamples=..., seed=...)``.

    Args:
        items: ``(values, strata)`` pairs; values ``(n_papers, k)`` without NaN.
        n_resamples: number of resamples B (>= 1).
        seed: seed of ``numpy.random.default_rng``.

    Returns:
        One ``(B, k)`` array per item, in order.

    Raises:
        ValueError: on ``n_resamples < 1``, NaN values or an item without papers.
    """
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be >= 1, got {n_resamples}")
    prepared = []
    for values, strata in items:
        v = np.asarray(values, dtype=float).reshape(len(values), -1)
        labels = np.asarray(strata, dtype=object)
        if len(v) == 0:
            raise ValueError("bootstrap needs at least one paper")
        if np.isnan(v).any():
            raise ValueError("bootstrap values contain NaN; drop missing papers first")
        groups = _unique(labels)
        order = np.concatenate([np.flatnonzero(labels == g) for g in groups])
        sizes = tuple(int(np.sum(labels == g)) for g in groups)
        prepared.append((sizes, v[order]))
    results: list[Array | None] = [None] * len(prepared)
    by_sizes: dict[tuple[int, ...], list[int]] = {}
    for i, (sizes, _) in enumerate(prepared):
        by_sizes.setdefault(sizes, []).append(i)
    counts: dict[tuple[int, int], Array] = {}
    for sizes, members in by_sizes.items():
        stacked = np.hstack([prepared[i][1] for i in members])
        samples = np.zeros((n_resamples, stacked.shape[1]))
        first = 0
        for position, n in enumerate(sizes):
            if (position, n) not in counts:
                counts[(position, n)] = _stratum_counts(n, position, n_resamples, seed)
            # resampled stratum mean, weighted 1/S
            samples += counts[(position, n)] @ (stacked[first : first + n] / (n * len(sizes)))
            first += n
        start = 0
        for i in members:
            k = prepared[i][1].shape[1]
            results[i] = samples[:, start : start + k]
            start += k
    return [r for r in results if r is not None]


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
        ValueError: on ``n_resamples < 1``, NaN values or no papers.
    """
    return stratified_bootstrap_many([(values, strata)], n_resamples=n_resamples, seed=seed)[0]


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
