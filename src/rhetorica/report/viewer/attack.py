"""The viewer's worst-case attack pages (issue 27 §1), for a study with rewriters of ``kind: attack``.

- ``/attacks`` — every search (paper, target, direction): rounds, queries, cost, the held-out
  shift of its target beside its in-search original and best (biased: best of many noisy
  reviews), as the report's search table (:func:`rhetorica.report.attack.search_table`); each
  links to its page.
- ``/attack?variant=KEY`` — one search, by its winning variant's unit key: per round every
  candidate with its in-search score, its replicates' scores, whether it passed validation (or
  why not) and whether it was kept; then the winner diffed against the original with the paper
  page's word diff (:func:`rhetorica.report.viewer.diff.document_diff`).

Apart from :mod:`rhetorica.report.viewer.pages` because it reads the report's analysis, as
:mod:`rhetorica.report.viewer.tables` does. Every text is escaped by the templates.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rhetorica.report.attack import HELD_OUT_NOTE, SEARCH_HEADERS, attack_records, search_table
from rhetorica.report.data import fmt
from rhetorica.report.selection import analysed_assessments
from rhetorica.report.viewer.diff import document_diff
from rhetorica.report.viewer.pages import PageError, _one, url, variant_label
from rhetorica.store import viewer_queries as q
from rhetorica.store.db import Store
from rhetorica.store.export import artefacts_table, assessments_table
from rhetorica.study.run_study import load_run_study

LIST_COLUMNS = ("document", "target", "direction", "rounds", "queries", "cost_usd", "held_out_original",
                "held_out_winner", "held_out_shift", "original_score", "best_in_search_score", "in_search_shift")
"""The columns of ``/attacks``, headed as the report's search table (:data:`SEARCH_HEADERS`)."""


def attacks(store: Store, run_dir: Path, params: dict[str, list[str]]) -> dict[str, Any]:
    """Context of ``/attacks``: one row per stored search (``cells`` formatted as the report's,
    ``link`` to its ``/attack`` page); ``params`` is unused (the page has no filter)."""
    study = load_run_study(run_dir)
    records = attack_records(artefacts_table(store))
    table = search_table(analysed_assessments(assessments_table(store), study), records)
    rows = [{"link": url("/attack", variant=row["variant_key"]), "document": row["document"],
             "cells": [fmt(row[c]) for c in LIST_COLUMNS[1:]]} for row in table.to_dict("records")]
    return {"study": study.name, "headers": [SEARCH_HEADERS[c] for c in LIST_COLUMNS],
            "rows": rows, "held_out_note": HELD_OUT_NOTE}


def attack(store: Store, run_dir: Path, params: dict[str, list[str]]) -> dict[str, Any]:
    """Context of ``/attack?variant=KEY``: the search whose winner is the variant ``KEY`` — its
    record, its rounds (``candidates`` with ``score``, ``scores``, ``valid``, ``reason``,
    ``kept``), the winner's word diff against the original and a link to the paper page.

    Raises:
        PageError: 400 without ``variant``, 404 when no stored search has that winner.
    """
    key = _one(params, "variant")
    if key is None:
        raise PageError(400, "the attack page needs ?variant=WINNING_VARIANT_KEY (see /attacks)")
    record = next((r for r in attack_records(artefacts_table(store)) if r["variant_key"] == key), None)
    if record is None:
        raise PageError(404, f"no attack search in this store has the winning variant {key!r} (see /attacks)")
    document = q.document_row(store, record["document"])
    winner = next((v for v in q.variant_rows(store, record["document"]) if v["variant_key"] == key), None)
    has_text = document is not None and winner is not None and winner["document_json"]
    diff = document_diff(document["document_json"], winner["document_json"]) if has_text else []
    rounds = [{"round": r["round"], "candidates": [
        {**c, "score_text": fmt(c.get("score")), "scores_text": ", ".join(fmt(s) for s in c.get("scores") or []),
         "kept_text": fmt(bool(c.get("kept")))} for c in r["candidates"]]} for r in record["rounds"]]
    paper = url("/paper", doc=record["document"],
                variant=variant_label(winner["condition"], winner["rewriter"]) if winner else None)
    return {"record": record, "rounds": rounds, "diff": diff, "paper_link": paper, "winner": winner,
            "held_out_note": HELD_OUT_NOTE,
            "summary": {k: fmt(record.get(k)) for k in ("original_score", "best_in_search_score", "queries",
                                                         "cost_usd", "stopped", "metric")}}
