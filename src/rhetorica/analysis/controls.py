"""Control reviewers: simulated reviewers whose behaviour is known, for checking an analysis.

A *null* reviewer scores a paper's latent quality plus Gaussian noise whatever the rewrite, so
every paired test run on it must reject at most at its nominal rate. An *injected-bias* reviewer
adds a fixed shift to one arm, chosen so that the preference ratio of that arm over any other arm
(on replicate-averaged paper scores, continuous scale) equals a target R: the paired difference
of paper means is ``N(delta, 2 sigma^2 / m)``, so ``P(first higher) = Phi(delta / (sigma
sqrt(2/m)))`` and ``R = P / (1 - P)``, giving ``delta = sigma sqrt(2/m) Phi^{-1}(R / (1 + R))``.
The ratio is exact for continuous scores up to clipping at the ends of the 1-10 scale; rounding
to integers (``integer_scores``) creates ties and changes the untied ratio.

The simulators return the same tidy table a real study produces, so every analysis function and
report can run on them (e.g. as a positive and negative control inside a study's report).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import pandas as pd
from rhetorica.labels import NO_REWRITER, ORIGINAL, split_arm
from rhetorica.reviewers.control_settings import ControlReviewer, mean_shift_for_ratio
from rhetorica.strata import STRATA_SPAN, human_stratum

Array = npt.NDArray[np.float64]

def draw_scores(
    rng: np.random.Generator,
    quality: Array,
    shifts: Array,
    noise_sd: float,
    replicates: int,
    integer_scores: bool,
) -> Array:
    """Reviews of every paper under every arm.

    Args:
        rng: random generator.
        quality: ``(..., n_papers)`` latent quality on the 1-10 scale.
        shifts: ``(n_arms,)`` shift of each arm (0 for unbiased arms).
        noise_sd: SD of one review.
        replicates: reviews per paper and arm.
        integer_scores: round to integers.

    Returns:
        ``(..., n_papers, n_arms, replicates)`` scores clipped to [1, 10].
    """
    base = quality[..., None, None] + np.asarray(shifts)[:, None]
    noise = rng.normal(0.0, noise_sd, size=(*quality.shape, len(shifts), replicates))
    scores = base + noise
    if integer_scores:
        scores = np.round(scores)
    return np.clip(scores, 1.0, 10.0)


def _criterion(rng: np.random.Generator, overall: Array) -> Array:
    """A 1-4 sub-score that follows the overall score (for tables of every criterion)."""
    return np.clip(np.round(1 + 3 * (overall - 1) / 9 + rng.normal(0, 0.3, overall.shape)), 1, 4)


def simulate_assessments(
    n_papers: int,
    arms: Sequence[str],
    reviewers: Sequence[ControlReviewer],
    *,
    replicates: int = 1,
    seed: int = 0,
    quality_mean: float = 5.0,
    quality_sd: float = 1.5,
    human_noise_sd: float = 0.5,
) -> pd.DataFrame:
    """A tidy assessment table produced by control reviewers.

    Papers share one latent quality across reviewers; the human score is that quality plus
    ``N(0, human_noise_sd)`` noise, clipped to the span of the human-rating strata ([1, 8.5],
    :data:`rhetorica.strata.HUMAN_STRATA`), and its stratum is the one it falls in.

    Args:
        n_papers: number of papers (>= 1).
        arms: arm labels (include ``"original"`` for change-vs-original analyses).
        reviewers: the control reviewers.
        replicates: reviews per (reviewer, paper, arm).
        seed: seed of ``numpy.random.default_rng``.
        quality_mean: mean latent quality.
        quality_sd: SD of latent quality across papers.
        human_noise_sd: SD of the human mean rating around the latent quality.

    Returns:
        Tidy DataFrame with the analysis input columns (``unit_key`` ... ``human_stratum``);
        ``n_papers * len(arms) * len(reviewers) * replicates`` rows.

    Raises:
        ValueError: on ``n_papers < 1``, ``replicates < 1``, no arms, or a ``bias_arm`` that is
            not among ``arms``.
    """
    if n_papers < 1 or replicates < 1 or not arms:
        raise ValueError("simulate_assessments needs n_papers >= 1, replicates >= 1 and arms")
    arms = list(arms)
    for r in reviewers:
        if r.bias_arm is not None and r.bias_arm not in arms:
            raise ValueError(f"control reviewer {r.name!r}: bias_arm {r.bias_arm!r} not in arms")
    rng = np.random.default_rng(seed)
    quality = rng.normal(quality_mean, quality_sd, n_papers)
    human = np.clip(quality + rng.normal(0, human_noise_sd, n_papers), *STRATA_SPAN)
    docs = np.array([f"doc{i:05d}" for i in range(n_papers)])
    strata = np.array([human_stratum(h) for h in human], dtype=object)
    frames = []
    n_arms = len(arms)
    for r in reviewers:
        shifts = np.zeros(n_arms)
        if r.bias_arm is not None:
            shifts[arms.index(r.bias_arm)] = mean_shift_for_ratio(
                r.preference_ratio, r.noise_sd, replicates
            )
        overall = draw_scores(rng, quality, shifts, r.noise_sd, replicates, r.integer_scores)
        shape = overall.shape  # (papers, arms, replicates)
        flat = overall.ravel()
        failed = rng.random(flat.shape) < r.failure_rate
        paper_idx, arm_idx, rep_idx = (a.ravel() for a in np.indices(shape))
        arm_labels = np.array(arms, dtype=object)[arm_idx]
        condition = np.array([split_arm(a)[0] for a in arms], dtype=object)[arm_idx]
        rewriter = np.array(
            [NO_REWRITER if a == ORIGINAL else (split_arm(a)[1] or "control") for a in arms],
            dtype=object,
        )[arm_idx]
        scores = np.where(failed, np.nan, flat)
        crit = {
            c: np.where(failed, np.nan, _criterion(rng, flat))
            for c in ("soundness", "significance", "evidence", "clarity")
        }
        frame = pd.DataFrame(
            {
                "unit_key": [
                    f"{r.name}/{d}/{a}/{k}" for d, a, k in zip(docs[paper_idx], arm_labels, rep_idx)
                ],
                "document_id": docs[paper_idx],
                "arm": arm_labels,
                "condition": condition,
                "rewriter": rewriter,
                "reviewer": r.name,
                "model": "control",
                "protocol": "simulated",
                "replicate": rep_idx,
                "status": np.where(failed, "error", "ok"),
                "overall": scores,
                **crit,
                "confidence": np.where(
                    failed, np.nan, np.clip(np.round(rng.normal(3.5, 0.7, flat.shape)), 1, 5)
                ),
                "human_score": human[paper_idx],
                "human_stratum": strata[paper_idx],
            }
        )
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)
