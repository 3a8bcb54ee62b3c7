"""Verdict per reviewer configuration: pass, fail or not enough data, from intervals at the study's α.

Four checks per reviewer, each decided from a two-sided ``1 - alpha`` interval (never from a point
estimate alone, so one paper cannot fail a configuration and a handful cannot pass it):

- preference: per compared pair, the exact Clopper-Pearson interval (Clopper & Pearson 1934) of
  ``p = P(A higher | not tied)`` over the untied papers, mapped to ``ln R = ln(p / (1 - p))``
  (``R`` = the pair's preference ratio, :func:`rhetorica.analysis.paired.comparison_table`).
  The pair fails when the interval of ``|ln R|`` lies entirely above ``max_abs_log_ratio``,
  passes when it lies entirely at or below it, and is undecided otherwise (also when no paper
  was scored differently: the ratio is then undefined).
- flips: per pair, the Clopper-Pearson interval of the share of paired papers whose decision
  flips at the acceptance threshold (both directions added), against ``max_flip_pct``. Where the
  reviewer re-reviewed the originals (the worst-case searches' noise baseline,
  :func:`rhetorica.analysis.attack.rereview_means`), a pair of the original with another arm is
  judged on the flips *beyond* the reviewer's own: per paper with all three means, the arm's
  decision differs from the original's (``x``) and the re-review's does (``y``); the paired
  difference of the two rates with its exact conditional interval
  (:func:`rhetorica.analysis.attack.excess_flip_interval`), so a reviewer that ignores the text
  does not fail on its noise.
- discriminability: a percentile paper-bootstrap interval
  (:func:`rhetorica.analysis.robustness.discriminability_interval`) against
  ``min_discriminability``; with fewer than ``min_papers`` papers the bootstrap cannot be trusted
  and the check is undecided.
- failures: per pair of the reviewer's arms, Newcombe's hybrid-score interval (Newcombe 1998,
  method 10, from scipy's Wilson intervals; equals statsmodels' ``confint_proportions_2indep(...,
  method="newcomb")``) of the difference in failure rates, against ``max_failure_gap_pct``. A
  failure rate counts only the reviewer's own outcomes: the ``malformed``, ``refused``,
  ``truncated`` and ``empty`` share of the reviews that brought an answer. A transport error or
  time limit (:data:`rhetorica.status.CALL_FAILURES`) says nothing of the reviewer and is left out
  of both counts.

Preference, flips and failures test several pairs; each pair's interval is Bonferroni-corrected
(level ``alpha / number of pairs``) so that a check fails wrongly with probability at most
``alpha``. A check fails when any pair fails, passes when every pair passes, and is otherwise
undecided. A configuration **fails** when any check fails, **passes** when all four pass, and has
**not enough data** otherwise. A review-quality judge configuration is judged by its metrics'
Table-1 classes instead (:func:`judge_verdicts`: a metric classified sensitive or false
robustness is a finding, a not informative one is not enough data).

The thresholds (:class:`~rhetorica.scorecard_thresholds.ScorecardThresholds`, the ``scorecard``
section of a study YAML) live in :mod:`rhetorica.scorecard_thresholds`, below both the study config
and this module; numpy, pandas, scipy and the other analysis modules load when :func:`scorecard`
runs. The report's scorecard of a study (judge configurations included) and ``rhetorica check``
are :mod:`rhetorica.report.scorecard`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from rhetorica.analysis.soft import largest_soft_shift, with_soft_ratings
from rhetorica.scorecard_thresholds import DECISION_THRESHOLD, ScorecardThresholds
from rhetorica.status import CALL_FAILURES
from itertools import combinations
from rhetorica.analysis.arms import default_pairs
from rhetorica.analysis.attack import excess_flip_interval
from rhetorica.analysis.paired import comparison_table, paper_scores
from rhetorica.labels import ORIGINAL
from rhetorica.analysis.robustness import discriminability_table
from rhetorica.analysis.tidy import primary_metric, require_columns
from scipy.special import ndtri
from scipy.stats import beta
import numpy as np
import pandas as pd
from rhetorica.wording import counted, fixed


PASS, FAIL, UNDECIDED = "pass", "fail", "not enough data"
"""The three verdicts of a check and of a configuration."""

SCORECARD_COLUMNS = [
    "reviewer",
    "verdict",
    "abs_log_ratio",
    "abs_log_ratio_low",
    "abs_log_ratio_high",
    "worst_pair",
    "flip_pct",
    "flip_pct_low",
    "flip_pct_high",
    "flip_pair",
    "discriminability",
    "discriminability_low",
    "discriminability_high",
    "failure_gap_pct",
    "failure_gap_low",
    "failure_gap_high",
    "failure_pair",
    "verdict_preference",
    "verdict_flips",
    "verdict_discriminability",
    "verdict_failures",
    "passed",
    "reasons",
]

DISCRIMINABILITY_RESAMPLES = 1000
"""Bootstrap resamples of the discriminability interval (seed 0, so verdicts are reproducible)."""


@dataclass(frozen=True)
class Interval:
    """A check's value on one pair: point estimate, interval and verdict against the bound."""

    label: str
    point: float
    low: float
    high: float
    verdict: str
    detail: str = ""
    level: float = 0.05
    """Two-sided level of this interval (the check's alpha divided by its number of pairs)."""


def _combine(verdicts: Sequence[str]) -> str:
    """Fail if any fails; pass if all pass (and there is at least one); otherwise undecided."""
    if FAIL in verdicts:
        return FAIL
    return PASS if verdicts and all(v == PASS for v in verdicts) else UNDECIDED


def _upper_bound_verdict(low: float, high: float, bound: float) -> str:
    """A quantity that must not exceed ``bound``: fail above it, pass at or below it."""
    if low > bound:
        return FAIL
    return PASS if high <= bound else UNDECIDED


def _logit(p: float) -> float:
    if p <= 0:
        return -math.inf
    if p >= 1:
        return math.inf
    return math.log(p / (1 - p))


def _abs_interval(low: float, high: float) -> tuple[float, float]:
    """Interval of ``|x|`` for ``x`` in ``[low, high]``."""
    if low <= 0 <= high:
        return 0.0, max(-low, high)
    return min(abs(low), abs(high)), max(abs(low), abs(high))


def clopper_pearson(k: int, n: int, alpha: float) -> tuple[float, float]:
    """Exact (Clopper & Pearson 1934) two-sided ``1 - alpha`` interval of a binomial proportion
    ``k / n``: the beta quantiles ``B(alpha/2; k, n-k+1)`` and ``B(1-alpha/2; k+1, n-k)``
    (Brown, Cai & DasGupta 2001, eq. 5), 0 for ``k = 0`` and 1 for ``k = n``; ``(low, high)`` in
    [0, 1]. (scipy's ``binomtest(k, n).proportion_ci(method="exact")`` finds the same bounds by
    root search, to about 1e-12.)"""
    low = float(beta.ppf(alpha / 2, k, n - k + 1)) if k > 0 else 0.0
    high = float(beta.ppf(1 - alpha / 2, k + 1, n - k)) if k < n else 1.0
    return low, high


def _wilson(k: int, n: int, alpha: float) -> tuple[float, float]:
    """Wilson's score interval (Wilson 1927; Newcombe 1998, method 3), two-sided ``1 - alpha``,
    computed in the order of scipy's ``binomtest(k, n).proportion_ci(method="wilson")`` (the same
    digits, without the binomial test that object also computes)."""
    p = k / n
    z = ndtri(0.5 + 0.5 * (1 - alpha))
    denom = 2 * (n + z**2)
    center = (2 * n * p + z**2) / denom
    delta = z / denom * math.sqrt(4 * n * p * (1 - p) + z**2)
    return (0.0 if k == 0 else center - delta), (1.0 if k == n else center + delta)


def newcombe_difference(k1: int, n1: int, k2: int, n2: int, alpha: float) -> tuple[float, float]:
    """Newcombe's hybrid-score interval of ``k1/n1 - k2/n2`` for independent proportions.

    Source: Newcombe, R. G. (1998). Interval estimation for the difference between independent
    proportions. *Statistics in Medicine* 17, 873-890, method 10: with Wilson score intervals
    ``(l_i, u_i)`` of each proportion (:func:`_wilson`, the digits of scipy's
    ``binomtest(...).proportion_ci(method="wilson")``),
    ``L = d - sqrt((p1 - l1)^2 + (u2 - p2)^2)`` and ``U = d + sqrt((u1 - p1)^2 + (p2 - l2)^2)``.
    It equals statsmodels' ``confint_proportions_2indep(..., method="newcomb")`` up to rounding
    (~1e-16, its Wilson intervals are computed in another order); the scipy form is kept so that
    the scorecards of existing runs keep every digit.

    Args:
        k1, n1, k2, n2: successes and trials (``n_i >= 1``).
        alpha: two-sided level.

    Returns:
        ``(L, U)`` within [-1, 1].
    """

    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = _wilson(k1, n1, alpha)
    l2, u2 = _wilson(k2, n2, alpha)
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return max(low, -1.0), min(high, 1.0)


def preference_intervals(comp: pd.DataFrame, bound: float, alpha: float) -> list[Interval]:
    """``|ln R|`` per compared pair of one reviewer, with its Clopper-Pearson interval.

    Args:
        comp: the reviewer's rows of :func:`rhetorica.analysis.paired.comparison_table` with
            ``n_pairs > 0``.
        bound: ``max_abs_log_ratio``.
        alpha: the check's level (divided by the number of pairs here).

    Returns:
        One :class:`Interval` per pair (point ``|ln R|``; 0 when neither arm is ever higher).
    """
    out = []
    level = alpha / max(len(comp), 1)
    for row in comp.itertuples(index=False):
        n = int(row.n_pairs)
        a = round(row.pct_first_higher * n / 100)
        b = round(row.pct_second_higher * n / 100)
        label = f"{row.first} vs {row.second}"
        if a + b == 0:
            out.append(Interval(label, 0.0, math.nan, math.nan, UNDECIDED,
                                f"no paper of {label} scored differently under the two conditions", level))
            continue
        point = abs(math.log(a / b)) if a and b else math.inf
        p_low, p_high = clopper_pearson(a, a + b, level)
        low, high = _abs_interval(_logit(p_low), _logit(p_high))
        out.append(Interval(label, point, low, high, _upper_bound_verdict(low, high, bound),
                            f"{a} vs {b} untied papers", level))
    return out


def flip_intervals(comp: pd.DataFrame, bound_pct: float, alpha: float,
                   beyond_noise: dict[str, tuple[int, int, int]] | None = None) -> list[Interval]:
    """Decision-flip rate (percent, both directions) per pair of one reviewer, Clopper-Pearson.

    Args:
        comp: the reviewer's comparison rows with ``n_pairs > 0``.
        bound_pct: ``max_flip_pct``.
        alpha: the check's level (divided by the number of pairs here).
        beyond_noise: pair label (``"first vs second"``) -> ``(b, c, n)`` of :func:`noise_flips`:
            such a pair is judged on the paired difference of its flip rate and the re-review flip
            rate (:func:`rhetorica.analysis.attack.excess_flip_interval`).

    Returns:
        One :class:`Interval` per pair, in percent of paired papers.
    """
    out = []
    level = alpha / max(len(comp), 1)
    for row in comp.itertuples(index=False):
        label = f"{row.first} vs {row.second}"
        if beyond_noise and label in beyond_noise and beyond_noise[label][2] > 0:
            b, c, n = beyond_noise[label]
            d, low, high, _ = excess_flip_interval(b, c, n, 1 - level)
            out.append(Interval(label, 100 * d, 100 * low, 100 * high, _upper_bound_verdict(100 * low, 100 * high,
                                                                                             bound_pct),
                                f"beyond re-review noise: {b} of {counted(n, 'paper')} flipped only under the rewrite, "
                                f"{c} only on re-review", level))
            continue
        n = int(row.n_pairs)
        flips = round((row.flips_first_accept_pct + row.flips_second_accept_pct) * n / 100)
        low, high = clopper_pearson(flips, n, level)
        low, high = 100 * low, 100 * high
        out.append(Interval(f"{row.first} vs {row.second}", 100 * flips / n, low, high,
                            _upper_bound_verdict(low, high, bound_pct), f"{flips} of {counted(n, 'paper')}", level))
    return out


def noise_flips(df: pd.DataFrame, rereviews: pd.DataFrame, pairs: Sequence[tuple[str, str]], score: str,
                threshold: float) -> dict[str, tuple[int, int, int]]:
    """Per pair of the original with another arm, for one reviewer with re-reviews of the originals:
    ``(b, c, n)``: of the ``n`` papers with the original's, the arm's and the re-review's mean
    score, ``b`` where only the arm's decision differs from the original's, ``c`` where only the
    re-review's does (accepted: above ``threshold``).

    Args:
        df: the reviewer's tidy assessments.
        rereviews: its re-review means (:func:`rhetorica.analysis.attack.rereview_means` rows of
            this reviewer: ``document_id``, ``rereview``).
        pairs: the compared arm pairs.
        score: the score column.
        threshold: the acceptance threshold.
    """
    if rereviews.empty or df.empty:
        return {}
    wide = paper_scores(df, score).pivot_table(index="document_id", columns="arm", values=score)
    noise = rereviews.set_index("document_id")["rereview"]
    out = {}
    for first, second in pairs:
        if ORIGINAL not in (first, second) or first not in wide or second not in wide:
            continue
        other = second if first == ORIGINAL else first
        both = pd.concat([wide[ORIGINAL], wide[other], noise], axis=1, keys=["o", "a", "r"], join="inner").dropna()
        original = both["o"] > threshold
        x, y = (both["a"] > threshold) != original, (both["r"] > threshold) != original
        out[f"{first} vs {second}"] = (int((x & ~y).sum()), int((y & ~x).sum()), len(both))
    return out


def failure_gap_intervals(df: pd.DataFrame, bound_pct: float, alpha: float) -> list[Interval]:
    """Failure-rate difference (percentage points) per pair of one reviewer's arms, Newcombe.

    Args:
        df: the reviewer's tidy assessments (every status; those in :data:`CALL_FAILURES` are left out).
        bound_pct: ``max_failure_gap_pct``.
        alpha: the check's level (divided by the number of arm pairs here).

    Returns:
        One :class:`Interval` per pair of arms (point = |difference|); empty with one arm.
    """

    own = df[~_transport(df)]
    return _gap_intervals(own["status"].ne("ok").groupby(own["arm"]).agg(["sum", "count"]), bound_pct, alpha)


def _transport(df: pd.DataFrame) -> pd.Series:
    """Rows whose call brought no answer (:data:`CALL_FAILURES`): not the reviewer's outcome."""
    return df["status"].isin([str(s) for s in CALL_FAILURES])


def _failure_counts(df: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Per reviewer, the ``sum`` (failed) and ``count`` (reviews) of each arm it reviewed: the
    table :func:`failure_gap_intervals` groups from that reviewer's rows, for every reviewer from
    one factorisation of the keys (rows with a null reviewer, arm or status are left out, as the
    groupby leaves them out; so are transport failures, as there)."""
    failed = df["status"].ne("ok")
    r_codes, reviewers = pd.factorize(df["reviewer"], sort=True)
    a_codes, arms = pd.factorize(df["arm"], sort=True)
    keep = (r_codes >= 0) & (a_codes >= 0) & failed.notna().to_numpy(dtype=bool) & ~_transport(df).to_numpy(dtype=bool)
    key = r_codes[keep] * len(arms) + a_codes[keep]
    shape = (len(reviewers), len(arms))
    count = np.bincount(key, minlength=shape[0] * shape[1]).reshape(shape)
    fails = np.bincount(key, weights=failed.to_numpy(dtype=float, na_value=0.0)[keep],
                        minlength=shape[0] * shape[1]).reshape(shape)
    return {reviewer: pd.DataFrame({"sum": fails[i].astype(np.int64), "count": count[i]}, index=arms)[count[i] > 0]
            for i, reviewer in enumerate(reviewers)}


_NO_REVIEWS = pd.DataFrame({"sum": [], "count": []}, dtype=np.int64)


def _gap_intervals(failed: pd.DataFrame, bound_pct: float, alpha: float) -> list[Interval]:
    """:func:`failure_gap_intervals` from one reviewer's failed/reviews per arm (``sum``, ``count``)."""
    pairs = list(combinations(sorted(failed.index), 2))
    level = alpha / max(len(pairs), 1)
    out = []
    for first, second in pairs:
        k1, n1 = (int(v) for v in failed.loc[first])
        k2, n2 = (int(v) for v in failed.loc[second])
        low, high = newcombe_difference(k1, n1, k2, n2, level)
        low, high = _abs_interval(100 * low, 100 * high)
        point = abs(100 * (k1 / n1 - k2 / n2))
        out.append(Interval(f"{first} vs {second}", point, low, high, _upper_bound_verdict(low, high, bound_pct),
                            f"{k1}/{n1} vs {k2}/{counted(n2, 'review')} failed", level))
    return out


def _worst(intervals: list[Interval]) -> Interval | None:
    """The interval that decides: a failing one, else an undecided one, else any; largest point."""
    for verdict in (FAIL, UNDECIDED, PASS):
        chosen = [i for i in intervals if i.verdict == verdict]
        if chosen:
            return max(chosen, key=lambda i: (i.point, i.high if not math.isnan(i.high) else -1.0))
    return None


def _ci_text(i: Interval, digits: int) -> str:
    def f(x: float) -> str:
        return "inf" if math.isinf(x) else fixed(x, digits)

    return f"{f(i.point)}, {100 * (1 - i.level):.3g}% interval [{f(i.low)}, {f(i.high)}]"


def _reasons(name: str, intervals: list[Interval], bound: str, digits: int) -> list[str]:
    """One sentence per failing pair; without a failure, one for the deciding undecided pair."""
    failing = [i for i in intervals if i.verdict == FAIL]
    out = [f"{name} {_ci_text(i, digits)} ({i.label}; {i.detail}) exceeds {bound}" for i in failing]
    undecided = [i for i in intervals if i.verdict == UNDECIDED]
    if failing or not undecided:
        return out
    i = _worst(undecided)
    assert i is not None
    more = f" (and {len(undecided) - 1} other pair(s))" if len(undecided) > 1 else ""
    if math.isnan(i.low):
        return [f"{name}: not enough data ({i.detail}){more}"]
    return [f"{name} {_ci_text(i, digits)} ({i.label}; {i.detail}) straddles {bound}: "
            f"not enough data{more}"]


def scorecard(
    df: pd.DataFrame,
    thresholds: ScorecardThresholds | None = None,
    *,
    pairs: Sequence[tuple[str, str]] | None = None,
    score: str | None = None,
    decision_threshold: float = DECISION_THRESHOLD,
    rereviews: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Verdict per reviewer configuration, with the interval and the reasons of every check.

    Args:
        df: tidy assessments.
        thresholds: the limits and α (defaults of :class:`ScorecardThresholds` when None).
        pairs: compared arm pairs; default :func:`rhetorica.analysis.arms.default_pairs`.
        score: score column (default: each reviewer's primary metric; reviewers whose forms have
            different primary metrics are scored apart, each on its own).
        decision_threshold: acceptance threshold for flips when ``thresholds.threshold`` is None.
        rereviews: re-review means of the originals (:func:`rhetorica.analysis.attack.rereview_means`:
            ``document_id, reviewer, metric, rereview``); a reviewer with some on the scored
            metric is judged on flips beyond them (:func:`noise_flips`).

    Returns:
        DataFrame with :data:`SCORECARD_COLUMNS`, one row per reviewer (sorted). ``verdict`` and
        ``verdict_<check>`` are :data:`PASS`, :data:`FAIL` or :data:`UNDECIDED`. Each check's
        value columns describe its deciding pair (a failing one, else an undecided one, else any;
        the largest point estimate among those): point, ``_low`` and ``_high`` interval bounds
        and the pair (``worst_pair`` for ``|ln R|``, ``flip_pair`` for the flip rate in percent,
        ``failure_pair`` for the failure-rate gap in points); NaN and ``""`` when the check has
        no pair. ``passed`` is ``verdict == "pass"``; ``reasons`` is ``""`` for a reviewer that
        passes, otherwise ``"; "``-joined sentences.

    Raises:
        ValueError: on a missing column or an out-of-range score.
    """


    if score is None and not df.empty:
        by_primary: dict[str, list[str]] = {}
        for reviewer, rows in df.groupby("reviewer", sort=True):
            by_primary.setdefault(primary_metric(rows), []).append(reviewer)
        if len(by_primary) > 1:  # reviewers answering on forms with different primary scores: each on its own
            parts = [scorecard(df[df["reviewer"].isin(names)], thresholds, pairs=pairs, score=metric,
                               decision_threshold=decision_threshold, rereviews=rereviews)
                     for metric, names in by_primary.items()]
            return pd.concat(parts, ignore_index=True).sort_values("reviewer", ignore_index=True)
    score = score or primary_metric(df)
    t = thresholds or ScorecardThresholds()
    accept = t.threshold if t.threshold is not None else decision_threshold
    conf = f"{100 * (1 - t.alpha):g}%"
    require_columns(df, ["reviewer", "arm", "status", "document_id", score])
    if pairs is None:
        pairs = default_pairs(pd.unique(df["arm"]))
    comp = comparison_table(df, pairs, threshold=accept, score=score)
    disc = discriminability_table(df, score=score, alpha=t.alpha, n_resamples=DISCRIMINABILITY_RESAMPLES)
    disc = disc.set_index("reviewer")
    failure_counts = _failure_counts(df)
    rows = []
    for reviewer in sorted(pd.unique(df["reviewer"])):
        c = comp[(comp["reviewer"] == reviewer) & (comp["n_pairs"] > 0)]
        reasons: list[str] = []
        pref = preference_intervals(c, t.max_abs_log_ratio, t.alpha)
        noise = (noise_flips(df[df["reviewer"] == reviewer], rereviews[(rereviews["reviewer"] == reviewer)
                                                                        & (rereviews["metric"] == score)],
                             pairs, score, accept) if rereviews is not None and not rereviews.empty else {})
        flips = flip_intervals(c, t.max_flip_pct, t.alpha, noise)
        if c.empty:
            reasons.append("no paired papers to compare: not enough data")
        reasons += _reasons("|ln preference ratio|", pref, f"{t.max_abs_log_ratio:.2f}", 2)
        reasons += _reasons("decision flips (%)", flips, f"{t.max_flip_pct:g}%", 1)
        d = disc.loc[reviewer] if reviewer in disc.index else None
        n_disc = int(d["n_papers"]) if d is not None else 0
        point, d_low, d_high = ((float(d["discriminability"]), float(d["low"]), float(d["high"]))
                                if d is not None else (np.nan, np.nan, np.nan))
        if not np.isfinite(point):
            v_disc = UNDECIDED
            reasons.append(f"discriminability not computable (no pair of papers with different original scores "
                           f"among the {n_disc} with an original and a rewrite): not enough data")
        elif n_disc < t.min_papers:
            v_disc = UNDECIDED
            reasons.append(f"discriminability {point:.2f} from {counted(n_disc, 'paper')}: not enough data (the bootstrap "
                           f"decides from {counted(t.min_papers, 'paper')})")
        else:
            v_disc = FAIL if d_high < t.min_discriminability else (
                PASS if d_low >= t.min_discriminability else UNDECIDED)
            if v_disc == FAIL:
                reasons.append(f"discriminability {point:.2f}, {conf} interval [{d_low:.2f}, {d_high:.2f}], "
                               f"below {t.min_discriminability:g}")
            elif v_disc == UNDECIDED:
                reasons.append(f"discriminability {point:.2f}, {conf} interval [{d_low:.2f}, {d_high:.2f}], "
                               f"straddles {t.min_discriminability:g}: not enough data")
        answered = failure_counts.get(reviewer, _NO_REVIEWS)
        gaps = _gap_intervals(answered, t.max_failure_gap_pct, t.alpha)
        if not gaps:
            transport = int((_transport(df) & df["reviewer"].eq(reviewer)).sum())
            reasons.append(f"failure-rate gap: {len(answered)} condition(s) with answered calls"
                           + (f" ({transport} call(s) that brought no answer left out)" if transport else "")
                           + ": not enough data")
        reasons += _reasons("failure-rate gap (points)", gaps, f"{t.max_failure_gap_pct:g}", 1)
        verdicts = {"preference": _combine([i.verdict for i in pref]), "flips": _combine([i.verdict for i in flips]),
                    "discriminability": v_disc, "failures": _combine([i.verdict for i in gaps])}
        verdict = _combine(list(verdicts.values()))
        nan = float("nan")
        empty = Interval("", nan, nan, nan, UNDECIDED)
        wp, wf, wg = _worst(pref) or empty, _worst(flips) or empty, _worst(gaps) or empty
        rows.append({
            "reviewer": reviewer,
            "verdict": verdict,
            "abs_log_ratio": wp.point,
            "abs_log_ratio_low": wp.low,
            "abs_log_ratio_high": wp.high,
            "worst_pair": wp.label,
            "flip_pct": wf.point,
            "flip_pct_low": wf.low,
            "flip_pct_high": wf.high,
            "flip_pair": wf.label,
            "discriminability": point,
            "discriminability_low": d_low,
            "discriminability_high": d_high,
            "failure_gap_pct": wg.point,
            "failure_gap_low": wg.low,
            "failure_gap_high": wg.high,
            "failure_pair": wg.label,
            **{f"verdict_{k}": v for k, v in verdicts.items()},
            "passed": verdict == PASS,
            "reasons": "; ".join(reasons) if verdict != PASS else "",
        })
    card = pd.DataFrame(rows, columns=SCORECARD_COLUMNS)
    return largest_soft_shift(card, with_soft_ratings(comp, df))  # where soft ratings exist: their largest shift


