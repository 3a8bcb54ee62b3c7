"""Recording results made elsewhere (an imported score file) as a run of the store.

An import is one run: its ``runs`` row, its assessments and its problems are written in one
transaction, so a failed import leaves no partial run. Imported assessments carry no model calls.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from rhetorica.store.db import Store, write_assessment
from rhetorica.store.rows import AssessmentRow, DocumentRow, assessment_row, table_row


def record_imported_run(
    store: Store,
    *,
    name: str,
    spec_hash: str,
    assessments: Sequence[tuple[AssessmentRow | dict[str, Any], Mapping[str, float]]],
    problems: Iterable[tuple[str, str]],
    stage: str = "import",
    documents: Sequence[DocumentRow | Mapping[str, Any]] = (),
) -> int:
    """Insert one imported run: a ``runs`` row, its documents, its assessments and its problems.

    Args:
        store: an open store.
        name: study name of the run.
        spec_hash: hash of what was imported (the run's spec).
        assessments: ``(row, scores)`` pairs: a row of the ``assessments`` table (an
            :class:`~rhetorica.store.rows.AssessmentRow`, or a mapping validated as one) and its
            scores (metric -> value; missing scores left out).
        problems: ``(item, reason)`` pairs stored with status ``malformed`` under ``stage``.
        stage: stage name of the problems.
        documents: rows of the ``documents`` table (one per assessed document id; a document
            already stored is replaced), so that the study flow counts the imported documents and
            the viewer's pages of a document resolve.

    Returns:
        The new run's ``run_id``.

    Raises:
        sqlite3.IntegrityError: if a ``unit_key`` is already in the store (nothing is written).
        ValueError: a row is not a valid :class:`~rhetorica.store.rows.AssessmentRow` or
            :class:`~rhetorica.store.rows.DocumentRow` (nothing is written).
    """
    typed = [table_row("documents", d if isinstance(d, DocumentRow) else dict(d)) for d in documents]
    now = datetime.now(UTC).isoformat(timespec="seconds")
    with store.transaction() as conn:
        run_id = conn.execute(
            "INSERT INTO runs (study_name, spec_hash, started_at, finished_at, units_run, model_calls, wall_time_s) "
            "VALUES (?, ?, ?, ?, ?, 0, 0)", (name, spec_hash, now, now, len(assessments))).lastrowid
        for row in typed:
            conn.execute(f"INSERT OR REPLACE INTO documents ({', '.join(row)}) VALUES ({', '.join('?' for _ in row)})",
                         list(row.values()))
        for given, scores in assessments:
            row = assessment_row(given)
            if conn.execute("SELECT 1 FROM assessments WHERE unit_key = ?", (row.unit_key,)).fetchone():
                raise sqlite3.IntegrityError(f"UNIQUE constraint failed: assessments.unit_key ({row.unit_key})")
            write_assessment(conn, row, scores)
        conn.executemany(
            "INSERT INTO problems (run_id, stage, item, status, reason) VALUES (?, ?, ?, 'malformed', ?)",
            [(run_id, stage, item, reason) for item, reason in problems])
    assert run_id is not None
    return int(run_id)
