"""Store rows are typed: the one writer of ``assessments`` validates its row and writes every column."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from rhetorica.store.db import ASSESSMENT_READ_COLUMNS, Store
from rhetorica.store.rows import AssessmentRow

ROW = {"unit_key": "u1", "document_id": "p1", "input_hash": "h", "condition": "confidence:+", "rewriter": "rw",
       "reviewer": "r", "model": "mock/reviewer", "protocol": "default", "form": "review-000@1", "replicate": 0,
       "status": "ok"}


def test_a_row_is_written_whole_with_its_defaults_and_read_back_in_the_declared_columns(tmp_path: Path) -> None:
    store = Store.in_dir(tmp_path)
    try:
        store.save_assessment(AssessmentRow(**ROW, input_truncated=True, raw_text="{}"), {"overall": 6})
        stored = dict(store.conn.execute("SELECT * FROM assessments").fetchone())
        assert {k: stored[k] for k in ("variant_key", "input_truncated", "reason", "review_json", "raw_text")} == {
            "variant_key": None, "input_truncated": 1, "reason": None, "review_json": None, "raw_text": "{}"}
        rows = store.assessment_rows()
        assert tuple(rows[0]) == ASSESSMENT_READ_COLUMNS
        assert (rows[0]["condition"], rows[0]["form"], rows[0]["input_truncated"]) == ("confidence:+", "review-000@1", 1)
    finally:
        store.close()


@pytest.mark.parametrize(("change", "field"), [
    ({"reviwer": "r"}, "reviwer"),             # a misspelt column
    ({"replicate": "first"}, "replicate"),     # a mistyped value
])
def test_a_bad_row_names_its_field_and_writes_nothing(tmp_path: Path, change: dict[str, str], field: str) -> None:
    store = Store.in_dir(tmp_path)
    try:
        with pytest.raises(ValidationError, match=field):
            store.save_assessment(ROW | change, {"overall": 6})
        missing = {k: v for k, v in ROW.items() if k != "input_hash"}
        with pytest.raises(ValidationError, match="input_hash"):
            store.save_assessment(missing, {})
        assert store.conn.execute("SELECT COUNT(*) FROM assessments").fetchone()[0] == 0
        assert store.score_rows() == []
    finally:
        store.close()


def test_every_typed_table_refuses_a_misspelt_column_and_writes_omitted_nullable_ones_as_null(tmp_path: Path) -> None:
    store = Store.in_dir(tmp_path)
    try:
        variant = {"unit_key": "v1", "document_id": "p1", "condition": "tone:+", "rewriter": "rw",
                   "prompt_version": "1", "original_hash": "h", "status": "error", "reason": "HTTP 500"}
        store.insert("variants", variant)
        assert dict(store.conn.execute("SELECT content_hash, document_json FROM variants").fetchone()) == {
            "content_hash": None, "document_json": None}
        with pytest.raises(ValidationError, match="prompt_versoin"):
            store.save_variant(variant | {"prompt_versoin": "2"}, {})
        with pytest.raises(ValidationError, match="passed"):
            store.replace_check({"unit_key": "c1", "variant_key": "v1", "document_id": "p1", "condition": "tone:+",
                                 "rewriter": "rw", "passed": "maybe", "reasons_json": "[]", "result_json": "{}"})
        with pytest.raises(ValidationError, match="document_json"):
            store.insert("documents", {"document_id": "p1", "content_hash": "h", "kind": "manuscript", "title": "T"})
        assert store.conn.execute("SELECT COUNT(*) FROM checks").fetchone()[0] == 0
        assert store.conn.execute("SELECT COUNT(*) FROM documents").fetchone()[0] == 0
    finally:
        store.close()
