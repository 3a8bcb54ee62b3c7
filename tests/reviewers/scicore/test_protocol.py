"""The science-record protocol: ICLR form, its own reading rules, presentation re-anchored."""

from __future__ import annotations

import re

from rhetorica.forms import ICLR_2026
from rhetorica.reviewers.protocols import get_protocol, protocol_version, system_prompt


def test_science_record_asks_for_the_iclr_form_with_its_anchors() -> None:
    protocol = get_protocol("science-record")
    assert protocol.form == "iclr-2026" or getattr(protocol.form, "name", None) == "iclr-2026"
    prompt = system_prompt(protocol)
    asked = set(re.findall(r'"([a-z_]+)"', prompt.split("Answer with one JSON object")[-1]))
    assert asked == set(ICLR_2026.metric_names) | {f.name for f in ICLR_2026.text_fields}
    assert "1 = strong reject" in prompt and "10 = strong accept" in prompt


def test_science_record_explains_the_record_and_does_not_score_writing() -> None:
    prompt = system_prompt(get_protocol("science-record"))
    assert "science record" in prompt and "The manuscript reports" in prompt
    assert "the record has no presentation of its own" in prompt
    assert "does not count towards the assessment" in prompt
    assert "Strict standard: a high score requires concrete evidence listed in the record" in prompt
    assert "anonymous submission" not in prompt  # the reviewer does not read the submission
    versions = {protocol_version(get_protocol(n)) for n in ("science-record", "strict-iclr", "standard")}
    assert len(versions) == 3
