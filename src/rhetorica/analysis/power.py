"""Power of the paired sign test, and planning how many papers a study needs.

Analytic power: with n papers, each pair is tied with probability ``t`` and otherwise favours the
first arm with probability ``p = R / (1 + R)`` (R the preference ratio among untied pairs). The
number of untied pairs is ``N ~ Binom(n, 1 - t)`` and, given N, the wins ``K ~ Binom(N, p)``;
power is ``sum_N P(N) P(sign test rejects | N)`` with the rejection region of
:func:`rhetorica.analysis.paired.sign_test` (Dixon & Mood 1946). Simulation runs the same test on
studies drawn from :mod:`rhetorica.analysis.controls` reviewers, vectorised over studies.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt
from pydantic import BaseModel

from rhetorica.analysis.controls import draw_scores
from rhetorica.analysis.paired import sign_test_pvalues
from rhetorica.reviewers.control_settings import ControlReviewer, mean_shift_for_ratio
from scipy.stats import binom, norm

Array = npt.NDArray[np.float64]

SHIFT_TOLERANCE = 1e-7
"""Width, in noise SDs, at which the search for the shift that gives a preference ratio stops."""

MAX_DRAWS_PER_BLOCK = 2**23
"""Reviews drawn at once by the power simulation (64 MiB of float64)."""

MAX_PAPERS = 5000
"""The largest study the planners search (papers); a study needing more gets ``None``."""


def critical_counts(n_max: int, alpha: float) -> npt.NDArray[np.int64]:
    """Largest k with ``sign_test(k, N - k) <= alpha`` for N = 0..n_max (-1 where none).

    The sign test rejects exactly when ``min(wins, losses) <= c_N``.
    """

    n = np.arange(n_max + 1)
    k = binom.ppf(alpha / 2, n, 0.5).astype(np.int64)
    k = np.where(sign_test_pvalues(k, n - k) <= alpha, k, k - 1)
    return np.where(n == 0, -1, k)


def _reject_prob_given_untied(n_max: int, p: float, alpha: float) -> Array:
    """``P(reject | N)`` for N = 0..n_max untied pairs when each favours the first arm w.p. p."""

    n = np.arange(n_max + 1)
    c = critical_counts(n_max, alpha)
    return np.where(c >= 0, binom.cdf(c, n, p) + binom.sf(n - c - 1, n, p), 0.0)


def sign_test_power(
    n_papers: int, preference_ratio: float, *, alpha: float = 0.05, tie_prob: float = 0.0
) -> float:
    """Exact power of the two-sided sign test (see module docstring).

    Args:
        n_papers: paired papers n >= 0.
        preference_ratio: R > 0 among untied pairs (R = 1 gives the test's exact size).
        alpha: significance level in (0, 1); reject when p <= alpha.
        tie_prob: probability that a pair ties, in [0, 1).

    Returns:
        Probability of rejecting H0, in [0, 1].

    Raises:
        ValueError: on arguments outside their ranges.
    """

    if n_papers < 0 or preference_ratio <= 0 or not 0 < alpha < 1 or not 0 <= tie_prob < 1:
        raise ValueError(
            "sign_test_power needs n_papers >= 0, preference_ratio > 0, alpha in (0, 1), "
            f"tie_prob in [0, 1); got {n_papers}, {preference_ratio}, {alpha}, {tie_prob}"
        )
    p = preference_ratio / (1 + preference_ratio)
    given_n = _reject_prob_given_untied(n_papers, p, alpha)
    n_untied = np.arange(n_papers + 1)
    return float(np.sum(binom.pmf(n_untied, n_papers, 1 - tie_prob) * given_n))


def papers_needed(
    preference_ratio: float,
    *,
    power: float = 0.8,
    alpha: float = 0.05,
    tie_prob: float = 0.0,
    max_papers: int = MAX_PAPERS,
) -> int | None:
    """Smallest number of papers whose sign-test power reaches ``power``.

    The sign test's power is not monotone in n (the binomial is discrete); we return the smallest
    n at which it reaches the target, found by doubling then bisection on the untied-count scale
    and a final linear scan, so a larger n may occasionally have slightly lower power.

    Args:
        preference_ratio: R != 1.
        power: target power in (0, 1).
        alpha: significance level.
        tie_prob: probability that a pair ties.
        max_papers: give up above this many papers.

    Returns:
        The number of papers, or ``None`` if even ``max_papers`` is not enough.

    Raises:
        ValueError: on R == 1 (no effect to detect) or arguments out of range.
    """
    if preference_ratio == 1:
        raise ValueError("a preference ratio of 1 is no effect; no sample size detects it")
    if not 0 < power < 1:
        raise ValueError(f"power must lie in (0, 1), got {power}")

    def ok(n: int) -> bool:
        return sign_test_power(n, preference_ratio, alpha=alpha, tie_prob=tie_prob) >= power

    hi = 8
    while hi < max_papers and not ok(hi):
        hi *= 2
    hi = min(hi, max_papers)
    if not ok(hi):
        return None
    lo = max(1, hi // 2)
    while lo < hi:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid + 1
    for n in range(max(1, hi - 20), hi):
        if ok(n):
            return n
    return hi


class SimulationResult(BaseModel):
    """Outcome of simulated studies of one control reviewer comparing two arms.

    Attributes:
        n_papers: papers per study.
        n_studies: simulated studies.
        rejection_rate: share of studies whose sign test rejected at ``alpha``.
        mc_se: Monte-Carlo standard error ``sqrt(r (1 - r) / n_studies)``.
        mean_tie_share: mean share of tied pairs.
        untied_ratio: all studies' wins / all studies' losses (estimates R).
        exact_rate: analytic rejection rate given each study's untied count (average over
            studies of ``P(reject | N)`` at the target R).
    """

    n_papers: int
    n_studies: int
    alpha: float
    rejection_rate: float
    mc_se: float
    mean_tie_share: float
    untied_ratio: float
    exact_rate: float


def simulate_sign_test(
    reviewer: ControlReviewer,
    n_papers: int,
    *,
    n_studies: int = 1000,
    alpha: float = 0.05,
    replicates: int = 1,
    seed: int = 0,
    quality_mean: float = 5.0,
    quality_sd: float = 1.5,
) -> SimulationResult:
    """Rejection rate of the sign test over simulated studies (first arm = the biased one).

    Each study draws ``n_papers`` latent qualities and the reviewer's scores under two arms,
    the first shifted as the reviewer's ``preference_ratio`` requires (no shift for a null
    reviewer), averages replicates per paper and applies :func:`sign_test_pvalues`.

    Args:
        reviewer: the control reviewer (its ``bias_arm`` name is not used here).
        n_papers: papers per study.
        n_studies: number of simulated studies.
        alpha: significance level (reject when p <= alpha).
        replicates: reviews per paper and arm.
        seed: seed of ``numpy.random.default_rng``.
        quality_mean: mean latent quality.
        quality_sd: SD of latent quality.

    Returns:
        :class:`SimulationResult`.

    Raises:
        ValueError: on ``n_papers < 1`` or ``n_studies < 1``.
    """
    if n_papers < 1 or n_studies < 1:
        raise ValueError(f"need n_papers >= 1 and n_studies >= 1, got {n_papers}, {n_studies}")
    shift = 0.0
    if reviewer.preference_ratio != 1.0:
        shift = mean_shift_for_ratio(reviewer.preference_ratio, reviewer.noise_sd, replicates)
    wins, losses = _simulate_counts(
        np.random.default_rng(seed),
        shift,
        reviewer.noise_sd,
        replicates,
        reviewer.integer_scores,
        n_papers,
        n_studies,
        quality_mean,
        quality_sd,
    )
    rate = float(np.mean(sign_test_pvalues(wins, losses) <= alpha))
    untied = wins + losses
    p = reviewer.preference_ratio / (1 + reviewer.preference_ratio)
    given_n = _reject_prob_given_untied(int(untied.max()), p, alpha)
    return SimulationResult(
        n_papers=n_papers,
        n_studies=n_studies,
        alpha=alpha,
        rejection_rate=rate,
        mc_se=float(np.sqrt(rate * (1 - rate) / n_studies)),
        mean_tie_share=float(np.mean(1 - untied / n_papers)),
        untied_ratio=float(wins.sum() / losses.sum()) if losses.sum() else float("inf"),
        exact_rate=float(np.mean(given_n[untied])),
    )


class PlanResult(BaseModel):
    """Answer of ``rhetorica plan``: papers needed to detect a preference ratio.

    Attributes:
        preference_ratio: R to detect (among untied pairs).
        alpha: two-sided significance level.
        target_power: desired power.
        noise_sd: reviewer SD of one review (e.g. its pooled SD).
        replicates: reviews averaged per paper and arm.
        integer_scores: whether reviews are integers (ties then occur).
        mean_shift: score shift (points) that produces R for this reviewer.
        tie_prob: probability that a pair of paper scores ties.
        papers_needed: smallest n reaching the target power (None if above max_papers).
        analytic_power: exact power at ``papers_needed``.
        simulated_power: power from simulated studies at ``papers_needed``.
        simulated_power_se: its Monte-Carlo standard error.
    """

    preference_ratio: float
    alpha: float
    target_power: float
    noise_sd: float
    replicates: int
    integer_scores: bool
    mean_shift: float
    tie_prob: float
    papers_needed: int | None
    analytic_power: float | None
    simulated_power: float | None
    simulated_power_se: float | None


def integer_pair_probabilities(
    shift: float,
    noise_sd: float,
    replicates: int = 1,
    *,
    quality_mean: float = 5.0,
    quality_sd: float = 1.5,
    grid: int = 801,
) -> tuple[float, float, float]:
    """``(P(first higher), P(second higher), P(tie))`` of integer reviews averaged per paper.

    Each review is ``clip(round(q + shift_arm + e), 1, 10)`` with ``e ~ N(0, noise_sd)`` and
    quality ``q ~ N(quality_mean, quality_sd)`` (the :func:`rhetorica.analysis.controls.draw_scores`
    model). Exact for given q (convolution of the m integer reviews, support 1-10), integrated
    over q on a Gauss-like grid of ``grid`` points spanning +/- 6 SD.

    Args:
        shift: shift of the first arm (points).
        noise_sd: SD of one review (> 0).
        replicates: reviews averaged per paper and arm.
        quality_mean: mean latent quality.
        quality_sd: SD of latent quality.
        grid: quadrature points.

    Returns:
        The three probabilities, each computed directly (summing to 1 up to rounding; the loss
        probability is no longer ``1 - win - tie``, which went below 0 by rounding once ties were
        rare and sent the shift search of :func:`plan_study` to its upper bound).
    """
    first = _arm_sum_pmf(shift, noise_sd, replicates, quality_mean, quality_sd, grid)
    second = _arm_sum_pmf(0.0, noise_sd, replicates, quality_mean, quality_sd, grid)
    weights = _quality_weights(grid)
    win = np.sum(weights * np.sum(first * (np.cumsum(second, axis=1) - second), axis=1))  # P(second < first)
    loss = np.sum(weights * np.sum(second * (np.cumsum(first, axis=1) - first), axis=1))  # P(first < second)
    tie = np.sum(weights * np.sum(first * second, axis=1))
    return float(win), float(loss), float(tie)


def _quality_weights(grid: int) -> Array:
    """Normalised N(0, 1) weights of ``grid`` points spanning +/- 6 SD."""

    weights = norm.pdf(np.linspace(-6.0, 6.0, grid))
    return weights / weights.sum()


@lru_cache(maxsize=2)
def _arm_sum_pmf(shift: float, noise_sd: float, replicates: int, quality_mean: float, quality_sd: float,
                 grid: int) -> Array:
    """``(grid, 9 * replicates + 1)``: P(sum of the replicates' reviews = replicates + j) at each
    quality grid point, for an arm shifted by ``shift`` (cached: the unshifted arm is the same in
    every step of a shift search). Read-only."""

    mu = quality_mean + quality_sd * np.linspace(-6.0, 6.0, grid) + shift
    upper = np.arange(1, 11) + 0.5
    upper[-1] = np.inf
    cdf = norm.cdf((upper[None, :] - mu[:, None]) / noise_sd)
    one = np.diff(np.concatenate([np.zeros((len(mu), 1)), cdf], axis=1), axis=1)
    pmf = review_sum_pmf(one, replicates)
    pmf.flags.writeable = False
    return pmf


def review_sum_pmf(one: Array, replicates: int) -> Array:
    """Distribution of the sum of ``replicates`` independent integer reviews, per row.

    The ``replicates``-fold convolution of each row of ``one`` with itself, computed as the power
    of its discrete Fourier transform (the sum has exactly ``9 * replicates + 1`` values, so the
    circular convolution of that length is the linear one): a few FFTs whatever ``replicates``
    is, where repeated convolution took ``replicates`` passes (``rhetorica plan --replicates 100``
    did not finish).

    Args:
        one: ``(rows, 10)`` probabilities of the scores 1..10 of one review.
        replicates: reviews summed, >= 1.

    Returns:
        ``(rows, 9 * replicates + 1)``: column j is P(sum = replicates + j); FFT rounding below
        1e-15 is clipped to 0.
    """
    length = 9 * replicates + 1
    spectrum = np.fft.rfft(one, n=length, axis=1) ** replicates
    return np.clip(np.fft.irfft(spectrum, n=length, axis=1), 0.0, None)


def _integer_shift_and_ties(
    preference_ratio: float, noise_sd: float, replicates: int
) -> tuple[float, float]:
    """Shift giving untied ratio R for integer reviews (bisection to :data:`SHIFT_TOLERANCE` noise
    SDs; the ratio grows with the shift), and the tie probability at that shift."""
    sign = 1.0 if preference_ratio > 1 else -1.0
    lo, hi = 0.0, 10.0 * noise_sd
    while hi - lo > SHIFT_TOLERANCE * noise_sd:
        mid = (lo + hi) / 2
        win, loss, _ = integer_pair_probabilities(sign * mid, noise_sd, replicates)
        if ((win / loss if loss > 0 else np.inf) < preference_ratio) == (sign > 0):
            lo = mid
        else:
            hi = mid
    shift = sign * (lo + hi) / 2
    return shift, integer_pair_probabilities(shift, noise_sd, replicates)[2]


def plan_study(
    preference_ratio: float,
    *,
    alpha: float = 0.05,
    power: float = 0.8,
    noise_sd: float = 0.5,
    replicates: int = 1,
    integer_scores: bool = True,
    n_studies: int = 2000,
    seed: int = 0,
    max_papers: int = MAX_PAPERS,
) -> PlanResult:
    """How many papers are needed to detect preference ratio R with a reviewer of this variance?

    For continuous scores there are no ties and R alone fixes the sign test's power; the
    variance only sets the equivalent score shift. With integer reviews (the default, as review
    forms use integers) we find the shift that yields R among untied pairs and the resulting tie
    probability (:func:`integer_pair_probabilities`), compute the exact power, and confirm it on
    ``n_studies`` simulated studies. Latent quality is N(5, 1.5) on the 1-10 scale.

    Args:
        preference_ratio: R > 0, R != 1.
        alpha: significance level.
        power: target power.
        noise_sd: SD of one review (score points), e.g. from :func:`rhetorica.analysis.variance.pooled_sd`.
        replicates: reviews averaged per paper and arm.
        integer_scores: reviews are integers.
        n_studies: simulated studies for the confirmation (0 skips it).
        seed: seed for the pilot and the simulation.
        max_papers: upper limit of the search.

    Returns:
        :class:`PlanResult`.

    Raises:
        ValueError: on arguments out of range (see :func:`papers_needed`).
    """
    if noise_sd <= 0:
        raise ValueError(f"noise_sd must be > 0, got {noise_sd}")
    if integer_scores:
        shift, tie_prob = _integer_shift_and_ties(preference_ratio, noise_sd, replicates)
    else:
        shift, tie_prob = mean_shift_for_ratio(preference_ratio, noise_sd, replicates), 0.0
    n = papers_needed(
        preference_ratio, power=power, alpha=alpha, tie_prob=tie_prob, max_papers=max_papers
    )
    analytic = simulated = sim_se = None
    if n is not None:
        analytic = sign_test_power(n, preference_ratio, alpha=alpha, tie_prob=tie_prob)
        if n_studies > 0:
            wins, losses = _simulate_counts(
                np.random.default_rng(seed + 1),
                shift,
                noise_sd,
                replicates,
                integer_scores,
                n,
                n_studies,
            )
            simulated = float(np.mean(sign_test_pvalues(wins, losses) <= alpha))
            sim_se = float(np.sqrt(simulated * (1 - simulated) / n_studies))
    return PlanResult(
        preference_ratio=preference_ratio,
        alpha=alpha,
        target_power=power,
        noise_sd=noise_sd,
        replicates=replicates,
        integer_scores=integer_scores,
        mean_shift=shift,
        tie_prob=tie_prob,
        papers_needed=n,
        analytic_power=analytic,
        simulated_power=simulated,
        simulated_power_se=sim_se,
    )


def _simulate_counts(
    rng: np.random.Generator,
    shift: float,
    noise_sd: float,
    replicates: int,
    integer_scores: bool,
    n_papers: int,
    n_studies: int,
    quality_mean: float = 5.0,
    quality_sd: float = 1.5,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Wins and losses of the shifted arm in each of ``n_studies`` simulated studies.

    Studies are drawn in blocks of at most :data:`MAX_DRAWS_PER_BLOCK` reviews, so memory stays
    bounded however many papers and replicates a study has.
    """
    per_study = n_papers * 2 * replicates
    block = max(1, MAX_DRAWS_PER_BLOCK // per_study)
    wins, losses = [], []
    for start in range(0, n_studies, block):
        quality = rng.normal(quality_mean, quality_sd, size=(min(block, n_studies - start), n_papers))
        scores = draw_scores(
            rng, quality, np.array([shift, 0.0]), noise_sd, replicates, integer_scores
        ).mean(axis=-1)
        first, second = scores[..., 0], scores[..., 1]
        wins.append((first > second).sum(axis=-1))
        losses.append((first < second).sum(axis=-1))
    return np.concatenate(wins), np.concatenate(losses)
