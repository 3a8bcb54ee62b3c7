"""Property tests of attack success against the reviewer's own noise (issue 36 §6).

A *text-blind* reviewer scores a paper from its latent quality plus noise, whatever the text says,
so the winner's held-out mean and the re-review mean of the original are two independent draws of
one distribution. Then, given the papers where exactly one of the two flipped, which one did is a
fair coin, and the exact conditional interval of the success (winner flip rate − re-review flip
rate) holds 0 in at least 95% of studies. Each generated example simulates 300 studies of one
generated reviewer and paper set and counts the studies whose interval misses 0: at most 12%
(36), a bound the exact 5% exceeds with probability below 1e-7 (binomial tail).
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from rhetorica.analysis.attack import excess_flip_interval, flip_counts

STUDIES = 300


def _means(rng: np.random.Generator, quality: np.ndarray, sd: float, replicates: int) -> np.ndarray:
    """Per paper the mean of ``replicates`` integer reviews round(quality + N(0, sd)) on 1-10."""
    draws = np.clip(np.rint(quality[:, None] + rng.normal(0.0, sd, (len(quality), replicates))), 1, 10)
    return draws.mean(axis=1)


@settings(max_examples=25, deadline=None)
@given(papers=st.integers(1, 12), replicates=st.integers(1, 4), sd=st.floats(0.3, 3.0),
       threshold=st.sampled_from([3.5, 4.5, 5.5, 6.5]), direction=st.sampled_from(["+", "-"]),
       seed=st.integers(0, 2**32 - 1))
def test_a_text_blind_reviewers_success_interval_holds_zero(papers: int, replicates: int, sd: float,
                                                             threshold: float, direction: str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    quality = rng.uniform(2.0, 8.0, papers)
    missed = 0
    for _ in range(STUDIES):
        original, winner, rereview = (_means(rng, quality, sd, replicates) for _ in range(3))
        k = flip_counts(original, winner, rereview, threshold, direction)
        assert k["baseline"] == k["eligible"] and k["only_winner"] - k["only_rereview"] == (
            k["flipped"] - k["noise_flipped"])
        d, low, high, p = excess_flip_interval(k["only_winner"], k["only_rereview"], k["baseline"])
        if k["baseline"] == 0:
            continue
        assert low <= d <= high and (low <= 0 <= high) == (p >= 0.05)
        missed += not low <= 0 <= high
    assert missed <= 0.12 * STUDIES


@settings(max_examples=40, deadline=None)
@given(b=st.integers(0, 30), c=st.integers(0, 30), extra=st.integers(0, 20))
def test_swapping_winner_and_re_review_mirrors_the_interval_and_keeps_p(b: int, c: int, extra: int) -> None:
    n = b + c + extra
    if n == 0:
        return
    d, low, high, p = excess_flip_interval(b, c, n)
    d2, low2, high2, p2 = excess_flip_interval(c, b, n)
    assert (d2, low2, high2) == (-d, -high, -low) or np.allclose((d2, low2, high2), (-d, -high, -low))
    assert p2 == p and -1.0 <= low <= d <= high <= 1.0
