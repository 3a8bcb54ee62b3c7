"""What each viewer page shows: a context dict per page, built from a few store queries
(:mod:`rhetorica.store.viewer_queries`) and rendered by jinja2 with autoescape on.

Pages and their query strings (everything a page shows is in its URL, so a reload or a shared
link shows the same):

- ``/`` — the headline paired comparisons; ``reviewer``, ``condition``, ``rewriter``, ``metric``
  filter them (server side; without ``metric`` the forms' primary metric, ``metric=`` for every
  metric; a judge configuration's metric is named ``family.metric`` as in the report's Table 1,
  :class:`rhetorica.report.viewer.judges.JudgeMetrics`); each row links to ``/cell``. Below them
  every document, ``page`` by page, links to its ``/paper`` page.
- ``/cell`` — the papers behind the filtered rows, largest difference first; each links to ``/paper``.
- ``/paper?doc=ID`` — the paper; ``variant=CONDITION@REWRITER`` picks the rewrite shown beside the
  original, ``reviewer`` and ``rep`` the reviews shown side by side. Annotated reviews show their
  aspect mentions highlighted in place (:mod:`rhetorica.report.viewer.aspects`); a document scored
  by judge configurations (a review, in a judge study) shows their scores by metric family with
  the change of each version against the original (:mod:`rhetorica.report.viewer.judges`).
- ``/call?id=N`` — one logged model call with its parameters and raw output.
- ``/attacks`` and ``/attack?variant=KEY`` — the worst-case attack searches, linked from the
  overview when the study has attack rewriters (:mod:`rhetorica.report.viewer.attack`).
- ``/tables`` — every registered analysis table (built-in and plug-in), as the report computes it
  (:mod:`rhetorica.report.viewer.tables`).

Every text comes from the store as is and is escaped by the templates (rewrites, reviews, titles
and reasons are untrusted model output); nothing is marked safe.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from jinja2 import Environment, PackageLoader

from rhetorica.analysis.paired import sign_test_pvalues
from rhetorica.labels import arm_label
from rhetorica.report.data import fmt, fmt_p
from rhetorica.store.runs import document_jsons
from rhetorica.study.config import StudyConfig
from rhetorica.study.run_study import load_run_study
from rhetorica.report.viewer.aspects import highlighted_fields
from rhetorica.report.viewer.diff import document_diff
from rhetorica.report.viewer.judges import JudgeMetrics, judge_tables
from rhetorica.store import viewer_queries as q
from rhetorica.store.db import Store
from rhetorica.analysis.tidy import primary_metric
from rhetorica.report.flow import EXCLUSION_HEADERS, FLOW_HEADERS, store_flow
from rhetorica.report.judges import paper_ids_of
from rhetorica.report.views import table_view
from rhetorica.report.attack import attack_applies
import pandas as pd

FACETS = ("reviewer", "condition", "rewriter", "metric")
"""The overview's filters, in the order of its form."""

DOCUMENTS_PER_PAGE = 50
"""Documents listed per page of the overview's document list."""


class PageError(Exception):
    """A request the viewer cannot answer: ``status`` (404 or 400) and a message naming the item."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def environment() -> Environment:
    """The templates of the viewer, autoescaped (every value is text to show, never markup)."""
    env = Environment(loader=PackageLoader("rhetorica.report.viewer", "templates"), autoescape=True)
    env.filters["fmt"] = fmt
    env.globals["url"] = url
    return env


def url(path: str, **params: Any) -> str:
    """``path?query`` with the parameters that are not None (values as text)."""
    kept = {k: str(v) for k, v in params.items() if v is not None and v != ""}
    return f"{path}?{urlencode(kept)}" if kept else path


def variant_label(condition: str, rewriter: str) -> str:
    """The ``variant`` parameter of a rewrite: ``condition@rewriter`` (``original`` for the original)."""
    return arm_label(condition, rewriter)


def _one(params: dict[str, list[str]], key: str) -> str | None:
    values = params.get(key)
    return values[-1] if values and values[-1] != "" else None


def _cell_filter(study: StudyConfig, params: dict[str, list[str]], judges: JudgeMetrics,
                 facets: dict[str, list[str]]) -> q.CellFilter:
    """The store filter of the page's facets; a judge metric chosen as ``family.metric`` becomes
    the stored metric restricted to that family's judge configurations (:class:`JudgeMetrics`).

    Raises:
        PageError: 404 for a facet value that is not among ``facets`` (the store's values, the
            metrics as :meth:`JudgeMetrics.choices` names them).
    """
    chosen = {k: _one(params, k) for k in FACETS}
    for key, value in chosen.items():
        if value is not None and value not in facets[key]:
            raise PageError(404, f"{key} {value!r} is not in this store ({_known(facets[key])})")
    metric, reviewers = judges.resolve(chosen.pop("metric"))
    return q.CellFilter(**chosen, metric=metric, reviewers=reviewers, exclude_failed=study.validation.failed_variants == "exclude")


def _known(values: list[str], shown: int = 12) -> str:
    if not values:
        return "it has none"
    more = f", and {len(values) - shown} more" if len(values) > shown else ""
    return "known: " + ", ".join(repr(v) for v in values[:shown]) + more


def _facets(store: Store, judges: JudgeMetrics) -> dict[str, list[str]]:
    """The store's filter values (:func:`rhetorica.store.viewer_queries.facet_values`), metrics
    named as the overview offers them."""
    facets = q.facet_values(store)
    facets["metric"] = judges.choices(facets["metric"])
    return facets


def default_metric(forms: list[str]) -> str | None:
    """The metric the overview opens on: the primary metric of the stored ``forms``
    (``name@version``; :func:`rhetorica.analysis.tidy.primary_metric`), or None (every metric)
    when the forms disagree or one is not registered."""


    try:
        return primary_metric(pd.DataFrame({"form": forms}))
    except ValueError:
        return None


def overview(store: Store, run_dir: Path, params: dict[str, list[str]]) -> dict[str, Any]:
    """Context of ``/``: the study name, store counts, filter choices and the headline rows.

    Each row: the cell's keys, ``papers``, the two means, the mean difference (rewrite − original),
    the shares of papers where the rewrite / the original scored higher and tied (%), the
    preference ratio (rewrite higher / original higher; ∞ when the original never is) and the
    exact two-sided sign-test p-value (ties excluded; :func:`rhetorica.analysis.paired.sign_test_pvalues`).
    """
    study = load_run_study(run_dir)
    judges = JudgeMetrics.of_study(study)
    facets = _facets(store, judges)
    cell = _cell_filter(study, params, judges, facets)
    shown_metric = _one(params, "metric")
    if "metric" not in params:  # opened without a choice: the primary score (metric= asks for every metric)
        shown_metric = judges.qualify(default_metric(facets["form"]), facets["metric"])
        metric, reviewers = judges.resolve(shown_metric)
        cell = replace(cell, metric=metric, reviewers=reviewers)
    cells = q.headline_cells(store, cell)
    for c in cells:
        c["metric"] = judges.label(c["reviewer"], c["metric"])
    pvalues = sign_test_pvalues([c["variant_higher"] for c in cells], [c["original_higher"] for c in cells])
    rows = []
    for c, p in zip(cells, pvalues, strict=True):
        n = c["n_papers"]
        higher, lower = c["variant_higher"], c["original_higher"]
        ratio = math.inf if lower == 0 and higher else (higher / lower if lower else math.nan)
        rows.append({
            **{k: c[k] for k in FACETS},
            "link": url("/cell", **{k: c[k] for k in FACETS}),
            "cells": [fmt(n), fmt(c["mean_original"]), fmt(c["mean_variant"]), fmt(c["mean_diff"]),
                      fmt(100 * higher / n, 0), fmt(100 * lower / n, 0), fmt(100 * c["ties"] / n, 0), fmt(ratio),
                      fmt_p(float(p))],
            "values": [n, c["mean_original"], c["mean_variant"], c["mean_diff"], higher / n, lower / n, c["ties"] / n,
                       ratio, float(p)]})
    counts = q.store_counts(store)
    return {"study": study.name, "counts": counts, "flow": _flow(store, study),
            "attacks": attack_applies(study),
            "documents_text": _documents_text(store, counts["documents"]),
            "documents": _documents(store, params, counts["documents"]), "facets": facets, "selected": {**{k: getattr(cell, k) for k in FACETS}, "metric": shown_metric},
            "exclude_failed": cell.exclude_failed, "rows": rows,
            "unit": "review" if judges.families and not judges.others else "paper",
            "headers": ["Reviews" if judges.families and not judges.others else "Papers", "Mean original", "Mean rewrite", "Mean diff", "% rewrite higher",
                        "% original higher", "% tie", "Pref. ratio", "Sign test p"]}


def _flow(store: Store, study: StudyConfig) -> dict[str, Any]:
    """The study flow (:func:`rhetorica.report.flow.store_flow`) as the overview shows it: header
    texts and rows of cell texts of the flow table and of its exclusions."""

    flow = store_flow(store, study)
    if flow.flow.empty or not flow.flow["planned"].any():
        return {"units": None, "exclusions": None}
    return {"units": table_view(flow.flow, FLOW_HEADERS), "exclusions": table_view(flow.exclusions, EXCLUSION_HEADERS)}


def _documents_text(store: Store, total: int) -> str:
    """``N document(s)``, or ``N review(s) of P paper(s)`` when the documents are reviews."""

    papers = paper_ids_of(document_jsons(store))
    return f"{total} review(s) of {len(set(papers.values()))} paper(s)" if papers else f"{total} document(s)"


def _documents(store: Store, params: dict[str, list[str]], total: int) -> dict[str, Any]:
    """The overview's list of every document (``page`` of :data:`DOCUMENTS_PER_PAGE`), each linking
    to its paper page with its rewrites counted by status, so a study where nothing could be
    paired (every rewrite failed) still leads to each paper and its failure reasons.

    Raises:
        PageError: 400 for a ``page`` below 1, 404 for one past the last.
    """
    page = _int(_one(params, "page"), "page", low=1) or 1
    pages = max(1, math.ceil(total / DOCUMENTS_PER_PAGE))
    if page > pages:
        raise PageError(404, f"page {page}: the store's {total} document(s) fill {pages} page(s)")
    rows = [{**d, "link": url("/paper", doc=d["document_id"]),
             "variants_text": ", ".join(f"{status} {n}" for status, n in d["variants"].items()) or "no rewrites"}
            for d in q.document_page(store, (page - 1) * DOCUMENTS_PER_PAGE, DOCUMENTS_PER_PAGE)]
    kept = {k: params[k][-1] for k in FACETS if k in params}  # metric= (every metric) survives paging

    def link(n: int) -> str | None:
        return f"/?{urlencode({**kept, 'page': n})}" if 1 <= n <= pages else None

    return {"rows": rows, "page": page, "pages": pages, "total": total, "previous": link(page - 1),
            "next": link(page + 1)}


def cell(store: Store, run_dir: Path, params: dict[str, list[str]]) -> dict[str, Any]:
    """Context of ``/cell``: the papers behind the headline rows the filter selects (at most 500)."""
    study = load_run_study(run_dir)
    judges = JudgeMetrics.of_study(study)
    chosen = _cell_filter(study, params, judges, _facets(store, judges))
    rows = [{**r, "metric": judges.label(r["reviewer"], r["metric"]),
             "link": url("/paper", doc=r["document_id"], variant=variant_label(r["condition"], r["rewriter"]),
                         reviewer=r["reviewer"])}
            for r in q.cell_papers(store, chosen)]
    selected = {**{k: getattr(chosen, k) for k in FACETS}, "metric": _one(params, "metric")}
    return {"selected": selected, "rows": rows, "back": url("/", **selected)}


def _json(text: str | None) -> Any:
    if not text:
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _check_view(row: dict[str, Any]) -> dict[str, Any]:
    """A variant's stored check as the rows of the paper's validation table."""
    result = _json(row.get("result_json")) or {}
    if not isinstance(result, dict):
        result = {}
    protected = result.get("protected") or {}
    kept = f"{protected.get('kept')}/{protected.get('original')}" if protected else None
    shift = [f"{s.get('measure')}: {fmt(s.get('original'))} → {fmt(s.get('variant'))}"
             f"{'' if s.get('present', True) else ' (shift absent)'}"
             for s in result.get("shift") or [] if isinstance(s, dict)]
    reasons = _json(row.get("reasons_json")) or []
    return {"passed": None if row.get("passed") is None else bool(row["passed"]),
            "similarity": fmt(result.get("semantic_similarity"), 3),
            "min_passage": fmt(result.get("min_passage_similarity"), 3),
            "tfidf": fmt(result.get("tfidf_cosine"), 3), "length_ratio": fmt(result.get("length_ratio"), 3),
            "protected": kept, "missing": [str(m) for m in protected.get("missing") or []],
            "shift": shift, "reasons": [str(r) for r in reasons] if isinstance(reasons, list) else [str(reasons)],
            "error": result.get("error")}


def _findings(row: dict[str, Any]) -> list[dict[str, str]]:
    found = _json(row.get("findings_json")) or []
    out = []
    for f in found if isinstance(found, list) else []:
        location = f.get("location") or {}
        where = ", ".join(f"{k} {v}" for k, v in location.items() if v is not None)
        out.append({"kind": str(f.get("kind")), "severity": str(f.get("severity")), "where": where,
                    "reason": str(f.get("reason") or ""), "text": str(f.get("text") or "")[:600]})
    return out


def _review_fields(review_json: str | None, metrics: set[str]) -> list[tuple[str, list[str]]]:
    """The text fields of a stored review as ``(field, paragraphs)``; score fields are left to the grid."""
    review = _json(review_json)
    if review is None:
        return []
    if not isinstance(review, dict):
        return [("review", [str(review)])]
    out = []
    for key, value in review.items():
        if key in metrics and isinstance(value, int | float):
            continue
        items = value if isinstance(value, list) else [value]
        out.append((str(key), [v if isinstance(v, str) else json.dumps(v, ensure_ascii=False) for v in items]))
    return out


def paper(store: Store, run_dir: Path, params: dict[str, list[str]]) -> dict[str, Any]:
    """Context of ``/paper``: the document, its variants with their checks, the diff of the chosen
    variant, the blinding audit, scan findings, the scores grid, the judge scores by family
    (``judge_families``, :func:`rhetorica.report.viewer.judges.judge_tables`) and the chosen reviews
    with their aspect mentions highlighted (each review's ``aspects``,
    :func:`rhetorica.report.viewer.aspects.highlighted_fields`; ``fields`` then hold pieces).

    Raises:
        PageError: 400 without ``doc``, 404 for a document neither stored nor assessed (an
            assessed id without a stored document is shown by its id, with its reviews).
    """
    doc_id = _one(params, "doc")
    if doc_id is None:
        raise PageError(400, "the paper page needs ?doc=DOCUMENT_ID")
    document = q.document_row(store, doc_id)
    reviewers = q.reviewers_of(store, doc_id)
    if document is None and not reviewers:
        raise PageError(404, f"no document {doc_id!r} in this store")
    if document is None:  # assessed but not stored (a run imported before imports stored documents)
        document = {"document_id": doc_id, "title": doc_id, "kind": "manuscript", "human_score": None,
                    "document_json": None}
    original = _json(document["document_json"]) or {}
    variants = q.variant_rows(store, doc_id)
    for v in variants:
        v["label"] = variant_label(v["condition"], v["rewriter"])
        v["check"] = _check_view(v) if v["result_json"] or v["passed"] is not None else None
    reviewer = _one(params, "reviewer")
    if reviewer is not None and reviewer not in reviewers:
        raise PageError(404, f"reviewer {reviewer!r} did not assess document {doc_id!r}")
    rep = _int(_one(params, "rep"), "rep")
    assessments = q.assessment_rows_of(store, doc_id, reviewer)
    scores: dict[str, dict[str, float]] = {}
    for unit, metric, value in q.scores_of(store, doc_id, reviewer):
        scores.setdefault(unit, {})[metric] = value
    versions = [q.ORIGINAL] + [v["label"] for v in variants]
    for a in assessments:
        a["label"] = variant_label(a["condition"], a["rewriter"])
        if a["label"] not in versions:  # a review of a variant no longer current stays visible
            versions.append(a["label"])
    asked = _one(params, "variant")
    if asked is not None and asked not in versions:
        raise PageError(404, f"variant {asked!r} is not a version of document {doc_id!r} ({_known(versions)})")
    chosen_label = asked or next((v["label"] for v in variants if v["status"] == "ok"), None)
    chosen = next((v for v in variants if v["label"] == chosen_label), None)
    diff = document_diff(document["document_json"], chosen["document_json"]) if chosen and chosen["document_json"] else []
    grid = _scores_grid(assessments, scores, versions, doc_id, chosen_label)

    shown_reviewer = reviewer or (reviewers[0] if reviewers else None)
    reps = sorted({a["replicate"] for a in assessments if a["reviewer"] == shown_reviewer})
    if rep is not None and rep not in reps:
        raise PageError(404, f"rep {rep}: reviewer {shown_reviewer!r} has no replicate {rep} of document {doc_id!r} "
                             f"({_known([str(r) for r in reps])})")
    shown_rep = rep if rep is not None else (reps[0] if reps else None)
    metrics = {m for s in scores.values() for m in s}
    reviews = []
    for label in (q.ORIGINAL, chosen_label):
        found = next((a for a in assessments if a["reviewer"] == shown_reviewer and a["replicate"] == shown_rep
                      and a["label"] == label), None)
        if found is None:
            reviews.append({"label": label, "missing": True})
            continue
        aspects = highlighted_fields(_review_fields(found["review_json"], metrics),
                                     q.annotations_of(store, found["unit_key"]))
        reviews.append({"label": label, "missing": False, "row": found,
                        "scores": sorted(scores.get(found["unit_key"], {}).items()),
                        "fields": aspects["fields"], "aspects": aspects,
                        "calls": [{**c, "link": url("/call", id=c["call_id"])} for c in q.calls_of(store, found["unit_key"])]})
    here = {"doc": doc_id, "variant": chosen_label, "reviewer": reviewer, "rep": rep}
    return {"document": document, "removed": original.get("removed") or [], "variants": variants,
            "chosen": chosen, "chosen_label": chosen_label, "diff": diff, "scans": [
                {**s, "arm": variant_label(s["condition"], s["rewriter"]), "findings": _findings(s)}
                for s in q.scan_rows_of(store, doc_id)],
            "reviewers": reviewers, "reviewer": reviewer, "shown_reviewer": shown_reviewer, "reps": reps,
            "shown_rep": shown_rep, "grid": grid, "reviews": reviews, "here": here,
            "judge_families": judge_tables(JudgeMetrics.of_study(load_run_study(run_dir)), assessments, scores, versions),
            "variant_links": [(v["label"], url("/paper", **{**here, "variant": v["label"]})) for v in variants]}


MAX_INT = 2**63 - 1
"""The largest integer SQLite stores; a larger ``rep`` or ``id`` is out of range."""


def _int(value: str | None, name: str, low: int = 0) -> int | None:
    """The integer parameter ``name`` (None when absent).

    Raises:
        PageError: 400 when it is not an integer or lies outside ``low`` … :data:`MAX_INT`.
    """
    if value is None:
        return None
    try:
        number = int(value)
    except ValueError:
        raise PageError(400, f"{name} must be an integer, got {value!r}") from None
    if not low <= number <= MAX_INT:
        raise PageError(400, f"{name} must be between {low} and {MAX_INT}, got {value!r}")
    return number


def _scores_grid(assessments: list[dict[str, Any]], scores: dict[str, dict[str, float]], versions: list[str],
                 doc_id: str, chosen: str | None) -> dict[str, Any]:
    """Rows ``(reviewer, replicate, metric)``, one column per version; a cell holds the score, or the
    status of a failed assessment (never a number for it), and links to that review."""
    by_key: dict[tuple[str, int], dict[str, dict[str, Any]]] = {}
    for a in assessments:
        by_key.setdefault((a["reviewer"], a["replicate"]), {})[a["label"]] = a
    rows = []
    for (reviewer, rep), found in sorted(by_key.items()):
        metrics = sorted({m for a in found.values() for m in scores.get(a["unit_key"], {})}) or ["–"]
        for metric in metrics:
            cells = []
            for version in versions:
                a = found.get(version)
                if a is None:
                    cells.append({"text": "", "link": None, "failed": False})
                    continue
                value = scores.get(a["unit_key"], {}).get(metric)
                text = fmt(value) if a["status"] == "ok" else a["status"]
                variant = chosen if version == q.ORIGINAL else version
                cells.append({"text": text, "failed": a["status"] != "ok",
                              "link": url("/paper", doc=doc_id, variant=variant, reviewer=reviewer, rep=rep) + "#reviews"})
            rows.append({"reviewer": reviewer, "replicate": rep, "metric": metric, "cells": cells})
    return {"versions": versions, "rows": rows}


def call(store: Store, run_dir: Path, params: dict[str, list[str]]) -> dict[str, Any]:
    """Context of ``/call?id=N``: the call row, its parameters and raw output, and ``unreported``:
    the token counts the provider gave no usable value for (``model_calls.usage_unreported``,
    comma-separated names shown as ``a, b``; ``none`` when every count was usable).

    Raises:
        PageError: 400 for a missing or non-integer id, 404 for an unknown call.
    """
    call_id = _int(_one(params, "id"), "id", low=1)
    if call_id is None:
        raise PageError(400, "the call page needs ?id=CALL_ID")
    row = q.call_row(store, call_id)
    if row is None:
        raise PageError(404, f"no model call {call_id} in this store")
    back = None
    if row["document_id"]:
        back = url("/paper", doc=row["document_id"], variant=variant_label(row["condition"], row["rewriter"])
                   if row["condition"] != q.ORIGINAL else None, reviewer=row["reviewer"], rep=row["replicate"])
    elif row["variant_document"]:
        back = url("/paper", doc=row["variant_document"])
    output = _json(row["output_json"])
    return {"call": row, "back": back,
            "output": json.dumps(output, indent=2, ensure_ascii=False) if isinstance(output, dict | list) else output,
            "params": row["params_json"],
            "unreported": ", ".join(n for n in (row.get("usage_unreported") or "").split(",") if n) or "none"}

