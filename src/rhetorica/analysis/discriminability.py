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
(O(n x blocks), no n x n matrix). Every bootstrap resample's numerator is ``d K d`` for its paper
counts ``d`` and ``K = P * [o_i > o_j]``, computed in float64 without forming the n x n ``K``
(:func:`_resampled_numerators`: cumulative sums over chunks of the paper order and smaller value blocks,
the light blocks' rewrite pairs and each chunk's own small kernel); its denominator
``(n^2 - sum_g (paper count in original tie group g)^2) / 2`` is exact.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from functools import lru_cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from scipy import sparse
from threadpoolctl import threadpool_limits

from rhetorica.analysis.bootstrap import resample_counts

Array = npt.NDArray[np.float64]

BLOCK = 128
"""Rewrites per light block (and the count from which one value is a block of its own): the
matrix products cost about ``n^2 x rewrites / BLOCK``, the pair-by-pair part ``rewrites x BLOCK``."""
BOOTSTRAP_BLOCK = 32
"""Rewrites per light block in the bootstrap (:func:`_resampled_numerators`): its cost per resample is
about ``chunks x rewrites / BOOTSTRAP_BLOCK`` cumulative sums plus ``rewrites x BOOTSTRAP_BLOCK``
products."""
CHUNK = 512
"""Papers per chunk of the paper order in the bootstrap (tie groups are never split)."""
RESAMPLE_BATCH = 64
"""Resamples whose between-chunk sums are formed together in :func:`_resampled_numerators` (their
``batch x blocks`` arrays fit in a core's cache; each resample's sums are the same in any batch)."""


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
    block: npt.NDArray[np.intp]  # (N,) block of each rewrite
    heavy: npt.NDArray[np.bool_]  # (nb,) single-value blocks
    light: list[npt.NDArray[np.intp]]  # rewrite indices of each light block


def _blocks(prep: _Prepared, size: int | None = None, *, weights: bool = True) -> _Blocks:
    """Value blocks of the rewrites, ``size`` rewrites each (default :data:`BLOCK`); ``weights``
    False leaves ``H`` empty ``(0, nb)``."""
    n, vals, size = len(prep.original), prep.values, size or BLOCK
    uniq, rank, counts = np.unique(vals, return_inverse=True, return_counts=True)
    heavy_value = counts >= size
    segment = np.cumsum(heavy_value)  # light values between two heavy ones share a segment
    light_counts = np.where(heavy_value, 0, counts)
    chunk = np.where(heavy_value, -1, (np.cumsum(light_counts) - light_counts) // size)
    key = segment.astype(np.int64) * (len(vals) + 2) + chunk + 1  # increasing with the value
    block_keys, block_of_value = np.unique(key, return_inverse=True)
    nb = len(block_keys)
    b = block_of_value[rank]
    h = (np.bincount(prep.paper * nb + b, weights=prep.weight, minlength=n * nb).reshape(n, nb) if weights
         else np.zeros((0, nb)))
    heavy = np.zeros(nb, dtype=bool)
    heavy[block_of_value[heavy_value]] = True
    order = np.argsort(b, kind="stable")
    bounds = np.searchsorted(b[order], np.arange(nb + 1))
    light = [order[bounds[k] : bounds[k + 1]] for k in np.flatnonzero(~heavy)]
    return _Blocks(h, b, heavy, light)


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


def _ordered_pairs(starts: npt.NDArray[np.intp], n: int) -> float:
    """Number of ordered paper pairs (originals not tied): ``(n^2 - sum_g size_g^2) / 2`` over the
    tie groups of the ``n`` sorted originals starting at ``starts``; the statistic's denominator."""
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
        random rewrite of each; NaN (not computable) when there is no ordered pair: fewer than
        two papers with both an original and a rewrite, or every such original ties (the mean's
        denominator, :func:`_ordered_pairs`, is 0).
    """
    prep = _prepare(original, variant_scores, variant_paper)
    return np.nan if prep is None else _shared_point(prep)


POINT_CACHE_SIZE = 64
"""Point estimates kept by :func:`_shared_point` (a digest and a float each)."""
_points: OrderedDict[bytes, float] = OrderedDict()
_points_lock = threading.Lock()


def _shared_point(prep: _Prepared) -> float:
    """:func:`_point` of ``prep``, computed once for the same input: the scorecard's
    :func:`discriminability_interval` and the robustness table's :func:`discriminability` read the
    same reviewers' scores. Keyed on a BLAKE2b digest of :data:`BLOCK` and the exact prepared arrays
    (their lengths and bytes); the last :data:`POINT_CACHE_SIZE` results are kept."""
    digest = hashlib.blake2b(BLOCK.to_bytes(8, "little"), digest_size=32)
    for part in (prep.original, prep.values, prep.paper):
        digest.update(len(part).to_bytes(8, "little"))
        digest.update(np.ascontiguousarray(part).tobytes())
    key = digest.digest()
    with _points_lock:
        if key in _points:
            _points.move_to_end(key)
            return _points[key]
    value = _point(prep, _blocks(prep))
    with _points_lock:
        _points[key] = value
        while len(_points) > POINT_CACHE_SIZE:
            _points.popitem(last=False)
    return value


def _point(prep: _Prepared, blocks: _Blocks) -> float:
    count = _ordered_pairs(prep.starts, len(prep.original))
    if count == 0:
        return np.nan
    h = blocks.weights
    # pairs in different blocks (the higher block wins) and inside heavy blocks (ties)
    lower = np.cumsum(h, axis=1)
    lower -= h
    heavy = np.flatnonzero(blocks.heavy)
    lower[:, heavy] += 0.5 * h[:, heavy]
    total = float(np.sum(h * _below(lower, prep.starts)))
    o = prep.original[prep.paper]
    for idx in blocks.light:  # pairs inside a light block, rewrite by rewrite
        w = prep.weight[idx]
        total += float(np.sum(_step(prep.values[idx]) * (o[idx][:, None] > o[idx][None, :]) * np.outer(w, w)))
    return total / count


def _chunk_of_paper(starts: npt.NDArray[np.intp], n: int) -> npt.NDArray[np.intp]:
    """Chunk of each paper (in the paper order): tie groups starting in the same window of
    :data:`CHUNK` papers form one chunk, so a tie group is never split and chunk order is original
    order (every paper of a higher chunk has a strictly higher original)."""
    window = starts // CHUNK
    first = np.r_[True, window[1:] != window[:-1]]
    chunk_starts = starts[first]
    return np.repeat(np.arange(len(chunk_starts)), np.diff(np.r_[chunk_starts, n]))


def _resampled_numerators(prep: _Prepared, counts: Array) -> Array:
    """``d K d`` for every column ``d`` of ``counts`` (paper counts in the paper order, ``(n, B)``),
    ``K[i, j] = (P(Y_i > Y_j) + 0.5 P(Y_i = Y_j)) [o_i > o_j]``, in float64 without forming ``K``.

    The rewrites are cut into value blocks of :data:`BOOTSTRAP_BLOCK` (:func:`_blocks`) and the
    papers into chunks (:func:`_chunk_of_paper`). A rewrite pair is counted once, in one of three parts:

    - papers in different chunks, rewrites in different blocks or in one heavy block: decided by
      the chunk and block order (ties 1/2): chunk by chunk, each resample's rewrite weight per block
      against the exclusive cumulative sum over the blocks of the lower chunks' weights;
    - papers in one chunk, rewrites in different blocks or in one heavy block: the chunk's
      ``m x m`` kernel (higher original only) applied to every resample;
    - rewrites in one light block (any chunks, higher original): compared one by one, a small
      ``s x s`` matrix per block applied to every resample.

    Cost about ``B x (chunks x blocks + papers x CHUNK + rewrites x BOOTSTRAP_BLOCK)``.
    """
    n, n_cols = counts.shape
    blocks = _blocks(prep, BOOTSTRAP_BLOCK, weights=False)
    nb, o = len(blocks.heavy), prep.original
    chunk = _chunk_of_paper(prep.starts, n)
    bounds = np.flatnonzero(np.r_[True, chunk[1:] != chunk[:-1], True])
    rewrites = np.argsort(prep.paper, kind="stable")
    first_rewrite = np.searchsorted(prep.paper[rewrites], bounds)
    heavy = np.flatnonzero(blocks.heavy)
    cells, own_pairs = [], np.zeros((len(bounds) - 1, n_cols))
    for c, (a, b, ra, rb) in enumerate(zip(bounds[:-1], bounds[1:], first_rewrite[:-1], first_rewrite[1:])):
        own = rewrites[ra:rb]
        cells.append(sparse.csr_array((prep.weight[own], (blocks.block[own], prep.paper[own] - a)), shape=(nb, b - a)))
        if o[a] != o[b - 1]:  # the chunk's own pairs (a single tie group has none)
            h = np.bincount((prep.paper[own] - a) * nb + blocks.block[own], weights=prep.weight[own],
                            minlength=(b - a) * nb).reshape(b - a, nb)  # H of the chunk's papers
            g = np.cumsum(h, axis=1)  # G: each paper's weight in lower blocks, half of its own heavy one
            g -= h
            g[:, heavy] += 0.5 * h[:, heavy]
            kernel = (cells[c].T @ g.T) * (o[a:b, None] > o[None, a:b])
            d = counts[a:b]
            own_pairs[c] = np.einsum("ir,ir->r", kernel @ d, d)
    total = np.zeros(n_cols)
    for lo in range(0, n_cols, RESAMPLE_BATCH):  # a batch of resamples at a time: its arrays stay in cache
        hi = min(n_cols, lo + RESAMPLE_BATCH)
        lower_chunks = np.zeros((hi - lo, nb))  # rewrite weight per block of the chunks done so far
        for c, (a, b) in enumerate(zip(bounds[:-1], bounds[1:])):
            weight = np.ascontiguousarray((cells[c] @ counts[a:b, lo:hi]).T)  # (batch, nb): this chunk's
            below = np.cumsum(lower_chunks, axis=1)  # (numpy sums along the contiguous axis fastest)
            below -= lower_chunks  # lower chunks, lower blocks
            below[:, heavy] += 0.5 * lower_chunks[:, heavy]  # lower chunks, the same heavy block
            total[lo:hi] += np.einsum("rb,rb->r", weight, below)
            total[lo:hi] += own_pairs[c, lo:hi]
            lower_chunks += weight
    for idx in blocks.light:  # one light block: rewrite pairs compared one by one
        p, w, y = prep.paper[idx], prep.weight[idx], prep.values[idx]
        pair = _step(y) * np.outer(w, w) * (o[p][:, None] > o[p][None, :])
        d = counts[p]
        total += np.einsum("ir,ir->r", pair @ d, d)
    return total


@lru_cache(maxsize=1)
def _float_counts(n: int, n_resamples: int, seed: int) -> Array:
    """Read-only float64 :func:`resample_counts` of ``default_rng(seed)``, transposed to
    ``(n, n_resamples)``; one set is kept, as every reviewer of a study with the same number of
    papers resamples with the same counts."""
    counts = np.ascontiguousarray(resample_counts(n, n_resamples, np.random.default_rng(seed), float).T)
    counts.flags.writeable = False
    return counts


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
    without an ordered pair (every drawn original ties) has no statistic and is left out of the
    quantiles (Efron & Tibshirani's conditional treatment of undefined replicates; never 0.5). The percentile
    bootstrap is Efron & Tibshirani (1993), ch. 13; it is unreliable with few papers, so callers
    should not decide from it below a minimum number of papers.

    Args:
        original, variant_scores, variant_paper: as for :func:`discriminability`.
        alpha: two-sided level; the interval holds the ``alpha/2`` and ``1 - alpha/2`` quantiles.
        n_resamples: bootstrap resamples (>= 1).
        seed: seed of ``numpy.random.default_rng``.

    Returns:
        ``(point, low, high)``, all in [0, 1]; all NaN where the point is not computable
        (:func:`discriminability`: no ordered pair). Memory:
        a few ``n_resamples x n_papers`` float64 arrays (the last resample counts stay cached,
        :func:`_float_counts`); no ``n_papers x n_papers`` matrix. The BLAS runs on one thread
        while the resamples are summed.
    """
    prep = _prepare(original, variant_scores, variant_paper)
    point = np.nan if prep is None else _shared_point(prep)
    if prep is None or not np.isfinite(point):
        return np.nan, np.nan, np.nan
    n = len(prep.original)
    counts = _float_counts(n, n_resamples, seed)
    with threadpool_limits(limits=1, user_api="blas"):  # many small products: BLAS threads only add CPU
        num = _resampled_numerators(prep, counts)
    tie_group = np.repeat(np.arange(len(prep.starts)), np.diff(np.r_[prep.starts, n]))
    groups = sparse.csr_array((np.ones(n), (tie_group, np.arange(n))), shape=(len(prep.starts), n)) @ counts
    den = (float(n) ** 2 - np.einsum("gr,gr->r", groups, groups)) / 2
    stats = num[den > 0] / den[den > 0]
    if stats.size == 0:
        return point, np.nan, np.nan
    low, high = np.quantile(stats, [alpha / 2, 1 - alpha / 2])
    return point, float(low), float(high)
