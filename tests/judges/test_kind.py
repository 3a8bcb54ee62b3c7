"""The judge kind: its options typed at load, and how the report tells a judge configuration apart."""

from __future__ import annotations

import pytest

from rhetorica.judges.kind import judge_options
from rhetorica.judges.options import JudgeOptions
from rhetorica.study.config import ConfigError, parse_study


def _study(options: dict) -> dict:
    return {"name": "j", "documents": [{"reviews": "reviews/*.htm"}],
            "reviewers": [{"name": "judge", "kind": "judge", "model": "mock/j", "options": options},
                          {"name": "plain", "model": "mock/r"}, {"name": "ctl", "kind": "control"}]}


def test_judge_options_of_a_judge_only() -> None:
    judge, plain, control = parse_study(_study({"family": "scholarpeer", "packing": "metric"})).reviewers
    assert judge_options(judge) == JudgeOptions(family="scholarpeer", packing="metric")
    assert judge_options(plain) is None and judge_options(control) is None


def test_an_ill_typed_judge_option_is_named_at_load() -> None:
    with pytest.raises(ConfigError, match=r"reviewers\[0\]: reviewer 'judge' of kind 'judge': options.per_point_calls: "
                                          "Input should be a valid boolean"):
        parse_study(_study({"family": "scholarpeer", "per_point_calls": "often"}))


def test_only_a_reference_family_needs_a_reference_review() -> None:
    from rhetorica.judges.families import FAMILIES
    from rhetorica.kinds import evaluator_kind

    needs = {}
    for family in FAMILIES:
        judge, plain, control = parse_study(_study({"family": family})).reviewers
        needs[family] = evaluator_kind(judge.kind).reference_need(judge)
        assert evaluator_kind(plain.kind).reference_need(plain) is None
        assert evaluator_kind(control.kind).reference_need(control) is None
    # families.py: ScholarPeer alone compares with a paired reference review (unit "reference")
    assert needs == {"revieweval": None, "remor": None, "rottenreviews": None, "scholarpeer": "family scholarpeer",
                     "revutil": None}
