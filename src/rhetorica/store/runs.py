"""The run log and the queries over a store that the study package needs (no model types here).

- ``runs`` and ``problems``: one row per ``rhetorica run`` and the problems it met.
- ``documents``: the study's documents as stored by the runner.
- ``model_calls``: which unit each call of a capture run belonged to (``rhetorica batch``).
- ``checks``: the stored checks as a table (the report's validation section).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from rhetorica.store.db import Store

if TYPE_CHECKING:
    import pandas as pd


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
                         (run_id, stage, item, "error", reason))


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
    import pandas as pd

    return pd.read_sql_query(
        "SELECT unit_key, variant_key, document_id, condition, rewriter, passed, reasons_json, "
        "result_json FROM checks ORDER BY document_id, condition, rewriter",
        store.conn,
    )
