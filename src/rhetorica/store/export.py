"""Tidy tables read from the store (one row per assessment / variant / call) and their export.

Analysis never calls a model: it reads these tables, which can be rebuilt from a finished (or
partly finished) store at any time. The assessments and variants tables hold only the units of the
study as last run (its current plan, :mod:`rhetorica.store.plan`); superseded units stay in the
store and are listed by ``superseded`` (never averaged in).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from rhetorica.store.db import Store
from rhetorica.store.plan import plan_keys, superseded_units
from rhetorica.strata import human_stratum

def arm_labels(pairs: pd.DataFrame) -> pd.Series:
    """Arm label per row of (condition, rewriter): ``original``, the condition, or
    ``condition@rewriter`` when several rewriters produced that condition in the study."""
    rewriters_per_condition = pairs.groupby("condition")["rewriter"].nunique()

    def label(row: pd.Series) -> str:
        if row["condition"] == "original":
            return "original"
        if rewriters_per_condition.get(row["condition"], 1) > 1:
            return f"{row['condition']}@{row['rewriter']}"
        return str(row["condition"])

    if pairs.empty:
        return pd.Series([], dtype=str)
    return pairs.apply(label, axis=1)


def _current(df: pd.DataFrame, store: Store, stage: str) -> pd.DataFrame:
    """Rows of ``df`` whose ``unit_key`` is in the current plan of ``stage`` (all without a plan)."""
    keys = plan_keys(store, stage)
    return df if keys is None else df[df["unit_key"].isin(keys)].reset_index(drop=True)


def assessments_table(store: Store) -> pd.DataFrame:
    """One row per current assessment, with the ``arm`` label and the document's mean human score.

    Superseded assessments (outside the current plan) are left out.

    Columns: unit_key, document_id, arm, condition, rewriter, reviewer, model, protocol, replicate,
    status, reason, overall, soundness, significance, evidence, clarity, confidence,
    input_truncated, human_score, human_stratum, variant_key, variant_passed (1 / 0 from the
    validation stage; missing for originals and unvalidated variants), title (the document's).
    """
    df = pd.read_sql_query(
        """SELECT a.unit_key, a.document_id, a.condition, a.rewriter, a.reviewer, a.model, a.protocol,
                  a.replicate, a.status, a.reason, a.overall, a.soundness, a.significance, a.evidence,
                  a.clarity, a.confidence, a.input_truncated, d.human_score, a.variant_key,
                  c.passed AS variant_passed, d.title
           FROM assessments a LEFT JOIN documents d ON d.document_id = a.document_id
           LEFT JOIN checks c ON c.variant_key = a.variant_key
           ORDER BY a.reviewer, a.document_id, a.condition, a.rewriter, a.replicate""",
        store.conn,
    )
    df = _current(df, store, "review")
    df.insert(2, "arm", arm_labels(df[["condition", "rewriter"]]) if len(df) else pd.Series([], dtype=str))
    df["human_stratum"] = df["human_score"].map(human_stratum)
    return df


def variants_table(store: Store) -> pd.DataFrame:
    """One row per current variant: document_id, condition, rewriter, prompt_version, status, reason,
    hashes (superseded variants left out)."""
    return _current(pd.read_sql_query(
        "SELECT unit_key, document_id, condition, rewriter, prompt_version, status, reason, original_hash, "
        "content_hash FROM variants ORDER BY document_id, condition, rewriter", store.conn), store, "rewrite")


def model_calls_table(store: Store) -> pd.DataFrame:
    """One row per model call (cache hits included, flagged) with usage, cost and latency."""
    return pd.read_sql_query("SELECT * FROM model_calls ORDER BY call_id", store.conn)


def problems_table(store: Store) -> pd.DataFrame:
    """Problems of the latest run (unreadable inputs, setup failures, budget stops)."""
    return pd.read_sql_query(
        "SELECT stage, item, status, reason FROM problems WHERE run_id = (SELECT MAX(run_id) FROM runs)",
        store.conn)


def export_tables(store: Store, folder: Path) -> dict[str, pd.DataFrame]:
    """Write every tidy table as Parquet and CSV under ``folder``; returns the tables by name.

    Tables: ``assessments`` and ``variants`` (current units only), ``model_calls`` (every call,
    superseded units' included: they were made and paid), ``problems`` and ``superseded``
    (:func:`rhetorica.store.plan.superseded_units`).
    """
    folder.mkdir(parents=True, exist_ok=True)
    tables = {
        "assessments": assessments_table(store),
        "variants": variants_table(store),
        "model_calls": model_calls_table(store),
        "problems": problems_table(store),
        "superseded": superseded_units(store),
    }
    for name, table in tables.items():
        table.to_parquet(folder / f"{name}.parquet", index=False)
        table.to_csv(folder / f"{name}.csv", index=False)
    return tables
