"""Store creation and read-only opening: concurrent creators in real processes, nothing written by reads."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rhetorica.store.db import STORE_FILENAME, Store, StoreError

# Each process imports the store, then waits for the start file so that all of them open the new
# store at the same moment.
_OPENER = """
import sys, time
from pathlib import Path
from rhetorica.store.db import Store
start = Path(sys.argv[2])
while not start.exists():
    time.sleep(0.001)
store = Store(sys.argv[1])
store.insert("runs", {"study_name": sys.argv[3], "spec_hash": "h", "started_at": "t"})
store.close()
"""

LATEST = 14  # the newest migration: 0014_usage_unreported


def _files(folder: Path) -> dict[str, tuple[int, int]]:
    return {p.name: (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.iterdir()}


def test_concurrent_creators_of_a_new_store_all_succeed(tmp_path: Path) -> None:
    for trial in range(3):
        path, start = tmp_path / f"t{trial}" / STORE_FILENAME, tmp_path / f"go{trial}"
        procs = [subprocess.Popen([sys.executable, "-c", _OPENER, str(path), str(start), f"p{i}"],
                                  stderr=subprocess.PIPE, text=True) for i in range(4)]
        time.sleep(1.5)  # let every process finish importing and wait at the start line
        start.touch()
        for proc in procs:
            assert proc.wait(timeout=120) == 0, proc.stderr.read() if proc.stderr else ""
        store = Store(path)
        try:
            assert store.schema_version == LATEST
            names = sorted(r[0] for r in store.rows("SELECT study_name FROM runs"))
            assert names == ["p0", "p1", "p2", "p3"]  # every creator wrote into the same store
        finally:
            store.close()


def test_open_readonly_writes_nothing(tmp_path: Path) -> None:
    store = Store.in_dir(tmp_path)
    store.insert("runs", {"study_name": "s", "spec_hash": "h", "started_at": "t"})
    store.close()
    before = _files(tmp_path)
    assert set(before) == {STORE_FILENAME}  # the last close removed the WAL files
    ro = Store.open_readonly(tmp_path / STORE_FILENAME)
    try:
        assert [r[0] for r in ro.rows("SELECT study_name FROM runs")] == ["s"]
        with pytest.raises(Exception, match="readonly"):
            ro.conn.execute("DELETE FROM runs")
    finally:
        ro.close()
    assert _files(tmp_path) == before


def test_open_readonly_while_a_writer_is_open(tmp_path: Path) -> None:
    writer = Store.in_dir(tmp_path)
    writer.insert("runs", {"study_name": "live", "spec_hash": "h", "started_at": "t"})
    ro = Store.open_readonly(tmp_path / STORE_FILENAME)
    try:
        assert [r[0] for r in ro.rows("SELECT study_name FROM runs")] == ["live"]
    finally:
        ro.close()
        writer.close()


def test_open_readonly_refuses_a_missing_or_foreign_file(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no store here"):
        Store.open_readonly(tmp_path / STORE_FILENAME)
    assert not (tmp_path / STORE_FILENAME).exists()
    (tmp_path / "x.sqlite").write_text("not a database at all " * 100)
    with pytest.raises(StoreError, match="not a readable rhetorica store"):
        Store.open_readonly(tmp_path / "x.sqlite")
    assert os.listdir(tmp_path) == ["x.sqlite"]


#: every table of the latest schema, by hand from the migrations' CREATE TABLE statements
TABLES = ["documents", "variants", "checks", "assessments", "model_calls", "response_cache", "runs", "problems",
          "batches", "batch_requests", "scans", "plans", "plan_units", "scores", "artefacts", "annotations", "mentions",
          "extracts", "reviewer_inputs", "unit_inputs", "scan_cache", "structured_modes", "guided_reviews",
          "endpoint_events"]


def test_a_store_missing_any_one_table_is_refused_naming_it(tmp_path: Path) -> None:
    fresh = tmp_path / "fresh.sqlite"
    Store(fresh).close()
    with sqlite3.connect(fresh) as conn:  # the oracle: what SQLite holds
        held = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert set(TABLES) <= held and len(TABLES) == 24
    refused = 0
    for table in TABLES:
        path = tmp_path / f"no-{table}.sqlite"
        path.write_bytes(fresh.read_bytes())
        with sqlite3.connect(path) as conn:  # foreign keys off: a plain drop
            conn.execute(f"DROP TABLE {table}")
        conn.close()
        said = f"{path.resolve()}: not a readable rhetorica store: table {table} missing"
        with pytest.raises(StoreError) as readonly:
            Store.open_readonly(path)
        with pytest.raises(StoreError) as writable:
            Store(path)
        assert str(readonly.value) == said and str(writable.value) == said.replace(str(path.resolve()), str(path))
        refused += 1
    assert refused == 24
