"""Mixed-effects arm shift against an independent fit (statsmodels formula API) and by construction."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from rhetorica.analysis.mixed import mixed_effects_shift, mixed_effects_table


def _assessments(shift: float, n_papers: int = 12, reps: int = 3, seed: int = 1) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for p in range(n_papers):
        base = rng.normal(5, 1.5)
        for arm, extra in (("a", shift), ("b", 0.0)):
            for r in range(reps):
                rows.append({"reviewer": "R", "document_id": f"p{p}", "arm": arm, "status": "ok",
                             "overall": float(np.clip(np.round(base + extra + rng.normal(0, 0.5)), 1, 10))})
    return pd.DataFrame(rows)


def test_matches_statsmodels_formula_fit() -> None:
    import statsmodels.formula.api as smf

    df = _assessments(1.0)
    got = mixed_effects_table(df, [("a", "b")]).iloc[0]
    ref = smf.mixedlm("overall ~ is_a", df.assign(is_a=(df["arm"] == "a").astype(float)),
                      groups=df["document_id"]).fit(reml=True)
    assert got["mixed_diff"] == pytest.approx(ref.fe_params["is_a"], rel=1e-6)
    assert got["mixed_p"] == pytest.approx(ref.pvalues["is_a"], rel=1e-4)
    assert got["mixed_ci_low"] < got["mixed_diff"] < got["mixed_ci_high"]
    assert got["mixed_note"] is None


def test_balanced_design_estimate_is_the_mean_difference() -> None:
    # balanced design (every paper has 3 replicates in both arms): the REML fixed effect of the
    # arm equals the difference of the arm means, computed here by hand with pandas
    df = _assessments(2.0, seed=7)
    means = df.groupby("arm")["overall"].mean()
    got = mixed_effects_table(df, [("a", "b")]).iloc[0]
    assert got["mixed_diff"] == pytest.approx(means["a"] - means["b"], abs=1e-6)
    assert got["mixed_p"] < 1e-6


def test_missing_estimates_say_why() -> None:
    one = _assessments(1.0, n_papers=1)
    assert mixed_effects_table(one, [("a", "b")]).iloc[0]["mixed_note"] == "needs at least two papers"
    flat = _assessments(0.0).assign(overall=5.0)
    row = mixed_effects_table(flat, [("a", "b")]).iloc[0]
    assert np.isnan(row["mixed_diff"]) and row["mixed_note"].startswith("no score varies within a paper")


def test_no_warning_reaches_the_user(recwarn) -> None:
    # the demo's SmolLM2 scores of confidence:- vs original (3 papers x 2 replicates): the
    # between-paper variance sits on the boundary (0); statsmodels warns (singular covariance,
    # failed convergence) and the estimate is left missing with the reason, never a default value;
    # none of its warnings reach the user's terminal (the singular-covariance one used to)
    scores = {"chebnet": ((1, 6), (6, 6)), "gcrn": ((6, 3), (7, 6)), "nalu": ((7, 6), (6, 6))}
    rows = [{"reviewer": "R", "document_id": paper, "arm": arm, "status": "ok", "overall": float(v)}
            for paper, arms in scores.items() for arm, values in zip(("minus", "original"), arms, strict=True)
            for v in values]
    got = mixed_effects_table(pd.DataFrame(rows), [("minus", "original")]).iloc[0]
    assert [str(w.message) for w in recwarn.list] == []
    assert np.isnan(got["mixed_diff"]) and got["mixed_note"] == "model did not converge (ConvergenceWarning)"


def test_mixed_p_is_not_computable_exactly_when_no_score_varies_within_a_paper() -> None:
    """Generated: papers 2..7 with every paper's scores equal (constant or per-paper levels, with and
    without a replicate) have no residual variance; one paper with different arm scores restores it."""
    flat, varied = 0, 0
    for n in range(2, 8):
        for shift in (0.0, 1.0):
            levels = pd.Series([float(1 + i % 9) for i in range(n) for _ in range(2)])
            for scores in (pd.Series([5.0] * (2 * n)), levels):
                s = scores.copy()
                s.iloc[0] += shift  # paper 0's first-arm score moves by `shift`
                arm = pd.Series([True, False] * n)
                paper = pd.Series([f"p{i}" for i in range(n) for _ in range(2)])
                got = mixed_effects_shift(s, arm, paper)
                if shift == 0.0:
                    flat += 1
                    assert np.isnan(got["mixed_p"]) and got["mixed_note"].startswith("no score varies within")
                else:
                    varied += 1
                    assert got["mixed_note"] is None or "converge" in got["mixed_note"]
    assert (flat, varied) == (12, 12)
