"""The RobustReview protocols (Standard, Persistent, Strict on the ICLR form): their pieces and form."""

from __future__ import annotations

import re

import pytest

from rhetorica.forms import ICLR_2026
from rhetorica.reviewers.protocols import get_protocol, protocol_version, system_prompt


@pytest.mark.parametrize("name", ["standard", "persistent", "strict-iclr"])
def test_iclr_protocols_ask_for_exactly_the_iclr_form(name) -> None:
    protocol = get_protocol(name)
    assert protocol.form_name == "iclr-2026"
    output = system_prompt(protocol).split("Answer with one JSON object")[-1]
    asked = set(re.findall(r'"([a-z_]+)"', output))
    assert asked == set(ICLR_2026.metric_names) | {f.name for f in ICLR_2026.text_fields}


def test_standard_has_the_iclr_criteria_and_anchors_but_no_substance_instruction() -> None:
    prompt = system_prompt(get_protocol("standard"))
    for anchor in ("1 = strong reject", "5 = marginally below the acceptance threshold",
                   "6 = marginally above the acceptance threshold", "10 = strong accept"):
        assert anchor in prompt
    assert "- soundness:" in prompt and "- presentation:" in prompt and "- contribution:" in prompt
    assert "substance" not in prompt.lower()


def test_persistent_is_standard_plus_repeated_substance_instructions() -> None:
    standard = system_prompt(get_protocol("standard"))
    persistent = system_prompt(get_protocol("persistent"))
    # every paragraph of standard is in persistent, in the same order
    paragraphs = standard.split("\n\n")
    positions = [persistent.index(p) for p in paragraphs]
    assert positions == sorted(positions)
    # the instruction comes four times: opening, after the criteria, scoring rules, final check
    assert persistent.count("judge the science, not the writing") == 1
    assert persistent.lower().count("substance") == 3
    assert "Evidence-based scoring (substance, not presentation):" in persistent
    assert persistent.index("Final check") > persistent.index("Evidence-based scoring (substance, not presentation):") > persistent.index("- soundness:")


def test_strict_iclr_adds_the_strict_standard_and_versions_differ() -> None:
    strict = system_prompt(get_protocol("strict-iclr"))
    assert strict.startswith(system_prompt(get_protocol("standard")).rsplit("\n\n", 1)[0])
    assert "Strict standard:" in strict and get_protocol("strict").form_name == "review-000"
    versions = {protocol_version(get_protocol(n)) for n in ("standard", "persistent", "strict-iclr", "strict")}
    assert len(versions) == 4
