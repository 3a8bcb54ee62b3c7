"""The attack stage in the unit graph: a search killed mid-way (SIGKILL inside a model call,
tests/attack/kill_driver.py) resumes without paying any call twice, and ``rhetorica estimate``
bounds its calls from above."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

from rhetorica.store.db import Store
from rhetorica.study.estimate import estimate_study
from tests.attack.test_kind import attack_spec, models, runner_for, stored
from tests.study.helpers import write_study

KILL_AT = 40  # the model call (proposals and search reviews) inside which the run is killed
REPO = Path(__file__).resolve().parents[2]


def kill_spec(shared_data: Path, out: Path) -> dict:
    """The study of these tests: the phrase reviewer as the only target (tests/attack/test_kind.py)."""
    return attack_spec(shared_data, out, targets=["phrase"])


def test_a_search_killed_mid_way_resumes_with_no_call_paid_twice(shared_data, tmp_path):
    reference = tmp_path / "reference" / "run"
    runner = runner_for(kill_spec(shared_data, reference), reference, models())
    asyncio.run(runner.run())
    runner.store.close()
    expected_records, expected_winners, _, _ = stored(reference)

    out = tmp_path / "killed" / "run"
    killed = subprocess.run([sys.executable, "-m", "tests.attack.kill_driver", str(out), str(KILL_AT)], cwd=REPO,
                            env=dict(os.environ), capture_output=True, text=True, timeout=300)
    assert killed.returncode == -signal.SIGKILL, killed.stderr[-2000:]
    store = Store.open_readonly(out / "store.sqlite")
    try:
        searches_done = store.rows("SELECT COUNT(*) FROM variants")[0][0]
        answered = store.rows("SELECT COUNT(*) FROM model_calls WHERE status = 'ok'")[0][0]
    finally:
        store.close()
    assert searches_done < 3 and answered >= KILL_AT - 8  # killed inside the searches, the answers kept

    runner = runner_for(kill_spec(shared_data, out), out, models())
    summary = asyncio.run(runner.run())
    runner.store.close()
    assert dict(summary.stage_statuses["attack"]) == {"ok": 3 - searches_done}
    records, winners, _, calls = stored(out)
    paid = [c["cache_key"] for c in calls if c["status"] == "ok" and not c["cache_hit"]]
    assert len(paid) == len(set(paid))  # no answer paid for twice across the two runs
    assert summary.cache_hits >= answered - 8
    by_document = lambda rs: {r["document"]: {k: v for k, v in r.items() if k != "cost_usd"} for r in rs}  # noqa: E731
    assert by_document(records) == by_document(expected_records)
    assert {d: w.content_hash for d, w in winners["attacker>phrase"].items()} == {
        d: w.content_hash for d, w in expected_winners["attacker>phrase"].items()}


def test_estimate_bounds_the_search_calls_from_above(shared_data, tmp_path):
    out = tmp_path / "run"
    study = write_study(tmp_path / "study.yaml", kill_spec(shared_data, out))
    estimate = estimate_study(study)
    rows = {(r.stage, r.model): r.calls for r in estimate.rows}
    # per search: k*T = 9 proposals (the abstract: one chunk), min(k*T*r + r, max_queries) =
    # min(30, 30) = 30 search reviews by the target and 4 re-reviews of the original (the study's
    # replicates); 3 papers x 1 target x 1 direction
    assert rows[("attack", "mock/proposer")] == 27 and rows[("attack", "mock/phrase")] == 3 * (30 + 4)
    # held-out: (3 originals + 3 winners) x 4 replicates per reviewer
    assert rows[("review", "mock/phrase")] == 24 and rows[("review", "mock/null")] == 24

    runner = runner_for(kill_spec(shared_data, out), out, models())
    asyncio.run(runner.run())
    runner.store.close()
    store = Store.open_readonly(out / "store.sqlite")
    try:
        made = {(r[0], r[1]): r[2] for r in store.rows(
            "SELECT CASE WHEN unit_key IN (SELECT unit_key FROM variants) THEN 'attack' ELSE 'review' END, "
            "model, COUNT(*) FROM model_calls GROUP BY 1, 2")}
    finally:
        store.close()
    assert made[("attack", "proposer")] <= 27 and made[("attack", "phrase")] <= 3 * (30 + 4)
    # every search stopped at its rounds: 3 + 7 valid x 3 reviews, then 4 re-reviews
    assert made[("attack", "phrase")] == 3 * (24 + 4)
    assert made[("review", "phrase")] == 24 and made[("review", "null")] == 24
