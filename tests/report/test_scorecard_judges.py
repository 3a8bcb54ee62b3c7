"""``rhetorica check`` on judge configurations: a metric classified sensitive is a finding."""

from __future__ import annotations

import pandas as pd

from rhetorica.judges.analysis import JudgeStudy
from rhetorica.report.scorecard import FAIL, NOT_APPLICABLE, PASS, UNDECIDED, judge_verdicts
from rhetorica.study.config import parse_study

REVIEWERS = parse_study({
    "name": "judges", "documents": [{"reviews": "reviews/*.htm"}],
    "models": {m: {"provider": "mock", "model": m} for m in ("m1", "m2", "m3")},
    "reviewers": [{"name": "a", "kind": "judge", "model": "m1", "options": {"family": "scholarpeer"}},
                  {"name": "b", "kind": "judge", "model": "m2", "options": {"family": "scholarpeer"}},
                  {"name": "c", "kind": "judge", "model": "m3", "options": {"family": "scholarpeer"}}]}).reviewers
METRICS = ["scholarpeer.m1", "scholarpeer.m2"]


def _study(classes: dict[str, list[str]]) -> JudgeStudy:
    """Judge label -> the classes of its two metrics under the one condition ``paraphrase``."""
    reliability = pd.DataFrame([{"judge": judge, "metric": metric, "classification": cls, "condition": "paraphrase"}
                                for judge, found in classes.items() for metric, cls in zip(METRICS, found)])
    pairs = pd.DataFrame({"condition": ["original", "paraphrase"]})
    return JudgeStudy(pairs, reliability, pd.DataFrame(), pd.DataFrame(), pd.DataFrame(),
                      declared={judge: METRICS for judge in ("m1", "m2", "m3")})


def test_sensitive_fails_robust_passes_inconclusive_or_missing_is_not_enough_data() -> None:
    study = _study({"m1": ["sensitive", "robust"], "m2": ["robust", "sensitive_and_robust"],
                    "m3": ["inconclusive"]})  # m3's second metric has no test
    card = judge_verdicts(study, REVIEWERS).set_index("reviewer")
    assert card.loc["a", "verdict"] == FAIL and card.loc["a", "reasons"] == "sensitive: scholarpeer.m1 (paraphrase)"
    assert card.loc["b", "verdict"] == PASS and card.loc["b", "reasons"] == "" and bool(card.loc["b", "passed"])
    assert card.loc["c", "verdict"] == UNDECIDED
    assert card.loc["c", "reasons"] == ("inconclusive: scholarpeer.m1 (paraphrase); "
                                        "no test: scholarpeer.m2 (paraphrase)")
    assert (card["verdict_preference"] == NOT_APPLICABLE).all() and card["abs_log_ratio"].isna().all()
