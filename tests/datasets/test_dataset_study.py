"""A study that names a built dataset folder in one line runs and reports the human-rating strata."""

from __future__ import annotations

from pathlib import Path

import yaml
from typer.testing import CliRunner

from rhetorica.cli.app import app
from rhetorica.datasets.openreview_build import build_openreview
from rhetorica.study.config import ConfigError, parse_study
from tests.datasets.recorded_api import VENUE


def test_study_over_dataset_with_control_reviewers(recorded, tmp_path: Path) -> None:
    _, base = recorded
    root = tmp_path / "ds"
    build_openreview(VENUE, root, baseurl=base, per_bin=1, seed=3)
    study = {
        "name": "dataset-controls", "output_dir": str(tmp_path / "run"),
        "documents": [{"dataset": str(root), "prefer": "pdf"}],
        "rewriters": [{"name": "rules", "kind": "rule-based", "conditions": ["confidence:+", "confidence:-"]}],
        "reviewers": [{"name": "null", "kind": "control"}],
        "validation": {"enabled": False},
    }
    path = tmp_path / "study.yaml"
    path.write_text(yaml.safe_dump(study))
    result = CliRunner().invoke(app, ["run", str(path)])
    assert result.exit_code in (0, 1), result.output
    report = (tmp_path / "run" / "report.md").read_text()
    assert "Papers by human-rating stratum" in report
    section = report.split("Papers by human-rating stratum")[1].split("\n## ")[0]
    # one paper per bin (per_bin=1): every stratum appears once with one paper
    for label in ("[1,3)", "[3,4)", "[4,5)", "[5,6)", "[6,7)", "[7,8.5]"):
        escaped = label.replace("[", "\\[").replace("]", "\\]")  # Markdown-escaped cell text
        row = next(line for line in section.splitlines() if line.startswith(f"| {escaped}"))
        assert row.split("|")[2].strip() == "1"


def test_dataset_entry_rules() -> None:
    base = {"name": "x", "reviewers": [{"name": "null", "kind": "control"}]}
    for bad in ({"path": "a.pdf", "dataset": "ds"}, {}, {"dataset": "ds", "human_scores": [5]}):
        try:
            parse_study({**base, "documents": [bad]}, source="s.yaml")
        except ConfigError as exc:
            assert "s.yaml: documents[0]" in str(exc)
        else:
            raise AssertionError(f"accepted {bad}")
