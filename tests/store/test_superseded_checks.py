"""Superseded validation checks are listed beside the superseded rewrites (issue 36 item 5): three
rewrites of one rewriter and condition, two of them outside the current plan, each with a stored
check (one passed, one failed): the superseded row says 2 units, 2 checks, 1 passed."""

from __future__ import annotations

import json
from pathlib import Path

from rhetorica.store.db import Store
from rhetorica.store.plan import SUPERSEDED_COLUMNS, record_plan, superseded_units


def test_superseded_rewrites_carry_their_checks(tmp_path: Path) -> None:
    store = Store.in_dir(tmp_path)
    try:
        for key, passed in (("v1", 1), ("v2", 0), ("v3", 1)):
            store.save_variant({"unit_key": key, "document_id": "d1", "condition": "confidence:+", "rewriter": "rules",
                                "prompt_version": "p1", "original_hash": "h", "content_hash": f"c-{key}",
                                "status": "ok", "document_json": "{}"}, {})
            store.replace_check({"unit_key": f"check-{key}", "variant_key": key, "document_id": "d1",
                              "condition": "confidence:+", "rewriter": "rules", "passed": passed,
                              "reasons_json": json.dumps([] if passed else ["semantic similarity 0.5 < 0.85"]),
                              "result_json": "{}"})
        record_plan(store, "rewrite", ["v3"])
        table = superseded_units(store)
    finally:
        store.close()
    assert list(table.columns) == SUPERSEDED_COLUMNS
    row = table.iloc[0]
    assert (row["stage"], row["configuration"], row["detail"], row["units"]) == ("rewrite", "rules", "confidence:+", 2)
    assert (row["checks"], row["checks_passed"]) == (2, 1)
