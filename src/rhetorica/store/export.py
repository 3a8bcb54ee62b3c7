"""Tidy tables read from the store (one row per assessment / variant / call) and their export.

Analysis never calls a model: it reads these tables, which can be rebuilt from a finished (or
partly finished) store at any time. The assessments and variants tables hold only the units of the
study as last run (its current plan, :mod:`rhetorica.store.plan`); superseded units stay in the
store and are listed by ``superseded`` (never averaged in).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from rhetorica.documents.models import lift_typed_metadata
from rhetorica.files import write_atomic
from rhetorica.forms import REVIEW_000, expected_metric, get_form
from rhetorica.labels import arm_label
from rhetorica.store.db import ASSESSMENT_READ_COLUMNS, Store
from rhetorica.store.plan import plan_keys, superseded_units
from rhetorica.strata import human_stratum
from rhetorica.registry import UnknownComponentError

def arm_labels(pairs: pd.DataFrame) -> pd.Series:
    """Arm label per row of (condition, rewriter): ``original``, the condition, or
    ``condition@rewriter`` when several rewriters produced that condition in the study."""
    rewriters_per_condition = pairs.groupby("condition")["rewriter"].nunique()

    def label(row: pd.Series) -> str:
        several = rewriters_per_condition.get(row["condition"], 1) > 1
        return arm_label(row["condition"], row["rewriter"] if several else None)

    if pairs.empty:
        return pd.Series([], dtype=str)
    return pairs.apply(label, axis=1)


def _current(df: pd.DataFrame, store: Store, stage: str) -> pd.DataFrame:
    """Rows of ``df`` whose ``unit_key`` is in the current plan of ``stage`` (all without a plan)."""
    keys = plan_keys(store, stage)
    return df if keys is None else df[df["unit_key"].isin(keys)].reset_index(drop=True)


#: Score columns every wide assessments table has, in this order (NaN where a form lacks one):
#: the metrics of the first study's form (``review-000``), so that the tables of every study
#: written before forms were declared keep their shape. Other forms' metrics follow them.
BASE_SCORE_COLUMNS: tuple[str, ...] = REVIEW_000.metric_names

_KEYS_BEFORE_SCORES = ["unit_key", "document_id", "arm", "condition", "rewriter", "reviewer", "model", "protocol",
                       "replicate", "status", "reason"]
_AFTER_SCORES = ["input_truncated", "human_score", "variant_key", "variant_passed", "title", "human_stratum", "form"]


def _assessment_keys(store: Store) -> pd.DataFrame:
    df = pd.DataFrame(store.assessment_rows(), columns=list(ASSESSMENT_READ_COLUMNS))
    df = _current(df, store, "review")
    df.insert(2, "arm", arm_labels(df[["condition", "rewriter"]]) if len(df) else pd.Series([], dtype=str))
    df["human_stratum"] = df["human_score"].map(human_stratum)
    return df


def scores_long(store: Store) -> pd.DataFrame:
    """One row per current assessment x metric of its form (ARCHITECTURE.md, "Forms and metrics are data").

    Columns: the assessment's keys (unit_key, document_id, arm, condition, rewriter, reviewer,
    model, protocol, replicate, status, reason, form), ``metric`` and ``value`` (float; NaN for a
    failed assessment: missing stays missing, never imputed), then input_truncated, human_score,
    human_stratum, variant_key, variant_passed, title. The metrics of an assessment are those of
    its form (:func:`rhetorica.forms.get_form` of ``form``'s name), then the expected scores
    (soft ratings, ``<metric>.expected``) stored for them; for an assessment whose form is not
    declared (imported rows, a form no longer registered), the metrics stored for it.
    Rows are ordered as the wide table, metrics in the form's declared order.
    """
    keys = _assessment_keys(store)
    stored = pd.DataFrame(store.score_rows(), columns=["unit_key", "metric", "value"])
    rows = []
    by_unit = {k: g for k, g in stored.groupby("unit_key", sort=False)}
    for record in keys.to_dict("records"):
        found = by_unit.get(record["unit_key"])
        values = dict(zip(found["metric"], found["value"])) if found is not None else {}
        declared = _form_metrics(record["form"])
        soft = [expected_metric(m) for m in declared if expected_metric(m) in values]
        for metric in [*declared, *soft] or list(values):
            rows.append({**record, "metric": metric, "value": values.get(metric, np.nan)})
    columns = [*_KEYS_BEFORE_SCORES, "form", "metric", "value", *(c for c in _AFTER_SCORES if c != "form")]
    return pd.DataFrame(rows, columns=columns).astype({"value": float})


def _form_metrics(label: str | None) -> list[str]:
    """Metric names of the form ``name@version`` (empty when none is given or it is not registered)."""

    if not label:
        return []
    try:
        return list(get_form(label.partition("@")[0]).metric_names)
    except UnknownComponentError:
        return []


def assessments_table(store: Store) -> pd.DataFrame:
    """One row per current assessment (the wide table), with the ``arm`` label and the document's
    mean human score.

    Superseded assessments (outside the current plan) are left out.

    Columns: unit_key, document_id, arm, condition, rewriter, reviewer, model, protocol, replicate,
    status, reason, the score columns (:data:`BASE_SCORE_COLUMNS`, then every other metric stored,
    in the order its form declares it; NaN where an assessment has no such score), input_truncated,
    human_score, variant_key, variant_passed (1 / 0 from the validation stage; missing for
    originals and unvalidated variants), title (the document's), human_stratum, form
    (``name@version``; missing for imported rows).
    """
    keys = _assessment_keys(store)
    stored = pd.DataFrame(store.score_rows(), columns=["unit_key", "metric", "value"])
    extra: list[str] = []
    for label in pd.unique(keys["form"].dropna()):
        extra += [m for m in _form_metrics(label) if m not in BASE_SCORE_COLUMNS and m not in extra]
    extra += sorted(set(stored["metric"]) - set(BASE_SCORE_COLUMNS) - set(extra))
    wide = stored.pivot(index="unit_key", columns="metric", values="value") if len(stored) else pd.DataFrame()
    wide = wide.reindex(index=keys["unit_key"], columns=[*BASE_SCORE_COLUMNS, *extra]).astype(float)
    out = keys[_KEYS_BEFORE_SCORES].reset_index(drop=True)
    out = pd.concat([out, wide.reset_index(drop=True)], axis=1)
    out = pd.concat([out, keys[_AFTER_SCORES].reset_index(drop=True)], axis=1)
    out.columns.name = None
    return out


def variants_table(store: Store) -> pd.DataFrame:
    """One row per current variant: document_id, condition, rewriter, prompt_version, status, reason,
    hashes, and the stage that made it (``rewrite``, ``attack``, ``rewrite-<n>``, ``guided-rewrite``;
    ``rewrite`` for every row of a store older than schema version 12) (superseded variants left out)."""
    stage = "stage" if store.has_column("variants", "stage") else "'rewrite' AS stage"
    return _current(pd.read_sql_query(
        "SELECT unit_key, document_id, condition, rewriter, prompt_version, status, reason, original_hash, "
        f"content_hash, {stage} FROM variants ORDER BY document_id, condition, rewriter", store.conn), store, "rewrite")


IDS_COLUMNS = ["document_id", "kind", "paper_id", "review_id", "id_generated", "variant_key", "condition",
               "rewriter", "rewrite_id", "source"]


def ids_table(store: Store) -> pd.DataFrame:
    """The mapping of the ids in every table to the source's ids (``tables/ids.csv``; issue 23.4).

    One row per stored document: ``document_id`` (the id every table uses), ``kind``, the
    source's ``paper_id`` and ``review_id`` verbatim (empty when the source has none),
    ``id_generated`` (1: the source had no id and ``document_id`` was generated, e.g.
    ``<paper>.review<n>``) and ``source`` (file and line or note); then one row per current
    imported rewrite: its original's ``document_id``, ``variant_key``, ``condition``, ``rewriter``,
    the source's ``rewrite_id``, ``id_generated`` (1: the source had none and
    ``<review>.rewrite<k>`` was made) and the rewrite's own ``source`` line.
    """
    rows = []
    for document_id, kind, raw in store.rows("SELECT document_id, kind, document_json FROM documents "
                                             "ORDER BY document_id"):
        doc = lift_typed_metadata(json.loads(raw))
        meta = doc.get("metadata") or {}
        rows.append({"document_id": document_id, "kind": kind, "paper_id": doc.get("paper_id"),
                     "review_id": meta.get("review_id"), "id_generated": int(bool(meta.get("id_generated", False))),
                     "source": (doc.get("source") or {}).get("path")})
    variants = variants_table(store)
    for key, raw in store.rows("SELECT unit_key, document_json FROM variants WHERE document_json IS NOT NULL "
                               "ORDER BY unit_key"):
        variant = lift_typed_metadata(json.loads(raw))
        meta = variant.get("metadata") or {}
        match = variants[variants["unit_key"] == key]
        if meta.get("rewrite_id") is None or match.empty:
            continue
        row = match.iloc[0]
        rows.append({"document_id": row["document_id"], "kind": "variant", "paper_id": variant.get("paper_id"),
                     "review_id": meta.get("review_id"), "id_generated": int(bool(meta.get("id_generated", False))),
                     "variant_key": key, "condition": row["condition"], "rewriter": row["rewriter"],
                     "rewrite_id": meta["rewrite_id"], "source": (variant.get("source") or {}).get("path")})
    return pd.DataFrame(rows, columns=IDS_COLUMNS)


def model_calls_table(store: Store) -> pd.DataFrame:
    """One row per model call (cache hits included, flagged) with usage, cost and latency."""
    return pd.read_sql_query("SELECT * FROM model_calls ORDER BY call_id", store.conn)


def problems_table(store: Store) -> pd.DataFrame:
    """Problems of the latest run (unreadable inputs, setup failures, budget stops)."""
    return pd.read_sql_query(
        "SELECT stage, item, status, reason FROM problems WHERE run_id = (SELECT MAX(run_id) FROM runs)",
        store.conn)


def artefacts_table(store: Store) -> pd.DataFrame:
    """One row per artefact of a current assessment (SciCore's ``science_core`` and
    ``science_record``, ReconstructReview's ``reconstruction`` …) or of a current variant (in
    stores written before schema 11, the guided workflow's ``intermediate_review``; since, that
    review is a unit of its own, :func:`guided_reviews_table`; a variant's ``reviewer`` is the
    rewriter configuration, its ``arm`` the variant's, replicate 0):
    unit_key, reviewer, document_id, arm, replicate, name, value_json (the artefact as JSON).
    Assessments' artefacts first. Empty for a store older than schema 7."""
    columns = ["unit_key", "reviewer", "document_id", "arm", "replicate", "name", "value_json"]
    if not store.has_table("artefacts"):
        return pd.DataFrame(columns=columns)
    found = pd.DataFrame(store.artefact_rows(), columns=["unit_key", "name", "value_json"])
    keys = _assessment_keys(store)[["unit_key", "reviewer", "document_id", "arm", "replicate"]]
    variants = variants_table(store)
    variants = variants.assign(reviewer=variants["rewriter"], replicate=0, arm=arm_labels(variants[["condition", "rewriter"]]))
    both = [keys, variants[["unit_key", "reviewer", "document_id", "arm", "replicate"]]]
    return pd.concat([k.merge(found, on="unit_key") for k in both])[columns].reset_index(drop=True)


GUIDED_REVIEW_COLUMNS = ["unit_key", "variant_key", "document_id", "arm", "condition", "rewriter", "protocol", "status",
                         "reason", "input_truncated", "record_json"]
"""Columns of :func:`guided_reviews_table`."""


def guided_reviews_table(store: Store) -> pd.DataFrame:
    """One row per current review of the guided workflow (:mod:`rhetorica.study.guided`): the
    rewriting model's review of the variant a guided rewrite builds on. ``variant_key`` is the
    reviewed variant, ``condition`` and ``arm`` the workflow it guides (``guided``), ``record_json``
    the review record (protocol, status, reason, scores, payload, input_truncated, raw_text).
    Empty before schema 11."""
    if not store.has_table("guided_reviews"):
        return pd.DataFrame(columns=GUIDED_REVIEW_COLUMNS)
    columns = [c for c in GUIDED_REVIEW_COLUMNS if c != "arm"]
    df = pd.read_sql_query(f"SELECT {', '.join(columns)} FROM guided_reviews ORDER BY document_id, rewriter, "
                           "unit_key", store.conn)
    df.insert(3, "arm", arm_labels(df[["condition", "rewriter"]]) if len(df) else pd.Series([], dtype=str))
    return _current(df, store, "guided-review")


def extracts_table(store: Store) -> pd.DataFrame:
    """One row per current science-core extraction (:mod:`rhetorica.study.extraction`): unit_key,
    document_id, condition, rewriter, extractor, replicate, status, reason, core_json (the
    extraction record: core, checks against the manuscript, source hash). Empty before schema 7."""
    columns = ["unit_key", "document_id", "condition", "rewriter", "extractor", "replicate", "status", "reason",
               "core_json"]
    if not store.has_table("extracts"):
        return pd.DataFrame(columns=columns)
    df = pd.read_sql_query(f"SELECT {', '.join(columns)} FROM extracts ORDER BY document_id, condition, rewriter, "
                           "replicate, unit_key", store.conn)
    return _current(df, store, "extract")


def annotations_table(store: Store) -> pd.DataFrame:
    """One row per current annotation (:mod:`rhetorica.study.annotation`) of a current assessment:
    unit_key, assessment_key, annotator, taxonomy, status, reason, n_mentions, n_unverified,
    n_rejected. Empty for a store older than schema 7."""
    columns = ["unit_key", "assessment_key", "annotator", "taxonomy", "status", "reason", "n_mentions",
               "n_unverified", "n_rejected"]
    if not store.has_table("annotations"):
        return pd.DataFrame(columns=columns)
    df = _current(pd.DataFrame(store.annotation_rows(), columns=columns), store, "annotate")
    current = set(_assessment_keys(store)["unit_key"])
    return df[df["assessment_key"].isin(current)].reset_index(drop=True)


def mentions_table(store: Store) -> pd.DataFrame:
    """One row per verified mention of a current annotation: unit_key (the annotation),
    assessment_key, position, aspect, polarity (positive | negative), phrase."""
    columns = ["unit_key", "assessment_key", "position", "aspect", "polarity", "phrase"]
    if not store.has_table("mentions"):
        return pd.DataFrame(columns=columns)
    df = pd.DataFrame(store.mention_rows(), columns=columns)
    return df[df["unit_key"].isin(annotations_table(store)["unit_key"])].reset_index(drop=True)


def export_tables(store: Store, folder: Path) -> dict[str, pd.DataFrame]:
    """Write every tidy table as Parquet and CSV under ``folder``; returns the tables by name.

    Tables: ``assessments`` (wide: one row per assessment), ``scores`` (long: one row per
    assessment x metric, :func:`scores_long`) and ``variants`` (current units only), ``model_calls`` (every call,
    superseded units' included: they were made and paid), ``problems`` and ``superseded``
    (:func:`rhetorica.store.plan.superseded_units`), ``artefacts`` (:func:`artefacts_table`), ``extracts``
    (:func:`extracts_table`), ``guided_reviews`` (:func:`guided_reviews_table`),
    ``annotations`` and ``mentions`` (:func:`annotations_table`, :func:`mentions_table`), ``ids``
    (the source's paper, review and rewrite ids behind each document id, :func:`ids_table`).
    """
    folder.mkdir(parents=True, exist_ok=True)
    tables = {
        "assessments": assessments_table(store),
        "scores": scores_long(store),
        "variants": variants_table(store),
        "model_calls": model_calls_table(store),
        "problems": problems_table(store),
        "superseded": superseded_units(store),
        "artefacts": artefacts_table(store),
        "extracts": extracts_table(store),
        "guided_reviews": guided_reviews_table(store),
        "annotations": annotations_table(store),
        "mentions": mentions_table(store),
        "ids": ids_table(store),
    }
    write_tidy(folder, tables)
    return tables


def write_tidy(folder: Path, tables: dict[str, pd.DataFrame]) -> None:
    """Write each table as ``folder/<name>.parquet`` and ``.csv`` (the folder is created), each file
    atomically (:func:`rhetorica.files.write_atomic`: a killed process leaves the old file or the new one)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, table in tables.items():
        write_atomic(folder / f"{name}.parquet", table.to_parquet(index=False))
        write_atomic(folder / f"{name}.csv", table.to_csv(index=False))
