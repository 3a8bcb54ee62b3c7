"""The study's current plan in the store: which stored units are current, failed or superseded.

Each run records, before a stage's units run, the keys of that stage's units for the study as it
is declared now (:func:`record_plan`). A stored unit outside its stage's current plan is
*superseded* (its protocol, prompt, sampling, document or rewrite changed since): it stays in the
store and is listed by :func:`superseded_units`, but exports and reports read only current units.
A store written before schema version 5 has no recorded plan: all its units count as current.

Plans are named ``rewrite`` (units stored in ``variants``), ``review`` (in ``assessments``) and
``guided-review`` (in ``guided_reviews``, :mod:`rhetorica.study.guided`); the stages that store
there record their keys under those names.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pandas as pd

from rhetorica.store.db import Store

FAILED_CHECK = "json_extract(result_json, '$.error') IS NOT NULL"
"""A check that could not be made (an ``error``); ``passed = 0`` alone is a result, not a failure."""

SUPERSEDED_COLUMNS = ["stage", "configuration", "model", "detail", "units", "first_created", "last_created",
                      "checks", "checks_passed"]
"""Columns of :func:`superseded_units`."""


PLANNED_STAGES = ("rewrite", "review", "annotate", "extract", "guided-review")
"""Names of the recorded plans; a check is current when its variant is current."""


def record_plan(store: Store, stage: str, keys: Iterable[str], run_id: int | None = None) -> None:
    """Make ``keys`` the current plan of ``stage`` (replacing the previous one) in one transaction.

    Raises:
        ValueError: if ``stage`` is not one of :data:`PLANNED_STAGES`.
    """
    if stage not in PLANNED_STAGES:
        raise ValueError(f"no plan is recorded for stage {stage!r}; stages: {', '.join(PLANNED_STAGES)}")
    with store.transaction() as conn:
        conn.execute("DELETE FROM plan_units WHERE stage = ?", (stage,))
        conn.execute("INSERT INTO plans (stage, run_id, recorded_at) VALUES (?, ?, datetime('now')) "
                     "ON CONFLICT (stage) DO UPDATE SET run_id = excluded.run_id, recorded_at = excluded.recorded_at",
                     (stage, run_id))
        conn.executemany("INSERT OR IGNORE INTO plan_units (stage, unit_key) VALUES (?, ?)",
                         [(stage, key) for key in keys])


def plan_keys(store: Store, stage: str) -> set[str] | None:
    """The recorded current unit keys of ``stage``; None when no plan was recorded (all current)."""
    if not store.has_table("plans") or not store.rows("SELECT 1 FROM plans WHERE stage = ?", (stage,)):
        return None
    return {r[0] for r in store.rows("SELECT unit_key FROM plan_units WHERE stage = ?", (stage,))}


def current_plan(store: Store) -> dict[str, set[str] | None]:
    """:func:`plan_keys` of every stage in :data:`PLANNED_STAGES`."""
    return {stage: plan_keys(store, stage) for stage in PLANNED_STAGES}


def finished_keys(store: Store, table: str, retry_failed: bool = False) -> set[str]:
    """Keys of the stored units of ``table`` (a unit table with a ``status`` column) that a run skips.

    Args:
        store: the store.
        table: ``variants``, ``assessments`` or another unit table with ``unit_key`` and ``status``.
        retry_failed: leave out units stored as a failure (any status but ``ok``), so that they run again.
    """
    if not retry_failed:
        return store.existing_keys(table)
    return {r[0] for r in store.rows(f"SELECT unit_key FROM {table} WHERE status = 'ok'")}


def unit_statuses(store: Store, table: str) -> dict[str, str]:
    """Stored status of every unit of ``table`` by key (none when a read-only store of an older
    schema has no such table yet, e.g. ``extracts`` before version 7)."""
    if not store.has_table(table):
        return {}
    return {r[0]: r[1] for r in store.rows(f"SELECT unit_key, status FROM {table}")}


def finished_checks(store: Store, retry_failed: bool = False) -> set[str]:
    """Keys of the stored checks a run skips (with ``retry_failed``, not those that could not be made)."""
    if not retry_failed:
        return store.existing_keys("checks")
    return {r[0] for r in store.rows(f"SELECT unit_key FROM checks WHERE NOT ({FAILED_CHECK})")}


def check_statuses(store: Store) -> dict[str, str]:
    """Status of every stored check by key: ``ok`` (passed), ``failed`` or ``error`` (not made)."""
    status = f"CASE WHEN {FAILED_CHECK} THEN 'error' WHEN passed = 1 THEN 'ok' ELSE 'failed' END"
    return {r[0]: r[1] for r in store.rows(f"SELECT unit_key, {status} FROM checks")}


def ok_rows(store: Store, table: str, keys: set[str]) -> list[dict[str, object]]:
    """Stored ``ok`` rows of ``table`` whose unit key is in ``keys``, ordered by key."""
    rows = store.rows(f"SELECT * FROM {table} WHERE status = 'ok' ORDER BY unit_key")
    return [dict(r) for r in rows if r["unit_key"] in keys]


def ok_variants(store: Store, keys: set[str] | None = None) -> list[tuple[str, str, str, str]]:
    """(unit key, condition, rewriter, document JSON) of stored ``ok`` variants, ordered by document,
    condition and rewriter; only those in ``keys`` when given."""
    rows = store.rows("SELECT unit_key, condition, rewriter, document_json FROM variants "
                      "WHERE status = 'ok' ORDER BY document_id, condition, rewriter")
    return [(r[0], r[1], r[2], r[3]) for r in rows if keys is None or r[0] in keys]


def passed_variant_keys(store: Store) -> set[str]:
    """Variant keys whose current check passed."""
    return {r[0] for r in store.rows("SELECT variant_key FROM checks WHERE passed = 1")}


_DESCRIBE = {
    "rewrite": "SELECT unit_key, rewriter AS configuration, prompt_version AS model, condition AS detail, "
               "created_at FROM variants",
    "review": "SELECT unit_key, reviewer AS configuration, model, protocol || ' protocol' AS detail, "
              "created_at FROM assessments",
    "guided-review": "SELECT unit_key, rewriter AS configuration, protocol || ' protocol' AS model, "
                     "condition AS detail, created_at FROM guided_reviews",
}


def superseded_units(store: Store, plan: Mapping[str, set[str] | None] | None = None) -> pd.DataFrame:
    """Stored rewrites and reviews outside the current plan, grouped by what produced them.

    Checks of superseded variants are superseded with them: a rewrite row counts its variants'
    stored validation checks (``checks``) and how many passed (``checks_passed``), beside them.

    Args:
        store: the store.
        plan: current keys per stage (default: the recorded plan, :func:`current_plan`).

    Returns:
        One row per (stage, configuration, model, detail) with :data:`SUPERSEDED_COLUMNS`:
        ``configuration`` is the rewriter or reviewer name, ``model`` the reviewer's model (the
        rewriter's prompt version for rewrites), ``detail`` the condition (rewrites) or protocol
        (reviews), ``units`` how many, the first/last creation times (UTC), and for rewrites
        ``checks`` and ``checks_passed`` (NaN for the other stages). Empty when none.
    """
    plan = current_plan(store) if plan is None else plan
    frames = []
    for stage, sql in _DESCRIBE.items():
        keys = plan.get(stage)
        if keys is None:
            continue
        rows = pd.read_sql_query(sql, store.conn)
        rows = rows[~rows["unit_key"].isin(keys)]
        if rows.empty:
            continue
        grouped = rows.groupby(["configuration", "model", "detail"], sort=True)["created_at"]
        out = grouped.agg(units="count", first_created="min", last_created="max").reset_index()
        out.insert(0, "stage", stage)
        if stage == "rewrite":
            checks = (pd.read_sql_query("SELECT variant_key AS unit_key, passed FROM checks", store.conn)
                      if store.has_table("checks") else pd.DataFrame(columns=["unit_key", "passed"]))
            checked = rows.merge(checks, on="unit_key").groupby(["configuration", "model", "detail"])["passed"]
            counts = checked.agg(checks="count", checks_passed="sum")
            out = out.join(counts, on=["configuration", "model", "detail"])
            out[["checks", "checks_passed"]] = out[["checks", "checks_passed"]].fillna(0).astype(int)
        frames.append(out)
    if not frames:
        return pd.DataFrame(columns=SUPERSEDED_COLUMNS)
    return pd.concat(frames, ignore_index=True).reindex(columns=SUPERSEDED_COLUMNS)
