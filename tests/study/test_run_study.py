"""A run directory's study loads once, validated: a run's StudyConfig, an import's ImportedStudy,
or one error naming ``study.json`` and the problem."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rhetorica.study.config import ConfigError, parse_study
from rhetorica.study.run_study import load_run_study

SPEC = {"name": "s", "documents": ["papers/*"], "replicates": 3, "decision_threshold": 6.5,
        "rewriters": [{"name": "rules", "kind": "rule-based", "conditions": ["confidence:+"]}],
        "reviewers": [{"name": "ctl", "kind": "control", "options": {"noise_sd": 1}}],
        "comparisons": [["confidence:+", "original"]]}

IMPORTED = {"name": "imp", "comparisons": [["perturbed", "original"]], "decision_threshold": 7.0,
            "imported_from": {"format": "ai-reviewer-diagnostics", "baseline": "b.jsonl",
                              "perturbed": "p.jsonl", "field_map": {"overall": "rating"}}}


def _write(run_dir: Path, study: object) -> Path:
    run_dir.mkdir(exist_ok=True)
    (run_dir / "study.json").write_text(study if isinstance(study, str) else json.dumps(study), encoding="utf-8")
    return run_dir


def test_a_saved_study_loads_as_the_config_it_was(tmp_path: Path) -> None:
    config = parse_study(SPEC)
    run_dir = _write(tmp_path / "run", config.model_dump_json())
    loaded = load_run_study(run_dir)
    assert loaded == config
    assert loaded.replicates == 3 and loaded.decision_threshold == 6.5
    assert loaded.comparisons == [("confidence:+", "original")]
    assert loaded.reviewers[0].options.as_kwargs() == {"noise_sd": 1}


def test_an_imported_run_loads_with_the_study_defaults(tmp_path: Path) -> None:
    study = load_run_study(_write(tmp_path / "run", IMPORTED))
    assert study.name == "imp" and study.decision_threshold == 7.0
    assert study.comparisons == [("perturbed", "original")]
    assert study.reviewers == [] and study.rewriters == [] and study.documents == []
    # the study model's defaults, not restated: one replicate, failed variants excluded, paper clusters
    assert study.replicates == 1 and study.validation.failed_variants == "exclude"
    assert study.judge_analysis.cluster == "paper" and study.scorecard.min_papers == 10


@pytest.mark.parametrize(("change", "problem"), [
    ({"decision_threshold": 11}, "decision_threshold: Input should be less than or equal to 10"),
    ({"imported_from": {"format": "other"}}, "imported_from.format: Input should be 'ai-reviewer-diagnostics'"),
    ({"extra": 1}, "extra: unknown key"),
])
def test_a_bad_imported_study_names_file_and_key(tmp_path: Path, change: dict, problem: str) -> None:
    run_dir = _write(tmp_path / "run", {**IMPORTED, **change})
    with pytest.raises(ConfigError) as caught:
        load_run_study(run_dir)
    assert f"{run_dir / 'study.json'}: {problem}" in str(caught.value).splitlines()


def test_a_study_that_does_not_validate_names_file_and_key(tmp_path: Path) -> None:
    run_dir = _write(tmp_path / "run", {**SPEC, "reviewers": [{"name": "m", "protocl": "strict"}]})
    with pytest.raises(ConfigError) as caught:
        load_run_study(run_dir)
    assert f"{run_dir / 'study.json'}: reviewers[0].protocl: unknown key" in str(caught.value).splitlines()


@pytest.mark.parametrize(("text", "problem"), [
    (None, "missing"),
    ('{"name": ', "not valid JSON at line 1, column 10"),
    ("[1, 2]", "not a JSON object of study keys"),
])
def test_an_unusable_file_is_one_error_naming_it(tmp_path: Path, text: str | None, problem: str) -> None:
    run_dir = _write(tmp_path / "run", text) if text is not None else tmp_path
    with pytest.raises(ConfigError) as caught:
        load_run_study(run_dir)
    assert str(caught.value).startswith(f"{run_dir / 'study.json'}: {problem}")
