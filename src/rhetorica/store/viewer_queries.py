"""The read-only queries behind the run viewer (``rhetorica view``) and the report's per-paper appendix.

Every function answers one page's question with one or a few indexed queries, so a page of a large
store (tens of thousands of assessments) never reads the whole store. Only the study's current
units are shown (:mod:`rhetorica.store.plan`): a stage with a recorded plan is filtered to its
plan's keys inside SQL; a store without a plan shows every unit.

Rows are plain dicts of column -> value; texts are returned exactly as stored (untrusted model
output: the caller escapes them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rhetorica.labels import ORIGINAL
from rhetorica.store.db import Store


@dataclass(frozen=True)
class CellFilter:
    """Which headline cells to show; ``None`` means any value.

    Attributes:
        reviewer, condition, rewriter, metric: exact values to keep.
        exclude_failed: leave out reviews of variants whose stored check did not pass (the
            analysis default, ``validation.failed_variants: exclude``).
        reviewers: keep only these reviewer configurations (with ``reviewer`` too: both must hold),
            e.g. the judges of one metric family when the metric is chosen as ``family.metric``.
    """

    reviewer: str | None = None
    condition: str | None = None
    rewriter: str | None = None
    metric: str | None = None
    exclude_failed: bool = True
    reviewers: tuple[str, ...] | None = None


def _plan_clause(store: Store, stage: str, column: str) -> str:
    """``AND column IN (current plan keys)`` when ``stage`` has a recorded plan, else ``""``."""
    if not store.has_table("plans") or not store.rows("SELECT 1 FROM plans WHERE stage = ?", (stage,)):
        return ""
    return f" AND {column} IN (SELECT unit_key FROM plan_units WHERE stage = '{stage}')"


def _metric_names(store: Store) -> list[str]:
    """The distinct stored metrics, sorted, read by seeking through the ``scores_metric`` index
    (one seek per distinct metric, not a scan of every score)."""
    return [r[0] for r in store.rows(
        "WITH RECURSIVE m(metric) AS (SELECT MIN(metric) FROM scores UNION ALL "
        "SELECT (SELECT MIN(metric) FROM scores WHERE metric > m.metric) FROM m WHERE m.metric IS NOT NULL) "
        "SELECT metric FROM m WHERE metric IS NOT NULL")]


def _paired_cte(store: Store, cell: CellFilter) -> tuple[str, list[Any]]:
    """SQL (a ``WITH`` prefix defining ``pairs``) and its parameters: one row per reviewer x
    condition x rewriter x metric x paper holding the paper-level mean of the variant's successful
    replicates (``vb``) and of the original's (``vo``), for papers that have both.

    The scores are first turned into one row per assessment with a column per metric (``scores``
    is keyed by unit then metric, so this streams without a sort), which lets the paper-level
    grouping sort assessments rather than every score: the overview of every metric of 40,000
    assessments groups 40,000 rows, not 240,000 (benchmarks/bench_viewer.py).
    """
    metrics = [cell.metric] if cell.metric is not None else _metric_names(store)
    if not metrics:
        return ("WITH pairs AS (SELECT NULL AS reviewer, NULL AS condition, NULL AS rewriter, NULL AS metric, "
                "NULL AS document_id, NULL AS vb, NULL AS vo WHERE 0)"), []
    columns = range(len(metrics))
    params: list[Any] = list(metrics)
    unit_filter = ""
    if cell.metric is not None:
        unit_filter = " WHERE metric = ?"
        params.append(cell.metric)
    where = ["a.status = 'ok'"]
    if cell.reviewer is not None:
        where.append("a.reviewer = ?")
        params.append(cell.reviewer)
    if cell.reviewers is not None:
        where.append(f"a.reviewer IN ({', '.join('?' for _ in cell.reviewers)})" if cell.reviewers else "0")
        params += list(cell.reviewers)
    if cell.rewriter is not None:
        where.append(f"(a.rewriter = ? OR a.condition = '{ORIGINAL}')")
        params.append(cell.rewriter)
    if cell.condition is not None:
        where.append("a.condition IN (?, ?)")
        params += [cell.condition, ORIGINAL]
    if cell.exclude_failed:
        # a list subquery, evaluated once (checks has no index on variant_key; a correlated
        # subquery scanned it once per assessment)
        where.append("(a.variant_key IS NULL OR a.variant_key NOT IN (SELECT variant_key FROM checks WHERE passed = 0))")
    params += metrics
    per_unit = ", ".join(f"MAX(CASE WHEN metric = ? THEN value END) AS m{i}" for i in columns)
    per_paper = ", ".join(f"AVG(u.m{i}) AS m{i}" for i in columns)
    both = ", ".join(f"b.m{i} AS b{i}, o.m{i} AS o{i}" for i in columns)
    long = " UNION ALL ".join(
        f"SELECT reviewer, condition, rewriter, ? AS metric, document_id, b{i} AS vb, o{i} AS vo FROM paired "
        f"WHERE b{i} IS NOT NULL AND o{i} IS NOT NULL" for i in columns)
    sql = f"""
        WITH per_unit AS (SELECT unit_key, {per_unit} FROM scores{unit_filter} GROUP BY unit_key),
        paper AS MATERIALIZED (
            SELECT a.reviewer, a.document_id, a.condition, a.rewriter, {per_paper}
            FROM per_unit u JOIN assessments a ON a.unit_key = u.unit_key
            WHERE {' AND '.join(where)}{_plan_clause(store, 'review', 'a.unit_key')}
            GROUP BY a.reviewer, a.document_id, a.condition, a.rewriter),
        paired AS MATERIALIZED (
            SELECT b.reviewer, b.condition, b.rewriter, b.document_id, {both}
            FROM paper b JOIN paper o ON o.reviewer = b.reviewer AND o.document_id = b.document_id
                 AND o.condition = '{ORIGINAL}'
            WHERE b.condition != '{ORIGINAL}'),
        pairs AS ({long})"""
    return sql, params


def headline_cells(store: Store, cell: CellFilter = CellFilter()) -> list[dict[str, Any]]:
    """The paired comparison of each rewrite against the original, per reviewer x condition x
    rewriter x metric (papers as units: the mean of each paper's successful replicates).

    Returns:
        Rows with ``reviewer, condition, rewriter, metric, n_papers, mean_variant, mean_original,
        mean_diff`` (variant − original, in the metric's units), ``variant_higher,
        original_higher, ties`` (paper counts), ordered by reviewer, condition, rewriter, metric.
    """
    cte, params = _paired_cte(store, cell)
    return [dict(r) for r in store.rows(
        cte + """
        SELECT reviewer, condition, rewriter, metric, COUNT(*) AS n_papers, AVG(vb) AS mean_variant,
               AVG(vo) AS mean_original, AVG(vb - vo) AS mean_diff, SUM(vb > vo) AS variant_higher,
               SUM(vb < vo) AS original_higher, SUM(vb = vo) AS ties
        FROM pairs GROUP BY reviewer, condition, rewriter, metric
        ORDER BY reviewer, condition, rewriter, metric""", tuple(params))]


def cell_papers(store: Store, cell: CellFilter, *, limit: int = 500) -> list[dict[str, Any]]:
    """The papers behind headline cells: one row per paper x cell with its paper-level means.

    Returns:
        Rows with ``reviewer, condition, rewriter, metric, document_id, title, variant`` (mean of the
        variant's replicates), ``original``, ``diff``; largest absolute difference first, at most
        ``limit`` rows.
    """
    cte, params = _paired_cte(store, cell)
    return [dict(r) for r in store.rows(
        cte + """
        SELECT p.reviewer, p.condition, p.rewriter, p.metric, p.document_id, d.title, p.vb AS variant,
               p.vo AS original, p.vb - p.vo AS diff
        FROM pairs p LEFT JOIN documents d ON d.document_id = p.document_id
        ORDER BY ABS(p.vb - p.vo) DESC, p.document_id, p.reviewer, p.condition, p.metric LIMIT ?""",
        (*params, limit))]


def facet_values(store: Store) -> dict[str, list[str]]:
    """The distinct values the overview can filter on, each sorted: ``reviewer``, ``condition`` and
    ``rewriter`` (of rewrites only), ``metric``, and the ``form`` (``name@version``) of the
    assessments (none for imported rows).

    One scan of ``assessments``; the metrics by index seeks (:func:`_metric_names`).
    """
    rows = store.rows("SELECT DISTINCT reviewer, condition, rewriter, form FROM assessments")
    out = {"reviewer": sorted({r[0] for r in rows}),
           "condition": sorted({r[1] for r in rows if r[1] != ORIGINAL}),
           "rewriter": sorted({r[2] for r in rows if r[1] != ORIGINAL}),
           "form": sorted({r[3] for r in rows if r[3] is not None})}
    out["metric"] = _metric_names(store)
    return out


def store_counts(store: Store) -> dict[str, int]:
    """Row counts of ``documents``, ``variants``, ``assessments`` and ``model_calls``."""
    return {table: int(store.rows(f"SELECT COUNT(*) FROM {table}")[0][0])
            for table in ("documents", "variants", "assessments", "model_calls")}


def document_page(store: Store, offset: int, limit: int) -> list[dict[str, Any]]:
    """One page of the stored documents (by id) with their current variants counted by status.

    Returns:
        Rows ``document_id, title, kind, variants``: ``variants`` maps a variant status (``ok``,
        ``error``, ...; ``ok, failed validation`` for an ``ok`` rewrite whose stored check did not
        pass) to its count (empty for a document without rewrites).
    """
    docs = [dict(r) for r in store.rows("SELECT document_id, title, kind FROM documents ORDER BY document_id "
                                        "LIMIT ? OFFSET ?", (limit, offset))]
    if not docs:
        return []
    ids = [d["document_id"] for d in docs]
    counts = store.rows(
        f"""SELECT v.document_id, v.status, COALESCE(c.passed, 1) AS passed, COUNT(*) FROM variants v
            LEFT JOIN checks c ON c.variant_key = v.unit_key
            WHERE v.document_id IN ({", ".join("?" * len(ids))}){_plan_clause(store, 'rewrite', 'v.unit_key')}
            GROUP BY v.document_id, v.status, COALESCE(c.passed, 1)""", ids)
    by_doc: dict[str, dict[str, int]] = {d: {} for d in ids}
    for document_id, status, passed, n in counts:
        label = status if passed or status != "ok" else "ok, failed validation"
        by_doc[document_id][label] = by_doc[document_id].get(label, 0) + int(n)
    for d in docs:
        d["variants"] = dict(sorted(by_doc[d["document_id"]].items()))
    return docs


def document_row(store: Store, document_id: str) -> dict[str, Any] | None:
    """``document_id, title, kind, human_score, document_json`` of one stored document, or None."""
    rows = store.rows("SELECT document_id, title, kind, human_score, document_json FROM documents "
                      "WHERE document_id = ?", (document_id,))
    return dict(rows[0]) if rows else None


def first_documents(store: Store, n: int) -> list[str]:
    """The ids of the first ``n`` documents (by id) that have at least one assessment."""
    return [r[0] for r in store.rows(
        "SELECT DISTINCT document_id FROM assessments ORDER BY document_id LIMIT ?", (n,))]


def variant_rows(store: Store, document_id: str) -> list[dict[str, Any]]:
    """The current variants of a document with their stored check.

    Returns:
        Rows with ``variant_key, condition, rewriter, prompt_version, status, reason,
        document_json`` (None for a failed rewrite), ``passed`` (None when unchecked),
        ``reasons_json``, ``result_json``; ordered by condition and rewriter.
    """
    return [dict(r) for r in store.rows(
        f"""SELECT v.unit_key AS variant_key, v.condition, v.rewriter, v.prompt_version, v.status, v.reason,
                   v.document_json, c.passed, c.reasons_json, c.result_json
            FROM variants v LEFT JOIN checks c ON c.variant_key = v.unit_key
            WHERE v.document_id = ?{_plan_clause(store, 'rewrite', 'v.unit_key')}
            ORDER BY v.condition, v.rewriter""", (document_id,))]


def scan_rows_of(store: Store, document_id: str) -> list[dict[str, Any]]:
    """The hidden-instruction scan results of a document and its variants (empty when none or
    when the store predates scans): ``condition, rewriter, scanner_version, n_findings,
    n_flagged, max_severity, findings_json, notes_json``."""
    if not store.has_table("scans"):
        return []
    return [dict(r) for r in store.rows(
        "SELECT condition, rewriter, scanner_version, n_findings, n_flagged, max_severity, findings_json, "
        "notes_json FROM scans WHERE document_id = ? ORDER BY condition, rewriter", (document_id,))]


def assessment_rows_of(store: Store, document_id: str, reviewer: str | None = None) -> list[dict[str, Any]]:
    """The current assessments of a document (optionally of one reviewer configuration).

    Returns:
        Rows with ``unit_key, variant_key, condition, rewriter, reviewer, model, protocol, form,
        replicate, status, reason, input_truncated, review_json, raw_text``; ordered by reviewer,
        replicate, then the original before the rewrites by condition and rewriter.
    """
    where, params = "a.document_id = ?", [document_id]
    if reviewer is not None:
        where += " AND a.reviewer = ?"
        params.append(reviewer)
    return [dict(r) for r in store.rows(
        f"""SELECT a.unit_key, a.variant_key, a.condition, a.rewriter, a.reviewer, a.model, a.protocol, a.form,
                   a.replicate, a.status, a.reason, a.input_truncated, a.review_json, a.raw_text
            FROM assessments a WHERE {where}{_plan_clause(store, 'review', 'a.unit_key')}
            ORDER BY a.reviewer, a.replicate, a.condition != '{ORIGINAL}', a.condition, a.rewriter""",
        tuple(params))]


def reviewers_of(store: Store, document_id: str) -> list[str]:
    """The reviewer configurations that assessed a document, sorted."""
    return [r[0] for r in store.rows(
        "SELECT DISTINCT reviewer FROM assessments WHERE document_id = ? ORDER BY 1", (document_id,))]


def scores_of(store: Store, document_id: str, reviewer: str | None = None) -> list[tuple[str, str, float]]:
    """``(unit_key, metric, value)`` of every stored score of a document's assessments
    (optionally of one reviewer), ordered by unit key and metric."""
    where, params = "a.document_id = ?", [document_id]
    if reviewer is not None:
        where += " AND a.reviewer = ?"
        params.append(reviewer)
    return [(r[0], r[1], float(r[2])) for r in store.rows(
        f"SELECT s.unit_key, s.metric, s.value FROM assessments a JOIN scores s ON s.unit_key = a.unit_key "
        f"WHERE {where} ORDER BY s.unit_key, s.metric", tuple(params))]


def calls_of(store: Store, unit_key: str) -> list[dict[str, Any]]:
    """The logged model calls of one unit, oldest first: ``call_id, provider, model, status,
    finish_reason, error, input_tokens, output_tokens, cached_tokens, reasoning_tokens,
    cost_usd`` (US dollars), ``latency_s`` (seconds), ``cache_hit``, ``created_at``."""
    return [dict(r) for r in store.rows(
        "SELECT call_id, provider, model, status, finish_reason, error, input_tokens, output_tokens, cached_tokens, "
        "reasoning_tokens, cost_usd, latency_s, cache_hit, created_at FROM model_calls WHERE unit_key = ? "
        "ORDER BY call_id", (unit_key,))]


def call_row(store: Store, call_id: int) -> dict[str, Any] | None:
    """One logged call with its parameters and the cached raw output of its cache key
    (``output_json``, None when not cached), plus the assessment it served (``document_id``,
    ``reviewer``, ``condition``, ``replicate``, ``raw_text``; None for a rewrite's call)."""
    rows = store.rows(
        """SELECT m.*, r.output_json, a.document_id, a.reviewer, a.condition, a.rewriter, a.replicate,
                  a.status AS assessment_status, a.reason AS assessment_reason, a.raw_text,
                  v.document_id AS variant_document
           FROM model_calls m LEFT JOIN response_cache r ON r.cache_key = m.cache_key
           LEFT JOIN assessments a ON a.unit_key = m.unit_key
           LEFT JOIN variants v ON v.unit_key = m.unit_key
           WHERE m.call_id = ?""", (call_id,))
    return dict(rows[0]) if rows else None


def annotations_of(store: Store, assessment_key: str, *, limit: int = 500) -> list[dict[str, Any]]:
    """The current aspect annotations of one assessment, each with its verified mentions.

    One indexed query (``annotations_assessment``, then the ``mentions`` primary key); annotations
    outside the ``annotate`` stage's recorded plan are left out, and at most ``limit`` mentions
    are read in all.

    Returns:
        Rows with ``unit_key, annotator, taxonomy, status, reason, n_mentions, n_unverified,
        n_rejected`` and ``mentions``: a list of ``{position, aspect, polarity, phrase}`` in stored
        order (the phrase as stored: the review's span, whitespace normalised); ordered by unit
        key. Empty when the assessment has no annotation or the store predates schema version 7.
    """
    if not store.has_table("annotations"):
        return []
    out: dict[str, dict[str, Any]] = {}
    for r in store.rows(
            f"""SELECT n.unit_key, n.annotator, n.taxonomy, n.status, n.reason, n.n_mentions, n.n_unverified,
                       n.n_rejected, m.position, m.aspect, m.polarity, m.phrase
                FROM annotations n LEFT JOIN mentions m ON m.unit_key = n.unit_key
                WHERE n.assessment_key = ?{_plan_clause(store, 'annotate', 'n.unit_key')}
                ORDER BY n.unit_key, m.position LIMIT ?""", (assessment_key, limit)):
        row = dict(r)
        mention = {k: row.pop(k) for k in ("position", "aspect", "polarity", "phrase")}
        found = out.setdefault(row["unit_key"], {**row, "mentions": []})
        if mention["position"] is not None:
            found["mentions"].append(mention)
    return list(out.values())
