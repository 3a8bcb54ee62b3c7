"""Papers needed for 80% power at a latent shift of 0.3 scale points: soft ratings (Wilcoxon on
expected scores) versus integer scores (sign test), by simulation (issue 27, section 2).

Reviewer model (ordinal logit, McCullagh 1980): paper ``i`` under arm ``a`` is read as
``eta = q_i + shift * a + e`` with quality ``q_i ~ N(6, 1.5)`` and a per-review reading noise
``e ~ N(0, read_sd)``; the reviewer's level probabilities on the 1-10 scale are then known
exactly, ``P(Y <= k) = logistic((k + 0.5 - eta) / scale)`` for k = 1..9. The integer review is a
draw from them; the soft rating is their mean ``E[Y | eta]`` (what :mod:`rhetorica.models.logprobs`
reads from a model's log-probabilities). One review per paper and arm; two-sided alpha = 0.05.

For each reviewer setting the smallest number of papers whose simulated power reaches 80% is found
(doubling, then bisection, with common random numbers), for the sign test on the integer reviews
(:func:`rhetorica.analysis.paired.sign_test_pvalues`) and the Wilcoxon signed-rank test on the
expected scores (``scipy.stats.wilcoxon``), and the Wilcoxon test on the integer reviews (how much
of the gain is the test, how much the rounding). Beside it, ``rhetorica plan --pilot``'s answer
(:func:`rhetorica.analysis.soft.pilot_plan`) from a null pilot of 200 papers of the same reviewer.

Run from the repository root:

    PYTHONPATH=src python benchmarks/soft_ratings_power.py           # ~1-3 min; results/soft_ratings_power.txt
    PYTHONPATH=src python benchmarks/soft_ratings_power.py --smoke   # a few seconds, fewer studies
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.special import expit
from scipy.stats import wilcoxon

from rhetorica.analysis.paired import sign_test_pvalues
from rhetorica.analysis.soft import pilot_plan

RESULTS = Path(__file__).resolve().parent / "results" / "soft_ratings_power.txt"
SHIFT, ALPHA, POWER = 0.3, 0.05, 0.8
THRESHOLDS = np.arange(1, 10) + 0.5  # between the levels 1..10
#: (reading noise SD, logit scale) of the simulated reviewers
SETTINGS = ((0.3, 0.5), (0.5, 0.5), (0.5, 0.8), (0.8, 0.5))


def reviews(rng: np.random.Generator, eta: np.ndarray, scale: float) -> tuple[np.ndarray, np.ndarray]:
    """(integer review, expected score) for latent positions ``eta`` (any shape)."""
    below = expit((THRESHOLDS - eta[..., None]) / scale)  # P(Y <= k), k = 1..9
    expected = 1.0 + np.sum(1.0 - below, axis=-1)
    u = rng.random(eta.shape)
    integer = 1 + np.sum(u[..., None] > below, axis=-1)
    return integer.astype(float), expected


def study_pairs(rng: np.random.Generator, studies: int, papers: int, read_sd: float, scale: float,
                shift: float) -> tuple[np.ndarray, np.ndarray]:
    """Paired differences (rewrite - original), ``(studies, papers)``: integer and expected."""
    q = rng.normal(6.0, 1.5, (studies, papers))
    first = reviews(rng, q + shift + rng.normal(0, read_sd, q.shape), scale)
    second = reviews(rng, q + rng.normal(0, read_sd, q.shape), scale)
    return first[0] - second[0], first[1] - second[1]


def power(papers: int, read_sd: float, scale: float, studies: int, seed: int) -> tuple[float, float, float]:
    """Simulated power of (sign test on integers, Wilcoxon on expected scores, Wilcoxon on
    integers) at ``papers``."""
    rng = np.random.default_rng(seed)  # the same draws for every n of a search: a smooth curve
    d_int, d_soft = study_pairs(rng, studies, papers, read_sd, scale, SHIFT)
    sign_p = sign_test_pvalues((d_int > 0).sum(axis=1), (d_int < 0).sum(axis=1))
    soft_p = wilcoxon(d_soft, axis=1, method="approx" if papers > 50 else "auto").pvalue
    with np.errstate(invalid="ignore", divide="ignore"):  # a study whose integer differences are all 0
        int_p = np.nan_to_num(wilcoxon(d_int, axis=1, zero_method="wilcox", method="approx").pvalue, nan=1.0)
    return float(np.mean(sign_p <= ALPHA)), float(np.mean(soft_p <= ALPHA)), float(np.mean(int_p <= ALPHA))


def papers_needed(which: int, read_sd: float, scale: float, studies: int, seed: int, limit: int = 20000) -> int | None:
    """Smallest n with power >= 80% for test ``which`` (0 sign test, 1 Wilcoxon soft, 2 Wilcoxon
    on the integer reviews)."""
    low, high = 4, 8
    while power(high, read_sd, scale, studies, seed)[which] < POWER:
        low, high = high, high * 2
        if high > limit:
            return None
    while high - low > max(1, low // 50):  # to 2%
        mid = (low + high) // 2
        if power(mid, read_sd, scale, studies, seed)[which] >= POWER:
            high = mid
        else:
            low = mid
    return high


def pilot(read_sd: float, scale: float, papers: int, seed: int) -> pd.Series:
    """``pilot_plan`` of a null pilot (no shift) of ``papers`` papers of this reviewer."""
    rng = np.random.default_rng(seed)
    q = rng.normal(6.0, 1.5, papers)
    rows = []
    for arm in ("original", "confidence:+"):
        integer, expected = reviews(rng, q + rng.normal(0, read_sd, papers), scale)
        rows += [{"unit_key": f"{arm}-{i}", "document_id": f"p{i}", "arm": arm, "reviewer": "sim",
                  "status": "ok", "overall": integer[i], "overall.expected": expected[i]} for i in range(papers)]
    return pilot_plan(pd.DataFrame(rows), SHIFT, pairs=[("confidence:+", "original")], alpha=ALPHA,
                      power=POWER).iloc[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="one setting, 60 studies per power estimate")
    parser.add_argument("--studies", type=int, default=1000, help="simulated studies per power estimate")
    args = parser.parse_args()
    studies = 60 if args.smoke else args.studies
    settings = SETTINGS[1:2] if args.smoke else SETTINGS
    started = time.perf_counter()
    lines = [f"Papers for {POWER:.0%} power at a latent shift of {SHIFT} points (1-10 scale, alpha {ALPHA}, "
             f"{studies} simulated studies per estimate; ordinal-logit reviewer, one review per paper and arm)",
             f"{'read SD':>8} {'scale':>6} {'integer (sign)':>15} {'integer (Wilcoxon)':>19} "
             f"{'soft (Wilcoxon)':>16} {'ratio':>6}"
             f" {'plan: integer':>14} {'plan: soft':>11} {'plan ratio':>10}"]
    ratios = []
    for read_sd, scale in settings:
        n_int = papers_needed(0, read_sd, scale, studies, seed=1)
        n_soft = papers_needed(1, read_sd, scale, studies, seed=1)
        n_int_w = papers_needed(2, read_sd, scale, studies, seed=1)
        ratio = n_int / n_soft if n_int and n_soft else float("nan")
        ratios.append(ratio)
        plan = pilot(read_sd, scale, 200, seed=2)
        lines.append(f"{read_sd:>8.1f} {scale:>6.1f} {n_int!s:>15} {n_int_w!s:>19} {n_soft!s:>16} {ratio:>6.2f}"
                     f" {plan['papers_integer']!s:>14} {plan['papers_soft']!s:>11} {plan['ratio']:>10.2f}")
    lines.append(f"ratio = integer (sign test) / soft (Wilcoxon) papers: median {np.nanmedian(ratios):.2f} "
                 f"(range {np.nanmin(ratios):.2f}-{np.nanmax(ratios):.2f}); {time.perf_counter() - started:.0f} s")
    text = "\n".join(lines)
    print(text)
    if not args.smoke:
        RESULTS.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
