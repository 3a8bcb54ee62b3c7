"""Migration 0012: a store written before variants recorded their stage opens, migrated or
read-only, and reads as before: every variant under ``rewrite``."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from rhetorica.store.db import Store
from rhetorica.store.export import variants_table
from tests.store.old_schema import store_at_version

OLD_VARIANTS = [
    # unit_key, condition, rewriter, status, reason
    ("v1", "confidence:+", "rules", "ok", None),
    ("v2", "attack:+", "attacker>phrase", "error", "no section in scope"),
    ("v3", "guided", "para", "discarded", "the rewrite changed nothing"),
]


def _old_store(path: Path) -> None:
    """A store as schema version 11 wrote it (migrations 0001-0011 only), with OLD_VARIANTS."""
    conn = store_at_version(path, 11)
    for key, condition, rewriter, status, reason in OLD_VARIANTS:
        conn.execute("INSERT INTO variants (unit_key, document_id, condition, rewriter, prompt_version, original_hash, "
                     "status, reason) VALUES (?, 'p1', ?, ?, 'v1', 'h', ?, ?)", (key, condition, rewriter, status, reason))
    conn.close()


def test_an_old_store_reads_every_variant_under_rewrite_before_and_after_migrating(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite"
    _old_store(path)
    readonly = Store.open_readonly(path)  # not migrated: no stage column
    try:
        assert readonly.schema_version == 11 and not readonly.has_column("variants", "stage")
        before = variants_table(readonly)
    finally:
        readonly.close()
    store = Store(path)
    try:
        assert store.schema_version == 14
        after = variants_table(store)
        store.save_variant({"unit_key": "v4", "document_id": "p1", "condition": "attack:-",
                            "rewriter": "attacker>phrase", "prompt_version": "v1", "original_hash": "h",
                            "status": "error", "reason": "no section in scope", "stage": "attack"}, {})
        stages = dict(store.rows("SELECT unit_key, stage FROM variants"))
    finally:
        store.close()
    pd.testing.assert_frame_equal(before, after)
    assert after[["unit_key", "status", "stage"]].values.tolist() == [
        ["v2", "error", "rewrite"], ["v1", "ok", "rewrite"], ["v3", "discarded", "rewrite"]]
    assert stages == {"v1": "rewrite", "v2": "rewrite", "v3": "rewrite", "v4": "attack"}
