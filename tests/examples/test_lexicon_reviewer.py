"""The example plug-in's ``lexicon`` reviewer kind (one file, one registration, no edit to
rhetorica): a study using it estimates, runs, resumes and shows its status; ``rhetorica list``
and ``rhetorica schema`` show the kind with its options."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import yaml

from tests.examples.plugin_install import run_python

# 19 words; "may", "perhaps", "might" are 3 of them, "clearly" 1.
TEXT = "We may perhaps see gains in accuracy. It might work, and it clearly does work on two tasks here.\n"


def _study(folder: Path, reviewers: list[dict[str, object]]) -> Path:
    (folder / "paper.md").write_text(TEXT, encoding="utf-8")
    path = folder / "study.yaml"
    path.write_text(yaml.safe_dump({"name": "lexicon", "output_dir": "run", "documents": ["paper.md"],
                                    "reviewers": reviewers}), encoding="utf-8")
    return path


def test_a_study_with_lexicon_reviewers_estimates_runs_and_resumes(plugin_dir: Path, tmp_path: Path) -> None:
    study = _study(tmp_path, [
        {"name": "hedges", "kind": "lexicon", "options": {"words": ["may", "perhaps", "might"], "base": 8,
                                                          "points_per_word": -0.2}},
        {"name": "boosters", "kind": "lexicon", "options": {"words": ["Clearly"], "base": 4, "points_per_word": 0.5}},
    ])
    estimate = run_python(["-m", "rhetorica", "estimate", str(study)], plugin_dir, cwd=tmp_path)
    assert estimate.returncode == 0, estimate.stderr
    assert "Units pending: 2; already done: 0" in " ".join(estimate.stdout.split())
    assert "│ total │       │     0 │" in estimate.stdout  # the kind plans no model call
    first = run_python(["-m", "rhetorica", "run", str(study)], plugin_dir, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert "Ran 2 units (review ok 2)" in first.stdout
    rows = {r["reviewer"]: r for r in csv.DictReader((tmp_path / "run" / "tables" / "assessments.csv").open())}
    # hedges: 8 - 0.2 * (100 * 3 / 19 = 15.789) = 4.842 -> 5; boosters: 4 + 0.5 * (100 / 19 = 5.263) = 6.632 -> 7
    assert {name: (r["status"], float(r["overall"]), r["model"]) for name, r in rows.items()} == {
        "hedges": ("ok", 5.0, "lexicon"), "boosters": ("ok", 7.0, "lexicon")}
    status = run_python(["-m", "rhetorica", "status", str(study)], plugin_dir, cwd=tmp_path)
    assert status.returncode == 0, status.stderr
    review = next(line for line in status.stdout.splitlines() if "review" in line)
    assert review.split("│")[1:6] == [" review   ", "     2 ", "  2 ", "      0 ", "       0 "]
    again = run_python(["-m", "rhetorica", "run", str(study)], plugin_dir, cwd=tmp_path)
    assert again.returncode == 0 and "all 2 units were already in the store; 0 model calls" in " ".join(again.stdout.split())


def test_bad_lexicon_options_are_refused_when_the_study_loads(plugin_dir: Path, tmp_path: Path) -> None:
    study = _study(tmp_path, [{"name": "bad", "kind": "lexicon", "options": {"words": ["two words"]}}])
    result = run_python(["-m", "rhetorica", "estimate", str(study)], plugin_dir, cwd=tmp_path)
    assert result.returncode == 2
    assert ("reviewers[0]: reviewer 'bad' of kind 'lexicon': options.words: 'two words' is not a single word "
            "(letters and inner apostrophes only)" in " ".join(result.stderr.split()))


def test_list_and_schema_show_the_lexicon_kind_with_its_options(plugin_dir: Path) -> None:
    listed = run_python(["-m", "rhetorica", "list", "--kind", "evaluator", "--json"], plugin_dir)
    assert listed.returncode == 0, listed.stderr
    row = next(r for r in json.loads(listed.stdout) if r["name"] == "lexicon")
    assert (row["source"], sorted(row["options"])) == ("rhetorica-example-plugin", ["base", "points_per_word", "words"])
    assert row["options"]["base"].startswith("float (default 5.0): overall score of a text with none")
    schema = run_python(["-m", "rhetorica", "schema"], plugin_dir)
    assert schema.returncode == 0, schema.stderr
    defs = json.loads(schema.stdout)["$defs"]
    reviewers = json.loads(schema.stdout)["properties"]["reviewers"]["items"]
    assert reviewers["discriminator"]["mapping"]["lexicon"] == "#/$defs/ReviewerSpec_lexicon"
    assert defs["ReviewerSpec_lexicon"]["properties"]["kind"]["const"] == "lexicon"
    assert set(defs["LexiconOptions"]["properties"]) == {"words", "base", "points_per_word"}
    assert defs["LexiconOptions"]["required"] == ["words"]
