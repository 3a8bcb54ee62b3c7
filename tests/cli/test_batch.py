"""`rhetorica batch submit|collect` then `rhetorica run`: a whole study through batch APIs, no live call."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from rhetorica.cli.batch import batch_app
from rhetorica.study.config import load_study
from rhetorica.study.runner import StudyRunner

PAPER = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "papers" / "gcrn_iclr2017"


def test_study_runs_entirely_from_batches(fake_server, tmp_path, monkeypatch):
    if not PAPER.is_dir():
        pytest.fail(f"shared data not found at {PAPER}")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-batch-cli-test-123456")
    fake_server.batch_polls_before_done = 0
    options = {"base_url": f"{fake_server.url}/v1", "api_key_env": "OPENAI_API_KEY"}
    model = {"model": "openai/gpt-4.1-mini", "options": options}
    study = {
        "name": "batch-cli",
        "output_dir": str(tmp_path / "run"),
        "documents": [str(PAPER)],
        "document_options": {"max_words": 150},
        "rewriters": [
            {"name": "rules", "kind": "rule-based", "conditions": ["confidence:+"]},
            {"name": "llm", "kind": "llm", "conditions": ["proficiency:+"], **model},
        ],
        "reviewers": [{"name": "r", **model}],
        "replicates": 2,
        "validation": {"enabled": False},  # the model layer is under test, not the checks
    }
    path = tmp_path / "study.yaml"
    path.write_text(yaml.safe_dump(study))
    cli = CliRunner()

    rewrite = cli.invoke(batch_app, ["submit", str(path)], env={"COLUMNS": "200"})
    assert rewrite.exit_code == 0, rewrite.output
    assert re.search(r"rewrite stage, (1 call|\d+ calls) submitted as batch batch_", rewrite.output)  # by its count
    # nothing more to submit for the rewrite stage while its batch is open
    assert "already cached or in a batch" in cli.invoke(batch_app, ["submit", str(path)]).output
    assert cli.invoke(batch_app, ["collect", str(path)], env={"COLUMNS": "200"}).exit_code == 0

    review = cli.invoke(batch_app, ["submit", str(path)], env={"COLUMNS": "200"})
    assert review.exit_code == 0, review.output
    submitted = int(re.search(r"review stage, (1(?= call )|\d+(?= calls )) calls? submitted", review.output)[1])
    collected = cli.invoke(batch_app, ["collect", str(path)], env={"COLUMNS": "200"})
    assert f"ok: {submitted}" in collected.output

    config, base = load_study(path)
    runner = StudyRunner(config, base)
    summary = asyncio.run(runner.run())
    statuses = [r["status"] for r in runner.store.rows("SELECT status FROM assessments")]
    inputs = {r[0] for r in runner.store.rows("SELECT input_hash FROM assessments")}
    batch_costs = runner.store.rows(
        "SELECT COUNT(*), SUM(cost_usd) FROM model_calls WHERE params_json LIKE '%batch_id%'"
    )[0]
    runner.store.close()
    assert summary.model_calls == 0 and summary.units_run == 2 + 6
    assert statuses == ["ok"] * 6
    # one review call per distinct input text and replicate (a variant identical to its original
    # shares the original's calls)
    assert submitted == 2 * len(inputs)
    assert batch_costs[0] > submitted and batch_costs[1] > 0
    assert fake_server.model_requests() == []  # not one live call


def test_submit_without_api_keys_names_them_and_fails(tmp_path, monkeypatch):
    if not PAPER.is_dir():
        pytest.fail(f"shared data not found at {PAPER}")
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    study = {
        "name": "batch-no-keys",
        "output_dir": str(tmp_path / "run"),
        "documents": [str(PAPER)],
        "document_options": {"max_words": 150},
        "rewriters": [{"name": "w", "kind": "llm", "model": "openai/gpt-4.1-mini", "conditions": ["confidence:+"]}],
        "reviewers": [{"name": "r", "model": "anthropic/claude-sonnet-4-5"}],
        "validation": {"enabled": False},
    }
    path = tmp_path / "study.yaml"
    path.write_text(yaml.safe_dump(study))
    result = CliRunner().invoke(batch_app, ["submit", str(path)], env={"COLUMNS": "300"})
    assert result.exit_code == 1, result.output
    assert "Nothing to submit" not in result.output
    lines = result.output.splitlines()
    assert any(line.startswith("error: w: provider 'openai' needs an API key in the environment variable "
                               "OPENAI_API_KEY") and line.endswith("none of its calls were submitted")
               for line in lines)
    assert any(line.startswith("error: r: provider 'anthropic' needs an API key in the environment variable "
                               "ANTHROPIC_API_KEY") for line in lines)
