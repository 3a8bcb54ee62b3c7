"""Study files refused at load: colliding rewriters, duplicate conditions, self-comparisons, and
float settings that are not finite."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rhetorica.study.config import ConfigError, StudyConfig, parse_study

from .helpers import study_dict


def _error(spec: dict[str, Any]) -> str:
    with pytest.raises(ConfigError) as info:
        parse_study(spec)
    return str(info.value)


def test_two_rewriters_that_differ_only_in_name_are_refused(shared_data: Path, tmp_path: Path) -> None:
    spec = study_dict(shared_data, tmp_path, rewriters=[
        {"name": "r1", "kind": "rule-based", "conditions": ["confidence:+"]},
        {"name": "r2", "kind": "rule-based", "conditions": ["confidence:-", "confidence:+"]},
    ])
    message = _error(spec)
    assert message.startswith("study: rewriters[1]: rewriter 'r2' produces confidence:+ exactly as rewriter 'r1'")
    assert "identical texts" in message


def test_two_llm_rewriters_with_one_model_and_sampling_are_refused(shared_data: Path, tmp_path: Path) -> None:
    same = {"kind": "llm", "model": "mock/echo", "sampling": {"temperature": 0.7}, "conditions": ["proficiency:+"]}
    message = _error(study_dict(shared_data, tmp_path, rewriters=[{"name": "a", **same}, {"name": "b", **same}]))
    assert "rewriters[1]: rewriter 'b' produces proficiency:+ exactly as rewriter 'a'" in message


def test_rewriters_sharing_a_condition_with_different_settings_are_kept(shared_data: Path, tmp_path: Path) -> None:
    config = parse_study(study_dict(shared_data, tmp_path, rewriters=[
        {"name": "rules", "kind": "rule-based", "conditions": ["confidence:+"]},
        {"name": "echo", "kind": "llm", "model": "mock/echo", "conditions": ["confidence:+"]},
        {"name": "warm", "kind": "llm", "model": "mock/echo", "sampling": {"temperature": 0.9},
         "conditions": ["confidence:+"]},
        {"name": "rules-minus", "kind": "rule-based", "conditions": ["confidence:-"]},
    ]))
    assert [r.name for r in config.rewriters] == ["rules", "echo", "warm", "rules-minus"]


def test_a_condition_listed_twice_in_one_rewriter_is_refused(shared_data: Path, tmp_path: Path) -> None:
    spec = study_dict(shared_data, tmp_path)
    spec["rewriters"][1]["conditions"] = ["proficiency:+", "proficiency:-", "proficiency:+"]
    assert _error(spec) == ("study: rewriters[1].conditions: duplicate condition(s) 'proficiency:+': "
                            "each condition is listed once per rewriter")


@pytest.mark.parametrize("pair", [["confidence:+", "confidence:+"], ["original", "original"],
                                  # the rule-based rewriter is confidence:-'s only producer: one arm
                                  ["confidence:-@rules", "confidence:-"]])
def test_a_comparison_of_an_arm_with_itself_is_refused(shared_data: Path, tmp_path: Path, pair: list[str]) -> None:
    spec = study_dict(shared_data, tmp_path, comparisons=[["original", "confidence:+"], pair])
    arm = pair[1]
    assert _error(spec) == f"study: comparisons[1]: compares the arm {arm!r} with itself; name two different arms"


def test_a_condition_of_two_rewriters_compares_across_them(shared_data: Path, tmp_path: Path) -> None:
    spec = study_dict(shared_data, tmp_path, comparisons=[["confidence:+@rules", "confidence:+@echo"]])
    spec["rewriters"][1]["conditions"] = ["confidence:+"]
    assert parse_study(spec).comparisons == [("confidence:+@rules", "confidence:+@echo")]


def _number_paths(schema: dict[str, Any], node: dict[str, Any], path: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
    """Paths of every number-typed setting in the study's JSON schema (list items as index 0)."""
    if "$ref" in node:
        node = schema["$defs"][node["$ref"].rpartition("/")[2]]
    if node.get("type") == "number":
        yield path
    for option in node.get("anyOf", []):
        yield from _number_paths(schema, option, path)
    if node.get("type") == "array" and "items" in node:
        yield from _number_paths(schema, node["items"], (*path, 0))
    for key, sub in node.get("properties", {}).items():
        yield from _number_paths(schema, sub, (*path, key))


def _set(spec: dict[str, Any], path: tuple[Any, ...], value: float) -> None:
    node: Any = spec
    for key, after in zip(path[:-1], path[1:], strict=True):
        if isinstance(key, int):
            node = node[key]
        else:
            node = node.setdefault(key, [] if isinstance(after, int) else {})
    if isinstance(path[-1], int):
        node[:] = [value]
    else:
        node[path[-1]] = value


SCHEMA = StudyConfig.model_json_schema()
NUMBER_PATHS = sorted(set(_number_paths(SCHEMA, SCHEMA, ())), key=str)


def test_the_schema_walk_finds_the_float_settings() -> None:
    dotted = {".".join(str(p) for p in path) for path in NUMBER_PATHS}
    assert {"decision_threshold", "budget_usd", "scorecard.threshold", "scorecard.max_abs_log_ratio",
            "reviewers.0.sampling.temperature", "validation.thresholds.min_semantic_similarity",
            "reviewers.0.options.timeout_s", "documents.0.human_scores.0"} <= dotted


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
@pytest.mark.parametrize("path", NUMBER_PATHS, ids=lambda p: ".".join(map(str, p)))
def test_every_float_setting_must_be_finite(shared_data: Path, tmp_path: Path, path: tuple[Any, ...],
                                            value: float) -> None:
    spec = study_dict(shared_data, tmp_path)
    _set(spec, path, value)
    key = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")
    assert f"study: {key}: Input should be a finite number" in _error(spec).splitlines()


def test_a_control_reviewer_setting_must_be_finite(shared_data: Path, tmp_path: Path) -> None:
    spec = study_dict(shared_data, tmp_path, reviewers=[
        {"name": "ctl", "kind": "control", "options": {"noise_sd": math.inf}}])
    assert _error(spec) == "study: reviewers[0].options.noise_sd: Input should be a finite number"


def test_strings_nan_and_inf_are_not_numbers_either(shared_data: Path, tmp_path: Path) -> None:
    spec = study_dict(shared_data, tmp_path, decision_threshold="nan", budget_usd="inf")
    assert _error(spec).splitlines() == ["study: decision_threshold: Input should be a finite number",
                                         "study: budget_usd: Input should be a finite number"]


def _study_with(rewriter: dict | None = None, reviewer: dict | None = None) -> dict:
    return {"name": "s", "documents": ["paper.md"],
            "rewriters": [rewriter] if rewriter else [],
            "reviewers": [reviewer or {"name": "ctl", "kind": "control"}]}


def test_unknown_kinds_are_refused_listing_the_registered_ones() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_study(_study_with({"name": "r", "kind": "oracle", "conditions": ["confidence:+"]},
                                {"name": "x", "kind": "ouija"}))
    rewriter_line, reviewer_line = str(caught.value).splitlines()
    rewriter_prefix = "study: rewriters[0].kind: unknown rewriter 'oracle'; known: "
    assert rewriter_line.startswith(rewriter_prefix)
    rewriter_kinds = rewriter_line[len(rewriter_prefix):].split(", ")
    assert rewriter_kinds == sorted(rewriter_kinds) and {"agent", "injection", "latex-project", "llm", "rule-based"} <= set(rewriter_kinds)
    prefix = "study: reviewers[0].kind: unknown evaluator 'ouija'; known: "
    assert reviewer_line.startswith(prefix)
    known = reviewer_line[len(prefix):].split(", ")
    assert known == sorted(known) and {"llm", "control", "command", "http", "python", "judge"} <= set(known)


@pytest.mark.parametrize(("rewriter", "problem"), [
    ({"name": "r", "kind": "rule-based", "conditions": ["proficiency:+"]},
     "rewriter 'r' of kind 'rule-based' only produces confidence:+ and confidence:-, not 'proficiency:+'"),
    ({"name": "r", "kind": "injection", "conditions": ["injection:hidden-body-command-score|confidence:+"]},
     "rewriter 'r' of kind 'injection' only produces injection:... conditions"),
    ({"name": "r", "kind": "llm", "model": "mock/echo", "conditions": ["recursive:3"]},
     "rewriter 'r' of kind 'llm' has no instruction text for recursive:3"),
])
def test_a_rewriter_kind_accepts_only_the_conditions_it_produces(rewriter: dict, problem: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(problem)):
        parse_study(_study_with(rewriter))


def test_a_bad_python_entry_is_one_sentence_naming_the_option() -> None:
    message = _error(_study_with(reviewer={"name": "p", "kind": "python", "options": {"entry": "myrevs"}}))
    assert message == ("study: reviewers[0]: reviewer 'p' of kind 'python': options.entry: "
                       "'myrevs' is not of the form package.module:function")



@pytest.mark.parametrize(("scores", "outside"), [([6, 8, 99], "99"), ([-5, -1000], "-5, -1000"), ([0.5], "0.5")])
def test_human_scores_outside_the_rating_scale_are_refused_naming_the_document(scores: list, outside: str) -> None:
    message = _error({"name": "s", "documents": ["a.md", {"path": "paper.md", "human_scores": scores}],
                      "reviewers": [{"name": "ctl", "kind": "control"}]})
    assert message == f"study: documents[1]: human_scores of 'paper.md': {outside} outside the rating scale 1-10"


def test_human_scores_on_the_rating_scale_are_kept() -> None:
    study = parse_study({"name": "s", "documents": [{"path": "paper.md", "human_scores": [1, 5.5, 10]}],
                         "reviewers": [{"name": "ctl", "kind": "control"}]})
    assert study.documents[0].human_scores == [1.0, 5.5, 10.0]


def test_an_empty_latex_project_is_refused_at_load():
    study = {"name": "s", "documents": [{"latex_project": ""}], "reviewers": [{"name": "c", "kind": "control"}]}
    with pytest.raises(ConfigError, match=r"documents\[0\]: latex_project: empty"):
        parse_study(study)


def test_main_belongs_to_a_latex_project_and_stays_inside_it():
    reviewers = [{"name": "c", "kind": "control"}]
    with pytest.raises(ConfigError, match="'main' names the main file of a 'latex_project' entry only"):
        parse_study({"name": "s", "documents": [{"path": "a.tex", "main": "a.tex"}], "reviewers": reviewers})
    with pytest.raises(ConfigError, match=r"main: '\.\./x\.tex' must be a path inside the project folder"):
        parse_study({"name": "s", "documents": [{"latex_project": "p", "main": "../x.tex"}], "reviewers": reviewers})


# The largest temperature each provider's API reference states (OpenAI Chat Completions: "between 0 and 2";
# Anthropic Messages: "ranges from 0.0 to 1.0"; Gemini GenerationConfig: 0.0-2.0); servers such as vLLM,
# llama.cpp, the embedded model and the mock state none.
DOCUMENTED_TEMPERATURE_MAX = {"openai/gpt-4o-mini": 2.0, "anthropic/claude-sonnet-4-5": 1.0,
                              "google/gemini-2.5-flash": 2.0, "mock/echo": None,
                              "openai-compatible/qwen@http://127.0.0.1:8000/v1": None}


@pytest.mark.parametrize("temperature", [0.0, 0.7, 1.0, 1.01, 2.0, 2.5, 50.0])
@pytest.mark.parametrize("model", DOCUMENTED_TEMPERATURE_MAX)
def test_a_temperature_above_the_provider_range_is_refused_at_load(model: str, temperature: float) -> None:
    highest = DOCUMENTED_TEMPERATURE_MAX[model]
    study = _study_with(reviewer={"name": "hot", "model": model, "sampling": {"temperature": temperature}})
    if highest is None or temperature <= highest:
        assert parse_study(study).reviewers[0].sampling.temperature == temperature
        return
    with pytest.raises(ConfigError) as caught:
        parse_study(study)
    provider = model.partition("/")[0]
    assert str(caught.value) == (f"study: reviewers[0].sampling.temperature: {temperature:g} is above {highest:g}, "
                                 f"the highest provider {provider} accepts")


def test_a_declared_model_and_the_annotator_are_checked_too() -> None:
    study = _study_with({"name": "rw", "model": "claude", "conditions": ["confidence:+"],
                         "sampling": {"temperature": 1.5}})
    study["models"] = {"claude": {"provider": "anthropic", "model": "claude-sonnet-4-5"}}
    with pytest.raises(ConfigError, match=r"^study: rewriters\[0\].sampling.temperature: 1.5 is above 1, the highest "
                                          "provider anthropic accepts$"):
        parse_study(study)
    study = _study_with()
    study["aspects"] = {"model": "openai/gpt-4o-mini", "temperature": 3}
    with pytest.raises(ConfigError, match="^study: aspects.temperature: 3 is above 2, the highest provider openai accepts$"):
        parse_study(study)
