"""Discriminability of a reviewer and its paper-bootstrap interval, in matrix form.

Definition (RobustReview, STUDIES.md §4; see :mod:`rhetorica.analysis.robustness`): over the
ordered paper pairs (original of paper i scored above that of paper j), the mean of
``P(Y_i > Y_j) + 0.5 P(Y_i = Y_j)`` for a random rewrite score ``Y`` of each paper.

Computation. Papers are sorted by their original score; each rewrite carries the weight
``1 / (rewrites of its paper)``. The distinct rewrite values are cut, in value order, into blocks:
a value with at least :data:`BLOCK` rewrites is a block of its own ("heavy": every pair inside
ties), lighter values are pooled into blocks of about :data:`BLOCK` rewrites ("light"). ``H[i, b]`` is paper
i's rewrite weight in block b. A pair of rewrites in different blocks is decided by the block
order, so that part of ``P`` is ``H @ (cumsum(H) - H).T``; a pair inside a heavy block ties
(``0.5 H @ H.T`` over the heavy blocks); pairs inside a light block are compared one by one
(fewer than ``(2 BLOCK)^2`` per block) and added at their papers. Integer scales (and replicate means of them) have only heavy
blocks, so ``P`` is a few matrix products; continuous scores add one small matrix per light block.

The point estimate sums over the ordered pairs with exclusive cumulative sums over the paper order
(O(n x blocks), no n x n matrix). The bootstrap needs the n x n kernel ``K = P * [o_i > o_j]``
(lower triangular in the paper order, float32); every resample's numerator is ``d K d`` for its paper
counts ``d`` (float32 products over the lower triangle, relative error ~1e-7), its denominator
``(n^2 - sum_g (paper count in original tie group g)^2) / 2`` is exact.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from rhetorica.analysis.bootstrap import resample_counts

Array = npt.NDArray[np.float64]

BLOCK = 128
"""Rewrites per light block (and the count from which one value is a block of its own): the
matrix products cost about ``n^2 x rewrites / BLOCK``, the pair-by-pair part ``rewrites x BLOCK``."""
_TRIANGLE_CHUNKS = 8  # the bootstrap's lower-triangular product in 8 x 8 tiles (~56% of a full one)


class _Prepared(NamedTuple):
    """Papers with an original and a rewrite, sorted by original score, and their rewrites."""

    original: Array  # (n,) ascending
    starts: npt.NDArray[np.intp]  # (g,) first paper of each tie group of ``original``
    values: Array  # (N,) rewrite scores
    paper: npt.NDArray[np.intp]  # (N,) paper position in ``original``
    weight: Array  # (N,) 1 / rewrites of the paper


def _prepare(original: Array, variant_scores: Array, variant_paper: npt.ArrayLike) -> _Prepared | None:
    orig = np.asarray(original, dtype=float)
    vals = np.asarray(variant_scores, dtype=float)
    paper = np.asarray(variant_paper, dtype=np.intp)
    keep = ~np.isnan(orig) & (np.bincount(paper, minlength=len(orig)) > 0)
    papers = np.flatnonzero(keep)
    if len(papers) < 2:
        return None
    order = papers[np.argsort(orig[papers], kind="stable")]
    position = np.full(len(orig), -1, dtype=np.intp)
    position[order] = np.arange(len(order))
    sel = keep[paper]
    p = position[paper[sel]]
    o = orig[order]
    starts = np.flatnonzero(np.r_[True, o[1:] != o[:-1]])
    counts = np.bincount(p, minlength=len(order))
    return _Prepared(o, starts, vals[sel], p, 1.0 / counts[p])


class _Blocks(NamedTuple):
    weights: Array  # (n, nb) H: each paper's rewrite weight per block
    heavy: npt.NDArray[np.bool_]  # (nb,) single-value blocks
    light: list[npt.NDArray[np.intp]]  # rewrite indices of each light block


def _blocks(prep: _Prepared) -> _Blocks:
    n, vals, size = len(prep.original), prep.values, BLOCK
    uniq, rank, counts = np.unique(vals, return_inverse=True, return_counts=True)
    heavy_value = counts >= size
    segment = np.cumsum(heavy_value)  # light values between two heavy ones share a segment
    light_counts = np.where(heavy_value, 0, counts)
    chunk = np.where(heavy_value, -1, (np.cumsum(light_counts) - light_counts) // size)
    key = segment.astype(np.int64) * (len(vals) + 2) + chunk + 1  # increasing with the value
    block_keys, block_of_value = np.unique(key, return_inverse=True)
    nb = len(block_keys)
    b = block_of_value[rank]
    weights = np.bincount(prep.paper * nb + b, weights=prep.weight, minlength=n * nb).reshape(n, nb)
    heavy = np.zeros(nb, dtype=bool)
    heavy[block_of_value[heavy_value]] = True
    order = np.argsort(b, kind="stable")
    bounds = np.searchsorted(b[order], np.arange(nb + 1))
    light = [order[bounds[k] : bounds[k + 1]] for k in np.flatnonzero(~heavy)]
    return _Blocks(weights, heavy, light)


def _below(values: Array, starts: npt.NDArray[np.intp]) -> Array:
    """Row i: the sum of ``values`` over the papers whose original is strictly below paper i's."""
    group = np.add.reduceat(values, starts, axis=0)
    before = np.cumsum(group, axis=0) - group
    sizes = np.diff(np.r_[starts, len(values)])
    return np.repeat(before, sizes, axis=0)


def _step(y: Array, other: Array | None = None) -> Array:
    """``[y_a > y_c] + 0.5 [y_a = y_c]`` for every ``y_a`` of ``y`` and ``y_c`` of ``other``
    (default ``y``)."""
    c = y if other is None else other
    return (y[:, None] > c[None, :]) + 0.5 * (y[:, None] == c[None, :])


def _rounds(paper: npt.NDArray[np.intp]) -> list[npt.NDArray[np.intp]]:
    """Positions of ``paper`` by occurrence: round r holds each paper's (r+1)-th position, in order.

    Adding a light block's rewrite pairs round (rows) by round (columns), in that order, adds the
    pairs of each paper pair in the order ``numpy.add.at`` would (row-major over the block), with
    each cell at most once per round, so every round is one vectorised addition with the same
    float32 rounding as ``add.at``.
    """
    order = np.argsort(paper, kind="stable")
    ordered = paper[order]
    starts = np.r_[True, ordered[1:] != ordered[:-1]]
    first = np.maximum.accumulate(np.where(starts, np.arange(len(ordered)), 0))
    rank = np.empty(len(paper), dtype=np.intp)
    rank[order] = np.arange(len(ordered)) - first
    return [np.flatnonzero(rank == r) for r in range(int(rank.max()) + 1)] if len(paper) else []


def _ordered_pairs(starts: npt.NDArray[np.intp], n: int) -> float:
    sizes = np.diff(np.r_[starts, n]).astype(float)
    return float((n * n - np.sum(sizes**2)) / 2)


def discriminability(original: Array, variant_scores: Array, variant_paper: npt.ArrayLike) -> float:
    """Probability that a rewrite of the higher-rated paper outscores one of the lower-rated.

    Args:
        original: ``(n_papers,)`` score of each paper's original (orders the pairs; NaN papers
            are skipped).
        variant_scores: ``(N,)`` rewrite scores (no NaN).
        variant_paper: ``(N,)`` integer paper index (0..n_papers-1) of each rewrite.

    Returns:
        Mean over ordered paper pairs (i above j) of ``P(Y_i > Y_j) + 0.5 P(Y_i = Y_j)`` for a
        random rewrite of each; 0.5 when every original ties; NaN with fewer than two papers
        having both an original and a rewrite.
    """
    prep = _prepare(original, variant_scores, variant_paper)
    return np.nan if prep is None else _point(prep, _blocks(prep))


def _point(prep: _Prepared, blocks: _Blocks) -> float:
    count = _ordered_pairs(prep.starts, len(prep.original))
    if count == 0:
        return 0.5
    h = blocks.weights
    # pairs in different blocks (the higher block wins) and inside heavy blocks (ties)
    lower = np.cumsum(h, axis=1) - h + 0.5 * h * blocks.heavy
    total = float(np.sum(h * _below(lower, prep.starts)))
    o = prep.original[prep.paper]
    for idx in blocks.light:  # pairs inside a light block, rewrite by rewrite
        w = prep.weight[idx]
        total += float(np.sum(_step(prep.values[idx]) * (o[idx][:, None] > o[idx][None, :]) * np.outer(w, w)))
    return total / count


def _kernel(prep: _Prepared, blocks: _Blocks) -> npt.NDArray[np.float32]:
    """``K[i, j] = (P(Y_i > Y_j) + 0.5 P(Y_i = Y_j)) [o_i > o_j]`` below the diagonal, ``(n, n)``
    float32; the entries above the diagonal are not zeroed (:func:`_lower_quadratic` never reads
    them)."""
    h = blocks.weights.astype(np.float32)
    kernel = h @ (np.cumsum(h, axis=1) - h + np.float32(0.5) * h * blocks.heavy).T
    n = len(prep.original)
    flat = kernel.ravel()
    for idx in blocks.light:  # pairs inside a light block, rewrite by rewrite, added at their papers
        p, w, y = prep.paper[idx], prep.weight[idx], prep.values[idx]
        rounds = _rounds(p)
        for rows in rounds:  # in each (rows, cols) round a cell occurs once: one vectorised addition
            for cols in rounds:
                cells = (p[rows][:, None] * n + p[cols][None, :]).ravel()
                pairs = (_step(y[rows], y[cols]) * np.outer(w[rows], w[cols])).ravel()
                flat[cells] = (flat[cells].astype(np.float64) + pairs).astype(np.float32)
    sizes = np.diff(np.r_[prep.starts, len(prep.original)])
    for start, size in zip(prep.starts[sizes > 1], sizes[sizes > 1]):
        kernel[start : start + size, start : start + size] = 0.0  # tied originals: no ordered pair
    return kernel


def _lower_quadratic(counts: npt.NDArray[np.float32], kernel: npt.NDArray[np.float32]) -> Array:
    """``d L d`` for every row ``d`` of ``counts``, ``L`` the strictly lower triangle of ``kernel``
    (tiles above the diagonal are skipped, diagonal tiles cut to their lower triangle)."""
    n = kernel.shape[0]
    edges = np.linspace(0, n, min(_TRIANGLE_CHUNKS, n) + 1).astype(int)
    out = np.zeros(len(counts))
    for a, b in zip(edges[:-1], edges[1:]):
        if b > a:
            rows = np.concatenate([kernel[a:b, :a], np.tril(kernel[a:b, a:b], -1)], axis=1)
            out += np.einsum("bi,bi->b", counts[:, :b] @ rows.T, counts[:, a:b], dtype=np.float64)
    return out


def discriminability_interval(
    original: Array,
    variant_scores: Array,
    variant_paper: npt.ArrayLike,
    *,
    alpha: float = 0.05,
    n_resamples: int = 1000,
    seed: int = 0,
) -> tuple[float, float, float]:
    """:func:`discriminability` with a percentile bootstrap interval over papers.

    Each resample draws papers with replacement (each with all its rewrites) and recomputes the
    statistic; a pair of copies of one paper ties on the original and is skipped, and a resample
    in which every original ties scores 0.5, as in :func:`discriminability`. The percentile
    bootstrap is Efron & Tibshirani (1993), ch. 13; it is unreliable with few papers, so callers
    should not decide from it below a minimum number of papers.

    Args:
        original, variant_scores, variant_paper: as for :func:`discriminability`.
        alpha: two-sided level; the interval holds the ``alpha/2`` and ``1 - alpha/2`` quantiles.
        n_resamples: bootstrap resamples (>= 1).
        seed: seed of ``numpy.random.default_rng``.

    Returns:
        ``(point, low, high)``, all in [0, 1]; all NaN with fewer than two usable papers. Memory:
        one ``n_papers x n_papers`` float32 matrix.
    """
    prep = _prepare(original, variant_scores, variant_paper)
    if prep is None:
        return np.nan, np.nan, np.nan
    blocks = _blocks(prep)
    point = _point(prep, blocks)
    n = len(prep.original)
    kernel = _kernel(prep, blocks)
    counts = resample_counts(n, n_resamples, np.random.default_rng(seed))
    num = _lower_quadratic(counts.astype(np.float32), kernel)
    groups = np.add.reduceat(counts, prep.starts, axis=1).astype(float)
    den = (float(n) ** 2 - np.sum(groups**2, axis=1)) / 2
    stats = np.where(den > 0, num / np.where(den > 0, den, 1.0), 0.5)
    low, high = np.quantile(stats, [alpha / 2, 1 - alpha / 2])
    return point, float(low), float(high)
