"""Calls a killed run left in flight become ``abandoned`` on resume (shown with their cost, counted
at their input cost, releasable), and a run stopped by the budget says so and exits 1."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rhetorica.cli.app import app
from tests.models.fake_servers import FakeServer
from tests.models.test_budget import PRICES
from tests.study.helpers import study_dict, write_study

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
RHETORICA = [sys.executable, "-c", "from rhetorica.cli.app import main; main()"]
MAX_TOKENS = 50  # at $0.001 per output token the reservation exceeds the input cost by exactly $0.05


@pytest.fixture
def prices(tmp_path, monkeypatch) -> Path:
    path = tmp_path / "prices.yaml"
    path.write_text(PRICES)  # openai-compatible/priced: $0.001 per token in and out
    monkeypatch.setenv("RHETORICA_PRICES", str(path))
    monkeypatch.setenv("COLUMNS", "200")
    return path


def priced_study(tmp_path: Path, url: str, **overrides) -> Path:
    # 2 documents x 2 reviewers x 1 replicate: four units that are each the first of their prompt, so
    # the cache-aware schedule (replicates 2..n wait for the first) sends all four at once
    spec = study_dict(DATA, tmp_path / "run", rewriters=[], replicates=1, concurrency=4, reviewers=[
        {"name": f"priced-{t}", "model": f"openai-compatible/priced@{url}/v1",
         "sampling": {"max_tokens": MAX_TOKENS, "temperature": t},
         "options": {"max_concurrency": 4, "structured_output": "json_schema"}} for t in (0.0, 1.0)], **overrides)
    spec["documents"] = spec["documents"][:2]
    return write_study(tmp_path / "study.yaml", spec)


def call_rows(run_dir: Path) -> list[tuple]:
    conn = sqlite3.connect(run_dir / "store.sqlite")
    try:
        return conn.execute("SELECT status, cost_usd, reserved_usd, input_usd FROM model_calls WHERE cache_hit = 0 "
                            "ORDER BY call_id").fetchall()
    finally:
        conn.close()


def test_calls_of_a_killed_run_are_abandoned_on_resume_and_can_be_released(prices, tmp_path):
    with FakeServer(latency_s=60.0) as server:
        study = priced_study(tmp_path, server.url)
        proc = subprocess.Popen([*RHETORICA, "run", str(study)], env=os.environ.copy(),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 120
            while len(server.model_requests()) < 4 and time.monotonic() < deadline:
                time.sleep(0.05)
            assert len(server.model_requests()) == 4, "the four calls never reached the server"
        finally:  # never leave the run behind, whatever the assertion says
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=10)
        killed = call_rows(tmp_path / "run")
        assert [r[0] for r in killed] == ["in_flight"] * 4
        assert all(cost == reserved for _, cost, reserved, _ in killed)  # counted at worst case until resumed

        status = CliRunner().invoke(app, ["status", str(study)])  # read-only: no run holds the lock
        assert "abandoned: 4 call(s)" in status.output, status.output

        server.latency_s = 0.0
        resumed = CliRunner().invoke(app, ["run", str(study)])
        assert resumed.exit_code == 0, resumed.output
    rows = call_rows(tmp_path / "run")
    abandoned = [r for r in rows if r[0] == "abandoned"]
    assert len(abandoned) == 4 and not [r for r in rows if r[0] == "in_flight"]
    for _, cost, reserved, input_usd in abandoned:
        assert input_usd > 0 and cost == pytest.approx(input_usd)  # the input tokens certainly sent
        assert reserved - input_usd == pytest.approx(MAX_TOKENS * 0.001)  # the unknown output: not counted
    reserved_total = sum(r[2] for r in abandoned)
    counted_total = sum(r[3] for r in abandoned)
    assert (f"abandoned: 4 call(s) of interrupted runs never came back (${reserved_total:.4f} reserved; "
            f"the budget counts ${counted_total:.4f}") in resumed.output
    assert "the provider may still bill them" in resumed.output

    released = CliRunner().invoke(app, ["calls", "release", str(tmp_path / "run")])
    assert released.exit_code == 0, released.output
    assert f"released 4 abandoned call(s): ${counted_total:.4f} no longer counted" in released.output
    after = call_rows(tmp_path / "run")
    assert [(s, c) for s, c, _, _ in after if s == "released"] == [("released", 0.0)] * 4
    again = CliRunner().invoke(app, ["calls", "release", str(tmp_path / "run")])
    assert "no abandoned calls to release" in again.output


def test_a_run_stopped_by_the_budget_says_so_and_exits_1(prices, tmp_path):
    with FakeServer() as server:
        # each call's worst case is above $0.05 (50 output tokens at $0.001): a $0.01 budget refuses the first
        study = priced_study(tmp_path, server.url, budget_usd=0.01)
        result = CliRunner().invoke(app, ["run", str(study)])
        assert server.model_requests() == []
    assert result.exit_code == 1, result.output
    assert "Stopped by the budget: budget_usd 0.01 reached" in result.output
    assert "4 unit(s) left pending, 0 ran" in result.output
    assert "Nothing to do" not in result.output
