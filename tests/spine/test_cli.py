"""The command line: help, schema, config errors that name the bad key, report without models."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from rhetorica.cli.app import app

from ..study.helpers import study_dict, write_study

runner = CliRunner()


def test_help_lists_every_command() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("run", "status", "report", "schema", "demo"):
        assert command in result.output


def test_schema_is_the_study_json_schema() -> None:
    result = runner.invoke(app, ["schema"])
    assert result.exit_code == 0
    schema = json.loads(result.output)
    assert schema["title"] == "StudyConfig"
    assert {"documents", "reviewers", "replicates", "decision_threshold"} <= set(schema["properties"])


def test_yaml_typo_names_the_key(tmp_path: Path, shared_data: Path) -> None:
    spec = study_dict(shared_data, tmp_path / "run")
    spec["reviewers"][0]["protocl"] = "default"
    spec["replicates"] = "two"
    result = runner.invoke(app, ["run", str(write_study(tmp_path / "s.yaml", spec))])
    assert result.exit_code == 2
    assert "reviewers[0].protocl: unknown key" in result.output
    assert "replicates: Input should be a valid integer" in result.output


def test_unknown_condition_and_protocol_are_config_errors(tmp_path: Path, shared_data: Path) -> None:
    spec = study_dict(shared_data, tmp_path / "run")
    spec["rewriters"][0]["conditions"] = ["confidence:+", "confidnce:-"]
    spec["reviewers"][0]["protocol"] = "lenient"
    result = runner.invoke(app, ["run", str(write_study(tmp_path / "s.yaml", spec))])
    assert result.exit_code == 2
    assert "rewriters[0].conditions: unknown condition 'confidnce:-'" in result.output
    assert "reviewers[0].protocol: unknown protocol 'lenient'" in result.output


def test_run_status_report_round_trip(tmp_path: Path, shared_data: Path) -> None:
    study = write_study(tmp_path / "s.yaml", study_dict(shared_data, tmp_path / "run"))
    first = runner.invoke(app, ["run", str(study)])
    assert first.exit_code == 0, first.output
    assert "Ran 42 units" in first.output
    second = runner.invoke(app, ["run", str(study)])
    assert "Nothing to do: all 42 units were already in the store; 0 model calls made." in second.output
    status = runner.invoke(app, ["status", str(study)])
    assert status.exit_code == 0
    assert "rewrite" in status.output and "review" in status.output
    (tmp_path / "run" / "report.html").unlink()
    rebuilt = runner.invoke(app, ["report", str(tmp_path / "run")])
    assert rebuilt.exit_code == 0 and (tmp_path / "run" / "report.html").exists()
    for name in ("assessments", "variants", "model_calls"):
        assert (tmp_path / "run" / "tables" / f"{name}.parquet").exists()
        assert (tmp_path / "run" / "tables" / f"{name}.csv").exists()


def test_report_on_a_folder_without_store(tmp_path: Path) -> None:
    result = runner.invoke(app, ["report", str(tmp_path)])
    assert result.exit_code == 2 and "no store.sqlite here" in result.output


def test_status_counts_pending_then_done(tmp_path: Path, shared_data: Path) -> None:
    from rhetorica.study.config import load_study
    from rhetorica.study.status import study_status

    study = write_study(tmp_path / "s.yaml", study_dict(shared_data, tmp_path / "run"))
    config, base = load_study(study)
    before, _ = study_status(config, base)
    assert [(s.stage, s.units, s.done, s.pending) for s in before] == [("rewrite", 12, 0, 12), ("review", 30, 0, 30)]
    assert runner.invoke(app, ["run", str(study)]).exit_code == 0
    after, _ = study_status(config, base)
    assert [(s.stage, s.units, s.done, s.pending, dict(s.failed)) for s in after] == [
        ("rewrite", 12, 12, 0, {}), ("review", 30, 30, 0, {})]


def test_validate_command_on_a_finished_run(tmp_path: Path, shared_data: Path) -> None:
    from rhetorica.store.db import Store

    spec = study_dict(shared_data, tmp_path / "run", replicates=1)
    assert runner.invoke(app, ["run", str(write_study(tmp_path / "s.yaml", spec))]).exit_code == 0
    first = runner.invoke(app, ["validate", str(tmp_path / "run"), "--min-semantic-similarity", "0.95"])
    assert first.exit_code == 0, first.output
    assert "Validation by condition" in first.output and "Validated 12 variant(s) now" in first.output
    store = Store.in_dir(tmp_path / "run")
    checks = store.rows("SELECT document_id, condition, passed FROM checks ORDER BY condition")
    store.close()
    assert len(checks) == 12
    # Echo rewrites and most rule-based ones on 400-word excerpts (cut at a paragraph boundary)
    # change nothing: they fail as identical.
    assert {(r["document_id"], r["condition"]) for r in checks if r["passed"]} == {
        ("chebnet_nips2016", "confidence:-"), ("fma_ismir2017", "confidence:-"),
        ("gcrn_iclr2017", "confidence:+"), ("gcrn_iclr2017", "confidence:-")}
    assert "identical to its original" in first.output
    assert '"min_semantic_similarity": 0.95' in (tmp_path / "run" / "study.json").read_text()
    again = runner.invoke(app, ["validate", str(tmp_path / "run")])
    assert "Validated 0 variant(s) now" in again.output


def test_help_lists_plan_ingest_validate() -> None:
    result = runner.invoke(app, ["--help"])
    for command in ("plan", "ingest", "validate"):
        assert command in result.output
