"""Build a run's report from its store: Markdown, self-contained HTML and tidy tables.

Reads only the store (never calls a model), so ``rhetorica report RUN_DIR`` can rebuild it at any
time, including for a partly finished study.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from rhetorica.store.db import Store
from rhetorica.store.export import export_tables

STUDY_FILE = "study.json"


@dataclass
class ReportData:
    """Everything a report shows, as DataFrames (shapes documented per attribute).

    Attributes:
        study: the study config as a dict (from ``study.json`` in the run dir).
        comparisons: the Table-4-shaped comparison table (one row per reviewer x pair).
        condition_means: per reviewer x arm: papers, ok assessments, failed, mean/SD of paper-level overall.
        usage: per provider/model: calls, cache hits, tokens in/out, cost (USD), seconds in calls.
        failures: every non-ok unit and problem: stage, item, status, reason.
        wall_time_s: wall-clock seconds over all runs of this study.
    """

    study: dict[str, Any]
    comparisons: pd.DataFrame
    condition_means: pd.DataFrame
    usage: pd.DataFrame
    failures: pd.DataFrame
    wall_time_s: float
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)


def _condition_means(assessments: pd.DataFrame) -> pd.DataFrame:
    from rhetorica.analysis.paired import paper_scores

    columns = ["reviewer", "arm", "papers", "ok", "failed", "mean_overall", "sd_overall"]
    if assessments.empty:
        return pd.DataFrame(columns=columns)
    papers = paper_scores(assessments, score="overall")
    grouped = papers.groupby(["reviewer", "arm"], sort=True)
    out = grouped["overall"].agg(papers="count", mean_overall="mean", sd_overall="std").reset_index()
    counts = assessments.assign(ok=assessments["status"].eq("ok")).groupby(["reviewer", "arm"])["ok"]
    out = out.merge(counts.agg(ok="sum", total="count").reset_index(), on=["reviewer", "arm"])
    out["failed"] = out["total"] - out["ok"]
    return out[columns]


def _usage(calls: pd.DataFrame) -> pd.DataFrame:
    columns = ["provider", "model", "calls", "cache_hits", "failed_calls", "input_tokens", "output_tokens",
               "cost_usd", "call_seconds"]
    if calls.empty:
        return pd.DataFrame(columns=columns)
    calls = calls.assign(real=1 - calls["cache_hit"], failed=calls["status"].ne("ok").astype(int))
    real = calls[calls["cache_hit"] == 0]
    out = calls.groupby(["provider", "model"]).agg(cache_hits=("cache_hit", "sum"), failed_calls=("failed", "sum"))
    sums = real.groupby(["provider", "model"]).agg(
        calls=("real", "sum"), input_tokens=("input_tokens", "sum"), output_tokens=("output_tokens", "sum"),
        cost_usd=("cost_usd", "sum"), call_seconds=("latency_s", "sum"))
    out = out.join(sums, how="left").fillna(0).reset_index()
    return out[columns]


def _failures(tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    frames = []
    variants = tables["variants"]
    bad = variants[variants["status"] != "ok"]
    frames.append(pd.DataFrame({
        "stage": "rewrite", "item": bad["document_id"] + " / " + bad["condition"] + " / " + bad["rewriter"],
        "status": bad["status"], "reason": bad["reason"]}))
    assessments = tables["assessments"]
    bad = assessments[assessments["status"] != "ok"]
    frames.append(pd.DataFrame({
        "stage": "review",
        "item": bad["document_id"] + " / " + bad["arm"] + " / " + bad["reviewer"] + " / rep " + bad["replicate"].astype(str),
        "status": bad["status"], "reason": bad["reason"]}))
    frames.append(tables["problems"][["stage", "item", "status", "reason"]])
    frames = [f for f in frames if not f.empty]
    if not frames:
        return pd.DataFrame(columns=["stage", "item", "status", "reason"])
    return pd.concat(frames, ignore_index=True)


def collect(run_dir: Path) -> ReportData:
    """Read the store of ``run_dir`` into :class:`ReportData` and export the tidy tables.

    Raises:
        FileNotFoundError: if ``run_dir`` has no store.
    """
    from rhetorica.analysis.paired import comparison_table, default_pairs
    from rhetorica.store.db import STORE_FILENAME

    if not (run_dir / STORE_FILENAME).exists():
        raise FileNotFoundError(f"{run_dir}: no {STORE_FILENAME} here; is this a rhetorica run directory?")
    study = json.loads((run_dir / STUDY_FILE).read_text("utf-8")) if (run_dir / STUDY_FILE).exists() else {}
    store = Store.in_dir(run_dir)
    try:
        tables = export_tables(store, run_dir / "tables")
        wall = float(store.rows("SELECT COALESCE(SUM(wall_time_s), 0) FROM runs")[0][0])
    finally:
        store.close()
    assessments = tables["assessments"]
    threshold = float(study.get("decision_threshold", 4.5))
    arms = sorted(set(assessments["arm"])) if not assessments.empty else []
    pairs = [tuple(p) for p in study.get("comparisons") or []] or default_pairs(arms)
    pairs = [p for p in pairs if p[0] in arms and p[1] in arms]
    comparisons = comparison_table(assessments, pairs, threshold=threshold) if pairs else pd.DataFrame()
    return ReportData(study=study, comparisons=comparisons, condition_means=_condition_means(assessments),
                      usage=_usage(tables["model_calls"]), failures=_failures(tables), wall_time_s=wall,
                      tables=tables)


def fmt(value: Any, digits: int = 2) -> str:
    """Format a cell: NaN -> '–', inf -> '∞', floats to ``digits`` decimals."""
    if value is None:
        return "–"
    if isinstance(value, float):
        if math.isnan(value):
            return "–"
        if math.isinf(value):
            return "∞"
        return f"{value:.{digits}f}"
    return str(value)


COMPARISON_HEADERS = {
    "reviewer": "Reviewer", "first": "A", "second": "B", "n_pairs": "Papers",
    "pct_first_higher": "% A higher", "pct_second_higher": "% B higher", "pct_tie": "% tie",
    "preference_ratio": "Pref. ratio", "sign_test_p": "Sign test p",
    "flips_first_accept_pct": "Flip A acc. (%)", "flips_second_accept_pct": "Flip B acc. (%)",
    "mean_first": "Mean A", "mean_second": "Mean B", "missing_first": "Missing A", "missing_second": "Missing B",
}


def display_table(df: pd.DataFrame, headers: dict[str, str] | None = None) -> tuple[list[str], list[list[str]]]:
    """Headers and formatted rows of ``df`` (columns restricted and renamed by ``headers``)."""
    if headers:
        df = df[[c for c in headers if c in df.columns]]
    names = [headers.get(c, c) if headers else c for c in df.columns]
    rows = [[fmt(v, 3 if col == "sign_test_p" else 2) for col, v in zip(df.columns, row, strict=True)]
            for row in df.itertuples(index=False)]
    return names, rows
