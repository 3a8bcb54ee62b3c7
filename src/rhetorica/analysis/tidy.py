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

from rhetorica.forms import REVIEW_000, Form, get_form
from rhetorica.registry import UnknownComponentError


SCORE_RANGES: dict[str, tuple[float, float]] = {
    m.name: (float(m.low), float(m.high)) for m in REVIEW_000.metrics if m.low is not None and m.high is not None
}
"""Closed range of each score of the 000 review form (the 'Style over Substance' study's), checked
on tables that carry no ``form`` column; a table with one is checked against each row's form."""

CRITERIA: tuple[str, ...] = tuple(m.name for m in REVIEW_000.metrics if not m.primary and m.role == "score")
"""The four 1-4 sub-scores of the 000 review form (soundness, significance, evidence, clarity)."""


def primary_metric(df: pd.DataFrame) -> str:
    """The metric an analysis reads by default: the primary metric of the forms of ``df``'s rows.

    Args:
        df: tidy assessments; an optional ``form`` column holds each row's form as ``name@version``
            (:mod:`rhetorica.forms`). Without one (hand-built or simulated tables, imported rows),
            the 000 review form's primary, ``overall``.

    Raises:
        ValueError: the rows' forms have different primary metrics (pass the metric explicitly).
    """
    primaries = {_declared(label).primary.name for label in _labels(df)}
    if not primaries:
        return REVIEW_000.primary.name
    if len(primaries) > 1:
        raise ValueError(f"the table mixes forms with different primary metrics ({', '.join(sorted(primaries))}); "
                         "pass the metric to analyse")
    return primaries.pop()


def _labels(df: pd.DataFrame) -> list[str]:
    if "form" not in df.columns:
        return []
    return [str(x) for x in pd.unique(df["form"].dropna())]


def _declared(label: str) -> Form:
    """The registered form of ``name@version``.

    Raises:
        ValueError: no such form is registered.
    """
    try:
        return get_form(label.partition("@")[0])
    except UnknownComponentError as exc:
        raise ValueError(f"assessments name form {label!r}: {exc}") from None


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
        df: tidy assessments with columns ``status``, ``unit_key`` and ``score`` (and optionally
            ``form``).
        score: a score column; its range is checked: on each row the range its form declares
            (rows without a form, or every row when there is no ``form`` column: the 000 form's
            :data:`SCORE_RANGES`).

    Returns:
        Float series aligned with ``df``.

    Raises:
        ValueError: if the column is missing or an ``ok`` score lies outside its range
            (the message names the first offending ``unit_key``).
    """
    require_columns(df, ["status", score])
    values = pd.to_numeric(df[score], errors="coerce").to_numpy(dtype=float, copy=True)
    values[~df["status"].eq("ok").to_numpy(dtype=bool, na_value=False)] = np.nan
    scored = ~np.isnan(values)
    for low, high, rows in _ranges(df, score):
        bad = rows & scored & ((values < low) | (values > high))
        if bad.any():
            first = df.iloc[int(np.argmax(bad))]
            key = first["unit_key"] if "unit_key" in df.columns else first.name
            raise ValueError(
                f"assessment {key!r}: {score}={first[score]} lies outside [{low:g}, {high:g}]"
            )
    return pd.Series(values, index=df.index, name=score)


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


def _ranges(df: pd.DataFrame, score: str) -> list[tuple[float, float, np.ndarray]]:
    """(low, high, rows) to check ``score`` against: each form's declared bounds on its rows (a
    boolean array), the 000 form's on rows without a form."""
    forms = df["form"] if "form" in df.columns else None
    checks = []
    for label in [None, *_labels(df)]:
        if label is None:
            rows = np.ones(len(df), dtype=bool) if forms is None else forms.isna().to_numpy(dtype=bool)
            bounds = SCORE_RANGES.get(score)
        else:
            assert forms is not None
            rows = forms.eq(label).to_numpy(dtype=bool, na_value=False)
            form = _declared(label)
            bounds = form.metric(score).bounds if score in form.metric_names else None
        if bounds is not None:
            low, high = bounds
            checks.append((-np.inf if low is None else low, np.inf if high is None else high, rows))
    return checks
