"""A study that uses the example plug-in's evaluator and condition, run by ``rhetorica run`` with the
plug-in installed (and nothing of rhetorica changed)."""

from __future__ import annotations

import csv
from pathlib import Path

import yaml

from tests.examples.plugin_install import PLUGIN, run_python

MANUSCRIPT = """# A small result

## Results

We trained 3 models. Each reached 91% accuracy. The third took 2 days. Nothing else changed.
"""


def test_a_study_runs_the_plugin_evaluator_on_the_original_and_the_plugin_condition(
        plugin_dir: Path, tmp_path: Path) -> None:
    (tmp_path / "paper.md").write_text(MANUSCRIPT, encoding="utf-8")
    study = yaml.safe_load((PLUGIN / "study.yaml").read_text(encoding="utf-8"))
    study |= {"output_dir": str(tmp_path / "run"), "documents": [{"path": str(tmp_path / "paper.md"), "id": "small"}]}
    (tmp_path / "study.yaml").write_text(yaml.safe_dump(study), encoding="utf-8")
    result = run_python(["-m", "rhetorica", "run", str(tmp_path / "study.yaml")], plugin_dir)
    assert result.returncode == 0, result.stdout + result.stderr
    with (tmp_path / "run" / "tables" / "assessments.csv").open(encoding="utf-8") as handle:
        rows = [r for r in csv.DictReader(handle) if r["reviewer"] == "toy-command"]
    # The mock rewrite is an identity rewrite, so both arms read the same four sentences, three of
    # them with a digit: overall 1 + round(9 * 0.75) = 8 (the toy script's rule).
    assert sorted((r["condition"], r["status"], float(r["overall"])) for r in rows) == [
        ("original", "ok", 8.0), ("readability:+", "ok", 8.0)]
