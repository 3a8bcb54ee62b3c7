"""The rule-based confidence rewriter's exact output (deterministic baseline, Hyland-based table)."""

from __future__ import annotations

import pytest

from rhetorica.rewriting.rule_based import load_rules, rewrite_text

CASES = [
    ("confidence:+", "These results suggest that the method may improve accuracy.",
     "These results demonstrate that the method will improve accuracy."),
    ("confidence:+", "It is possible that a somewhat larger model could help.",
     "It is certain that a larger model can help."),
    ("confidence:+", "This is an apparently small effect, and it appears to be robust.",
     "This is a clearly small effect, and it is robust."),
    ("confidence:+", "Perhaps the gain could not be reproduced.", "Certainly the gain cannot be reproduced."),
    ("confidence:-", "We clearly show that our model outperforms the baseline.",
     "We apparently suggest that our model appears to outperform the baseline."),
    ("confidence:-", "Indeed, this was demonstrated in Fig. 2 and can be proven.",
     "Arguably, this was indicated in Fig. 2 and could be suggested."),
    # "always" is a frequency claim, not a stance marker: rules-v3 keeps it (rules-v2 made it "usually").
    ("confidence:-", "An obviously better result always follows.", "An apparently better result always follows."),
]


@pytest.mark.parametrize(("condition", "source", "expected"), CASES)
def test_exact_rewrites(condition: str, source: str, expected: str) -> None:
    assert rewrite_text(source, condition) == expected


def test_latex_math_citations_and_urls_are_untouched() -> None:
    # rules-v3 hedges "show" only before a that-clause (a bare "show" may mean "display").
    text = r"We show that $f(x) \leq may$ and \cite{clearly2020} at https://example.org/show; it may hold."
    assert rewrite_text(text, "confidence:+") == (
        r"We clearly show that $f(x) \leq may$ and \cite{clearly2020} at https://example.org/show; it will hold.")
    assert rewrite_text(text, "confidence:-") == (
        r"We suggest that $f(x) \leq may$ and \cite{clearly2020} at https://example.org/show; it may hold.")


def test_whole_words_only_and_one_pass() -> None:
    # "canonical" contains "can"; "showcase" contains "show": neither is touched. "can" -> "could" happens
    # once (a second pass would not turn "could" back into anything).
    assert rewrite_text("A canonical showcase can work.", "confidence:-") == "A canonical showcase could work."


def test_directions_are_disjoint_tables() -> None:
    plus = dict(load_rules("+"))
    minus = dict(load_rules("-"))
    assert plus["suggests"] == "demonstrates" and minus["demonstrates"] == "appears to demonstrate"
    # Longest phrases first, so multi-word hedges win over their single words.
    assert list(plus)[0].count(" ") >= 2


def test_unknown_condition_is_rejected() -> None:
    with pytest.raises(ValueError, match="only"):
        rewrite_text("x", "proficiency:+")
    with pytest.raises(ValueError, match="unknown condition"):
        rewrite_text("x", "confidence:++")
