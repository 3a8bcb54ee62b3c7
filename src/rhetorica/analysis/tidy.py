"""Checks and accessors for the tidy assessment table that every analysis reads.

The tidy table has one row per assessment (ARCHITECTURE.md, "Stages are pure functions over a
store"). Columns used here: ``unit_key``, ``document_id``, ``arm``, ``reviewer``, ``status`` and the
score columns below. Only rows with ``status == "ok"`` carry scores; every other row counts as
missing and is never imputed.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from rhetorica.rewriting.conditions import ORIGINAL  # noqa: F401 - the arm label of the unmodified manuscript

SCORE_RANGES: dict[str, tuple[float, float]] = {
    "overall": (1.0, 10.0),
    "soundness": (1.0, 4.0),
    "significance": (1.0, 4.0),
    "evidence": (1.0, 4.0),
    "clarity": (1.0, 4.0),
    "confidence": (1.0, 5.0),
}
"""Closed range of each review-form score (the 'Style over Substance' study's review form)."""

CRITERIA: tuple[str, ...] = ("soundness", "significance", "evidence", "clarity")
"""The four 1-4 sub-scores of the review form."""


def require_columns(df: pd.DataFrame, columns: Iterable[str], what: str = "tidy table") -> None:
    """Raise one clear error if ``df`` lacks any of ``columns``.

    Args:
        df: the table to check.
        columns: column names that must be present.
        what: name of the table, used in the message.

    Raises:
        ValueError: naming every missing column.
    """
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"{what} lacks column(s) {missing}; it has {list(df.columns)}")


def ok_scores(df: pd.DataFrame, score: str) -> pd.Series:
    """Return ``score`` as float where ``status == "ok"``, NaN elsewhere (never imputed).

    Args:
        df: tidy assessments with columns ``status``, ``unit_key`` and ``score``.
        score: a score column; if it is one of :data:`SCORE_RANGES` its range is checked.

    Returns:
        Float series aligned with ``df``.

    Raises:
        ValueError: if the column is missing or an ``ok`` score lies outside its range
            (the message names the first offending ``unit_key``).
    """
    require_columns(df, ["status", score])
    values = pd.to_numeric(df[score], errors="coerce").astype(float)
    values = values.where(df["status"].to_numpy() == "ok")
    if score in SCORE_RANGES:
        low, high = SCORE_RANGES[score]
        bad = values.notna() & ((values < low) | (values > high))
        if bad.any():
            first = df.loc[bad].iloc[0]
            key = first["unit_key"] if "unit_key" in df.columns else first.name
            raise ValueError(
                f"assessment {key!r}: {score}={first[score]} lies outside [{low:g}, {high:g}]"
            )
    return values


def document_info(df: pd.DataFrame) -> pd.DataFrame:
    """One row per document with its mean human score and human-rating stratum.

    Args:
        df: tidy assessments; ``human_score`` and ``human_stratum`` are optional columns.

    Returns:
        DataFrame indexed by ``document_id`` with columns ``human_score`` (float, NaN when unknown)
        and ``human_stratum`` (str or None; the first non-null value seen for the document).
    """
    require_columns(df, ["document_id"])
    out = pd.DataFrame(index=pd.Index(pd.unique(df["document_id"]), name="document_id"))
    grouped = df.groupby("document_id", sort=False)
    if "human_score" in df.columns:
        out["human_score"] = grouped["human_score"].first().astype(float)
    else:
        out["human_score"] = np.nan
    if "human_stratum" in df.columns:
        out["human_stratum"] = grouped["human_stratum"].first()
    else:
        out["human_stratum"] = None
    return out
