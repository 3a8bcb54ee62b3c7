"""Builders of small tidy assessment tables for analysis tests."""

from __future__ import annotations

import math
from typing import Any

import pandas as pd


def rows(
    records: list[tuple[str, str, str, float | None]],
    *,
    status: dict[int, str] | None = None,
    replicate: dict[int, int] | None = None,
    extra: dict[str, Any] | None = None,
) -> pd.DataFrame:
    """Tidy table from (reviewer, document_id, arm, overall) tuples.

    ``status`` / ``replicate`` map a record index to a non-default value; ``None`` scores become
    NaN. Condition and rewriter columns are derived from the arm.
    """
    status = status or {}
    replicate = replicate or {}
    out = []
    for i, (reviewer, doc, arm, overall) in enumerate(records):
        cond, _, rewriter = arm.partition("@")
        out.append(
            {
                "unit_key": f"u{i}",
                "document_id": doc,
                "arm": arm,
                "condition": cond,
                "rewriter": "none" if arm == "original" else (rewriter or "rw"),
                "reviewer": reviewer,
                "model": "m",
                "protocol": "default",
                "replicate": replicate.get(i, 0),
                "status": status.get(i, "ok"),
                "overall": math.nan if overall is None else float(overall),
                **(extra or {}),
            }
        )
    return pd.DataFrame(out)
