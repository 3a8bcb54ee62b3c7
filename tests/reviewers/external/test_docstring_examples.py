"""The study-file examples in the external reviewers' docstrings are study files that load."""

from __future__ import annotations

import re
from types import ModuleType

import pytest
import yaml

from rhetorica.reviewers.external import command, http, python_entry
from rhetorica.study.config import parse_study


def _reviewers_block(module: ModuleType) -> list[dict]:
    match = re.search(r"::\n\n(    reviewers:\n(?:        .*\n|      - .*\n)+)", module.__doc__ or "")
    assert match, f"{module.__name__} shows no reviewers: example"
    return yaml.safe_load(match.group(1))["reviewers"]


@pytest.mark.parametrize("module", [command, http, python_entry])
def test_the_docstring_example_is_a_valid_reviewer(module: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(python_entry, "load_entry", lambda entry: print)  # the example's package is not installed
    reviewers = _reviewers_block(module)
    study = parse_study({"name": "s", "documents": ["paper.md"], "reviewers": reviewers})
    assert [(r.name, r.kind) for r in study.reviewers] == [(r["name"], r["kind"]) for r in reviewers]
    assert study.reviewers[0].options.as_kwargs() == reviewers[0]["options"]
