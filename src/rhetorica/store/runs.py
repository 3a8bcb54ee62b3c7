"""The run directory's study file and store, the run log and the queries over a store that the
study package needs (no model types here).

- ``study.json`` (:data:`STUDY_FILE`): the study a run saved; the store opened read-only.
- ``runs`` and ``problems``: one row per ``rhetorica run`` and the problems it met.
- ``documents``: the study's documents as stored by the runner.
- ``model_calls``: which unit each call of a capture run belonged to (``rhetorica batch``).
- ``checks``: the stored checks as a table (the report's validation section).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rhetorica.problems import is_warning
from rhetorica.store.db import BUSY_TIMEOUT_S, STORE_FILENAME, Store
from rhetorica.files import read_text_file
import pandas as pd



STUDY_FILE = "study.json"


def read_run_study(run_dir: Path) -> dict[str, Any]:
    """The study a run saved in ``RUN_DIR/study.json`` as a dict (empty when there is none).

    Raises:
        ValueError: ``RUN_DIR/study.json: ...`` when it is unreadable, not UTF-8, not JSON or not
            a JSON object.
    """

    path = run_dir / STUDY_FILE
    if not path.exists():
        return {}
    try:
        study = json.loads(read_text_file(path, "run study file"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from exc
    if not isinstance(study, dict):
        raise ValueError(f"{path}: not a JSON object of study keys")
    return study


def open_run_store(run_dir: Path, *, busy_timeout_s: float = BUSY_TIMEOUT_S) -> Store:
    """The store of ``run_dir``, opened read-only (a report or check never creates or migrates one);
    ``busy_timeout_s``: how long to wait for a lock that keeps readers out
    (:meth:`rhetorica.store.db.Store.open_readonly`).

    Raises:
        FileNotFoundError: ``run_dir`` holds no store.
        rhetorica.store.db.StoreLockedError: another process locks the store against readers.
        rhetorica.store.db.StoreError: the file is not a rhetorica store, or is newer than this rhetorica.
    """
    if not (run_dir / STORE_FILENAME).is_file():
        raise FileNotFoundError(f"{run_dir}: no {STORE_FILENAME} here; is this a rhetorica run directory?")
    return Store.open_readonly(run_dir / STORE_FILENAME, busy_timeout_s=busy_timeout_s)


def open_run(store: Store, study_name: str, spec_hash: str) -> int:
    """Log the start of a run (UTC now); returns its ``run_id``."""
    with store.transaction() as conn:
        cur = conn.execute("INSERT INTO runs (study_name, spec_hash, started_at) VALUES (?, ?, ?)",
                           (study_name, spec_hash, datetime.now(UTC).isoformat()))
        return int(cur.lastrowid or 0)


def close_run(store: Store, run_id: int, *, units_run: int, model_calls: int, wall_time_s: float,
              problems: list[tuple[str, str, str]]) -> None:
    """Log the end of run ``run_id`` (UTC now) and its (stage, item, reason) problems, in one transaction."""
    with store.transaction() as conn:
        conn.execute("UPDATE runs SET finished_at = ?, units_run = ?, model_calls = ?, wall_time_s = ? "
                     "WHERE run_id = ?", (datetime.now(UTC).isoformat(), units_run, model_calls, wall_time_s, run_id))
        for stage, item, reason in problems:
            conn.execute("INSERT INTO problems (run_id, stage, item, status, reason) VALUES (?, ?, ?, ?, ?)",
                         (run_id, stage, item, "warning" if is_warning(reason) else "error", reason))


def document_jsons(store: Store) -> list[str]:
    """The stored documents' JSON, in insertion order."""
    return [r[0] for r in store.rows("SELECT document_json FROM documents")]


def last_call_id(store: Store) -> int:
    """The highest ``model_calls.call_id`` (0 when no call is logged)."""
    return int(store.rows("SELECT COALESCE(MAX(call_id), 0) FROM model_calls")[0][0])


def calls_since(store: Store, call_id: int) -> dict[str, str | None]:
    """Cache key -> unit key of the calls logged after ``call_id`` that were not cache hits."""
    rows = store.rows("SELECT cache_key, unit_key FROM model_calls WHERE cache_hit = 0 AND call_id > ?", (call_id,))
    return {r[0]: r[1] for r in rows}


def read_checks(store: Store) -> pd.DataFrame:
    """Every row of the ``checks`` table, ordered by document, condition and rewriter.

    Returns:
        DataFrame with ``unit_key, variant_key, document_id, condition, rewriter, passed,
        reasons_json, result_json`` (empty, with those columns, when none).
    """

    return pd.read_sql_query(
        "SELECT unit_key, variant_key, document_id, condition, rewriter, passed, reasons_json, "
        "result_json FROM checks ORDER BY document_id, condition, rewriter",
        store.conn,
    )


def run_wall_time(store: Store) -> float:
    """Wall-clock seconds summed over every logged run of the store (0.0 when none)."""
    return float(store.rows("SELECT COALESCE(SUM(wall_time_s), 0) FROM runs")[0][0])
