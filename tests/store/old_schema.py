"""A store as an older rhetorica wrote it, for migration tests."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from rhetorica.store.db import _migrations, _split_sql


def store_at_version(path: Path, version: int) -> sqlite3.Connection:
    """A new store at ``path`` with migrations 0001..``version`` only and that schema version;
    returns its open connection (autocommit) for the test to insert old rows."""
    conn = sqlite3.connect(path, isolation_level=None)
    for number, sql in _migrations():
        if number <= version:
            for statement in _split_sql(sql):
                conn.execute(statement)
    conn.execute(f"PRAGMA user_version = {version}")
    return conn
