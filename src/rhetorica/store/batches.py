"""The batch tables (migration 0002): batches submitted to a provider's batch API, and the
response-cache key, unit and request of each of their requests.

Rows only: the model layer (:mod:`rhetorica.models.batch`) builds and reads them. A batch's state
goes ``submitted`` -> ``ended`` -> ``collected`` (or ``failed``); a request's ``status`` is ``NULL``
until its result is written.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from rhetorica.store.db import Store


def pending_batch_keys(store: Store) -> set[str]:
    """Cache keys of the requests waiting in a submitted, uncollected batch."""
    rows = store.rows(
        "SELECT r.cache_key FROM batch_requests r JOIN batches b ON b.batch_id = r.batch_id "
        "WHERE b.state = 'submitted' AND r.status IS NULL"
    )
    return {r[0] for r in rows}


def record_batch(
    store: Store, batch_id: str, provider: str, model_id: str, options_json: str,
    requests: Sequence[tuple[str, str | None, str]],
) -> None:
    """Store a submitted batch and its requests in one transaction.

    Args:
        batch_id: the provider's batch id.
        provider / model_id: what it was sent to (credentials already redacted by the caller).
        options_json: the provider options needed to rebuild the model (redacted JSON).
        requests: (cache key, unit key or ``None``, request JSON) per request.
    """
    with store.transaction() as conn:
        conn.execute(
            "INSERT INTO batches (batch_id, provider, model_id, options_json, state, requests) "
            "VALUES (?, ?, ?, ?, 'submitted', ?)",
            (batch_id, provider, model_id, options_json, len(requests)),
        )
        conn.executemany(
            "INSERT INTO batch_requests (batch_id, cache_key, unit_key, request_json) VALUES (?, ?, ?, ?)",
            [(batch_id, key, unit_key, request_json) for key, unit_key, request_json in requests],
        )


def open_batches(store: Store) -> list[sqlite3.Row]:
    """The batches not collected yet (``submitted`` or ``ended``), oldest first: rows of
    (batch_id, provider, model_id, options_json, requests)."""
    return store.rows(
        "SELECT batch_id, provider, model_id, options_json, requests FROM batches "
        "WHERE state IN ('submitted', 'ended') ORDER BY submitted_at, batch_id"
    )


def set_batch_state(store: Store, batch_id: str, state: str, *, detail: str | None = None,
                    collected_at: str | None = None) -> None:
    """Set a batch's state (``ended`` / ``failed`` with the provider's detail, ``collected`` with
    the ISO time of collection)."""
    with store.transaction() as conn:
        if state == "collected":
            conn.execute("UPDATE batches SET state = ?, collected_at = ? WHERE batch_id = ?",
                         (state, collected_at, batch_id))
        else:
            conn.execute("UPDATE batches SET state = ?, detail = ? WHERE batch_id = ?", (state, detail, batch_id))


def batch_requests(store: Store, batch_id: str) -> list[sqlite3.Row]:
    """The requests of a batch by cache key: rows of (cache_key, unit_key, request_json, status)."""
    return store.rows(
        "SELECT cache_key, unit_key, request_json, status FROM batch_requests WHERE batch_id = ? ORDER BY cache_key",
        (batch_id,),
    )


def set_request_status(store: Store, batch_id: str, cache_key: str, status: str) -> None:
    """Mark one request of a batch as written, with its outcome status."""
    with store.transaction() as conn:
        conn.execute("UPDATE batch_requests SET status = ? WHERE batch_id = ? AND cache_key = ?",
                     (status, batch_id, cache_key))


def call_logged_for_batch(store: Store, cache_key: str, batch_id: str) -> bool:
    """Whether the call log already holds the result of ``cache_key`` from batch ``batch_id``
    (its params JSON names the batch)."""
    pattern = f'%"batch_id": "{batch_id}"%'
    return bool(store.rows("SELECT 1 FROM model_calls WHERE cache_key = ? AND params_json LIKE ? LIMIT 1",
                           (cache_key, pattern)))
