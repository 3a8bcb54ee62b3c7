"""The batch tables of a study store (``batches``, ``batch_requests``; migration 0002).

:class:`BatchTables` is a part of :class:`rhetorica.store.db.Store`; :mod:`rhetorica.models.batch`
uses it through its ``BatchStore`` protocol, so the model layer runs no SQL and imports nothing
from the store. States of a batch: ``submitted`` -> ``ended`` -> ``collected``, or ``failed``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any


class BatchTables:
    """The batch tables' queries (mixed into the store, which provides ``rows`` and ``transaction``)."""

    rows: Any
    transaction: Any

    def pending_batch_keys(self) -> set[str]:
        """Cache keys of requests waiting in a submitted batch (no result yet)."""
        rows = self.rows(
            "SELECT r.cache_key FROM batch_requests r JOIN batches b ON b.batch_id = r.batch_id "
            "WHERE b.state = 'submitted' AND r.status IS NULL")
        return {r[0] for r in rows}

    def add_batch(self, batch_id: str, provider: str, model_id: str, options_json: str,
                  requests: list[tuple[str, str | None, str]]) -> None:
        """Record a submitted batch and its (cache key, unit key, request JSON) requests in one transaction."""
        with self.transaction() as conn:
            conn.execute("INSERT INTO batches (batch_id, provider, model_id, options_json, state, requests) "
                         "VALUES (?, ?, ?, ?, 'submitted', ?)", (batch_id, provider, model_id, options_json, len(requests)))
            conn.executemany("INSERT INTO batch_requests (batch_id, cache_key, unit_key, request_json) VALUES (?, ?, ?, ?)",
                             [(batch_id, key, unit_key, request_json) for key, unit_key, request_json in requests])

    def open_batches(self) -> list[Any]:
        """(batch_id, provider, model_id, options_json, requests) of batches not collected or failed,
        oldest first."""
        return self.rows("SELECT batch_id, provider, model_id, options_json, requests FROM batches "
                          "WHERE state IN ('submitted', 'ended') ORDER BY submitted_at, batch_id")

    def set_batch_state(self, batch_id: str, state: str, detail: str | None = None) -> None:
        """Set a batch's state (``ended``, ``failed`` with the provider's ``detail``; ``collected`` stamps
        the UTC time)."""
        with self.transaction() as conn:
            if state == "collected":
                conn.execute("UPDATE batches SET state = 'collected', collected_at = ? WHERE batch_id = ?",
                             (datetime.now(UTC).isoformat(), batch_id))
            else:
                conn.execute("UPDATE batches SET state = ?, detail = ? WHERE batch_id = ?", (state, detail, batch_id))

    def batch_requests(self, batch_id: str) -> list[Any]:
        """(cache_key, unit_key, request_json, status) of a batch's requests, by cache key."""
        return self.rows("SELECT cache_key, unit_key, request_json, status FROM batch_requests WHERE batch_id = ? "
                          "ORDER BY cache_key", (batch_id,))

    def set_batch_request_status(self, batch_id: str, cache_key: str, status: str) -> None:
        """Record the status of one request's result."""
        with self.transaction() as conn:
            conn.execute("UPDATE batch_requests SET status = ? WHERE batch_id = ? AND cache_key = ?",
                         (status, batch_id, cache_key))

    def batch_call_logged(self, cache_key: str, batch_id: str) -> bool:
        """Whether the call log already holds the result of ``cache_key`` from ``batch_id``."""
        pattern = f'%"batch_id": "{batch_id}"%'
        return bool(self.rows("SELECT 1 FROM model_calls WHERE cache_key = ? AND params_json LIKE ? LIMIT 1",
                               (cache_key, pattern)))

    def batch_request_count(self, batch_id: str) -> int:
        """Requests recorded for ``batch_id``."""
        return int(self.rows("SELECT COUNT(*) FROM batch_requests WHERE batch_id = ?", (batch_id,))[0][0])
