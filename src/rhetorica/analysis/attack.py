"""Worst-case attack search results (issue 27 §1): success rate, held-out shifts, transfer, trajectories.

A search (:mod:`rhetorica.attack`) rewrites one paper again and again against one *target*
reviewer configuration and keeps the rewrite that the target's *search* reviews scored best. Picking
the best of many noisy reviews inflates its score (the winner's curse), so every number here but
``in_search_shift`` comes from the **held-out** reviews: the study's ordinary review units of the
winning variant (fresh replicates whose cache keys the search never used) and of the original.

Definitions, per paper and reviewer configuration, replicates averaged first (``ok`` reviews only;
missing stays missing):

- held-out shift ``d = mean score(winning variant) - mean score(original)`` on the metric (default:
  the forms' primary metric, :func:`rhetorica.analysis.tidy.primary_metric`); winners that failed
  the study's validation (``variant_passed == 0``) are left out;
- decisions: a paper is accepted when its mean score is *above* the threshold (the study's
  ``decision_threshold``, :data:`rhetorica.scorecard_thresholds.DECISION_THRESHOLD` by default).
  An ``attack:+`` search is *eligible* when the original is not accepted, and its winner *flips*
  when it is; ``attack:-`` the other way round (``n_flipped`` of ``n_eligible``, ``flip_rate``).
- noise baseline: after each search the target re-reviewed the original as many times as the
  winner's held-out reviews (:data:`rhetorica.attack.kind.REREVIEW_REPLICATE_BASE`: new calls,
  their own cache keys; ``rereview_scores`` of the trajectory). The re-review mean of a paper
  pools the ``ok`` re-review scores of every search of that (paper, target); it *flips* when it
  lands across the threshold in the attacked direction, as the winner's would. A reviewer that
  ignores the text flips its re-reviews as often as its winners.
- success: over the ``n_baseline`` eligible papers with a held-out winner and a re-review mean,
  ``b`` papers where only the winner flipped and ``c`` where only the re-review did;
  ``success_rate = (b - c) / n_baseline`` (the winner's flip rate minus the re-review flip rate
  on the same papers, a paired difference), its interval the exact conditional one of
  :func:`excess_flip_interval` and ``success_p`` the exact McNemar test (McNemar, Q. (1947),
  *Psychometrika* 12(2); a two-sided binomial test of ``b`` of ``b + c`` at 1/2,
  ``scipy.stats.binomtest``, equal to ``statsmodels``' ``mcnemar(..., exact=True)``). The
  interval holds 0 exactly when ``success_p >= 1 - confidence``.
- ``mean_shift`` over papers with its t interval (``scipy.stats.t.interval``, n - 1 degrees of
  freedom; none for n < 2); ``max_shift`` is the largest shift *in the attack's direction* (the
  maximum for ``attack:+``, the minimum for ``attack:-``).
- ``in_search_shift`` (biased: best of many noisy reviews): mean over searches of the winner's
  in-search score minus the original's in-search score, from the trajectories.
- ``queries_per_paper``/``cost_per_paper``: mean review calls and US dollars per search (every
  model call of the search unit: proposals and search reviews), from the trajectories.

Trajectory records are the ``attack_trajectory`` artefacts (:data:`TRAJECTORY`) of the winning
variants' units, as JSON::

    {"document": "...", "target": "reviewer-a", "direction": "+", "metric": "overall",
     "original_score": 4.5, "original_scores": [4, 5],
     "rounds": [{"round": 0, "candidates": [{"candidate": 0, "valid": true, "reason": null,
                 "score": 4.5, "scores": [4, 5], "kept": true, "text_hash": "...", "move": null}]},
                {"round": 1, "candidates": [...]}],
     "best_in_search_score": 5.5, "queries": 24, "rereview_scores": [5, 4], "cost_usd": 0.0,
     "stopped": "rounds|budget|no-valid|original-failed",
     "outcome": "improved on the original|no candidate improved on the original"}

A winner that did not improve on the original in the search (``outcome``; the search keeps its
best candidate all the same) is measured like any other: it flips only when its held-out decision
crosses the threshold in the attacked direction, and its held-out shift enters the mean as it is.
A search without re-reviews (stored before they were made) leaves its paper out of ``n_baseline``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats
from scipy.stats import binomtest
from statsmodels.stats.proportion import proportion_confint

from rhetorica.analysis.equivalence import all_equal
from rhetorica.analysis.tidy import ok_scores, primary_metric, require_columns
from rhetorica.labels import ORIGINAL, split_attack_rewriter
from rhetorica.rewriting.conditions import parse_condition
from rhetorica.scorecard_thresholds import DECISION_THRESHOLD

#: Dimension of the attack conditions ``attack:+`` and ``attack:-``.
ATTACK = "attack"

#: Name of a search unit's artefact holding its trajectory (``artefacts`` table, keyed by the
#: winning variant's unit key).
TRAJECTORY = "attack_trajectory"

TRAJECTORY_COLUMNS = ["document", "target", "direction", "round", "candidate", "move", "score", "valid", "reason",
                      "kept", "queries", "cost_usd"]

SUMMARY_COLUMNS = ["target", "direction", "metric", "n_papers", "n_eligible", "n_flipped", "flip_rate",
                   "n_baseline", "n_noise_flipped", "noise_rate", "success_rate", "success_lo", "success_hi",
                   "success_p", "mean_shift", "mean_lo", "mean_hi", "max_shift", "in_search_shift",
                   "n_searches", "queries_per_paper", "cost_per_paper"]

TRANSFER_COLUMNS = ["target", "direction", "reviewer", "n", "mean_shift", "mean_lo", "mean_hi"]


def trajectory_frame(records: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """One row per candidate of every search (round 0: the original), in record order.

    Columns: :data:`TRAJECTORY_COLUMNS`; ``score`` is the candidate's mean in-search score (NaN
    when it was not reviewed: it failed validation or no review came back); ``queries`` and
    ``cost_usd`` are the whole search's, repeated on its rows.
    """
    rows = [{"document": r["document"], "target": r["target"], "direction": r["direction"], "round": rnd["round"],
             "candidate": c["candidate"], "move": c.get("move"),
             "score": math.nan if c.get("score") is None else float(c["score"]),
             "valid": c.get("valid"), "reason": c.get("reason"), "kept": bool(c.get("kept")),
             "queries": r.get("queries"), "cost_usd": r.get("cost_usd")}
            for r in records for rnd in r.get("rounds", []) for c in rnd.get("candidates", [])]
    return pd.DataFrame(rows, columns=TRAJECTORY_COLUMNS)


def held_out_shifts(tidy: pd.DataFrame, metric: str | None = None) -> pd.DataFrame:
    """Per (attack variant, reviewer): the paper's held-out mean scores and their shift.

    Args:
        tidy: tidy assessments (:func:`rhetorica.store.export.assessments_table`): ``document_id``,
            ``condition``, ``rewriter``, ``reviewer``, ``status`` and the metric (``variant_passed``
            used when present).
        metric: score column (default: the forms' primary metric).

    Returns:
        Columns ``document_id, attacker, target, direction, reviewer, original, attacked, shift``
        (one row per paper with ``ok`` reviews of both; ``direction`` ``"+"``/``"-"``).

    Raises:
        ValueError: a missing column, or an ``ok`` score outside its declared range.
    """
    columns = ["document_id", "attacker", "target", "direction", "reviewer", "original", "attacked", "shift"]
    require_columns(tidy, ["document_id", "condition", "rewriter", "reviewer", "status"])
    metric = metric or primary_metric(tidy)
    scored = tidy.assign(_score=ok_scores(tidy, metric)).dropna(subset=["_score"])
    conditions = {c: parse_condition(c, check=False) for c in pd.unique(scored["condition"])}
    is_attack = scored["condition"].map(lambda c: conditions[c].dimension == ATTACK and conditions[c].direction in "+-"
                                        and not conditions[c].composition)
    attacked = scored[is_attack]
    if "variant_passed" in attacked.columns:
        attacked = attacked[attacked["variant_passed"].ne(0) | attacked["variant_passed"].isna()]
    if attacked.empty:
        return pd.DataFrame(columns=columns)
    keys = ["document_id", "condition", "rewriter", "reviewer"]
    means = attacked.groupby(keys, sort=True)["_score"].mean().rename("attacked").reset_index()
    original = (scored[scored["condition"] == ORIGINAL].groupby(["document_id", "reviewer"])["_score"].mean()
                .rename("original").reset_index())
    pairs = means.merge(original, on=["document_id", "reviewer"], how="inner")
    split = pairs["rewriter"].map(split_attack_rewriter)
    pairs = pairs.assign(attacker=split.map(lambda s: s[0]), target=split.map(lambda s: s[1]),
                         direction=pairs["condition"].map(lambda c: conditions[c].direction),
                         shift=pairs["attacked"] - pairs["original"])
    return pairs[pairs["target"].notna()][columns].reset_index(drop=True)


def mean_interval(values: Iterable[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean of ``values`` and its two-sided t interval (``scipy.stats.t.interval`` with n - 1
    degrees of freedom and the standard error ``s / sqrt(n)``, ``s`` with ddof 1).

    Returns:
        ``(mean, low, high)``; ``(nan, nan, nan)`` for no value, ``(mean, nan, nan)`` for one and for
        values that are all equal (``s = 0``: the t interval is not computable, never ``[mean, mean]``;
        :func:`rhetorica.analysis.equivalence.all_equal`).
    """
    x = np.asarray(list(values), dtype=float)
    if x.size == 0:
        return math.nan, math.nan, math.nan
    mean = float(x.mean())
    if x.size < 2 or all_equal(x):
        return mean, math.nan, math.nan
    sem = float(x.std(ddof=1) / math.sqrt(x.size))
    low, high = stats.t.interval(confidence, x.size - 1, loc=mean, scale=sem)
    return mean, float(low), float(high)


def success_interval(flipped: int, eligible: int, confidence: float = 0.95) -> tuple[float, float, float]:
    """A proportion ``flipped / eligible`` and its Clopper–Pearson exact interval
    (``proportion_confint(method="beta")``; the discordant split of :func:`excess_flip_interval`);
    ``(nan, nan, nan)`` when nothing is eligible."""
    if eligible == 0:
        return math.nan, math.nan, math.nan
    low, high = proportion_confint(flipped, eligible, alpha=1 - confidence, method="beta")
    return flipped / eligible, float(low), float(high)


def excess_flip_interval(only_winner: int, only_rereview: int, n: int,
                         confidence: float = 0.95) -> tuple[float, float, float, float]:
    """Paired difference of two flip rates on the same ``n`` papers, its exact conditional interval
    and the exact McNemar p-value.

    With ``b = only_winner`` and ``c = only_rereview`` the discordant papers (``m = b + c``), the
    difference is ``d = (b - c) / n``. Given ``m``, ``b`` is Binomial(m, θ) and
    ``d = (m / n)(2θ - 1)``; the interval maps the Clopper–Pearson exact interval of θ
    (:func:`success_interval`) through that line, so it excludes 0 exactly when the two-sided exact
    binomial test of ``b`` of ``m`` at θ = 1/2 (McNemar's exact test; ``scipy.stats.binomtest``)
    rejects at ``1 - confidence``. With no discordant paper (``m = 0``) the difference is 0 and
    p = 1, and since ``|d|`` is at most the share of discordant papers, the interval is ``[-u, u]``
    with ``u`` the Clopper–Pearson upper bound of 0 discordant of ``n`` (``1 - (α/2)^(1/n)``): no
    paper told the two apart, which bounds the difference without fixing it at 0. Sources:
    McNemar (1947); Clopper & Pearson (1934); Fagerland, Lydersen & Laake (2013), *Statistics in
    Medicine* 32(16) (conditional exact methods for paired proportions).

    Returns:
        ``(d, low, high, p)`` in [-1, 1] (p in [0, 1]); all NaN when ``n`` is 0.

    Raises:
        ValueError: ``b + c > n`` or a negative count.
    """
    if min(only_winner, only_rereview, n) < 0 or only_winner + only_rereview > n:
        raise ValueError(f"discordant counts {only_winner} + {only_rereview} must be non-negative and at most n = {n}")
    if n == 0:
        return math.nan, math.nan, math.nan, math.nan
    m = only_winner + only_rereview
    d = (only_winner - only_rereview) / n
    if m == 0:
        upper = success_interval(0, n, confidence)[2]
        return d, -upper, upper, 1.0
    _, low, high = success_interval(only_winner, m, confidence)
    p = float(binomtest(only_winner, m, 0.5).pvalue)
    return d, m / n * (2 * low - 1), m / n * (2 * high - 1), p


def rereview_means(records: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """Per (paper, target, metric) the mean of the ``ok`` re-review scores of the original over
    every search record of that paper and target on that metric (``rereview_scores``; a missing
    score stays out).

    Returns:
        Columns ``document_id, reviewer, metric, rereview, n_rereviews``; a paper and target
        without an ``ok`` re-review has no row.
    """
    pooled: dict[tuple[str, str, str], list[float]] = {}
    for r in records:
        scores = [float(v) for v in r.get("rereview_scores") or [] if v is not None]
        if scores:
            pooled.setdefault((str(r["document"]), str(r["target"]), str(r.get("metric"))), []).extend(scores)
    return pd.DataFrame([{"document_id": d, "reviewer": t, "metric": m, "rereview": float(np.mean(v)),
                          "n_rereviews": len(v)} for (d, t, m), v in pooled.items()],
                        columns=["document_id", "reviewer", "metric", "rereview", "n_rereviews"])


def _crossed(before: float, after: float, threshold: float, direction: str) -> tuple[bool, bool]:
    """(eligible, flipped): ``before`` on the side the attack moves away from, ``after`` across."""
    if direction == "+":
        return before <= threshold, before <= threshold < after
    return before > threshold, after <= threshold < before


def flip_counts(original: Iterable[float], attacked: Iterable[float], rereview: Iterable[float],
                threshold: float, direction: str) -> dict[str, int]:
    """The flip counts of one (target, direction) from its papers' held-out means (module docstring).

    Args:
        original, attacked, rereview: per paper, the held-out mean of the original and of the
            winner and the re-review mean of the original (NaN: no re-review), aligned.
        threshold: acceptance threshold (accepted: above it).
        direction: ``"+"`` or ``"-"``.

    Returns:
        ``eligible``, ``flipped`` (winners), ``baseline`` (eligible papers with a re-review mean),
        ``noise_flipped`` (their re-reviews that flipped), ``only_winner`` and ``only_rereview``
        (of the baseline papers, those where only one of the two flipped).
    """
    counts = dict.fromkeys(("eligible", "flipped", "baseline", "noise_flipped", "only_winner", "only_rereview"), 0)
    for o, a, r in zip(original, attacked, rereview, strict=True):
        eligible, flipped = _crossed(o, a, threshold, direction)
        counts["eligible"] += eligible
        counts["flipped"] += flipped
        if not eligible or math.isnan(r):
            continue
        noise = _crossed(o, r, threshold, direction)[1]
        counts["baseline"] += 1
        counts["noise_flipped"] += noise
        counts["only_winner"] += flipped and not noise
        counts["only_rereview"] += noise and not flipped
    return counts


def attack_summary(tidy: pd.DataFrame, records: Iterable[Mapping[str, Any]] = (),
                   threshold: float = DECISION_THRESHOLD, *, metric: str | None = None,
                   confidence: float = 0.95) -> pd.DataFrame:
    """One row per (target, direction): held-out flips, the re-review baseline and the success
    beyond it, shifts, the biased in-search shift, queries and cost per paper (definitions in
    the module docstring).

    Args:
        tidy: tidy assessments (see :func:`held_out_shifts`).
        records: the searches' trajectory records (may be empty: the in-search and baseline
            columns are then NaN, ``n_baseline`` 0).
        threshold: acceptance threshold on the metric (accepted: above it).
        metric: score column (default: the forms' primary metric).
        confidence: level of every interval (0-1).

    Returns:
        Columns :data:`SUMMARY_COLUMNS`, sorted by target and direction; a (target, direction) with
        trajectories but no held-out pair has ``n_papers`` 0 and NaN statistics.

    Raises:
        ValueError: as :func:`held_out_shifts`.
    """
    metric = metric or primary_metric(tidy)
    pairs = held_out_shifts(tidy, metric)
    records = list(records)
    noise = rereview_means(records)
    noise = noise[noise["metric"] == metric].drop(columns=["metric", "n_rereviews"])
    own = pairs[pairs["reviewer"] == pairs["target"]].merge(noise, on=["document_id", "reviewer"], how="left")
    keys = {(t, d) for t, d in zip(own["target"], own["direction"], strict=True)}
    keys |= {(str(r["target"]), str(r["direction"])) for r in records}
    rows = []
    for target, direction in sorted(keys):
        mine = own[(own["target"] == target) & (own["direction"] == direction)]
        k = flip_counts(mine["original"], mine["attacked"], mine["rereview"], threshold, direction)
        eligible, flipped, based, noise = k["eligible"], k["flipped"], k["baseline"], k["noise_flipped"]
        rate, lo, hi, p = excess_flip_interval(k["only_winner"], k["only_rereview"], based, confidence)
        mean, mean_lo, mean_hi = mean_interval(mine["shift"], confidence)
        extreme = (mine["shift"].max() if direction == "+" else mine["shift"].min()) if len(mine) else math.nan
        searches = [r for r in records if r["target"] == target and r["direction"] == direction]
        in_search = [r["best_in_search_score"] - r["original_score"] for r in searches
                     if r.get("best_in_search_score") is not None and r.get("original_score") is not None]
        rows.append({"target": target, "direction": direction, "metric": metric, "n_papers": len(mine),
                     "n_eligible": eligible, "n_flipped": flipped,
                     "flip_rate": flipped / eligible if eligible else math.nan, "n_baseline": based,
                     "n_noise_flipped": noise, "noise_rate": noise / based if based else math.nan,
                     "success_rate": rate, "success_lo": lo, "success_hi": hi, "success_p": p,
                     "mean_shift": mean, "mean_lo": mean_lo, "mean_hi": mean_hi,
                     "max_shift": float(extreme), "in_search_shift": float(np.mean(in_search)) if in_search else math.nan,
                     "n_searches": len(searches),
                     "queries_per_paper": float(np.mean([r["queries"] for r in searches])) if searches else math.nan,
                     "cost_per_paper": float(np.mean([r.get("cost_usd") or 0.0 for r in searches])) if searches
                     else math.nan})
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


def transfer_matrix(tidy: pd.DataFrame, *, metric: str | None = None, confidence: float = 0.95) -> pd.DataFrame:
    """Held-out shift of each target's winning variants under every reviewer configuration
    (the target itself included: its row is the attack's own shift).

    Returns:
        Long form, one row per (target, direction, reviewer): columns :data:`TRANSFER_COLUMNS`
        (``n`` papers, mean shift and its t interval); pivot ``mean_shift`` on ``reviewer`` for the
        matrix (rows: target whose search produced the variants; columns: reviewer).

    Raises:
        ValueError: as :func:`held_out_shifts`.
    """
    pairs = held_out_shifts(tidy, metric)
    rows = []
    for (target, direction, reviewer), group in pairs.groupby(["target", "direction", "reviewer"], sort=True):
        mean, lo, hi = mean_interval(group["shift"], confidence)
        rows.append({"target": target, "direction": direction, "reviewer": reviewer, "n": len(group),
                     "mean_shift": mean, "mean_lo": lo, "mean_hi": hi})
    return pd.DataFrame(rows, columns=TRANSFER_COLUMNS)
