"""The matrix form of discriminability against a pair-by-pair computation (tests/analysis/test_robustness.py
holds the hand-computed cases)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from rhetorica.analysis import discriminability as disc
from rhetorica.analysis.discriminability import (
    _blocks,
    _chunk_of_paper,
    _prepare,
    _resampled_numerators,
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
def test_point_equals_pair_by_pair(seed: int, continuous: bool, block: int, monkeypatch) -> None:
    # block 3-4: values split into many light blocks and heavy ones; 1000: one light block holds all
    monkeypatch.setattr(disc, "BLOCK", block)
    orig, groups = data(seed, 25, continuous)
    vals = np.concatenate(groups)
    paper = np.repeat(np.arange(len(orig)), [len(g) for g in groups])
    expected, _ = brute(orig, groups)
    assert discriminability(orig, vals, paper) == pytest.approx(expected, rel=1e-12)
    prep = _prepare(orig, vals, paper)
    if block < 5:
        blocks = _blocks(prep)
        assert blocks.heavy.any() and blocks.light  # both kinds of block are exercised


@pytest.mark.parametrize(
    ("seed", "continuous", "block", "chunk"),
    [(0, True, 4, 16), (1, True, 3, 1), (2, False, 4, 12), (3, True, 1000, 1000), (4, False, 1000, 16), (5, True, 2, 20)],
)
def test_resampled_numerators_equal_explicit_quadratic_forms(
    seed: int, continuous: bool, block: int, chunk: int, monkeypatch
) -> None:
    # d K d of every resample against the pair-by-pair kernel: chunks of one or several tie groups
    # (chunk 1: every tie group its own chunk; 1000: one chunk), heavy and light value blocks
    monkeypatch.setattr(disc, "BOOTSTRAP_BLOCK", block)
    monkeypatch.setattr(disc, "CHUNK", chunk)
    monkeypatch.setattr(disc, "RESAMPLE_BATCH", 7)  # 60 resamples: eight batches of 7 and one of 4
    orig, groups = data(seed, 40, continuous)
    vals = np.concatenate(groups)
    paper = np.repeat(np.arange(len(orig)), [len(g) for g in groups])
    prep = _prepare(orig, vals, paper)
    order = np.argsort(orig, kind="stable")
    _, kernel = brute(orig[order], [groups[i] for i in order])
    counts = resample_counts(len(orig), 60, np.random.default_rng(seed)).T.astype(float)
    expected = np.einsum("ir,ij,jr->r", counts, kernel, counts)
    assert np.allclose(_resampled_numerators(prep, counts), expected, rtol=1e-12, atol=0)
    n_chunks = len(np.unique(_chunk_of_paper(prep.starts, len(orig))))
    expected_chunks = {1: len(prep.starts), 1000: 1}.get(chunk)  # otherwise: several, some with several tie groups
    assert n_chunks == expected_chunks if expected_chunks else 1 < n_chunks < len(prep.starts)
    if block < 5:  # continuous: heavy and light blocks; integer: heavy blocks only
        blocks = _blocks(prep, block)
        assert blocks.heavy.any() and bool(blocks.light) == continuous


def test_chunks_never_split_a_tie_group(monkeypatch) -> None:
    # tie groups start at papers 0, 3, 5, 9, 10 of 12; groups starting in one window of 4 papers
    # (0-3 | 4-7 | 8-11) share a chunk, so the group 3-4 stays whole in chunk 0
    monkeypatch.setattr(disc, "CHUNK", 4)
    starts = np.array([0, 3, 5, 9, 10])
    assert _chunk_of_paper(starts, 12).tolist() == [0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2]


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
        if not pairs:  # no ordered pair: the resample has no statistic and is left out
            continue
        _, kernel = brute(o, [groups[i] for i in chosen])
        by_hand.append(kernel[o[:, None] > o[None, :]].mean())
    q = np.quantile(by_hand, [0.025, 0.975])
    assert (low, high) == pytest.approx(tuple(q), rel=1e-12)


def test_resample_counts_rows_sum_to_n() -> None:
    counts = resample_counts(7, 1000, np.random.default_rng(0))
    assert counts.shape == (1000, 7) and (counts.sum(axis=1) == 7).all()
    assert counts.mean() == pytest.approx(1.0) and counts.var() == pytest.approx(6 / 7, rel=0.05)  # multinomial variance


def test_point_computed_once_per_input_and_cache_bounded(monkeypatch) -> None:
    # the scorecard's interval and the robustness table's point read the same scores: one computation
    calls = []
    point = disc._point
    monkeypatch.setattr(disc, "_point", lambda prep, blocks: calls.append(1) or point(prep, blocks))
    monkeypatch.setattr(disc, "_points", disc.OrderedDict())
    monkeypatch.setattr(disc, "POINT_CACHE_SIZE", 2)
    orig, groups = data(7, 25, True)
    vals = np.concatenate(groups)
    paper = np.repeat(np.arange(len(orig)), [len(g) for g in groups])
    expected, _ = brute(orig, groups)
    assert discriminability(orig, vals, paper) == pytest.approx(expected, rel=1e-12)
    assert discriminability_interval(orig, vals, paper, n_resamples=20)[0] == discriminability(orig, vals, paper)
    assert len(calls) == 1
    vals[0] += 3.0  # same arrays, new content: computed again
    groups[0] = vals[: len(groups[0])]
    assert discriminability(orig, vals, paper) == pytest.approx(brute(orig, groups)[0], rel=1e-12)
    assert len(calls) == 2
    discriminability(orig[::-1].copy(), vals, paper)
    assert len(calls) == 3 and len(disc._points) == 2  # the oldest result was dropped


def test_not_computable_exactly_when_no_ordered_pair() -> None:
    """Generated degenerate inputs (0..6 papers; originals all tied, one distinct, or NaN; papers
    without rewrites; constant rewrites): the point and interval are NaN exactly when no two kept
    papers' originals differ (the denominator counted by hand is 0), and equal the brute-force
    mean otherwise."""
    rng = np.random.default_rng(11)
    cases = not_computable = 0
    for n in range(0, 7):
        for shape in ("tied", "one_apart", "nan_rest", "no_rewrites_rest", "distinct"):
            orig = np.full(n, 5.0)
            if shape == "one_apart" and n:
                orig[0] = 8.0
            if shape == "nan_rest" and n:
                orig[1:] = np.nan
                orig[0] = 2.0
            if shape == "distinct":
                orig = np.arange(n, dtype=float)
            groups = [rng.integers(1, 11, 2).astype(float) for _ in range(n)]
            if shape == "no_rewrites_rest":
                orig = np.arange(n, dtype=float)
                groups = [g if i == 0 else np.array([]) for i, g in enumerate(groups)]
            for constant in (False, True):
                gs = [np.full(len(g), 6.0) for g in groups] if constant else groups
                vals = np.concatenate(gs) if n else np.array([])
                paper = np.repeat(np.arange(n), [len(g) for g in gs]).astype(np.intp)
                kept = [i for i in range(n) if not np.isnan(orig[i]) and len(gs[i])]
                pairs = sum(orig[i] > orig[j] for i in kept for j in kept)
                point = discriminability(orig, vals, paper)
                interval = discriminability_interval(orig, vals, paper, n_resamples=50, seed=1)
                cases += 1
                if pairs == 0:
                    not_computable += 1
                    assert math.isnan(point) and all(math.isnan(x) for x in interval), (n, shape)
                else:
                    assert point == pytest.approx(brute(orig[kept], [gs[i] for i in kept])[0], rel=1e-12)
                    assert interval[0] == point and interval[1] <= interval[2]
    # n = 0, 1: all 20; n = 2..6: tied, nan_rest, no_rewrites_rest (3 shapes x 2 x 5 = 30)
    assert (cases, not_computable) == (70, 50)
