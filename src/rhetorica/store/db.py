"""The study store: one SQLite file in WAL mode with numbered migrations.

One writer: a :class:`Store` is used from the runner's event-loop thread only. Each work unit is
committed in one transaction (its result row); each model call is logged when it is sent (status
``in_flight``, its reserved worst-case cost counted as spent) and updated when it returns (cache
row + outcome), so that a crash never loses a paid answer and never hides a call it cut off; the
next run marks such a call ``abandoned`` (:meth:`Store.abandon_in_flight`).

Creation is safe against concurrent openers: each migration runs in one ``BEGIN IMMEDIATE``
transaction that re-reads the schema version once it holds the write lock, so a second process
that opens a new store at the same moment waits and then finds the schema already there.
:meth:`Store.open_readonly` reads a store without writing anything (``rhetorica status``).
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import Any

from rhetorica.store.batches import BatchTables
from rhetorica.store.rows import AssessmentRow, assessment_row, table_row

STORE_FILENAME = "store.sqlite"
BUSY_TIMEOUT_S = 60.0
"""Seconds a connection waits for another process's write lock (a concurrent creator) before failing."""

#: ``model_calls.status`` of a call that was sent and has not returned (yet, or ever).
CALL_IN_FLIGHT = "in_flight"

#: ``model_calls.status`` of a call left in flight by a process that no longer runs the study: its
#: answer never came back; it counts at its input cost (``input_usd``), the provider may bill more.
CALL_ABANDONED = "abandoned"

#: ``model_calls.status`` of an abandoned call released by ``rhetorica calls release``: cost 0.
CALL_RELEASED = "released"

#: The columns of ``model_calls`` a call-log row may set (``call_id`` and ``finished_at`` are the
#: store's own).
CALL_COLUMNS = frozenset(
    {"unit_key", "cache_key", "provider", "model", "status", "finish_reason", "error", "input_tokens",
     "output_tokens", "cached_tokens", "reasoning_tokens", "cost_usd", "reserved_usd", "input_usd", "latency_s",
     "cache_hit", "params_json", "probe", "attempt", "usage_unreported"}
)


class StoreError(Exception):
    """The store file is unreadable or from a newer rhetorica."""


class StoreLockedError(StoreError):
    """Another process holds a lock on the store that keeps readers out (an exclusive lock)."""

    def __init__(self, path: Path) -> None:
        super().__init__(f"{path.parent}: {path.name} is locked by another process (a study writing to it?); "
                         "try again when it finishes")


def _migrations() -> list[tuple[int, str]]:
    folder = resources.files("rhetorica.store") / "migrations"
    found = []
    for entry in folder.iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:4].isdigit():
            found.append((int(name[:4]), entry.read_text(encoding="utf-8")))
    return sorted(found)


class Store(BatchTables):
    """SQLite store of one study run directory.

    Args:
        path: the SQLite file (created with parent folders if missing).

    Raises:
        StoreError: if the file is not a rhetorica store or has a newer schema than this version.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.conn = sqlite3.connect(self.path, isolation_level=None, timeout=BUSY_TIMEOUT_S)
        self.conn.row_factory = sqlite3.Row
        try:
            self._set_wal()
            self.conn.execute("PRAGMA synchronous=NORMAL")
            self.conn.execute("PRAGMA foreign_keys=ON")
            self._migrate()
            self._check_tables()
        except sqlite3.DatabaseError as exc:
            self.conn.close()
            raise StoreError(f"{self.path}: not a readable rhetorica store ({exc})") from exc
        except StoreError:
            self.conn.close()
            raise

    def _set_wal(self) -> None:
        """Switch to WAL. A concurrent creator can hold the lock this needs for a moment, and SQLite
        does not always apply its busy handler to this pragma (seen as "database is locked" with 4
        processes creating one store on a loaded machine), so retry until the busy timeout."""
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        while True:
            try:
                self.conn.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    @classmethod
    def in_dir(cls, run_dir: str | Path) -> Store:
        """Open (or create) the store of ``run_dir``."""
        return cls(Path(run_dir) / STORE_FILENAME)

    @classmethod
    def open_readonly(cls, path: str | Path, *, busy_timeout_s: float = BUSY_TIMEOUT_S) -> Store:
        """Open an existing store for reading only: no file, folder or migration is written.

        While a run holds the store open (its ``-wal`` file exists) the connection reads through
        SQLite's read-only mode; otherwise the file is opened as immutable, which makes SQLite
        create no ``-wal``/``-shm`` files beside it. A run writing in WAL mode never blocks it;
        only a lock that keeps readers out does, for at most ``busy_timeout_s`` seconds.

        Raises:
            FileNotFoundError: if ``path`` does not exist.
            StoreLockedError: another process still holds a lock that keeps readers out after
                ``busy_timeout_s`` seconds.
            StoreError: if it is not a rhetorica store (not SQLite, or SQLite without rhetorica's
                schema version) or is newer than this rhetorica.
        """
        path = Path(path).resolve()
        if not path.is_file():
            raise FileNotFoundError(f"{path}: no store here")
        mode = "mode=ro" if Path(f"{path}-wal").exists() else "immutable=1"
        conn = sqlite3.connect(f"{path.as_uri()}?{mode}", uri=True, isolation_level=None, timeout=busy_timeout_s)
        store = cls.__new__(cls)  # no folder, no WAL switch, no migration
        store.path, store.conn = path, conn
        conn.row_factory = sqlite3.Row
        try:
            version, latest = store.schema_version, _latest_version()
            store.conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        except sqlite3.DatabaseError as exc:
            conn.close()
            if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
                raise StoreLockedError(path) from exc
            raise StoreError(f"{path}: not a readable rhetorica store ({exc})") from exc
        if version == 0:  # an empty file or another program's SQLite database: no migration ever ran
            conn.close()
            raise StoreError(f"{path}: not a rhetorica store (an SQLite file without rhetorica's schema)")
        if version > latest:
            conn.close()
            raise StoreError(f"{path}: schema version {version} is newer than this rhetorica ({latest}); "
                             "upgrade rhetorica")
        try:
            store._check_tables()
        except StoreError:
            conn.close()
            raise
        return store

    def _check_tables(self) -> None:
        """Refuse a store that lacks a table its schema version has (:func:`_expected_tables`): every
        query of that table would fail later, in the middle of a command.

        Raises:
            StoreError: ``<path>: not a readable rhetorica store: table <name> missing``.
        """
        present = {row[0] for row in self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        missing = [name for name in _expected_tables(self.schema_version) if name not in present]
        if missing:
            raise StoreError(f"{self.path}: not a readable rhetorica store: "
                             f"table{'s' if len(missing) > 1 else ''} {', '.join(missing)} missing")

    def has_table(self, name: str) -> bool:
        """Whether the store has table ``name`` (a store of an older schema, opened read-only, may not)."""
        row = self.conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)).fetchone()
        return row is not None

    def has_column(self, table: str, column: str) -> bool:
        """Whether ``table`` has ``column`` (a store of an older schema, opened read-only, may not)."""
        return any(r[1] == column for r in self.conn.execute(f"PRAGMA table_info({table})"))

    def close(self) -> None:
        self.conn.close()

    @property
    def schema_version(self) -> int:
        return int(self.conn.execute("PRAGMA user_version").fetchone()[0])

    def _check_version(self, current: int) -> None:
        latest = _latest_version()
        if current > latest:
            raise StoreError(
                f"{self.path}: schema version {current} is newer than this rhetorica ({latest}); upgrade rhetorica"
            )

    def _migrate(self) -> None:
        """Apply the pending migrations, each in one write transaction.

        The version is read again inside each transaction, after the write lock is held: when
        another process created or upgraded the store meanwhile, its migrations are not applied
        twice (which failed with "table documents already exists").
        """
        self._check_version(self.schema_version)
        for version, sql in _migrations():
            if version <= self.schema_version:
                continue
            with self.transaction():
                current = self.schema_version
                self._check_version(current)
                if version <= current:
                    continue  # a concurrent process applied it while this one waited for the lock
                for statement in _split_sql(sql):
                    self.conn.execute(statement)
                self.conn.execute(f"PRAGMA user_version = {version}")

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT`` (``ROLLBACK`` on any exception)."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    # -- generic helpers -------------------------------------------------------------------------
    def insert(self, table: str, row: dict[str, Any]) -> None:
        """Insert ``row`` into ``table`` in its own transaction (a unit result); a table with a typed
        row (:data:`rhetorica.store.rows.ROW_MODELS`) gets it validated first.

        Raises:
            ValueError: ``row`` is not a valid row of ``table`` (nothing is written).
        """
        row = table_row(table, row)
        columns = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        with self.transaction():
            self.conn.execute(f"INSERT OR REPLACE INTO {table} ({columns}) VALUES ({marks})", list(row.values()))

    def save_variant(self, row: dict[str, Any], artefacts: Mapping[str, Any]) -> None:
        """Store one rewrite result (a row of ``variants``) and its artefacts (name -> JSON-able
        value, e.g. the guided workflow's ``intermediate_review``) in one transaction, replacing a
        stored row of the same ``unit_key`` and its artefacts.

        Raises:
            ValueError: ``row`` is not a valid :class:`~rhetorica.store.rows.VariantRow`.
        """
        row = table_row("variants", row)
        columns, marks = ", ".join(row), ", ".join("?" for _ in row)
        with self.transaction():
            self.conn.execute(f"INSERT OR REPLACE INTO variants ({columns}) VALUES ({marks})", list(row.values()))
            self.conn.execute("DELETE FROM artefacts WHERE unit_key = ?", (row["unit_key"],))
            self.conn.executemany("INSERT INTO artefacts (unit_key, name, value_json) VALUES (?, ?, ?)",
                                  [(row["unit_key"], name, json.dumps(value, sort_keys=True))
                                   for name, value in artefacts.items()])

    def save_guided_review(self, row: dict[str, Any], taken_from: tuple[str, str] | None = None) -> None:
        """Store one guided review (a row of ``guided_reviews``) in one transaction; ``taken_from``
        ``(unit_key, name)``: the artefact it was taken over from (an older store's review kept
        inside its guided rewrite unit), removed in the same transaction (the row holds it now).

        Raises:
            ValueError: ``row`` is not a valid :class:`~rhetorica.store.rows.GuidedReviewRow`.
        """
        row = table_row("guided_reviews", row)
        columns, marks = ", ".join(row), ", ".join("?" for _ in row)
        with self.transaction():
            self.conn.execute(f"INSERT OR REPLACE INTO guided_reviews ({columns}) VALUES ({marks})", list(row.values()))
            if taken_from is not None:
                self.conn.execute("DELETE FROM artefacts WHERE unit_key = ? AND name = ?", taken_from)

    def replace_check(self, row: dict[str, Any]) -> None:
        """Store a validation result as the one current check of its variant (older ones, made
        under other thresholds, are removed in the same transaction).

        Raises:
            ValueError: ``row`` is not a valid :class:`~rhetorica.store.rows.CheckRow`.
        """
        row = table_row("checks", row)
        columns = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        with self.transaction():
            self.conn.execute("DELETE FROM checks WHERE variant_key = ?", (row["variant_key"],))
            self.conn.execute(f"INSERT INTO checks ({columns}) VALUES ({marks})", list(row.values()))

    def record_scan(self, row: dict[str, Any]) -> None:
        """Store one scan result (a row of ``scans``, keyed by ``scan_key``) in its own transaction."""
        self.insert("scans", row)

    def cached_scan(self, cache_key: str) -> str | None:
        """The stored scan report (JSON) under ``cache_key`` in ``scan_cache``, ``None`` when there is none."""
        row = self.conn.execute("SELECT report_json FROM scan_cache WHERE cache_key = ?", (cache_key,)).fetchone()
        return None if row is None else str(row[0])

    def cache_scan(self, cache_key: str, scanner_version: str, report_json: str) -> None:
        """Store one scan report (JSON) under ``cache_key`` in its own transaction (kept when already there)."""
        with self.transaction() as conn:
            conn.execute("INSERT OR IGNORE INTO scan_cache (cache_key, scanner_version, report_json) VALUES (?, ?, ?)",
                         (cache_key, scanner_version, report_json))

    def scan_rows(self) -> list[dict[str, Any]]:
        """Every stored scan result, ordered by document, condition and rewriter (empty list when none)."""
        return [dict(r) for r in self.conn.execute(
            "SELECT * FROM scans ORDER BY document_id, condition, rewriter, scanner_version")]

    def existing_keys(self, table: str) -> set[str]:
        """All ``unit_key`` values present in ``table``."""
        return {r[0] for r in self.conn.execute(f"SELECT unit_key FROM {table}")}

    def rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        return list(self.conn.execute(sql, params))

    # -- assessments and their scores ------------------------------------------------------------
    def save_assessment(self, row: AssessmentRow | dict[str, Any], scores: Mapping[str, float],
                        artefacts: Mapping[str, Any] | None = None) -> None:
        """Store one assessment (a row of ``assessments``), its scores and its artefacts in one
        transaction.

        A stored assessment with the same ``unit_key`` is replaced, its old scores and artefacts
        with it.

        Args:
            row: the ``assessments`` row, an :class:`~rhetorica.store.rows.AssessmentRow` or a
                mapping validated as one (``form`` as ``name@version``).
            scores: metric name -> value, already validated against the form (empty for a failed
                assessment: missing stays missing).
            artefacts: name -> JSON-able value (:attr:`rhetorica.evaluation.Evaluation.artefacts`;
                stored for failed assessments too: a core that failed its checks is evidence).

        Raises:
            ValueError: ``row`` is not a valid :class:`~rhetorica.store.rows.AssessmentRow`.
        """
        row = assessment_row(row)
        with self.transaction():
            write_assessment(self.conn, row, scores)
            self.conn.execute("DELETE FROM artefacts WHERE unit_key = ?", (row.unit_key,))
            self.conn.executemany("INSERT INTO artefacts (unit_key, name, value_json) VALUES (?, ?, ?)",
                                  [(row.unit_key, name, json.dumps(value, sort_keys=True))
                                   for name, value in (artefacts or {}).items()])

    def extract_row(self, unit_key: str) -> dict[str, Any] | None:
        """The stored ``extracts`` row of ``unit_key`` (any status), or ``None``."""
        row = self.conn.execute("SELECT * FROM extracts WHERE unit_key = ?", (unit_key,)).fetchone()
        return dict(row) if row is not None else None

    def artefact_rows(self) -> list[tuple[str, str, str]]:
        """Every stored artefact as ``(unit_key, name, value_json)``, ordered by unit and name."""
        return [tuple(r) for r in self.conn.execute(
            "SELECT unit_key, name, value_json FROM artefacts ORDER BY unit_key, name")]

    def artefact(self, unit_key: str, name: str) -> Any:
        """The stored artefact ``name`` of ``unit_key`` (its JSON value decoded), or ``None``."""
        row = self.conn.execute("SELECT value_json FROM artefacts WHERE unit_key = ? AND name = ?",
                                (unit_key, name)).fetchone()
        return None if row is None else json.loads(row[0])

    def save_annotation(self, row: dict[str, Any], mentions: list[tuple[str, str, str]]) -> None:
        """Store one annotation (a row of ``annotations``) and its verified mentions
        ``(aspect, polarity, phrase)`` in one transaction, replacing a stored one of the same key."""
        with self.transaction():
            columns, marks = ", ".join(row), ", ".join("?" for _ in row)
            self.conn.execute("DELETE FROM mentions WHERE unit_key = ?", (row["unit_key"],))
            self.conn.execute(f"INSERT OR REPLACE INTO annotations ({columns}) VALUES ({marks})", list(row.values()))
            self.conn.executemany(
                "INSERT INTO mentions (unit_key, position, aspect, polarity, phrase) VALUES (?, ?, ?, ?, ?)",
                [(row["unit_key"], i, *m) for i, m in enumerate(mentions)])

    def annotation_rows(self) -> list[dict[str, Any]]:
        """Every stored annotation (all columns but ``raw_text``), ordered by assessment."""
        return [dict(r) for r in self.conn.execute(
            "SELECT unit_key, assessment_key, annotator, taxonomy, status, reason, n_mentions, n_unverified, "
            "n_rejected FROM annotations ORDER BY assessment_key, unit_key")]

    def mention_rows(self) -> list[dict[str, Any]]:
        """Every verified mention with its annotation's assessment key, in stored order."""
        return [dict(r) for r in self.conn.execute(
            "SELECT m.unit_key, a.assessment_key, m.position, m.aspect, m.polarity, m.phrase FROM mentions m "
            "JOIN annotations a ON a.unit_key = m.unit_key ORDER BY a.assessment_key, m.unit_key, m.position")]

    def assessment_rows(self) -> list[dict[str, Any]]:
        """Every stored assessment with its document's mean human score, title and the passed flag of
        its variant's check, ordered by reviewer, document, condition, rewriter, replicate.

        Keys: :data:`ASSESSMENT_READ_COLUMNS`, in that order (``form`` is ``None`` in a store older
        than schema version 6 and for imported rows without one).
        """
        joined = {"form": "a.form" if self.has_column("assessments", "form") else "NULL AS form",
                  "human_score": "d.human_score", "variant_passed": "c.passed AS variant_passed", "title": "d.title"}
        select = ", ".join(joined.get(column, f"a.{column}") for column in ASSESSMENT_READ_COLUMNS)
        return [dict(r) for r in self.conn.execute(
            f"""SELECT {select}
                FROM assessments a LEFT JOIN documents d ON d.document_id = a.document_id
                LEFT JOIN checks c ON c.variant_key = a.variant_key
                ORDER BY a.reviewer, a.document_id, a.condition, a.rewriter, a.replicate""")]

    def score_rows(self) -> list[tuple[str, str, float]]:
        """Every stored score as ``(unit_key, metric, value)``, ordered by unit key and metric.

        A store older than schema version 6 (opened read-only, so not migrated) holds its scores in
        the six columns of version 1; they are read as the same long rows.
        """
        if self.has_table("scores"):
            sql = "SELECT unit_key, metric, value FROM scores"
        else:
            sql = " UNION ALL ".join(
                f"SELECT unit_key, '{m}' AS metric, {m} AS value FROM assessments WHERE {m} IS NOT NULL"
                for m in _VERSION_1_SCORES)
        return [(r[0], r[1], float(r[2])) for r in self.conn.execute(f"SELECT * FROM ({sql}) ORDER BY 1, 2")]

    # -- model-call log and response cache: plain rows (the model-layer adapter that turns model
    # outputs into these rows is rhetorica.models.store_log.StoreCallLog) -------------------------
    def cached_output(self, key: str) -> str | None:
        """The output JSON cached under the response-cache key ``key``, or ``None``."""
        row = self.conn.execute("SELECT output_json FROM response_cache WHERE cache_key = ?", (key,)).fetchone()
        return str(row[0]) if row else None

    def cache_output(self, key: str, provider: str, model: str, output_json: str) -> None:
        """Store ``output_json`` under ``key`` (committed at once: a paid answer is never lost;
        a second answer under the same key replaces the first)."""
        with self.transaction():
            self._put_output(key, provider, model, output_json)

    def _put_output(self, key: str, provider: str, model: str, output_json: str) -> None:
        self.conn.execute(
            "INSERT OR REPLACE INTO response_cache (cache_key, provider, model, output_json) VALUES (?, ?, ?, ?)",
            (key, provider, model, output_json),
        )

    def record_call(self, row: dict[str, Any]) -> None:
        """Append one finished row to ``model_calls`` (``finished_at`` = now).

        Args:
            row: column -> value; columns from :data:`CALL_COLUMNS` (the others keep their defaults).

        Raises:
            ValueError: ``row`` names a column ``model_calls`` does not have.
        """
        columns = _call_columns(row)
        marks = ", ".join("?" for _ in columns)
        with self.transaction():
            self.conn.execute(
                f"INSERT INTO model_calls ({', '.join(columns)}, finished_at) VALUES ({marks}, datetime('now'))",
                [row[c] for c in columns],
            )

    def begin_call(self, row: dict[str, Any]) -> int:
        """Log a call as it is sent: ``row`` (columns of :data:`CALL_COLUMNS`) with status
        :data:`CALL_IN_FLIGHT` and ``cost_usd`` = ``reserved_usd`` (its worst-case cost, >= 0)
        until it returns; committed at once. Returns the row id for :meth:`finish_call`.

        Raises:
            ValueError: ``row`` names an unknown column.
        """
        row = row | {"status": CALL_IN_FLIGHT, "cost_usd": row.get("reserved_usd", 0.0)}
        columns = _call_columns(row)
        marks = ", ".join("?" for _ in columns)
        with self.transaction():
            cur = self.conn.execute(f"INSERT INTO model_calls ({', '.join(columns)}) VALUES ({marks})",
                                    [row[c] for c in columns])
            return int(cur.lastrowid or 0)

    def finish_call(self, call_id: int, row: dict[str, Any],
                    cache: tuple[str, str, str, str] | None = None) -> None:
        """Replace the in-flight row ``call_id`` by the call's outcome (``row``: columns of
        :data:`CALL_COLUMNS`; ``finished_at`` = now); committed at once.

        Args:
            cache: ``(key, provider, model, output_json)`` of the answer to keep in the response cache
                as :meth:`cache_output` does, in the same transaction (the paid answer and its
                outcome are committed together); ``None``: nothing cached.

        Raises:
            ValueError: ``row`` names an unknown column.
        """
        columns = _call_columns(row)
        assignments = ", ".join(f"{c} = ?" for c in columns)
        with self.transaction():
            if cache is not None:
                self._put_output(*cache)
            self.conn.execute(
                f"UPDATE model_calls SET {assignments}, finished_at = datetime('now') WHERE call_id = ?",
                [*(row[c] for c in columns), call_id],
            )

    # -- reviewer inputs (rhetorica.documents.inputs): what each unit's evaluator read ------------
    def record_input(self, unit_key: str, row: dict[str, Any]) -> None:
        """Keep one input a unit sends (committed at once, like the call log): ``row`` has
        ``role``, ``input_hash``, ``text``, ``removed_json`` and ``truncated``; a text already kept
        is linked, not stored again."""
        with self.transaction():
            self.conn.execute("INSERT OR IGNORE INTO reviewer_inputs (input_hash, text, removed_json, truncated) "
                              "VALUES (?, ?, ?, ?)",
                              (row["input_hash"], row["text"], row["removed_json"], int(row["truncated"])))
            self.conn.execute("INSERT OR IGNORE INTO unit_inputs (unit_key, role, input_hash) VALUES (?, ?, ?)",
                              (unit_key, row["role"], row["input_hash"]))

    def link_input(self, unit_key: str, role: str, input_hash: str) -> None:
        """Record that unit ``unit_key`` sent the input ``input_hash`` as ``role``, a text already
        kept by :meth:`record_input` (committed at once)."""
        with self.transaction():
            self.conn.execute("INSERT OR IGNORE INTO unit_inputs (unit_key, role, input_hash) VALUES (?, ?, ?)",
                              (unit_key, role, input_hash))

    def input_rows(self) -> list[dict[str, Any]]:
        """Every kept input with the units that read it: ``unit_key``, ``role``, ``input_hash``,
        ``text``, ``removed_json``, ``truncated``; by unit, then role."""
        sql = ("SELECT u.unit_key, u.role, u.input_hash, i.text, i.removed_json, i.truncated FROM unit_inputs u "
               "JOIN reviewer_inputs i ON i.input_hash = u.input_hash ORDER BY u.unit_key, u.role")
        return [dict(r) for r in self.conn.execute(sql)]

    def spent_usd(self) -> float:
        """Money spent on model calls so far (US dollars): actual costs of finished calls, the
        reserved worst-case cost of calls still ``in_flight`` (being sent now, or left by a killed
        run not resumed yet) and the input cost of abandoned calls."""
        return float(self.conn.execute("SELECT COALESCE(SUM(cost_usd), 0) FROM model_calls").fetchone()[0])

    def unit_cost_usd(self, unit_key: str) -> float:
        """Money spent on the model calls of one unit (US dollars, counted as :meth:`spent_usd`
        counts them; calls of earlier runs of the unit included)."""
        return float(self.conn.execute("SELECT COALESCE(SUM(cost_usd), 0) FROM model_calls WHERE unit_key = ?",
                                       (unit_key,)).fetchone()[0])

    def calls_in_flight(self) -> int:
        """Calls logged as sent whose outcome never came back (a run killed mid-call)."""
        return int(self.conn.execute("SELECT COUNT(*) FROM model_calls WHERE status = ?",
                                     (CALL_IN_FLIGHT,)).fetchone()[0])

    def abandon_in_flight(self) -> int:
        """Mark every call still ``in_flight`` as :data:`CALL_ABANDONED`, counted at its input cost.

        Only for the process that holds the run lock, before it sends anything: every such row was
        left by a process that ended without the answer. Returns how many rows changed.
        """
        with self.transaction():
            cur = self.conn.execute(
                "UPDATE model_calls SET status = ?, cost_usd = input_usd, finished_at = datetime('now'), "
                "error = 'abandoned: the process that sent it ended before the answer came back; the provider may "
                "still bill it' WHERE status = ?", (CALL_ABANDONED, CALL_IN_FLIGHT))
            return int(cur.rowcount)

    def abandoned_calls(self, *, include_in_flight: bool = False) -> tuple[int, float, float]:
        """``(calls, reserved USD, counted USD)`` of the abandoned calls: how many, their reserved
        worst-case cost, and what the budget counts for them (their input cost).

        Args:
            include_in_flight: also count rows still ``in_flight`` as abandoned, at their input cost
                (a reader that knows no process runs the study).
        """
        statuses = (CALL_ABANDONED, CALL_IN_FLIGHT) if include_in_flight else (CALL_ABANDONED,)
        marks = ", ".join("?" for _ in statuses)
        counted = "input_usd" if self.has_column("model_calls", "input_usd") else "0"  # before version 8
        reserved = "reserved_usd" if self.has_column("model_calls", "reserved_usd") else "0"  # before version 3
        row = self.conn.execute(
            f"SELECT COUNT(*), COALESCE(SUM({reserved}), 0), COALESCE(SUM({counted}), 0) FROM model_calls "
            f"WHERE status IN ({marks})", statuses).fetchone()
        return int(row[0]), float(row[1]), float(row[2])

    def release_abandoned(self) -> tuple[int, float]:
        """Set every abandoned call to :data:`CALL_RELEASED` with cost 0 (its charge is no longer
        counted in the budget); returns ``(calls, USD no longer counted)``."""
        with self.transaction():
            count, _, counted = self.abandoned_calls()
            self.conn.execute("UPDATE model_calls SET status = ?, cost_usd = 0 WHERE status = ?",
                              (CALL_RELEASED, CALL_ABANDONED))
        return count, counted

    # -- endpoint events: circuit-breaker pauses and resumes, probed prompt caches -----------------
    def record_endpoint_event(self, endpoint: str, event: str, detail: str) -> None:
        """Keep one event of ``endpoint``: a pause or resume of its circuit breaker (``event``:
        ``paused`` / ``resumed``; ``detail``: the sentence the run printed), or the prompt cache a run
        probed its server for (``prompt-cache``, :data:`rhetorica.study.scheduling.PROMPT_CACHE_EVENT`;
        ``endpoint``: the model's name; ``detail``: the cache's label); committed at once."""
        with self.transaction():
            self.conn.execute("INSERT INTO endpoint_events (endpoint, event, detail) VALUES (?, ?, ?)",
                              (endpoint, event, detail))

    def endpoint_events(self) -> list[tuple[str, str, str]]:
        """``(endpoint, event, detail)`` of every event kept (:meth:`record_endpoint_event`), oldest
        first (none before schema version 13)."""
        if not self.has_table("endpoint_events"):
            return []
        return [(str(r[0]), str(r[1]), str(r[2])) for r in self.conn.execute(
            "SELECT endpoint, event, detail FROM endpoint_events ORDER BY event_id")]

    # -- structured-output modes the endpoints accepted -------------------------------------------
    def accepted_mode(self, endpoint: str) -> str | None:
        """The structured-output mode ``endpoint`` accepted in an earlier call, or ``None``
        (also for a store older than schema version 8, opened read-only)."""
        if not self.has_table("structured_modes"):
            return None
        row = self.conn.execute("SELECT mode FROM structured_modes WHERE endpoint = ?", (endpoint,)).fetchone()
        return str(row[0]) if row else None

    def save_accepted_mode(self, endpoint: str, mode: str) -> None:
        """Record that ``endpoint`` accepted the structured-output ``mode`` (replacing an older one)."""
        with self.transaction():
            self.conn.execute("INSERT OR REPLACE INTO structured_modes (endpoint, mode) VALUES (?, ?)",
                              (endpoint, mode))

def _call_columns(row: dict[str, Any]) -> list[str]:
    """The columns of ``row`` in a fixed order, each checked against :data:`CALL_COLUMNS`."""
    unknown = sorted(set(row) - CALL_COLUMNS)
    if unknown:
        raise ValueError(f"model_calls has no column(s) {', '.join(unknown)}")
    return sorted(row)


#: Columns of :meth:`Store.assessment_rows`, in order: the stored row's (but its texts), its
#: document's mean human score and title, and its variant's check (``variant_passed``).
ASSESSMENT_READ_COLUMNS: tuple[str, ...] = (
    "unit_key", "document_id", "condition", "rewriter", "reviewer", "model", "protocol", "form", "replicate",
    "status", "reason", "input_truncated", "human_score", "variant_key", "variant_passed", "title")

#: The score columns of ``assessments`` before schema version 6 (moved to ``scores`` by 0006).
_VERSION_1_SCORES = ("overall", "soundness", "significance", "evidence", "clarity", "confidence")


def write_assessment(conn: sqlite3.Connection, row: AssessmentRow | dict[str, Any],
                     scores: Mapping[str, float]) -> None:
    """Write one assessment row and its long score rows inside the caller's open transaction
    (replacing a stored assessment with the same ``unit_key`` and its scores): the one writer of
    ``assessments``.

    Raises:
        ValueError: ``row`` is not a valid :class:`~rhetorica.store.rows.AssessmentRow`.
    """
    values = assessment_row(row).model_dump()
    columns = ", ".join(values)
    marks = ", ".join("?" for _ in values)
    conn.execute("DELETE FROM scores WHERE unit_key = ?", (values["unit_key"],))
    conn.execute(f"INSERT OR REPLACE INTO assessments ({columns}) VALUES ({marks})", list(values.values()))
    conn.executemany("INSERT INTO scores (unit_key, metric, value) VALUES (?, ?, ?)",
                     [(values["unit_key"], metric, float(value)) for metric, value in scores.items()])



_CREATE_TABLE = re.compile(r"^\s*CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)", re.I | re.M)


def _expected_tables(version: int) -> list[str]:
    """The tables the migrations up to ``version`` create, in their order (no migration drops one)."""
    return [name for number, sql in _migrations() if number <= version for name in _CREATE_TABLE.findall(sql)]


def _latest_version() -> int:
    migrations = _migrations()
    return migrations[-1][0] if migrations else 0


def _split_sql(sql: str) -> list[str]:
    """Split a migration file into statements (no semicolons inside literals in our migrations)."""
    lines = [line for line in sql.splitlines() if not line.strip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


def copy_store(source: Path, target: Path) -> None:
    """Copy the store file ``source`` (with its committed WAL content) to ``target`` (SQLite backup)."""
    src, dst = sqlite3.connect(source), sqlite3.connect(target)
    try:
        src.backup(dst)
    finally:
        src.close()
        dst.close()
