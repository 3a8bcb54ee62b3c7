"""``plan_study`` with many replicates: the exact sum distribution, the shift search and the
simulation's bounded draws (``rhetorica plan --replicates 100`` never finished before)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from rhetorica.analysis import power
from rhetorica.analysis.controls import draw_scores
from rhetorica.analysis.power import plan_study, review_sum_pmf


def test_review_sum_pmf_matches_enumeration() -> None:
    one = np.array([[0.05, 0.1, 0.2, 0.3, 0.15, 0.1, 0.05, 0.03, 0.015, 0.005],
                    [0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0]])
    expected = np.zeros((2, 28))
    for row in range(2):
        for a, b, c in itertools.product(range(10), repeat=3):  # every triple of scores 1..10
            expected[row, a + b + c] += one[row, a] * one[row, b] * one[row, c]
    assert review_sum_pmf(one, 3) == pytest.approx(expected, abs=1e-15)


def test_shift_for_many_replicates_gives_the_ratio() -> None:
    # r = 100 integer reviews: the shift search used to run to its upper bound (5 points) because
    # 1 - win - tie fell below 0; check the found shift against simulated pairs (independent draws)
    result = plan_study(1.5, noise_sd=0.5, replicates=100, n_studies=0)
    assert 0 < result.mean_shift < 0.1
    rng = np.random.default_rng(7)
    scores = draw_scores(rng, rng.normal(5.0, 1.5, size=20000), np.array([result.mean_shift, 0.0]), 0.5, 100,
                         True).mean(axis=-1)
    wins, losses = (scores[:, 0] > scores[:, 1]).sum(), (scores[:, 0] < scores[:, 1]).sum()
    assert wins / losses == pytest.approx(1.5, rel=0.06)  # log-ratio SE ~0.015: 4 SE
    assert (len(scores) - wins - losses) / len(scores) == pytest.approx(result.tie_prob, abs=0.006)


def test_simulation_draws_in_bounded_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    sizes: list[tuple[int, int]] = []

    def counting(rng, quality, shifts, noise_sd, replicates, integer_scores):  # noqa: ANN001, ANN202
        sizes.append((quality.shape[0], quality.size * len(shifts) * replicates))
        return draw_scores(rng, quality, shifts, noise_sd, replicates, integer_scores)

    monkeypatch.setattr(power, "draw_scores", counting)
    result = plan_study(1.5, replicates=200, integer_scores=False, n_studies=2000)
    assert result.papers_needed is not None
    assert sum(studies for studies, _ in sizes) == 2000
    assert max(draws for _, draws in sizes) <= 2**23  # 64 MiB of float64 at a time
    assert len(sizes) > 1
