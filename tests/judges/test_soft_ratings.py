"""Soft ratings of a judge (issue 27 §2): a scripted provider's fixed top-k log-probabilities give
hand-computed expected scores; a review-level score made of several calls or points gets the mean
of their expected scores, missing (with the reason) when any of them has no distribution."""

from __future__ import annotations

import asyncio
import math

import pytest

from rhetorica.evaluation import Evaluation, Target
from rhetorica.judges.judge import Judge, judge_factory
from rhetorica.judges.kind import JudgeKind
from rhetorica.models.call import CallContext
from rhetorica.models.providers.mock import MockModel
from rhetorica.status import Status
from tests.judges.test_judge import REVIEW

ln = math.log


def scripted(*segments: str | tuple[str, list[tuple[str, float]]]) -> dict:
    """A mock answer from segments: a string is one certain token, ``(token, [(text, p), ...])`` a
    token generated with the given top alternatives (probabilities, logged here)."""
    tokens = []
    for segment in segments:
        if isinstance(segment, str):
            tokens.append({"token": segment, "logprob": 0.0})
        else:
            token, top = segment
            p = dict(top)[token]
            tokens.append({"token": token, "logprob": ln(p), "top": [[t, ln(q)] for t, q in top]})
    return {"text": "".join(t["token"] for t in tokens), "logprobs": tokens}


def run(judge: Judge) -> Evaluation:
    return asyncio.run(judge.evaluate(Target(REVIEW, REVIEW.id, "original", "original", None, 0), CallContext()))


# RottenReviews: six 0-5 dimensions, overall 0-100, two booleans, two style scores
ROTTEN_HEAD = '{"comprehensiveness": '
ROTTEN_MID = (', "objectivity": 2, "fairness": 2, "actionability": 2, "constructiveness": 2, '
              '"relevance_alignment": 2, "overall_quality": ')
ROTTEN_TAIL = ', "factual": true, "vague": false, "technical_terms": 1, "clarity": 1}'


def rotten_answer() -> dict:
    return scripted(ROTTEN_HEAD, ("3", [("3", 0.5), ("4", 0.3), ("2", 0.2)]), ROTTEN_MID,
                    ("85", [("85", 0.5), ("90", 0.3), ("100", 0.1), ("7", 0.1)]), ROTTEN_TAIL)


def test_expected_scores_of_a_packed_family_call_by_hand() -> None:
    model = MockModel(script=[rotten_answer()])
    judge = judge_factory("j", model=model, family="rottenreviews", soft_ratings=True)
    result = run(judge)
    assert result.status == Status.OK and model.calls[0][1].top_logprobs == 20
    assert result.scores["comprehensiveness"] == 3 and result.scores["overall_quality"] == 85
    # 3 * 0.5 + 4 * 0.3 + 2 * 0.2 = 3.1 (all mass on levels)
    assert result.scores["comprehensiveness.expected"] == pytest.approx(3.1)
    # '85' then ',' is 85; '90' and '100' are whole levels (no level extends them); '7' could be
    # 70..79 but was not generated: unresolved. (85 * 0.5 + 90 * 0.3 + 100 * 0.1) / 0.9
    assert result.scores["overall_quality.expected"] == pytest.approx(79.5 / 0.9)  # 88.333...
    soft = result.artefacts["soft_ratings"]
    [rating] = soft["overall_quality"]["ratings"]
    assert rating["distribution"] == pytest.approx({"85": 0.5, "90": 0.3, "100": 0.1})
    assert (rating["covered"], rating["unresolved"]) == (pytest.approx(0.9), pytest.approx(0.1))
    assert soft["overall_quality"]["expected"] == pytest.approx(79.5 / 0.9)
    assert soft["overall_quality"]["reason"] is None
    # its covered mass and the bounds over the unresolved 0.1 (scale 0-100): (79.5 + 0.1 * 0) / 1.0 and
    # (79.5 + 0.1 * 100) / 1.0
    assert soft["overall_quality"]["covered"] == pytest.approx(0.9)
    assert (soft["overall_quality"]["low"], soft["overall_quality"]["high"]) == pytest.approx((79.5, 89.5))
    assert result.scores["objectivity.expected"] == 2.0  # a certain token: the written level
    # booleans have no soft rating
    assert "factual.expected" not in result.scores and "factual" not in soft


def point(actionability: int, grounding: int, verifiability: str, helpfulness: str, claim: bool) -> list:
    return [f'{{"actionability": {actionability}, "grounding_specificity": {grounding}, "verifiability": ',
            verifiability, ', "helpfulness": ', helpfulness, f', "claim": {"true" if claim else "false"}}}']


def test_a_point_family_averages_the_points_expected_scores() -> None:
    first = point(4, 5, ("3", [("3", 0.8), ("1", 0.2)]), ("4", [("4", 0.6), ("5", 0.4)]), True)
    second = point(2, 3, ("1", [("1", 0.5), ("2", 0.5)]), ("3", [("3", 0.5), ("2", 0.5)]), False)
    answer = scripted('{"points": [', *first, ", ", *second, "]}")
    judge = judge_factory("j", model=MockModel(script=[answer]), family="revutil", soft_ratings=True)
    result = run(judge)
    assert result.scores["helpfulness"] == 3.5 and result.scores["verifiability"] == 3.0
    # helpfulness: point 1 4 * 0.6 + 5 * 0.4 = 4.4, point 2 3 * 0.5 + 2 * 0.5 = 2.5; mean 3.45
    assert result.scores["helpfulness.expected"] == pytest.approx(3.45)
    # verifiability: only the point with a claim, 3 * 0.8 + 1 * 0.2 = 2.6 (as its integer mean)
    assert result.scores["verifiability.expected"] == pytest.approx(2.6)
    assert result.scores["actionability.expected"] == 3.0 and result.scores["grounding_specificity.expected"] == 4.0
    assert "claim_share.expected" not in result.scores
    assert len(result.artefacts["soft_ratings"]["helpfulness"]["ratings"]) == 2
    # nothing unresolved: the bounds are the mean itself, the covered mass the smaller of the two (1.0)
    helpful = result.artefacts["soft_ratings"]["helpfulness"]
    assert (helpful["covered"], helpful["low"], helpful["high"]) == pytest.approx((1.0, 3.45, 3.45))


def test_a_call_without_a_distribution_makes_the_review_level_rating_missing() -> None:
    first = scripted(*point(4, 5, "3", ("4", [("4", 0.6), ("5", 0.4)]), True))
    second = {"text": first["text"], "logprobs": []}  # a response that carried no log-probabilities
    judge = judge_factory("j", model=MockModel(script=[first, second]), family="revutil", per_point_calls=True,
                          soft_ratings=True)
    result = run(judge)
    assert result.status == Status.OK and result.scores["helpfulness"] == 4.0  # the integer score stays
    assert not any(k.endswith(".expected") for k in result.scores)  # never imputed from the first point
    soft = result.artefacts["soft_ratings"]["helpfulness"]
    assert soft["expected"] is None
    assert soft["reason"] == "1 of 2 ratings without a distribution: the response carried no token log-probabilities"
    assert soft["ratings"][0]["expected"] == pytest.approx(4.4)


class NoLogprobs(MockModel):
    """A provider without token log-probabilities (as Anthropic's Messages API)."""

    provider = "nolog"
    supports_logprobs = False


def test_provider_without_logprobs_is_not_asked_and_gives_the_reason() -> None:
    model = NoLogprobs(script=[rotten_answer()])
    result = run(judge_factory("j", model=model, family="rottenreviews", soft_ratings=True))
    assert model.calls[0][1].top_logprobs is None
    assert not any(k.endswith(".expected") for k in result.scores)
    assert result.artefacts["soft_ratings"]["comprehensiveness"]["reason"] == \
        "provider 'nolog' returns no token log-probabilities"


def test_off_asks_for_nothing_and_keeps_the_spec() -> None:
    model = MockModel(script=[rotten_answer()])
    judge = judge_factory("j", model=model, family="rottenreviews")
    result = run(judge)
    assert model.calls[0][1].top_logprobs is None and "soft_ratings" not in result.artefacts
    assert not any(k.endswith(".expected") for k in result.scores)
    assert "soft_ratings" not in judge.spec()
    on = judge_factory("j", model=MockModel(), family="rottenreviews", soft_ratings=True)
    assert on.spec() == judge.spec() | {"soft_ratings": True}


def test_the_judge_kind_takes_soft_ratings() -> None:
    assert JudgeKind.soft_ratings
