"""The original's label and the one arm-label grammar (``condition@rewriter``)."""

from __future__ import annotations

from rhetorica.labels import NO_REWRITER, ORIGINAL, arm_label, attack_rewriter, split_arm, split_attack_rewriter
from rhetorica.rewriting.conditions import parse_condition


def test_arm_label_qualifies_only_a_rewrite_given_its_rewriter() -> None:
    assert arm_label("confidence:+") == "confidence:+"
    assert arm_label("confidence:+", "gpt-5") == "confidence:+@gpt-5"
    assert arm_label(ORIGINAL, NO_REWRITER) == "original"
    label = arm_label(parse_condition("confidence:+|proficiency:-"), "rule")
    assert label == "confidence:+|proficiency:-@rule" and type(label) is str


def test_split_arm_inverts_arm_label() -> None:
    assert split_arm("confidence:+@gpt-5") == ("confidence:+", "gpt-5")
    assert split_arm("confidence:+") == ("confidence:+", None)
    assert split_arm("original") == ("original", None)
    for condition, rewriter in (("joint", "m"), ("recursive:3", None), ("confidence:+|proficiency:-", "r"),
                                ("confidence:-", "llama@http://127.0.0.1:8080")):
        assert split_arm(arm_label(condition, rewriter)) == (condition, rewriter)


def test_attack_rewriter_label_round_trip():
    label = attack_rewriter("attacker", "reviewer-a")
    assert label == "attacker>reviewer-a"
    assert split_attack_rewriter(label) == ("attacker", "reviewer-a")
    assert split_attack_rewriter("rules") == ("rules", None)
    assert split_arm(arm_label("attack:+", label)) == ("attack:+", "attacker>reviewer-a")
