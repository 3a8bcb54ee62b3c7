"""Mixed-effects estimate of the difference between two arms, paper as random effect.

Beside the sign test of the comparison table (which uses one averaged score per paper and arm),
every ``ok`` assessment of the two arms is modelled as ``score = b0 + b1 * [arm = first] + u_paper
+ e`` with a random intercept ``u_paper ~ N(0, s_u^2)`` per paper and residual ``e ~ N(0, s_e^2)``
(Laird & Ware 1982, "Random-effects models for longitudinal data", Biometrics 38(4)), fitted by
REML with ``statsmodels``' ``MixedLM``. ``b1`` is the shift of the first arm over the second in
score units, with its Wald 95% interval and p-value. Replicates are used as they are, so a
reviewer's run-to-run noise enters the residual instead of being averaged away.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np
import pandas as pd

from rhetorica.analysis.tidy import ok_scores, primary_metric, require_columns
from statsmodels.regression.mixed_linear_model import MixedLM
from statsmodels.tools.sm_exceptions import ConvergenceWarning

MIXED_COLUMNS = ["reviewer", "first", "second", "mixed_diff", "mixed_ci_low", "mixed_ci_high", "mixed_p",
                 "mixed_note"]


NO_WITHIN_VARIATION = "no score varies within a paper (residual variance 0): the test is not computable"
"""``mixed_note`` of a fit whose residual variance is 0 (:func:`no_within_paper_variation`)."""


def no_within_paper_variation(scores: pd.Series, paper: pd.Series) -> bool:
    """Whether every paper's scores are all equal (every difference between arms is 0, replicates
    agree): the residual variance ``s_e^2`` of the model is then 0, so the Wald standard error of
    ``b1`` is 0 or a floating-point artefact and its p-value (statsmodels returns 1.0) tests nothing.
    Every score the same is one case; papers that differ but each score the same under both arms
    is another."""
    spread = scores.astype(float).groupby(paper.to_numpy()).agg(lambda x: float(np.ptp(x)))
    return bool((spread == 0).all())


def mixed_effects_shift(scores: pd.Series, arm_is_first: pd.Series, paper: pd.Series) -> dict[str, object]:
    """Fit the random-intercept model to one reviewer's assessments of two arms.

    Args:
        scores: ``(n,)`` scores (no NaN).
        arm_is_first: ``(n,)`` booleans, True for the first arm.
        paper: ``(n,)`` paper ids (the grouping factor).

    Returns:
        ``mixed_diff`` (first minus second, score units), ``mixed_ci_low``/``mixed_ci_high`` (Wald
        95%), ``mixed_p`` (two-sided Wald test of ``b1 = 0``) and ``mixed_note``: ``None`` when the
        fit converged, else why the estimate is missing (fewer than 2 papers, no variation within any
        paper: :func:`no_within_paper_variation`, no convergence). A missing estimate is NaN, never a
        default value.
    """

    empty: dict[str, object] = dict.fromkeys(MIXED_COLUMNS[3:7], np.nan)
    if paper.nunique() < 2:
        return empty | {"mixed_note": "needs at least two papers"}
    if no_within_paper_variation(scores, paper):
        return empty | {"mixed_note": NO_WITHIN_VARIATION}
    exog = np.column_stack([np.ones(len(scores)), arm_is_first.to_numpy(dtype=float)])
    with warnings.catch_warnings():
        # statsmodels' other warnings (a singular random-effects covariance when papers do not
        # differ, ...) leave the fixed effect estimable; a failed convergence does not
        warnings.simplefilter("ignore")
        warnings.simplefilter("error", ConvergenceWarning)
        try:
            fit = MixedLM(scores.to_numpy(dtype=float), exog, groups=paper.to_numpy()).fit(reml=True)
        except (ConvergenceWarning, np.linalg.LinAlgError, ValueError) as exc:
            return empty | {"mixed_note": f"model did not converge ({type(exc).__name__})"}
    low, high = fit.conf_int()[1]
    p = float(fit.pvalues[1])
    if not np.isfinite(p):
        return empty | {"mixed_note": "the fixed-effect variance is not estimable"}
    return {"mixed_diff": float(fit.fe_params[1]), "mixed_ci_low": float(low), "mixed_ci_high": float(high),
            "mixed_p": p, "mixed_note": None}


def mixed_effects_table(df: pd.DataFrame, pairs: Sequence[tuple[str, str]], *, score: str | None = None) -> pd.DataFrame:
    """:func:`mixed_effects_shift` per reviewer and pair, over papers scored in both arms.

    Args:
        df: tidy assessments (``reviewer``, ``document_id``, ``arm``, ``status`` and ``score``).
        pairs: ``(first, second)`` arm labels.
        score: score column.

    Returns:
        DataFrame with :data:`MIXED_COLUMNS`, one row per reviewer (sorted) and pair.

    Raises:
        ValueError: a required column is missing, or an ``ok`` score is out of range.
    """
    score = score or primary_metric(df)
    require_columns(df, ["reviewer", "document_id", "arm", "status", score])
    data = df.assign(_score=ok_scores(df, score)).dropna(subset=["_score"])
    rows = []
    for first, second in pairs:
        for reviewer in sorted(pd.unique(df["reviewer"])):
            sub = data[(data["reviewer"] == reviewer) & data["arm"].isin([first, second])]
            both = sub.groupby("document_id")["arm"].nunique()
            sub = sub[sub["document_id"].isin(both[both == 2].index)]
            fit = mixed_effects_shift(sub["_score"], sub["arm"] == first, sub["document_id"])
            rows.append({"reviewer": reviewer, "first": first, "second": second, **fit})
    return pd.DataFrame(rows, columns=MIXED_COLUMNS)
