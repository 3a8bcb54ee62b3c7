"""Expected scores only where the mass is there (issue 36 item 3): each stored soft rating carries
its covered mass and the bounds of its expectation; the analysis leaves an expected score whose
covered mass is below ``soft_ratings.min_covered`` out, with the reason, in the tables and the
study flow. Distributions written by hand as token log-probabilities."""

from __future__ import annotations

import json
import math
import sqlite3

import numpy as np
import pandas as pd
import pytest

from rhetorica.analysis.soft import apply_min_covered, covered_mass, soft_rating_reasons
from rhetorica.models.logprobs import TokenLogprob, soft_rating
from rhetorica.reviewers.soft_ratings import stored_parts


def tok(text: str, p: float = 1.0, *top: tuple[str, float]) -> TokenLogprob:
    return TokenLogprob(token=text, logprob=math.log(p), top=[(t, math.log(q)) for t, q in top])


def rating(*top: tuple[str, float]):  # noqa: ANN201
    """The soft rating of ``"overall": 3`` on a 1-10 scale with these alternatives."""
    return soft_rating([tok('"overall": '), tok("3", top[0][1], *top), tok("}")], "overall", 3, range(1, 11))


# u1: 3 .3, 4 .17, '1' .46 (1 or 10, never generated: unresolved), '"' .07 outside: covered 0.47
LOW = rating(("3", 0.3), ("4", 0.17), ("1", 0.46), ('"', 0.07))
# u2: every mass on levels
FULL = rating(("3", 0.8), ("4", 0.2))


def _artefacts() -> pd.DataFrame:
    rows = []
    for key, r in (("u1", LOW), ("u2", FULL)):
        rows.append({"unit_key": key, "name": "soft_ratings", "value_json": json.dumps(stored_parts([r])[1])})
    rows.append({"unit_key": "u3", "name": "soft_ratings",
                 "value_json": json.dumps({"overall": {"expected": None, "reason": "no log-probabilities"}})})
    return pd.DataFrame(rows)


def test_hand_computed_covered_mass_and_bounds() -> None:
    assert LOW.covered == pytest.approx(0.47) and LOW.unresolved == pytest.approx(0.46)
    assert LOW.expected == pytest.approx((0.9 + 0.68) / 0.47)  # 3.36
    # the expectation over covered + unresolved (0.93): the 0.46 at 1 or at 10
    assert (LOW.low, LOW.high) == pytest.approx(((1.58 + 0.46) / 0.93, (1.58 + 4.6) / 0.93))  # 2.19, 6.65
    assert FULL.covered == pytest.approx(1.0) and FULL.low == FULL.high == pytest.approx(3.2)


def test_reasons_and_the_threshold() -> None:
    reasons = soft_rating_reasons(_artefacts(), 0.9)
    assert reasons.values.tolist() == [["u1", "overall", "covered mass 0.47 < 0.9"],
                                       ["u3", "overall", "no log-probabilities"]]
    assert soft_rating_reasons(_artefacts(), 0.4)["unit_key"].tolist() == ["u3"]
    assert soft_rating_reasons(_artefacts())["unit_key"].tolist() == ["u3"]  # 0: every expected score kept


def test_a_judge_score_needs_the_mass_in_every_rating_it_averages() -> None:
    fields = {"expected": 3.0, "ratings": [{"covered": 0.95}, {"covered": 0.6}]}
    assert covered_mass(fields) == 0.6
    assert covered_mass({"expected": 3.0, "covered": 0.8, "ratings": [{"covered": 0.95}]}) == 0.8
    assert covered_mass({"expected": None}) is None


def test_apply_min_covered_makes_the_low_expected_score_missing() -> None:
    assessments = pd.DataFrame({"unit_key": ["u1", "u2", "u3"], "overall": [3, 3, 3],
                                "overall.expected": [LOW.expected, FULL.expected, np.nan]})
    scores = pd.DataFrame({"unit_key": ["u1", "u1", "u2", "u2"], "metric": ["overall", "overall.expected"] * 2,
                           "value": [3, LOW.expected, 3, FULL.expected]})
    a, s = apply_min_covered(assessments, scores, _artefacts(), 0.9)
    assert a["overall.expected"].isna().tolist() == [True, False, True] and a["overall"].tolist() == [3, 3, 3]
    assert s["value"].isna().tolist() == [False, True, False, False]
    assert assessments["overall.expected"].notna().sum() == 2  # the inputs are left as they were
    same_a, same_s = apply_min_covered(assessments, scores, _artefacts(), 0.4)
    assert same_a is assessments and same_s is scores


def test_the_study_flow_counts_the_low_mass_expected_score_with_its_reason(tmp_path) -> None:  # noqa: ANN001
    """A soft-rating study (mock reviewer: one certain token per character, covered 1.0); one stored
    rating rewritten to the hand-made 0.47 distribution: the report's comparison on expected scores
    loses that paper, and the flow's soft row names why."""
    from rhetorica.analysis.flow import SOFT_TEST
    from rhetorica.report.build import collect
    from tests.study.test_soft_ratings_study import _spec
    from tests.report.runs import run_study_summary

    run_dir, _ = run_study_summary(_spec(tmp_path, True), tmp_path)
    db = next(run_dir.glob("*.sqlite*"), None) or next(run_dir.glob("*.db"))
    with sqlite3.connect(db) as conn:
        key, text = conn.execute("SELECT unit_key, value_json FROM artefacts WHERE name = 'soft_ratings' "
                                 "ORDER BY unit_key LIMIT 1").fetchone()
        soft = json.loads(text)
        soft["overall"] = LOW.model_dump(exclude={"metric"})
        conn.execute("UPDATE artefacts SET value_json = ? WHERE unit_key = ? AND name = 'soft_ratings'",
                     (json.dumps(soft), key))
    data = collect(run_dir, n_resamples=50)
    soft_rows = data.effective_n[data.effective_n["test"] == SOFT_TEST]
    assert soft_rows["missing"].tolist() == [1]
    assert soft_rows["missing_reasons"].tolist() == ["covered mass 0.47 < 0.9 (1)"]
    assert data.comparisons.iloc[0]["soft_n_pairs"] == 2 and data.comparisons.iloc[0]["n_pairs"] == 3
    every = data.tables["assessments"].set_index("unit_key")
    assert np.isnan(every.loc[key, "overall.expected"]) and pd.notna(every.loc[key, "overall"])
