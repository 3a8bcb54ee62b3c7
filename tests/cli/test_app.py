"""The command line: help, schema, config errors that name the bad key, report without models."""

from __future__ import annotations

import json
import os
from pathlib import Path

from typer.testing import CliRunner

from rhetorica.cli.app import app
from rhetorica.store.lock import run_lock

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


def test_every_unknown_condition_of_a_rewriter_is_named_at_once(tmp_path: Path, shared_data: Path) -> None:
    spec = study_dict(shared_data, tmp_path / "run")
    spec["rewriters"][0]["conditions"] = ["confidence:+", "confidnce:-", "Confidence:+", "foo"]
    result = runner.invoke(app, ["run", str(write_study(tmp_path / "s.yaml", spec))], env={"COLUMNS": "400"})
    assert result.exit_code == 2
    said = " ".join(result.output.split())
    assert ("rewriters[0].conditions: 3 conditions cannot be used: unknown condition 'confidnce:-'; "
            "unknown condition 'Confidence:+'; unknown condition 'foo'; known: ") in said
    assert said.count("known: ") == 1


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
    before = study_status(config, base).stages
    assert [(s.stage, s.units, s.done, s.pending) for s in before] == [("rewrite", 12, 0, 12), ("review", 30, 0, 30)]
    assert not (tmp_path / "run").exists()  # status wrote nothing
    assert runner.invoke(app, ["run", str(study)]).exit_code == 0
    after = study_status(config, base).stages
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
    # Echo rewrites on 400-word excerpts change nothing: they fail as identical. Every rule-based
    # variant (rules-v3) passes.
    assert {(r["document_id"], r["condition"]) for r in checks if r["passed"]} == {
        (paper, condition) for paper in ("gcrn_iclr2017", "chebnet_nips2016", "fma_ismir2017")
        for condition in ("confidence:+", "confidence:-")}
    assert "identical to its original" in first.output
    assert '"min_semantic_similarity": 0.95' in (tmp_path / "run" / "study.json").read_text()
    again = runner.invoke(app, ["validate", str(tmp_path / "run")])
    assert "Validated 0 variant(s) now" in again.output
    before = (tmp_path / "run" / "study.json").read_text()
    with run_lock(tmp_path / "run"):  # a study running in the same folder: validate waits its turn
        locked = runner.invoke(app, ["validate", str(tmp_path / "run"), "--min-semantic-similarity", "0.5"])
    assert locked.exit_code == 1
    assert f"process {os.getpid()} is running this study" in locked.output
    assert (tmp_path / "run" / "study.json").read_text() == before
    assert runner.invoke(app, ["validate", str(tmp_path / "nowhere")]).exit_code == 2


def test_help_lists_plan_ingest_validate() -> None:
    result = runner.invoke(app, ["--help"])
    for command in ("plan", "ingest", "validate"):
        assert command in result.output


def _snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.rglob("*")}


def test_status_writes_nothing(tmp_path: Path, shared_data: Path) -> None:
    study = write_study(tmp_path / "s.yaml", study_dict(shared_data, tmp_path / "out" / "run"))
    fresh = runner.invoke(app, ["status", str(study)])
    assert fresh.exit_code == 0, fresh.output
    assert f"No run yet: {tmp_path / 'out' / 'run'} holds no store" in " ".join(fresh.output.split())
    assert not (tmp_path / "out").exists()  # neither the run directory nor its parent was created
    assert runner.invoke(app, ["run", str(study)]).exit_code == 0
    before = _snapshot(tmp_path / "out")
    done = runner.invoke(app, ["status", str(study)])
    assert done.exit_code == 0 and "No run yet" not in done.output
    assert _snapshot(tmp_path / "out") == before  # no -wal/-shm file, no migration, nothing touched


VALID = ('{"summary": "s", "strengths": [], "weaknesses": [], "suggestions": [], "soundness": 3, '
         '"significance": 3, "evidence": 4, "clarity": 2, "confidence": 5, "overall": 6}')


def _scripted_reviewer(monkeypatch, script: list) -> None:
    """Every ``mock/...`` model of this process is one MockModel answering ``script`` in order."""
    from rhetorica.models.providers.mock import MockModel
    from rhetorica.study import runner as study_runner

    model = MockModel(model="reviewer", script=script)
    monkeypatch.setattr(study_runner, "get_model", lambda model_id, **options: model)


def test_run_exits_1_when_every_review_failed(tmp_path: Path, shared_data: Path, monkeypatch) -> None:
    _scripted_reviewer(monkeypatch, [{"refusal": "policy"}] * 3)
    spec = study_dict(shared_data, tmp_path / "run", rewriters=[], replicates=1, concurrency=1)
    result = runner.invoke(app, ["run", str(write_study(tmp_path / "s.yaml", spec))])
    assert result.exit_code == 1, result.output
    assert "3 unit(s) of this study are stored as failures (review: refused 3)" in " ".join(result.output.split())


def test_rerun_reports_failed_units_and_retry_failed_runs_them(tmp_path: Path, shared_data: Path,
                                                               monkeypatch) -> None:
    # concurrency 1, no rewriters: three original reviews in plan order; the script continues
    # across the runs of this process (one model instance).
    _scripted_reviewer(monkeypatch, [{"refusal": "policy"}, VALID, {"empty": True}, VALID, VALID])
    spec = study_dict(shared_data, tmp_path / "run", rewriters=[], replicates=1, concurrency=1)
    study = write_study(tmp_path / "s.yaml", spec)
    first = runner.invoke(app, ["run", str(study)])
    assert first.exit_code == 1
    assert "2 unit(s) of this study are stored as failures (review: empty 1, refused 1)" in " ".join(
        first.output.split())
    again = runner.invoke(app, ["run", str(study)])
    text = " ".join(again.output.split())
    assert again.exit_code == 1, again.output
    assert "Nothing to do: all 3 units were already in the store; 0 model calls made." in text
    assert "2 unit(s) of this study are stored as failures (review: empty 1, refused 1)" in text
    assert f"`rhetorica run {study} --retry-failed` runs them again" in text
    status = runner.invoke(app, ["status", str(study)])
    assert "2 unit(s) are stored as failures" in " ".join(status.output.split())
    retried = runner.invoke(app, ["run", str(study), "--retry-failed"])
    assert retried.exit_code == 0, retried.output
    assert "Ran 2 units (review ok 2); skipped 1 already done; 2 model requests (0 retries)" in " ".join(retried.output.split())
    last = runner.invoke(app, ["run", str(study)])
    assert last.exit_code == 0 and "stored as failures" not in last.output


def test_a_stopped_configuration_sets_the_exit_code(tmp_path: Path, shared_data: Path, monkeypatch) -> None:
    from rhetorica.study.runner import StudyRunner

    real_run = StudyRunner.run

    async def run_and_stop(self, **kwargs):  # noqa: ANN001, ANN202
        summary = await real_run(self, **kwargs)
        summary.stopped_configurations["mock-reviewer"] = "HTTP 404 model_not_found"
        return summary

    monkeypatch.setattr(StudyRunner, "run", run_and_stop)
    spec = study_dict(shared_data, tmp_path / "run", rewriters=[], replicates=1)
    result = runner.invoke(app, ["run", str(write_study(tmp_path / "s.yaml", spec))])
    assert result.exit_code == 1
    assert "stopped mock-reviewer: HTTP 404 model_not_found" in " ".join(result.output.split())


def test_superseded_units_are_listed_never_analysed(tmp_path: Path, shared_data: Path) -> None:
    import pandas as pd

    from rhetorica.store.db import Store

    run_dir = tmp_path / "run"
    spec = study_dict(shared_data, run_dir)
    study = write_study(tmp_path / "s.yaml", spec)
    assert runner.invoke(app, ["run", str(study)]).exit_code == 0
    store = Store.in_dir(run_dir)
    first_keys = {r[0] for r in store.rows("SELECT unit_key FROM assessments")}
    store.close()
    assert len(first_keys) == 30

    spec["reviewers"][0]["sampling"] = {"temperature": 0.3}  # a sampling change: every review is new
    write_study(study, spec)
    plan_status = runner.invoke(app, ["status", str(study)])
    text = " ".join(plan_status.output.split())
    assert "Superseded: 30 stored unit(s)" in text and "mock-reviewer" in text
    second = runner.invoke(app, ["run", str(study)])
    assert second.exit_code == 0, second.output
    assert "Ran 30 units (review ok 30); skipped 12 already done" in " ".join(second.output.split())
    assert "Superseded: 30 stored unit(s) from earlier declarations" in " ".join(second.output.split())

    store = Store.in_dir(run_dir)
    rows = pd.DataFrame([dict(r) for r in store.rows("SELECT unit_key, condition, "
                                                        "(SELECT value FROM scores s WHERE s.unit_key = assessments.unit_key AND s.metric = 'overall') AS overall FROM assessments")])
    store.close()
    assert len(rows) == 60  # the old assessments stay in the store
    new = rows[~rows["unit_key"].isin(first_keys)]
    tidy = pd.read_csv(run_dir / "tables" / "assessments.csv")
    assert sorted(tidy["unit_key"]) == sorted(new["unit_key"])  # only the new assessments
    means = pd.read_csv(run_dir / "tables" / "assessments.csv").groupby("condition")["overall"].mean()
    assert means.to_dict() == new.groupby("condition")["overall"].mean().to_dict()
    superseded = pd.read_csv(run_dir / "tables" / "superseded.csv")
    assert superseded[["stage", "configuration", "model", "detail", "units"]].values.tolist() == [
        ["review", "mock-reviewer", "mock/reviewer", "default protocol", 30]]
    report = (run_dir / "report.md").read_text()
    assert "## Superseded units" in report and "30 stored unit(s) from earlier declarations" in report
    status = runner.invoke(app, ["status", str(study)])
    assert "Superseded: 30 stored unit(s)" in " ".join(status.output.split())

    # Longer excerpts (cut at a paragraph boundary) change the texts of all three papers: every
    # rewrite and review is new, and the second run's units join the superseded ones.
    spec["document_options"] = {"max_words": 700}
    write_study(study, spec)
    third = runner.invoke(app, ["run", str(study)])
    assert third.exit_code == 0, third.output
    assert "Ran 42 units (rewrite ok 12; review ok 30); skipped 0 already done" in " ".join(third.output.split())
    tidy = pd.read_csv(run_dir / "tables" / "assessments.csv")
    variants = pd.read_csv(run_dir / "tables" / "variants.csv")
    assert (len(tidy), len(variants)) == (30, 12)
    assert not new["unit_key"].isin(tidy["unit_key"]).any()
    superseded = pd.read_csv(run_dir / "tables" / "superseded.csv")
    assert superseded.groupby("stage")["units"].sum().to_dict() == {"review": 30 + 30, "rewrite": 12}


def test_run_refuses_studies_the_analysis_could_not_use(tmp_path: Path, shared_data: Path) -> None:
    twins = [{"name": "r1", "kind": "rule-based", "conditions": ["confidence:+"]},
             {"name": "r2", "kind": "rule-based", "conditions": ["confidence:+"]}]
    cases = {
        "scorecard.threshold: Input should be a finite number":
            {"scorecard": {"threshold": float("nan"), "max_abs_log_ratio": float("inf")}},
        "comparisons[0]: compares the arm 'confidence:+' with itself":
            {"comparisons": [["confidence:+", "confidence:+"]]},
        "rewriters[1]: rewriter 'r2' produces confidence:+ exactly as rewriter 'r1' does": {"rewriters": twins},
        "rewriters[0].conditions: duplicate condition(s) 'confidence:+'":
            {"rewriters": [{"name": "r1", "kind": "rule-based", "conditions": ["confidence:+", "confidence:+"]}]},
    }
    for index, (expected, overrides) in enumerate(cases.items()):
        study = write_study(tmp_path / f"s{index}.yaml", study_dict(shared_data, tmp_path / "run", **overrides))
        result = runner.invoke(app, ["run", str(study)])
        assert result.exit_code == 2, result.output
        assert f"{study}: {expected}" in " ".join(result.output.split())
        assert not (tmp_path / "run").exists()


def test_run_counts_failed_units_apart_from_other_problems(tmp_path: Path, shared_data: Path) -> None:
    spec = study_dict(shared_data, tmp_path / "run", rewriters=[], replicates=1,
                      reviewers=[{"name": "ctl-null", "kind": "control"}])
    spec["documents"].append(dict(spec["documents"][0]))  # the same paper twice: an ingest problem
    result = runner.invoke(app, ["run", str(write_study(tmp_path / "s.yaml", spec))])
    assert result.exit_code == 1, result.output
    assert "Failures: 0 unit(s) and 1 other problem(s) listed in the report." in " ".join(result.output.split())


def test_python_m_of_the_app_module_runs_the_command_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    import rhetorica

    env = {**os.environ, "PYTHONPATH": str(Path(rhetorica.__file__).resolve().parents[1]), "COLUMNS": "200"}
    missing = str(tmp_path / "no-such.pdf")
    said = []
    for module in ("rhetorica.cli.app", "rhetorica"):
        done = subprocess.run([sys.executable, "-m", module, "scan", missing], capture_output=True, text=True,
                              env=env, cwd=tmp_path, timeout=120)
        said.append((done.returncode, done.stdout, done.stderr))
    assert said[0] == said[1]  # the same command line either way
    assert said[0][0] == 2 and said[0][2] == f"error: {missing}: no such file or folder\n"
