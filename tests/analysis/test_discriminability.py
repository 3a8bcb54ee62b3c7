"""The matrix form of discriminability against a pair-by-pair computation (tests/analysis/test_robustness.py
holds the hand-computed cases)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from rhetorica.analysis import discriminability as disc
from rhetorica.analysis.discriminability import (
    _blocks,
    _kernel,
    _prepare,
    discriminability,
    discriminability_interval,
)
from rhetorica.analysis.bootstrap import resample_counts


def brute(orig: np.ndarray, groups: list[np.ndarray]) -> tuple[float, np.ndarray]:
    """Mean over ordered pairs, and the pair matrix P[i, j] * [o_i > o_j] in input order."""
    n = len(orig)
    kernel = np.zeros((n, n))
    for i, j in itertools.permutations(range(n), 2):
        if orig[i] > orig[j]:
            kernel[i, j] = np.mean([1.0 if a > b else 0.5 if a == b else 0.0 for a in groups[i] for b in groups[j]])
    higher = orig[:, None] > orig[None, :]
    return float(kernel[higher].mean()), kernel


def data(seed: int, n: int, continuous: bool) -> tuple[np.ndarray, list[np.ndarray]]:
    rng = np.random.default_rng(seed)
    orig = rng.integers(1, 6, n).astype(float)  # many tied originals
    groups = []
    for _ in range(n):
        k = int(rng.integers(1, 5))
        g = rng.normal(5, 2, k) if continuous else rng.integers(1, 11, k).astype(float)
        if continuous and k > 1:
            g[0] = 5.0  # a value shared across papers (ties inside light blocks)
        groups.append(g)
    return orig, groups


@pytest.mark.parametrize(("seed", "continuous", "block"), [(0, True, 4), (1, True, 3), (2, False, 4), (3, True, 1000)])
def test_point_and_kernel_equal_pair_by_pair(seed: int, continuous: bool, block: int, monkeypatch) -> None:
    # block 3-4: values split into many light blocks and heavy ones; 1000: one light block holds all
    monkeypatch.setattr(disc, "BLOCK", block)
    orig, groups = data(seed, 25, continuous)
    vals = np.concatenate(groups)
    paper = np.repeat(np.arange(len(orig)), [len(g) for g in groups])
    expected, expected_kernel = brute(orig, groups)
    assert discriminability(orig, vals, paper) == pytest.approx(expected, rel=1e-12)
    prep = _prepare(orig, vals, paper)
    blocks = _blocks(prep)
    if block < 5:
        assert blocks.heavy.any() and blocks.light  # both kinds of block are exercised
    order = np.argsort(orig, kind="stable")
    lower = np.tril(_kernel(prep, blocks), -1)  # float32; the part above the diagonal is never read
    assert np.allclose(lower, expected_kernel[np.ix_(order, order)], rtol=0, atol=1e-6)


def test_skipped_papers_and_interval_against_explicit_resamples() -> None:
    orig = np.array([3.0, np.nan, 5.0, 4.0, 4.0, 9.0])
    groups = [np.array([3.0, 4.0]), np.array([2.0]), np.array([5.5]), np.array([4.0]), np.array([]), np.array([8.0, 5.5])]
    vals = np.concatenate(groups)
    paper = np.repeat(np.arange(6), [len(g) for g in groups])
    kept = [0, 2, 3, 5]  # NaN original and a paper without rewrites are left out
    point, low, high = discriminability_interval(orig, vals, paper, n_resamples=200, seed=4)
    assert point == pytest.approx(brute(orig[kept], [groups[i] for i in kept])[0], rel=1e-12)
    # the same resamples by hand: paper counts in the order of the originals (3, 4, 5, 9)
    counts = resample_counts(4, 200, np.random.default_rng(4))
    by_hand = []
    for row in counts:
        chosen = [i for i, c in zip([0, 3, 2, 5], row) for _ in range(c)]
        o = orig[chosen]
        pairs = [(a, b) for a, b in itertools.permutations(range(len(chosen)), 2) if o[a] > o[b]]
        if not pairs:
            by_hand.append(0.5)
            continue
        _, kernel = brute(o, [groups[i] for i in chosen])
        by_hand.append(kernel[o[:, None] > o[None, :]].mean())
    q = np.quantile(by_hand, [0.025, 0.975])
    assert (low, high) == pytest.approx(tuple(q), rel=1e-6)


def test_resample_counts_rows_sum_to_n() -> None:
    counts = resample_counts(7, 1000, np.random.default_rng(0))
    assert counts.shape == (1000, 7) and (counts.sum(axis=1) == 7).all()
    assert counts.mean() == pytest.approx(1.0) and counts.var() == pytest.approx(6 / 7, rel=0.05)  # multinomial variance


@pytest.mark.parametrize(("seed", "block"), [(0, 4), (1, 16), (2, 1000)])
def test_kernel_light_blocks_add_like_numpy_add_at(seed: int, block: int, monkeypatch) -> None:
    # papers with several rewrites in one light block hit one kernel cell several times: the rounds
    # must give the float32 sums of numpy.add.at, bit for bit
    monkeypatch.setattr(disc, "BLOCK", block)
    orig, groups = data(seed, 40, continuous=True)
    vals = np.concatenate(groups)
    paper = np.repeat(np.arange(len(orig)), [len(g) for g in groups])
    prep = _prepare(orig, vals, paper)
    blocks = _blocks(prep)
    h = blocks.weights.astype(np.float32)
    expected = h @ (np.cumsum(h, axis=1) - h + np.float32(0.5) * h * blocks.heavy).T
    n = len(prep.original)
    for idx in blocks.light:
        p, w, y = prep.paper[idx], prep.weight[idx], prep.values[idx]
        step = (y[:, None] > y[None, :]) + 0.5 * (y[:, None] == y[None, :])
        np.add.at(expected.ravel(), (p[:, None] * n + p[None, :]).ravel(), (step * np.outer(w, w)).ravel())
    tied = prep.original[:, None] == prep.original[None, :]
    expected[tied] = 0.0  # papers with tied originals form no ordered pair
    assert any(len(np.unique(prep.paper[idx])) < len(idx) for idx in blocks.light)  # repeated papers occur
    assert np.array_equal(np.tril(_kernel(prep, blocks), -1), np.tril(expected, -1))
