"""Options of the attack kind: moves, scope, budget, and the study-level checks of a rewriter."""

from __future__ import annotations

import pytest

from rhetorica.attack.options import (
    PRESENTATION,
    AttackOptions,
    move_conditions,
    move_prompt,
    scope_sections,
    texts_version,
)
from rhetorica.documents.models import Document, DocumentSource, Section
from rhetorica.rewriting.conditions import integrity_prompt, system_prompt
from rhetorica.study.config import ConfigError, parse_study
from tests.study.helpers import study_dict


def doc(*sections: tuple[str, str]) -> Document:
    return Document(id="p", sections=[Section(title=t, text=x) for t, x in sections],
                    source=DocumentSource(path="p", parser="test", parser_version="1"))


def test_moves_expand_dimensions_and_keep_conditions_and_presentation():
    assert move_conditions(["confidence", "presentation", "confidence:+"]) == ["confidence:+", "confidence:-",
                                                                               PRESENTATION]
    with pytest.raises(ValueError, match="'flair' is neither 'presentation' nor a registered"):
        move_conditions(["flair"])
    with pytest.raises(ValueError, match="'injection:hidden-body-command-score' has no instruction text"):
        move_conditions(["injection:hidden-body-command-score"])


def test_a_registered_condition_without_a_direction_is_named_as_one_without_instruction_text():
    """'guided' is a registered condition (not a dimension): refused for what it lacks, not as unknown."""
    with pytest.raises(ValueError) as info:
        move_conditions(["guided"])
    assert str(info.value) == "moves: 'guided' has no instruction text for an LLM rewriter"


def test_move_prompts_start_with_the_integrity_rules_and_end_with_the_weaknesses():
    up = move_prompt(PRESENTATION, "+")
    assert up.startswith(integrity_prompt()) and "improve the presentation" in up
    assert "weaken the presentation" in move_prompt(PRESENTATION, "-")
    assert move_prompt("confidence:+", "+") == system_prompt("confidence:+")
    shown = move_prompt("confidence:+", "-", "- the baseline is weak")
    assert shown.startswith(system_prompt("confidence:+")) and shown.endswith("- the baseline is weak")
    assert texts_version(["presentation"]) != texts_version(["presentation", "confidence"])


def test_budget_and_upper_bound():
    assert AttackOptions(candidates=4, rounds=3, search_replicates=2, max_queries=40).upper_bound_reviews() == 26
    assert AttackOptions(candidates=4, rounds=3, search_replicates=2, max_queries=20).upper_bound_reviews() == 20
    with pytest.raises(ValueError, match=r"max_queries \(1\) must be at least search_replicates \(2\)"):
        AttackOptions(search_replicates=2, max_queries=1)
    with pytest.raises(ValueError, match="Extra inputs are not permitted"):
        AttackOptions(rounds_max=3)


def test_scope():
    d = doc(("", ""), ("Abstract", "We study x."), ("Intro", "Some text."), ("Method", "More."))
    assert scope_sections(d, "abstract") == [1]
    assert scope_sections(d, "all") == [1, 2, 3]
    assert scope_sections(d, ["method", "INTRO"]) == [2, 3]
    assert scope_sections(doc(("Intro", "A."), ("Method", "B.")), "abstract") == [0]  # no abstract: first section
    with pytest.raises(ValueError, match=r"document 'p' has no non-empty section titled 'results' \(its sections: "
                                         r"'Abstract', 'Intro', 'Method'\)"):
        scope_sections(d, ["Results"])
    with pytest.raises(ValueError, match="document 'p' has no non-empty section to rewrite"):
        scope_sections(doc(("Abstract", " ")), "abstract")


def _attacker(**options) -> dict:
    return {"name": "attacker", "kind": "attack", "model": "mock/proposer", "conditions": ["attack:+"], "options": options}


def test_the_study_refuses_unknown_targets_bad_options_and_other_conditions(shared_data, tmp_path):
    with pytest.raises(ConfigError, match=r"rewriter 'attacker' of kind 'attack': options.targets names 'nobody', "
                                          r"not a reviewer of the study \(its reviewers: mock-reviewer\)"):
        parse_study(study_dict(shared_data, tmp_path / "unused", rewriters=[_attacker(targets=["nobody"])]))
    with pytest.raises(ConfigError, match=r"rewriter 'attacker' of kind 'attack': options.candidates: "
                                          r"Input should be greater than or equal to 1"):
        parse_study(study_dict(shared_data, tmp_path / "unused", rewriters=[_attacker(candidates=0)]))
    bad = _attacker() | {"conditions": ["confidence:+"]}
    with pytest.raises(ConfigError, match="only produces attack:\\+ and attack:-, not 'confidence:\\+'"):
        parse_study(study_dict(shared_data, tmp_path / "unused", rewriters=[bad]))
    config = parse_study(study_dict(shared_data, tmp_path / "unused", rewriters=[_attacker(targets=["mock-reviewer"])]))
    assert config.rewriters[0].kind == "attack"
