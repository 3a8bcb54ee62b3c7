"""The validation section of a report: per-variant checks read from the store, Table-2 summary.

The runner's validation stage writes one row per validated variant into the store's ``checks``
table (``passed`` 0/1, ``reasons_json``, ``result_json`` =
:meth:`rhetorica.validation.validate.VariantValidation.model_dump_json`, or ``{"error": ...}``
when the variant could not be validated). This module turns those rows into the tidy table of
:func:`rhetorica.validation.validate.validation_row` and summarises it per condition with
:func:`rhetorica.validation.summary.summarise_by_condition` (the 'Style over Substance' study's
Table 2). Nothing is measured here.
"""

from __future__ import annotations

import json
from pydantic import ValidationError
from rhetorica.analysis.flow import check_label
from rhetorica.validation.summary import summarise_by_condition
from rhetorica.validation.validate import VariantValidation, validation_row
import pandas as pd



CHECK_KEYS = ["unit_key", "variant_key", "document_id", "condition", "rewriter"]
"""Key columns of a ``checks`` row, kept on every tidy validation row."""

FAILED_COLUMNS = ["document_id", "condition", "rewriter", "status", "reasons"]
"""Columns of :func:`failed_variants`."""

SHIFT_COLUMNS = [*CHECK_KEYS, "part", "dimension", "direction", "measure", "original", "variant", "present"]
"""Columns of :func:`shift_table`."""


def validation_table(checks: pd.DataFrame) -> pd.DataFrame:
    """One tidy row per validated variant (the input of ``summarise_by_condition``).

    Rows whose ``result_json`` holds a :class:`~rhetorica.validation.validate.VariantValidation`
    are flattened with :func:`~rhetorica.validation.validate.validation_row`; a row that records
    a variant that could not be validated keeps its keys, ``passed = False`` and its reasons, with
    every measure missing (never imputed); so does a stored result this version cannot read (its
    stored ``passed`` is kept and the reasons say why the measures are missing).

    Args:
        checks: rows as returned by :func:`rhetorica.store.runs.read_checks`.

    Returns:
        DataFrame with :data:`CHECK_KEYS`, the ``validation_row`` columns and ``validated``
        (whether measures exist); empty when ``checks`` is.
    """

    if checks.empty:
        return pd.DataFrame(columns=[*CHECK_KEYS, "passed", "reasons", "validated"])


    records = []
    for check in checks.itertuples(index=False):
        keys = {k: getattr(check, k) for k in CHECK_KEYS}
        payload = json.loads(check.result_json)
        if payload.get("kind") == "review":  # review variants (rhetorica.judges.study.validate_review)
            reasons = json.loads(check.reasons_json)
            records.append({**keys, "passed": bool(check.passed), "reasons": "; ".join(reasons), "validated": False,
                            "review": True})
            continue
        if "error" in payload and "original" not in payload:
            reasons = json.loads(check.reasons_json) or [str(payload["error"])]
            records.append({**keys, "passed": False, "reasons": "; ".join(reasons), "validated": False})
            continue
        try:
            result = VariantValidation.model_validate(payload)
        except ValidationError as exc:  # e.g. written by another rhetorica version
            problem = f"stored result unreadable by this rhetorica version ({exc.error_count()} field error(s))"
            reasons = [*json.loads(check.reasons_json), problem]
            records.append({**keys, "passed": bool(check.passed), "reasons": "; ".join(reasons),
                            "validated": False})
            continue
        row = validation_row(result, condition=check.condition, rewriter=check.rewriter)
        records.append({**keys, **row, "validated": True})
    table = pd.DataFrame.from_records(records)
    # validated rows first, so that per-document originals are read from a row that has them
    table = table.sort_values(["validated", "document_id", "condition", "rewriter"],
                              ascending=[False, True, True, True], kind="stable")
    return table.reset_index(drop=True)


def shift_table(checks: pd.DataFrame) -> pd.DataFrame:
    """One tidy row per intended-shift check of every checked variant (``tables/shift_checks.csv``).

    Read from the ``shift`` list each stored result carries
    (:class:`rhetorica.validation.shift.ShiftCheck`), so any registered dimension's measure —
    a plug-in's included — appears here without a change to this function.

    Args:
        checks: rows as returned by :func:`rhetorica.store.runs.read_checks`.

    Returns:
        DataFrame with :data:`SHIFT_COLUMNS`: the check's keys, ``part`` (the condition part checked,
        ``novelty:+``), its ``dimension`` and ``direction``, the ``measure``'s name, its value on the
        ``original`` and the ``variant`` (missing where undefined, never imputed) and whether the
        shift is ``present``; ordered by document, condition, rewriter and part. Empty (with these
        columns) when no stored result holds a shift check.
    """

    records = []
    for check in checks.itertuples(index=False):
        payload = json.loads(check.result_json)
        shifts = payload.get("shift") if isinstance(payload, dict) else None
        for shift in shifts if isinstance(shifts, list) else []:
            part = str(shift.get("condition", ""))
            dimension, _, direction = part.rpartition(":")
            records.append({**{k: getattr(check, k) for k in CHECK_KEYS}, "part": part,
                            "dimension": dimension or part, "direction": direction if dimension else None,
                            "measure": shift.get("measure"), "original": shift.get("original"),
                            "variant": shift.get("variant"), "present": bool(shift.get("present"))})
    table = pd.DataFrame.from_records(records, columns=SHIFT_COLUMNS)
    return table.sort_values(["document_id", "condition", "rewriter", "part"], kind="stable").reset_index(drop=True)


def validation_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Table 2 of 'Style over Substance' from :func:`validation_table`: one row per condition
    and rewriter (plus the originals), with variant and pass counts and mean measures.

    Args:
        table: tidy validation rows with at least one validated variant.

    Returns:
        :func:`rhetorica.validation.summary.summarise_by_condition` grouped by
        ``("condition", "rewriter")``.

    Raises:
        KeyError: if no row carries measures (every variant failed to validate).
    """

    return summarise_by_condition(table, by=("condition", "rewriter"))


def failed_variants(table: pd.DataFrame) -> pd.DataFrame:
    """Variants that failed validation or have no measures, with the reasons.

    Args:
        table: tidy validation rows (:func:`validation_table`).

    Returns:
        DataFrame with :data:`FAILED_COLUMNS`, sorted by document, condition and rewriter;
        ``status`` is ``failed`` (measured, a check failed; or a review variant whose review checks
        failed), ``not validated`` (the validation itself failed) or ``passed, measures unreadable``
        (a stored result this version cannot read). A review variant (``review`` true) has no
        style measures by design: listed only when it did not pass.
    """
    if table.empty:
        return table.reindex(columns=FAILED_COLUMNS)
    passed = table["passed"].astype(bool)
    review = table["review"].fillna(False).astype(bool) if "review" in table.columns else False
    validated = table["validated"].astype(bool) | review
    shown = table[~passed | ~validated].copy()
    shown["status"] = [
        "failed" if v else ("passed, measures unreadable" if p else "not validated")
        for p, v in zip(passed[shown.index], validated[shown.index], strict=True)
    ]
    return shown[FAILED_COLUMNS].sort_values(FAILED_COLUMNS[:3]).reset_index(drop=True)


REVIEW_SUMMARY_COLUMNS = ["condition", "rewriter", "variants", "passed", "failed", "failing_checks"]
"""Columns of :func:`review_check_summary`."""


def review_check_summary(table: pd.DataFrame) -> pd.DataFrame:
    """The review variants' checks (:mod:`rhetorica.validation.review_checks`; rows with ``review``
    true of :func:`validation_table`) per condition and rewriter: variants checked, passed, failed,
    and the checks that failed, ``check (n); …`` most frequent first (a variant failing two checks
    counts under each; :func:`rhetorica.analysis.flow.check_label` names a reason's check).

    Returns:
        :data:`REVIEW_SUMMARY_COLUMNS`, sorted by condition and rewriter; empty without a review row.
    """
    if table.empty or "review" not in table.columns:
        return pd.DataFrame(columns=REVIEW_SUMMARY_COLUMNS)
    rows = table[table["review"].fillna(False).astype(bool)]
    out = []
    for (condition, rewriter), part in rows.groupby(["condition", "rewriter"], sort=True):
        passed = part["passed"].astype(bool)
        labels = pd.Series([check_label(r) for text in part.loc[~passed, "reasons"]
                            for r in str(text or "").split("; ") if r], dtype=object)
        counts = labels.value_counts(sort=False).sort_index().sort_values(ascending=False, kind="stable")
        out.append({"condition": condition, "rewriter": rewriter, "variants": len(part), "passed": int(passed.sum()),
                    "failed": int((~passed).sum()),
                    "failing_checks": "; ".join(f"{label} ({n})" for label, n in counts.items())})
    return pd.DataFrame(out, columns=REVIEW_SUMMARY_COLUMNS)
