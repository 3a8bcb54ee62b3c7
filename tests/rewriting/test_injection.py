"""The injection rewriter: every condition plants exactly its instruction and the scan finds it."""

from __future__ import annotations

from pathlib import Path

import pytest

from rhetorica.documents import read_document
from rhetorica.documents.models import Document
from rhetorica.documents.scan import scan_document
from rhetorica.documents.scan.findings import severity_rank
from rhetorica.rewriting.conditions import UnknownConditionError, parse_condition
from rhetorica.rewriting.injection import InjectionSpec, inject_document, injection_condition_names
from rhetorica.study.config import ConfigError, parse_study

NAMES = injection_condition_names()


@pytest.fixture(scope="module")
def paper(shared_data: Path) -> Document:
    return read_document(shared_data / "papers" / "stable-nalu_iclr2020")


def test_the_family_has_every_combination_and_parses() -> None:
    assert len(NAMES) == 72 and len(set(NAMES)) == 72
    condition = parse_condition("injection:hidden-body-command-score")
    assert (condition.dimension, condition.direction) == ("injection", "hidden-body-command-score")
    assert condition.description == "hidden command asking to raise the score in the body"


@pytest.mark.parametrize(("name", "problem"), [
    ("injection:hidden-body-command", "must be 'injection:<visibility>"),
    ("injection:secret-body-command-score", "unknown visibility 'secret'"),
    ("injection:hidden-intro-command-score", "unknown placement 'intro'"),
    ("injection:hidden-body-shout-score", "unknown wording 'shout'"),
    ("injection:hidden-body-command-reject", "unknown target 'reject'"),
])
def test_malformed_names_say_what_is_wrong(name: str, problem: str) -> None:
    with pytest.raises(UnknownConditionError, match=problem.replace("<", ".")):
        parse_condition(name)


def _removed(text: str, planted: str, placement: str) -> str:
    return text.replace(planted + "\n\n", "", 1) if placement == "metadata" else text.replace("\n\n" + planted, "", 1)


@pytest.mark.parametrize("name", NAMES)
def test_each_condition_plants_one_paragraph_and_the_scan_finds_it(paper: Document, name: str) -> None:
    spec = InjectionSpec(name)
    variant = inject_document(paper, name)
    changed = [i for i, (a, b) in enumerate(zip(paper.sections, variant.sections)) if a != b]
    assert len(variant.sections) == len(paper.sections) and len(changed) == 1
    index = changed[0]
    planted = variant.metadata["injection"]["text"]
    assert variant.metadata["injection"] == {"condition": name, "section": index, "text": planted}
    assert spec.instruction in planted and planted.count(spec.instruction) == 1
    assert _removed(variant.sections[index].text, planted, spec.placement) == paper.sections[index].text
    titles = [s.title for s in paper.sections]
    expected_index = {"abstract": titles.index("Abstract"), "metadata": 0, "appendix": len(titles) - 1}
    if spec.placement in expected_index:
        assert index == expected_index[spec.placement], titles
    else:
        assert titles[index] not in ("Abstract", titles[-1]) and 0 < index < len(titles) - 1
    before = {(f.kind, f.text) for f in scan_document(paper, include_source=False).findings}
    new = [f for f in scan_document(variant, include_source=False).findings if (f.kind, f.text) not in before]
    flagged = [f for f in new if severity_rank(f.severity) >= severity_rank("medium")]
    assert len(flagged) == 1, [(f.kind, f.severity) for f in new]
    finding = flagged[0]
    assert finding.location.section == variant.sections[index].title
    # every planted instruction demands a score or acceptance: high whether hidden or not (issue 24 §8)
    assert finding.severity == "high"
    assert finding.kind == ({"metadata": "html-comment"}.get(spec.placement, "css-hidden") if spec.hidden
                            else "instruction")
    assert finding.text in planted


def test_a_study_declares_injection_rewriters_only_with_kind_injection() -> None:
    base = {"name": "x", "documents": ["a.md"], "reviewers": [{"name": "c", "kind": "control"}]}
    ok = parse_study(base | {"rewriters": [{"name": "inj", "kind": "injection",
                                             "conditions": ["injection:hidden-body-command-score"]}]})
    assert ok.conditions == ["injection:hidden-body-command-score"]
    with pytest.raises(ConfigError, match="need kind 'injection'"):
        parse_study(base | {"rewriters": [{"name": "l", "model": "mock/x",
                                           "conditions": ["injection:visible-body-command-score"]}]})
    for conditions in (["confidence:+"], ["confidence:+|injection:hidden-body-command-score"]):
        with pytest.raises(ConfigError, match="only produces injection"):
            parse_study(base | {"rewriters": [{"name": "i", "kind": "injection", "conditions": conditions}]})
    with pytest.raises(ConfigError, match="unknown target 'reject'"):
        parse_study(base | {"rewriters": [{"name": "i", "kind": "injection",
                                           "conditions": ["injection:hidden-body-command-reject"]}]})
