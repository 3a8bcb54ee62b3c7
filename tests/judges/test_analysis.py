"""Table 1's soft columns (issue 27 §2): the same pairs on expected scores, Wilcoxon p against
scipy.stats.wilcoxon, median and mean by hand; a study without soft ratings keeps its Table 1."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import bootstrap, wilcoxon

from rhetorica.judges.analysis import TABLE1_COLUMNS, TABLE1_SOFT_COLUMNS, judge_pairs, judge_study, no_test_reason

REVIEWERS = [{"name": "sp-judge", "kind": "judge", "model": "m", "options": {"family": "scholarpeer"}}]
#: review -> (original expected scores per replicate, rewrite expected score); d of the means
EXPECTED = {"r0": ([3.0, 3.2], 3.5), "r1": ([2.5], 2.75), "r2": ([4.0], 3.9), "r3": ([2.0], 2.6),
            "r4": ([3.3], 3.6), "r5": ([3.0], 3.0), "r6": ([2.0], None)}
D = np.array([0.4, 0.25, -0.1, 0.6, 0.3, 0.0])  # r0..r5 by hand (r6's rewrite has no expected score)
PAPERS = {"r0": "P0", "r1": "P0", "r2": "P1", "r3": "P1", "r4": "P2", "r5": "P2", "r6": "P2"}


def _scores(soft: bool = True) -> pd.DataFrame:
    rows = []

    def judgement(key: str, review: str, condition: str, variant: str, expected: float | None) -> None:
        base = {"unit_key": key, "document_id": review, "condition": condition, "reviewer": "sp-judge", "model": "m",
                "status": "ok", "variant_key": variant}
        rows.append(base | {"metric": "overall", "value": 3.0})  # integers all tie
        if soft and expected is not None:
            rows.append(base | {"metric": "overall.expected", "value": expected})

    for review, (originals, rewrite) in EXPECTED.items():
        for i, value in enumerate(originals):
            judgement(f"{review}-o{i}", review, "original", "", value)
        judgement(f"{review}-p", review, "paraphrase", f"{review}-v", rewrite)
    return pd.DataFrame(rows)


def test_the_pair_table_carries_each_judgements_expected_score() -> None:
    pairs, _ = judge_pairs(_scores(), REVIEWERS, PAPERS)
    row = pairs.set_index("unit_key").loc["r0-o1"]
    assert (row["metric"], row["score"], row["expected"]) == ("scholarpeer.overall", 3.0, 3.2)
    assert np.isnan(pairs.set_index("unit_key").loc["r6-p", "expected"])


def test_table1_soft_columns_by_hand_and_against_scipy() -> None:
    study = judge_study(_scores(), REVIEWERS, PAPERS, n_resamples=999, seed=3)
    table = study.table1.set_index("metric")
    assert list(study.table1.columns) == TABLE1_COLUMNS + TABLE1_SOFT_COLUMNS
    row = table.loc["scholarpeer.overall"]
    assert row["n_pairs"] == 7 and row["wilcoxon_n"] == 0  # the integer test sees only ties
    assert row["soft_n_pairs"] == 6 and row["soft_nonzero"] == 5
    assert row["soft_median_diff"] == pytest.approx(0.275)  # (0.25 + 0.3) / 2
    assert row["soft_mean_diff"] == pytest.approx(1.45 / 6)
    assert row["soft_wilcoxon_p"] == pytest.approx(wilcoxon(D[D != 0]).pvalue)
    oracle = bootstrap((D, np.zeros(6)), lambda x, y, axis: np.mean(x - y, axis=axis), paired=True,
                       vectorized=True, n_resamples=999, method="BCa", random_state=np.random.default_rng(3))
    assert (row["soft_ci_low"], row["soft_ci_high"]) == pytest.approx(
        (oracle.confidence_interval.low, oracle.confidence_interval.high))
    assert row["soft_ci_low"] < row["soft_mean_diff"] < row["soft_ci_high"]
    # a declared metric without any judgement: no soft pair either
    other = table.loc["scholarpeer.coverage"]
    assert other["soft_n_pairs"] == 0 and np.isnan(other["soft_wilcoxon_p"]) and np.isnan(other["soft_median_diff"])


def test_table1_without_soft_ratings_is_unchanged() -> None:
    study = judge_study(_scores(soft=False), REVIEWERS, PAPERS)
    assert list(study.table1.columns) == TABLE1_COLUMNS
    with_soft = judge_study(_scores(), REVIEWERS, PAPERS).table1[TABLE1_COLUMNS]
    pd.testing.assert_frame_equal(study.table1, with_soft)


def test_a_second_judge_with_only_failures_is_listed_with_n_0_and_why() -> None:
    """Two judge models, the second's every judgement malformed (a trial's crash: 'judge … is not in
    the reliability table'): the study is analysed, the second judge's 7 declared remor metrics
    appear in the pair-level classification with n = 0 and the reason, M of each judge unchanged."""
    scores = _scores(soft=False)
    failed = pd.DataFrame([{"unit_key": f"{r}-{side}", "document_id": r, "condition": condition, "reviewer": "bad",
                            "model": "m2", "status": "malformed", "metric": metric, "value": np.nan,
                            "variant_key": variant} for r in ("r0", "r1")
                           for side, condition, variant in (("o", "original", ""), ("p", "paraphrase", f"{r}-v"))
                           for metric in ("criticism", "praise")])  # a failed judgement: its metrics, NaN
    reviewers = [*REVIEWERS, {"name": "bad", "kind": "judge", "model": "m2", "options": {"family": "remor"}}]
    study = judge_study(pd.concat([scores, failed], ignore_index=True), reviewers, PAPERS)
    assert study.unavailable is None
    assert study.agreement == {"paraphrase": ("m", "m2", 0, 0)}
    bad = study.reliability[study.reliability["judge"] == "m2"]
    assert list(bad["metric"]) == ["remor.criticism", "remor.examples", "remor.importance_relevance",
                                   "remor.materials_methods", "remor.praise", "remor.results_discussion",
                                   "remor.suggestions_solutions"]
    assert (bad["n_pairs"] == 0).all() and (bad["classification"] == "not computable").all()
    # remor's 7 metrics -> α / 7; the rewrites' 2 stored judgements both malformed
    assert bad["alpha_bonferroni"].tolist() == pytest.approx([0.05 / 7] * 7)
    reasons = bad.set_index("metric")["reason"]
    assert reasons["remor.criticism"] == reasons["remor.praise"] == "every stored rewrite judgement failed (malformed 2)"
    assert reasons["remor.examples"] == "no judgement of a rewrite stored (not run)"
    first = study.reliability[study.reliability["judge"] == "m"].set_index("metric")
    assert first.loc["scholarpeer.overall", "n_pairs"] == 7  # every judgement scored 3: no verdict (issue 36)
    assert first.loc["scholarpeer.overall", "classification"] == "not_informative"
    assert first.loc["scholarpeer.overall", "reason"] == "no variation: every judgement scored 3"
    assert first.loc["scholarpeer.coverage", "n_pairs"] == 0  # declared, never scored: listed too
    table1 = study.table1
    assert set(table1["second_judge"]) == {"m2"} and table1["second_class"].isna().all()
    assert not table1["agree"].any() and table1["alpha_bonferroni"].tolist() == pytest.approx([0.05 / 5] * 5)


def test_why_no_test_names_the_missing_side() -> None:
    """Issue 36: r1's original scored but not its rewrite (metric missing), r2's rewrite but not its
    original (malformed): no review on both sides, and the reason says which side is missing where."""
    pairs = pd.DataFrame([
        {"judge": "J", "metric": "f.m", "arm": "original", "condition": "original", "document_id": "r1",
         "status": "ok", "score": 3.0},
        {"judge": "J", "metric": "f.m", "arm": "rewrite", "condition": "paraphrase", "document_id": "r1",
         "status": "ok", "score": np.nan},
        {"judge": "J", "metric": "f.m", "arm": "original", "condition": "original", "document_id": "r2",
         "status": "malformed", "score": np.nan},
        {"judge": "J", "metric": "f.m", "arm": "rewrite", "condition": "paraphrase", "document_id": "r2",
         "status": "ok", "score": 4.0}])
    assert no_test_reason(pairs, "J", "f.m", "paraphrase") == (
        "no review scored on both sides: the rewrite missing for 1 review(s) whose original was scored, the "
        "original missing for 1 review(s) whose rewrite was scored")
