"""Schema 7: artefacts of an assessment and annotations with their mentions, each replaced whole."""

from __future__ import annotations

import json
from pathlib import Path

from rhetorica.store.db import Store

ROW = {"unit_key": "u1", "document_id": "p1", "condition": "original", "rewriter": "none", "reviewer": "r",
       "model": "m", "protocol": "standard", "form": "iclr-2026@1", "replicate": 0, "status": "ok",
       "input_hash": "h"}


def test_a_saved_assessment_replaces_its_artefacts(tmp_path: Path) -> None:
    store = Store.in_dir(tmp_path)
    try:
        store.save_assessment(ROW, {"overall": 6}, {"science_core": {"claims": ["a"]}, "science_record": "# R"})
        store.save_assessment(ROW, {"overall": 5}, {"science_core": {"claims": ["b"]}})
        assert store.artefact_rows() == [("u1", "science_core", json.dumps({"claims": ["b"]}))]
        store.save_assessment(ROW | {"status": "error"}, {})
        assert store.artefact_rows() == []
    finally:
        store.close()


def test_a_saved_annotation_replaces_its_mentions(tmp_path: Path) -> None:
    store = Store.in_dir(tmp_path)
    row = {"unit_key": "a1", "assessment_key": "u1", "annotator": "mock/a", "taxonomy": "t", "status": "ok",
           "n_mentions": 2, "n_unverified": 1, "n_rejected": 0}
    try:
        store.save_annotation(row, [("presentation", "positive", "clear"), ("novelty", "negative", "old")])
        store.save_annotation(row | {"n_mentions": 1}, [("theory", "negative", "no proof")])
        assert [(m["aspect"], m["polarity"], m["phrase"], m["assessment_key"]) for m in store.mention_rows()] == [
            ("theory", "negative", "no proof", "u1")]
        (stored,) = store.annotation_rows()
        assert (stored["n_mentions"], stored["n_unverified"]) == (1, 1)
    finally:
        store.close()


def test_statuses_of_a_table_an_older_store_lacks_are_none(tmp_path: Path) -> None:
    import sqlite3

    from rhetorica.store.db import STORE_FILENAME
    from rhetorica.store.plan import unit_statuses

    Store.in_dir(tmp_path).close()
    conn = sqlite3.connect(tmp_path / STORE_FILENAME)
    conn.execute("DROP TABLE extracts")  # as in a version-6 store opened read-only by `rhetorica status`
    conn.execute("PRAGMA user_version = 6")  # ... which says so (a newer store missing a table is refused)
    conn.commit()
    conn.close()
    store = Store.open_readonly(tmp_path / STORE_FILENAME)
    try:
        assert unit_statuses(store, "extracts") == {} and unit_statuses(store, "assessments") == {}
    finally:
        store.close()
