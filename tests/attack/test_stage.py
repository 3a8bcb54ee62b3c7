"""The attack stage in the unit graph: a search interrupted mid-way resumes without paying any call
twice, and ``rhetorica estimate`` bounds its calls from above."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from rhetorica.models.providers.mock import MockModel
from rhetorica.store.db import Store
from rhetorica.study.estimate import estimate_study
from tests.attack.test_kind import attack_spec, models, runner_for, stored
from tests.study.helpers import write_study

INTERRUPT_AT = 40  # model calls (proposals and search reviews) before the run is interrupted


def _spec(shared_data: Path, out: Path) -> dict:
    return attack_spec(shared_data, out, targets=["phrase"])


def test_a_search_interrupted_mid_way_resumes_with_no_call_paid_twice(shared_data, tmp_path, monkeypatch):
    reference = tmp_path / "reference" / "run"
    runner = runner_for(_spec(shared_data, reference), reference, models())
    asyncio.run(runner.run())
    runner.store.close()
    expected_records, expected_winners, _, _ = stored(reference)

    out = tmp_path / "interrupted" / "run"
    generate, seen = MockModel.generate, {"calls": 0}

    async def interrupting(self, messages, config):
        seen["calls"] += 1
        if seen["calls"] == INTERRUPT_AT:
            raise KeyboardInterrupt  # as Ctrl-C in the middle of a call
        return await generate(self, messages, config)

    monkeypatch.setattr(MockModel, "generate", interrupting)
    runner = runner_for(_spec(shared_data, out), out, models())
    with pytest.raises(KeyboardInterrupt):
        asyncio.run(runner.run())
    runner.store.close()
    monkeypatch.setattr(MockModel, "generate", generate)
    store = Store.open_readonly(out / "store.sqlite")
    try:
        searches_done = store.rows("SELECT COUNT(*) FROM variants")[0][0]
        answered = store.rows("SELECT COUNT(*) FROM model_calls WHERE status = 'ok'")[0][0]
    finally:
        store.close()
    assert searches_done < 3 and answered >= INTERRUPT_AT - 8  # interrupted inside the searches, answers kept

    runner = runner_for(_spec(shared_data, out), out, models())
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
    study = write_study(tmp_path / "study.yaml", _spec(shared_data, out))
    estimate = estimate_study(study)
    rows = {(r.stage, r.model): r.calls for r in estimate.rows}
    # per search: k*T = 9 proposals (the abstract: one chunk) and min(k*T*r + r, max_queries) =
    # min(30, 30) = 30 reviews by the target; 3 papers x 1 target x 1 direction
    assert rows[("attack", "mock/proposer")] == 27 and rows[("attack", "mock/phrase")] == 90
    # held-out: (3 originals + 3 winners) x 4 replicates per reviewer
    assert rows[("review", "mock/phrase")] == 24 and rows[("review", "mock/null")] == 24

    runner = runner_for(_spec(shared_data, out), out, models())
    asyncio.run(runner.run())
    runner.store.close()
    store = Store.open_readonly(out / "store.sqlite")
    try:
        made = {(r[0], r[1]): r[2] for r in store.rows(
            "SELECT CASE WHEN unit_key IN (SELECT unit_key FROM variants) THEN 'attack' ELSE 'review' END, "
            "model, COUNT(*) FROM model_calls GROUP BY 1, 2")}
    finally:
        store.close()
    assert made[("attack", "proposer")] <= 27 and made[("attack", "phrase")] <= 90
    assert made[("attack", "phrase")] == 3 * 24  # every search stopped at its rounds: 3 + 7 valid x 3 reviews
    assert made[("review", "phrase")] == 24 and made[("review", "null")] == 24
