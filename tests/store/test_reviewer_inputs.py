"""Schema 8: what each unit's evaluator read, kept once per distinct text, with its blinding audit."""

from __future__ import annotations

import json
from pathlib import Path

from rhetorica.store.db import Store


def _row(role: str, text: str, input_hash: str) -> dict:
    removed = [{"item": "identity URL", "location": "section 'A'", "text": "https://github.com/x", "reason": "r"}]
    return {"role": role, "input_hash": input_hash, "text": text, "removed_json": json.dumps(removed), "truncated": False}


def test_a_text_read_by_several_units_is_kept_once(tmp_path: Path) -> None:
    store = Store(tmp_path / "store.sqlite")
    try:
        store.record_input("review-1", _row("manuscript", "paper text", "h1"))
        store.record_input("review-2", _row("manuscript", "paper text", "h1"))
        store.record_input("review-2", _row("notice", "a notice", "h2"))
        store.record_input("review-2", _row("notice", "a notice", "h2"))  # a rerun of the unit: no new row
        assert store.rows("SELECT COUNT(*) FROM reviewer_inputs")[0][0] == 2
        rows = store.input_rows()
        assert [(r["unit_key"], r["role"], r["text"]) for r in rows] == [
            ("review-1", "manuscript", "paper text"), ("review-2", "manuscript", "paper text"),
            ("review-2", "notice", "a notice")]
        assert json.loads(rows[0]["removed_json"])[0]["reason"] == "r" and rows[0]["truncated"] == 0
    finally:
        store.close()


def test_link_input_adds_a_unit_to_a_kept_text_without_writing_it_again(tmp_path: Path) -> None:
    store = Store(tmp_path / "store.sqlite")
    try:
        store.record_input("review-1", _row("manuscript", "paper text", "h1"))
        store.link_input("review-2", "manuscript", "h1")
        store.link_input("review-2", "manuscript", "h1")  # a rerun of the unit: no new row
        assert store.rows("SELECT COUNT(*) FROM reviewer_inputs")[0][0] == 1
        assert [(r["unit_key"], r["role"], r["text"]) for r in store.input_rows()] == [
            ("review-1", "manuscript", "paper text"), ("review-2", "manuscript", "paper text")]
    finally:
        store.close()
