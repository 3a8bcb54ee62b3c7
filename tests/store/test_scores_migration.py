"""Migration 0006: a store written with the six fixed score columns reads the same after it, and
read-only (unmigrated) it reads the same too."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from rhetorica.store.db import Store
from rhetorica.store.export import assessments_table, scores_long
from tests.store.old_schema import store_at_version

OLD_ROWS = [
    # unit_key, reviewer, model, protocol, status, overall, soundness, significance, evidence, clarity, confidence
    ("u1", "llm", "mock/reviewer", "default", "ok", 7.0, 3.0, 2.0, 4.0, 1.0, 5.0),
    ("u2", "llm", "mock/reviewer", "default", "malformed", None, None, None, None, None, None),
    ("u3", "bare", "mock/reviewer", "bare", "ok", 4.0, None, None, None, None, None),
    ("u4", "null", "control", "default", "ok", 5.25, 2.0, 2.0, 2.0, 2.0, None),
]


def _old_store(path: Path) -> None:
    """A store as schema version 5 wrote it (migrations 0001-0005 only), with OLD_ROWS."""
    conn = store_at_version(path, 5)
    conn.execute("INSERT INTO documents (document_id, content_hash, kind, title, document_json) "
                 "VALUES ('p1', 'h', 'manuscript', 'Paper one', '{}')")
    for key, reviewer, model, protocol, status, *scores in OLD_ROWS:
        conn.execute(
            "INSERT INTO assessments (unit_key, document_id, input_hash, condition, rewriter, reviewer, model, protocol, "
            "replicate, status, overall, soundness, significance, evidence, clarity, confidence) "
            "VALUES (?, 'p1', 'h', 'original', 'none', ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?)",
            (key, reviewer, model, protocol, status, *scores))
    conn.close()


def test_backfill_moves_every_score_and_names_the_forms(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite"
    _old_store(path)
    readonly = Store.open_readonly(path)  # not migrated: the old columns are read as long rows
    try:
        before = assessments_table(readonly)
        assert readonly.schema_version == 5
    finally:
        readonly.close()
    store = Store(path)  # migrates through 6 to the latest (13: attempts and endpoint events)
    try:
        assert store.schema_version == 14
        assert store.score_rows() == [
            ("u1", "clarity", 1.0), ("u1", "confidence", 5.0), ("u1", "evidence", 4.0), ("u1", "overall", 7.0),
            ("u1", "significance", 2.0), ("u1", "soundness", 3.0), ("u3", "overall", 4.0),
            ("u4", "clarity", 2.0), ("u4", "evidence", 2.0), ("u4", "overall", 5.25), ("u4", "significance", 2.0),
            ("u4", "soundness", 2.0)]
        forms = {r["unit_key"]: r["form"] for r in store.assessment_rows()}
        assert forms == {"u1": "review-000@1", "u2": "review-000@1", "u3": "review-000-overall@1",
                         "u4": "control-000@1"}
        columns = [r[1] for r in store.conn.execute("PRAGMA table_info(assessments)")]
        assert "overall" not in columns and "confidence" not in columns and "form" in columns
        after = assessments_table(store)
        long = scores_long(store)
    finally:
        store.close()
    # the wide table reads identically (the form column is new; the unmigrated read has no forms)
    pd.testing.assert_frame_equal(before.drop(columns="form"), after.drop(columns="form"))
    assert after.loc[after["unit_key"] == "u1", ["overall", "clarity", "confidence"]].values.tolist() == [[7.0, 1.0, 5.0]]
    # long: one row per assessment x metric of its form; the malformed one keeps its six rows, all missing
    assert long.groupby("unit_key").size().to_dict() == {"u1": 6, "u2": 6, "u3": 1, "u4": 5}
    assert long.loc[long["unit_key"] == "u2", "value"].isna().all()
    assert long.loc[long["unit_key"] == "u4", "metric"].tolist() == ["overall", "soundness", "significance",
                                                                     "evidence", "clarity"]


def test_saving_again_replaces_the_scores(tmp_path: Path) -> None:
    store = Store.in_dir(tmp_path)
    try:
        row = {"unit_key": "k", "document_id": "p", "input_hash": "h", "condition": "original", "rewriter": "none",
               "reviewer": "r", "model": "m", "protocol": "default", "form": "review-000@1", "replicate": 0,
               "status": "ok"}
        store.save_assessment(row, {"overall": 6, "soundness": 2})
        store.save_assessment(row | {"status": "malformed"}, {})
        assert store.score_rows() == []
        assert [r["status"] for r in store.assessment_rows()] == ["malformed"]
    finally:
        store.close()
