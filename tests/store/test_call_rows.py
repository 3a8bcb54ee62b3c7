"""The store's call log and response cache hold plain rows: what goes in comes back unchanged."""

from __future__ import annotations

import sqlite3

import pytest

from rhetorica.store.db import CALL_IN_FLIGHT, Store


def columns(store: Store, call_id: int) -> dict:
    conn = sqlite3.connect(store.path)
    conn.row_factory = sqlite3.Row
    try:
        return dict(conn.execute("SELECT * FROM model_calls WHERE call_id = ?", (call_id,)).fetchone())
    finally:
        conn.close()


def test_a_cached_output_comes_back_as_written(tmp_path):
    store = Store.in_dir(tmp_path)
    assert store.cached_output("k1") is None
    store.cache_output("k1", "mock", "m", '{"text": "a"}')
    store.cache_output("k1", "mock", "m", '{"text": "b"}')  # a second answer replaces the first
    assert store.cached_output("k1") == '{"text": "b"}'
    store.close()


def test_a_call_is_in_flight_with_its_reservation_until_finished(tmp_path):
    store = Store.in_dir(tmp_path)
    call_id = store.begin_call({"unit_key": "u1", "cache_key": "k1", "provider": "mock", "model": "m",
                                "reserved_usd": 0.25, "params_json": "{}"})
    row = columns(store, call_id)
    assert (row["status"], row["cost_usd"], row["reserved_usd"], row["finished_at"]) == (CALL_IN_FLIGHT, 0.25,
                                                                                          0.25, None)
    assert store.calls_in_flight() == 1 and store.spent_usd() == 0.25
    store.finish_call(call_id, {"status": "ok", "input_tokens": 12, "output_tokens": 3, "cost_usd": 0.01,
                                "latency_s": 0.5, "params_json": '{"seed": 1}'})
    row = columns(store, call_id)
    assert (row["status"], row["input_tokens"], row["output_tokens"], row["cost_usd"], row["reserved_usd"]) == (
        "ok", 12, 3, 0.01, 0.25)
    assert row["finished_at"] is not None and row["params_json"] == '{"seed": 1}'
    assert store.calls_in_flight() == 0 and store.spent_usd() == 0.01
    store.close()


def test_an_answer_cached_with_its_outcome_is_committed_with_it(tmp_path):
    store = Store.in_dir(tmp_path)
    begin = {"unit_key": "u1", "cache_key": "k1", "provider": "mock", "model": "m", "reserved_usd": 0.25,
             "params_json": "{}"}
    call_id = store.begin_call(begin)
    store.finish_call(call_id, {"status": "ok", "cost_usd": 0.01}, cache=("k1", "mock", "m", '{"text": "a"}'))
    assert store.cached_output("k1") == '{"text": "a"}'
    assert (columns(store, call_id)["status"], store.calls_in_flight()) == ("ok", 0)
    # one transaction: when the outcome cannot be written, the answer is not cached either
    second = store.begin_call(begin | {"cache_key": "k2"})
    with pytest.raises(sqlite3.Error):
        store.finish_call(second, {"status": "ok", "cost_usd": object()}, cache=("k2", "mock", "m", "{}"))
    assert store.cached_output("k2") is None and columns(store, second)["status"] == CALL_IN_FLIGHT
    store.close()


def test_a_finished_row_is_appended_whole(tmp_path):
    store = Store.in_dir(tmp_path)
    store.record_call({"unit_key": None, "cache_key": "k2", "provider": "mock", "model": "m", "status": "ok",
                       "cache_hit": 1, "params_json": "{}"})
    (row,) = store.rows("SELECT cache_key, status, cache_hit, cost_usd, finished_at IS NOT NULL FROM model_calls")
    assert tuple(row) == ("k2", "ok", 1, 0.0, 1)
    store.close()


@pytest.mark.parametrize("method", ["record_call", "begin_call"])
def test_an_unknown_column_is_refused(method, tmp_path):
    store = Store.in_dir(tmp_path)
    row = {"cache_key": "k", "provider": "mock", "model": "m", "status": "ok", "params_json": "{}",
           "status; DROP TABLE model_calls": 1}
    with pytest.raises(ValueError, match="model_calls has no column"):
        getattr(store, method)(row)
    assert store.rows("SELECT COUNT(*) FROM model_calls")[0][0] == 0
    store.close()


def test_unit_cost_sums_the_calls_of_one_unit_in_flight_at_their_reservation(tmp_path):
    store = Store.in_dir(tmp_path)
    for unit, key, cost in (("u1", "a", 0.01), ("u1", "b", 0.02), ("u2", "c", 0.5)):
        store.record_call({"unit_key": unit, "cache_key": key, "provider": "mock", "model": "m", "status": "ok",
                           "cost_usd": cost, "params_json": "{}"})
    store.begin_call({"unit_key": "u1", "cache_key": "d", "provider": "mock", "model": "m", "reserved_usd": 0.25,
                      "params_json": "{}"})
    assert store.unit_cost_usd("u1") == pytest.approx(0.01 + 0.02 + 0.25)
    assert store.unit_cost_usd("u2") == 0.5 and store.unit_cost_usd("none") == 0.0
    store.close()
