"""The example plug-in's ``example-scripted`` provider (one file, one registration, no change to
rhetorica): listed, estimated and run by a study that names ``example-scripted/<level>``."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import yaml

from tests.examples.plugin_install import PLUGIN, run_python
from tests.examples.test_example_plugin_study import MANUSCRIPT


def _study(tmp_path: Path) -> Path:
    (tmp_path / "paper.md").write_text(MANUSCRIPT, encoding="utf-8")
    study = yaml.safe_load((PLUGIN / "study.yaml").read_text(encoding="utf-8"))
    study |= {
        "output_dir": str(tmp_path / "run"),
        "documents": [{"path": str(tmp_path / "paper.md"), "id": "small"}],
        "rewriters": [{"name": "scripted-rewrite", "kind": "llm", "model": "example-scripted/mid",
                       "conditions": ["confidence:+"]}],
        "reviewers": [{"name": "scripted-mid", "model": "example-scripted/mid", "protocol": "default"},
                      {"name": "scripted-high", "model": "example-scripted/high", "protocol": "default"}],
    }
    path = tmp_path / "study.yaml"
    path.write_text(yaml.safe_dump(study), encoding="utf-8")
    return path


def test_rhetorica_list_shows_the_plugin_provider(plugin_dir: Path) -> None:
    result = run_python(["-m", "rhetorica", "list", "--kind", "provider", "--json"], plugin_dir)
    assert result.returncode == 0, result.stderr
    rows = {r["name"]: r for r in json.loads(result.stdout)}
    assert rows["example-scripted"]["source"] == "rhetorica-example-plugin"
    assert rows["example-scripted"]["description"].startswith("deterministic model: every form answered")
    assert rows["mock"]["source"] == "rhetorica"


def test_a_study_naming_the_plugin_provider_estimates_and_runs(plugin_dir: Path, tmp_path: Path) -> None:
    study = _study(tmp_path)
    estimate = run_python(["-m", "rhetorica", "estimate", str(study), "--json"], plugin_dir)
    assert estimate.returncode == 0, estimate.stdout + estimate.stderr
    calls: dict[str, int] = {}
    for row in json.loads(estimate.stdout)["rows"]:
        calls[row["model"]] = calls.get(row["model"], 0) + row["calls"]
    # one rewrite (1 document x 1 condition) and its truncation retry; 2 arms (original, confidence:+) x 1
    # replicate per reviewer, each review with its repair (issue 37: the upper bound)
    assert calls == {"example-scripted/mid": (1 + 1) + (2 + 2), "example-scripted/high": 2 + 2}

    result = run_python(["-m", "rhetorica", "run", str(study)], plugin_dir)
    assert result.returncode == 0, result.stdout + result.stderr
    with (tmp_path / "run" / "tables" / "assessments.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    got = sorted((r["reviewer"], r["condition"], r["status"], float(r["overall"]), float(r["soundness"]),
                  float(r["confidence"])) for r in rows)
    # review-000 scales: overall 1-10, soundness 1-4, confidence 1-5; mid = (min + max) // 2
    assert got == [("scripted-high", "confidence:+", "ok", 10.0, 4.0, 5.0),
                   ("scripted-high", "original", "ok", 10.0, 4.0, 5.0),
                   ("scripted-mid", "confidence:+", "ok", 5.0, 2.0, 3.0),
                   ("scripted-mid", "original", "ok", 5.0, 2.0, 3.0)]
