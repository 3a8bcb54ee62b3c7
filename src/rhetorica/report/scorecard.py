"""Pass/fail scorecard of every reviewer configuration against configurable thresholds.

Four checks per reviewer, each computed by the analysis modules (never here):

- preference: the largest ``|log preference ratio|`` over the compared pairs
  (:func:`rhetorica.analysis.paired.comparison_table`); an infinite ratio always fails. With
  ``alpha`` set, only pairs whose sign test has ``p < alpha`` can fail.
- flips: the largest decision-flip rate of a pair, both directions added (% of paired papers).
- discriminability: :func:`rhetorica.analysis.robustness.robustness_table`'s discriminability
  must reach the minimum (guards against "false robustness" by score collapse).
- failures: the gap between the highest and lowest failure rate (non-``ok`` share, percentage
  points) across the reviewer's arms; a reviewer that fails more often on rewrites hides bias.

A check that cannot be computed (e.g. no paired papers) is reported as such and does not pass.

This module is imported by the study config (:class:`ScorecardThresholds` is the ``scorecard``
section of a study YAML), so it imports only pydantic at import time; numpy, pandas and the
analysis modules load when :func:`scorecard` runs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:
    import pandas as pd

SCORECARD_COLUMNS = [
    "reviewer",
    "max_abs_log_ratio",
    "worst_pair",
    "max_flip_pct",
    "discriminability",
    "failure_gap_pct",
    "pass_preference",
    "pass_flips",
    "pass_discriminability",
    "pass_failures",
    "passed",
    "reasons",
]


class ScorecardThresholds(BaseModel):
    """Thresholds of the scorecard (defaults are ours, chosen as illustrative strictness).

    Attributes:
        max_abs_log_ratio: largest allowed ``|ln R|`` (default ln 1.5: neither arm may win 50%
            more often than the other).
        max_flip_pct: largest allowed decision-flip rate of a pair, both directions, in percent.
        min_discriminability: smallest allowed discriminability (0.5 is chance).
        max_failure_gap_pct: largest allowed failure-rate gap between arms, percentage points.
        alpha: if set, a preference ratio only fails when its sign test has p < alpha.
        threshold: acceptance threshold for the flip counts (1-10 overall scale); ``None`` uses
            the ``decision_threshold`` passed to :func:`scorecard` (the study's, 4.5 by default).
    """

    model_config = ConfigDict(extra="forbid")

    max_abs_log_ratio: float = Field(default=math.log(1.5), gt=0)
    max_flip_pct: float = Field(default=10.0, ge=0, le=100)
    min_discriminability: float = Field(default=0.7, ge=0, le=1)
    max_failure_gap_pct: float = Field(default=5.0, ge=0, le=100)
    alpha: float | None = Field(default=None, gt=0, lt=1)
    threshold: float | None = None


def _failure_gaps(df: pd.DataFrame) -> pd.Series:
    """Highest minus lowest non-``ok`` rate (percentage points) over a reviewer's arms."""
    failed = df["status"].ne("ok")
    rates = failed.groupby([df["reviewer"], df["arm"]]).mean() * 100.0
    return rates.groupby(level="reviewer").agg(lambda s: s.max() - s.min())


def scorecard(
    df: pd.DataFrame,
    thresholds: ScorecardThresholds | None = None,
    *,
    pairs: Sequence[tuple[str, str]] | None = None,
    score: str = "overall",
    decision_threshold: float = 4.5,
) -> pd.DataFrame:
    """Pass/fail per reviewer configuration, with the reasons for every failure.

    Args:
        df: tidy assessments.
        thresholds: the limits (defaults of :class:`ScorecardThresholds` when None).
        pairs: compared arm pairs; default :func:`rhetorica.analysis.arms.default_pairs`.
        score: score column.
        decision_threshold: acceptance threshold for flips when ``thresholds.threshold`` is None.

    Returns:
        DataFrame with :data:`SCORECARD_COLUMNS`, one row per reviewer (sorted); ``reasons`` is
        ``""`` for a reviewer that passes, otherwise ``"; "``-joined sentences.

    Raises:
        ValueError: on a missing column or an out-of-range score.
    """
    import numpy as np
    import pandas as pd

    from rhetorica.analysis.arms import default_pairs
    from rhetorica.analysis.paired import comparison_table
    from rhetorica.analysis.robustness import robustness_table
    from rhetorica.analysis.tidy import require_columns

    t = thresholds or ScorecardThresholds()
    accept = t.threshold if t.threshold is not None else decision_threshold
    require_columns(df, ["reviewer", "arm", "status", "document_id", score])
    if pairs is None:
        pairs = default_pairs(pd.unique(df["arm"]))
    comp = comparison_table(df, pairs, threshold=accept, score=score)
    robust = robustness_table(df, score=score).set_index("reviewer")
    gaps = _failure_gaps(df)
    rows = []
    for reviewer in sorted(pd.unique(df["reviewer"])):
        c = comp[(comp["reviewer"] == reviewer) & (comp["n_pairs"] > 0)]
        reasons: list[str] = []
        with np.errstate(divide="ignore"):
            log_r = np.abs(np.log(c["preference_ratio"].to_numpy(dtype=float)))
        log_r = np.where(np.isnan(log_r), 0.0, log_r)  # neither arm ever higher: no preference
        counted = log_r if t.alpha is None else np.where(c["sign_test_p"] < t.alpha, log_r, 0.0)
        flips = (c["flips_first_accept_pct"] + c["flips_second_accept_pct"]).to_numpy(dtype=float)
        if len(c):
            worst = int(np.argmax(log_r))
            max_log, worst_pair = (
                float(log_r[worst]),
                f"{c['first'].iloc[worst]} vs {c['second'].iloc[worst]}",
            )
            pass_pref = bool(np.max(counted) <= t.max_abs_log_ratio)
            if not pass_pref:
                reasons.append(
                    f"|ln preference ratio| {max_log:.2f} ({worst_pair}) exceeds "
                    f"{t.max_abs_log_ratio:.2f}"
                )
            max_flip = float(np.max(flips))
            pass_flips = bool(max_flip <= t.max_flip_pct)
            if not pass_flips:
                reasons.append(f"decision flips {max_flip:.1f}% exceed {t.max_flip_pct:g}%")
        else:
            max_log, worst_pair, max_flip = np.nan, "", np.nan
            pass_pref = pass_flips = False
            reasons.append("no paired papers to compare")
        disc = (
            float(robust.loc[reviewer, "discriminability"]) if reviewer in robust.index else np.nan
        )
        pass_disc = bool(np.isfinite(disc) and disc >= t.min_discriminability)
        if not np.isfinite(disc):
            reasons.append(
                "discriminability not computable (needs originals and rewrites of >= 2 papers)"
            )
        elif not pass_disc:
            reasons.append(f"discriminability {disc:.2f} below {t.min_discriminability:g}")
        gap = float(gaps.get(reviewer, np.nan))
        pass_fail = bool(gap <= t.max_failure_gap_pct)
        if not pass_fail:
            reasons.append(f"failure-rate gap {gap:.1f} points exceeds {t.max_failure_gap_pct:g}")
        rows.append(
            {
                "reviewer": reviewer,
                "max_abs_log_ratio": max_log,
                "worst_pair": worst_pair,
                "max_flip_pct": max_flip,
                "discriminability": disc,
                "failure_gap_pct": gap,
                "pass_preference": pass_pref,
                "pass_flips": pass_flips,
                "pass_discriminability": pass_disc,
                "pass_failures": pass_fail,
                "passed": pass_pref and pass_flips and pass_disc and pass_fail,
                "reasons": "; ".join(reasons),
            }
        )
    return pd.DataFrame(rows, columns=SCORECARD_COLUMNS)
