"""Table 1 carries no verdict the data cannot carry (issue 36 item 1), on hand-made ScholarPeer scores
of 20 reviews (one rewrite each, condition ``paraphrase``; δ = 0.4, M = 5, α' = 0.01):

- ``coverage`` is 3 in all 40 judgements: not informative (every d is 0: TOST is not computable);
- ``novelty_assessment`` is flat but stable: originals 3 but for one 4 and one 2, the rewrites 3 but
  for two others, so d = −1, +1, +1, −1 and 16 zeros (TOST rejects) while the rewrites do not follow
  the originals: discriminability exactly 0.5 by hand → false robustness;
- ``overall`` varies 1..5 across reviews with the same four ±1 differences: robust, discriminating.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.weightstats import ttost_paired

from rhetorica.judges.analysis import judge_study
from rhetorica.report.scorecard import CHECK_EXIT_CODES, FAIL, judge_verdicts
from rhetorica.study.config import parse_study

N = 20
REVIEWERS = [{"name": "sp", "kind": "judge", "model": "m", "options": {"family": "scholarpeer"}}]
SHIFT = {1: -1.0, 2: 1.0, 3: 1.0, 4: -1.0}  # ``overall``'s four non-zero differences, inside 1..5


def _flat() -> tuple[list[float], list[float]]:
    original = [3.0] * N
    original[0], original[1] = 4.0, 2.0
    rewrite = [3.0] * N
    rewrite[2], rewrite[3] = 4.0, 2.0
    return original, rewrite


def _varied() -> tuple[list[float], list[float]]:
    original = [1.0 + i % 5 for i in range(N)]
    return original, [o + SHIFT.get(i, 0.0) for i, o in enumerate(original)]


SCORES = {"coverage": ([3.0] * N, [3.0] * N), "novelty_assessment": _flat(), "overall": _varied()}


def _scores(scores: dict[str, tuple[list[float], list[float]]] = SCORES) -> pd.DataFrame:
    rows = []
    for metric, (original, rewrite) in scores.items():
        for i in range(N):
            base = {"document_id": f"r{i}", "reviewer": "sp", "model": "m", "status": "ok", "metric": metric}
            rows.append(base | {"unit_key": f"r{i}-o", "condition": "original", "variant_key": "",
                                "value": original[i]})
            rows.append(base | {"unit_key": f"r{i}-p", "condition": "paraphrase", "variant_key": f"r{i}-v",
                                "value": rewrite[i]})
    return pd.DataFrame(rows)


def _by_hand_discriminability(original: list[float], rewrite: list[float]) -> float:
    """The definition, pair by pair: over review pairs with different originals (higher first),
    [rewrite higher] + 0.5 [tie]."""
    wins = [(rewrite[i] > rewrite[j]) + 0.5 * (rewrite[i] == rewrite[j])
            for i, j in itertools.permutations(range(N), 2) if original[i] > original[j]]
    return float(np.mean(wins))


@pytest.fixture(scope="module")
def study():  # noqa: ANN201
    return judge_study(_scores(), REVIEWERS, {f"r{i}": f"P{i}" for i in range(N)}, n_resamples=999, seed=1)


def test_table1_constant_not_informative_flat_false_robustness_varied_robust(study) -> None:  # noqa: ANN001
    table = study.table1.set_index("metric")
    assert table["alpha_bonferroni"].tolist() == pytest.approx([0.01] * 5)
    constant = table.loc["scholarpeer.coverage"]
    assert np.isnan(constant["tost_p"]) and constant["classification"] == "not_informative"
    assert constant["reason"] == "no variation: every judgement scored 3"

    flat, varied = table.loc["scholarpeer.novelty_assessment"], table.loc["scholarpeer.overall"]
    d = np.array([-1.0, 1.0, 1.0, -1.0] + [0.0] * 16)
    tost = ttost_paired(d, np.zeros(N), -0.4, 0.4)[0]
    assert tost < 0.01  # robust by TOST at α' ...
    for row in (flat, varied):
        assert row["tost_p"] == pytest.approx(tost) and row["wilcoxon_n"] == 4 and row["mean_diff"] == 0.0
    assert _by_hand_discriminability(*SCORES["novelty_assessment"]) == 0.5  # 18.5 of 37 pairs
    assert flat["discriminability"] == pytest.approx(0.5)
    assert flat["discriminability_low"] <= 0.5 <= flat["discriminability_high"]
    assert flat["classification"] == "false_robustness"
    assert flat["reason"].startswith("robust by TOST, but discriminability 0.50 (95% interval [")

    assert varied["discriminability"] == pytest.approx(_by_hand_discriminability(*SCORES["overall"]))
    assert varied["discriminability_low"] > 0.55
    assert varied["classification"] == "robust" and pd.isna(varied["reason"])
    # the two never-scored metrics stay "not computable"
    assert table.loc["scholarpeer.constructiveness", "classification"] == "not computable"


def test_false_robustness_fails_the_judge_in_the_scorecard_and_check(study) -> None:  # noqa: ANN001
    reviewers = parse_study({
        "name": "judges", "documents": [{"reviews": "reviews/*.htm"}],
        "models": {"m": {"provider": "mock", "model": "m"}},
        "reviewers": [{"name": "sp", "kind": "judge", "model": "m", "options": {"family": "scholarpeer"}}]}).reviewers
    card = judge_verdicts(study, reviewers).iloc[0]
    assert card["verdict"] == FAIL and CHECK_EXIT_CODES[card["verdict"]] == 1
    reasons = card["reasons"]
    assert "false robustness: scholarpeer.novelty_assessment (paraphrase: robust by TOST, but discriminability" in reasons
    assert "not informative: scholarpeer.coverage (paraphrase: no variation: every judgement scored 3)" in reasons


def test_a_judge_whose_rewrites_copy_every_score_gets_no_verdict_from_check() -> None:
    """Every rewrite scored exactly as its original on all five declared metrics (scores 1..5
    across the 20 reviews, so the metric varies and tells reviews apart): every d = 0, so TOST's t
    statistic is undefined. Before, TOST p = 0 made all five robust and the judge passed (check
    exit 0); now each is not informative with the reason and the verdict is not enough data (exit 3)."""
    from rhetorica.judges.families import get_family
    from rhetorica.report.scorecard import UNDECIDED

    levels = [1.0 + i % 5 for i in range(N)]
    metrics = [m.name for m in get_family("scholarpeer").form.metrics if m.role == "score"]
    copied = judge_study(_scores({m: (levels, levels) for m in metrics}), REVIEWERS,
                         {f"r{i}": f"P{i}" for i in range(N)}, n_resamples=199, seed=1)
    table = copied.table1
    assert len(table) == len(metrics) == 5
    assert table["tost_p"].isna().all() and table["wilcoxon_p"].isna().all()
    assert set(table["classification"]) == {"not_informative"}
    assert table["reason"].str.startswith("TOST is not computable: every one of the 20 differences is 0").all()
    reviewers = parse_study({
        "name": "judges", "documents": [{"reviews": "reviews/*.htm"}],
        "models": {"m": {"provider": "mock", "model": "m"}}, "reviewers": REVIEWERS}).reviewers
    card = judge_verdicts(copied, reviewers).iloc[0]
    assert card["verdict"] == UNDECIDED and CHECK_EXIT_CODES[card["verdict"]] == 3
    assert card["reasons"].startswith("not informative: scholarpeer.")
    assert card["reasons"].count("TOST is not computable") == 5
