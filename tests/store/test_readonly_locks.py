"""Opening a store read-only beside another process: a WAL writer never blocks it; a lock that
keeps readers out is reported as a lock, at once, never as an unreadable store."""

from __future__ import annotations

from pathlib import Path

import pytest

from rhetorica.store.db import Store, StoreLockedError

from .holders import EXCLUSIVE, WRITING, holding

def _store(tmp_path: Path) -> Path:
    path = tmp_path / "store.sqlite"
    Store(path).close()
    return path


def test_an_exclusive_lock_is_a_lock_error_naming_the_store(tmp_path: Path) -> None:
    path = _store(tmp_path)
    with holding(path, EXCLUSIVE), pytest.raises(StoreLockedError) as caught:
        Store.open_readonly(path, busy_timeout_s=0.2)
    assert str(caught.value) == (f"{tmp_path.resolve()}: store.sqlite is locked by another process "
                                 "(a study writing to it?); try again when it finishes")
    assert "not a readable" not in str(caught.value)


def test_a_run_writing_in_wal_mode_does_not_block_a_reader(tmp_path: Path) -> None:
    path = _store(tmp_path)
    with holding(path, WRITING):
        store = Store.open_readonly(path, busy_timeout_s=0.2)
        try:
            assert store.schema_version >= 1 and not store.has_table("held")  # the uncommitted table is unseen
        finally:
            store.close()
