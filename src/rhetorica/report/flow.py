"""The report's study-flow section (the CONSORT diagram of the study): a table, a figure and the n
behind each test. Numbers come from :mod:`rhetorica.analysis.flow`; nothing is computed here.

- Table: one row per stage, arm and configuration (per metric for judges): planned, not run,
  failed, produced, excluded, analysed; then every exclusion with its reason and count.
- Figure: one horizontal bar per row, split into analysed, excluded, failed and not run.
- Effective n: per test of the analysis tables, its papers, reviews, pairs, non-zero differences
  and clusters; for a test on expected scores (soft ratings), also the assessments without one
  and why.

:func:`run_flow` assembles the flow's inputs from a run's tidy tables (the report's collect step
and, through :func:`store_flow`, the viewer's overview call it).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from rhetorica.report.data import ReportData
from rhetorica.report.views import Section, table_view
from rhetorica.analysis.flow import study_flow
from rhetorica.judges.analysis import declared_metrics, judge_labels, judge_pairs
from rhetorica.report.judges import judge_names, paper_ids_of, reviewer_records
from rhetorica.report.latex import Column, booktabs, escape
from rhetorica.report.plots import _png, _pyplot
from rhetorica.report.selection import analysed_assessments
from rhetorica.report.validation import validation_table
from rhetorica.store.export import (
    annotations_table,
    arm_labels,
    assessments_table,
    extracts_table,
    guided_reviews_table,
    problems_table,
    scores_long,
    variants_table,
)
from rhetorica.store.plan import plan_keys
from rhetorica.store.runs import document_jsons, read_checks
from rhetorica.study.config import StudyConfig
from rhetorica.study.graph import study_stages

FLOW_HEADERS = {"stage": "Stage", "arm": "Arm", "configuration": "Configuration", "metric": "Metric",
                "planned": "Planned", "not_run": "Not run", "failed": "Failed", "produced": "Produced",
                "excluded": "Excluded", "analysed": "Analysed"}
EXCLUSION_HEADERS = {"stage": "Stage", "arm": "Arm", "configuration": "Configuration", "metric": "Metric",
                     "kind": "Kind", "reason": "Reason", "n": "n"}
EFFECTIVE_HEADERS = {"table": "Table", "test": "Test", "configuration": "Configuration", "comparison": "Comparison",
                     "metric": "Metric", "papers": "Papers", "reviews": "Reviews", "pairs": "Pairs",
                     "nonzero": "Non-zero d", "clusters": "Clusters", "missing": "No soft rating",
                     "missing_reasons": "Why no soft rating"}
FIGURE_ROWS = 60
"""Most bars in the flow figure; beyond it the ``metric`` rows are summed per condition and judge."""

_SEGMENTS = (("analysed", "#2ca02c"), ("excluded", "#ff7f0e"), ("failed", "#d62728"), ("not_run", "#9e9e9e"))


def _without_empty(df: pd.DataFrame, headers: dict[str, str], column: str) -> dict[str, str]:
    """``headers`` without ``column`` when every cell of it is empty."""
    if column in df.columns and df[column].fillna("").astype(str).eq("").all():
        return {k: v for k, v in headers.items() if k != column}
    return headers


def flow_section(data: ReportData) -> Section:
    """The study-flow section (see the module docstring)."""
    note = ("Every unit the study planned, per stage, arm and configuration (per judge and declared metric for "
            "review-quality judges): Planned = Not run + Failed + Produced; Analysed = Planned − every exclusion "
            "listed below (not run, failed, excluded), each with its reason and count. A stage passes its analysed "
            "units on to the next (rewrites to validation, validated variants to review; a variant without a "
            "check is reviewed unvalidated). Review: planned = inputs passed on × replicates. Metric: the rewrites "
            "passed on; analysed = rewrites whose rewrite and original both have a usable score (Table 1's Pairs). "
            "A declared configuration or metric with no usable output is listed with Analysed 0. Units of earlier "
            "declarations of the study (superseded) are not counted.")
    section = Section("flow", "Study flow: planned, excluded and analysed units", note)
    flow = data.flow
    if flow is None or flow.flow.empty or not flow.flow["planned"].any():
        section.unavailable = "no unit of this study is planned or stored yet"
        return section
    rows = flow.flow
    section.tables.append(table_view(rows, _without_empty(rows, FLOW_HEADERS, "metric"),
                                     "Units per stage, arm and configuration"))
    if not flow.exclusions.empty:
        out = flow.exclusions
        section.tables.append(table_view(out, _without_empty(out, EXCLUSION_HEADERS, "metric"),
                                         "Why units did not reach the analysis"))
    if not data.effective_n.empty:
        eff = data.effective_n
        headers = {k: v for k, v in EFFECTIVE_HEADERS.items() if k not in eff.columns or eff[k].notna().any()}
        section.tables.append(table_view(eff, _without_empty(eff, headers, "metric"),
                                         "The n behind each test (Non-zero d: the differences a sign or "
                                         "Wilcoxon test used, ties dropped; Clusters: units of the clustered or "
                                         "paper-level analysis" + (
                                             "; tests on expected scores (metric <score>.expected): the "
                                             "reviews or judgements with a soft rating, and those the integer "
                                             "test used without one (No soft rating), by reason"
                                             if "missing" in eff.columns else "") + ")",
                                         digits=dict.fromkeys(
                                             ("papers", "reviews", "pairs", "nonzero", "clusters", "missing"), 0)))
    return section


def _figure_rows(flow: pd.DataFrame) -> pd.DataFrame:
    """The bars of the figure: every row, or with the ``metric`` rows summed per condition and
    judge when there are more than :data:`FIGURE_ROWS`."""
    if len(flow) <= FIGURE_ROWS:
        return flow
    metric = flow[flow["stage"] == "metric"]
    counts = ["planned", "not_run", "failed", "produced", "excluded", "analysed"]
    summed = metric.groupby(["stage", "arm", "configuration"], sort=False)[counts].sum().reset_index()
    summed["metric"] = "all metrics"
    return pd.concat([flow[flow["stage"] != "metric"], summed], ignore_index=True).head(FIGURE_ROWS)


def flow_figure(flow: pd.DataFrame) -> Any:
    """One horizontal bar per flow row (stage · arm · configuration [· metric]), split into
    analysed, excluded, failed and not-run units.

    Raises:
        ValueError: ``flow`` has no row.
    """

    if flow.empty:
        raise ValueError("no unit planned")
    rows = _figure_rows(flow)
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8.0, 1.0 + 0.28 * len(rows)))
    labels = [" · ".join(str(v) for v in (r.stage, r.arm, r.configuration, r.metric) if v not in ("", "–"))
              for r in rows.itertuples(index=False)]
    y = list(range(len(rows)))[::-1]
    left = pd.Series(0.0, index=rows.index)
    for column, colour in _SEGMENTS:
        values = rows[column].astype(float)
        ax.barh(y, values, left=left, color=colour, label=column.replace("_", " "), height=0.7)
        left = left + values
    ax.set_yticks(y)
    ax.set_yticklabels(labels, fontsize=6)
    ax.set_xlabel("units")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.legend(fontsize=7, loc="lower left", bbox_to_anchor=(0.0, 1.02), ncol=4, frameon=False)
    fig.tight_layout()
    return fig


def flow_png(flow: pd.DataFrame) -> bytes:
    """PNG of :func:`flow_figure`."""

    return _png(flow_figure(flow), None)


def flow_latex(flow: pd.DataFrame) -> str:
    """The flow table as booktabs LaTeX (every text cell escaped)."""

    def count(name: str) -> Column:
        return Column(FLOW_HEADERS[name], lambda r: str(int(r[name])))

    cols = [Column("Stage", lambda r: escape(r["stage"]), "l"), Column("Arm", lambda r: escape(r["arm"]), "l"),
            Column("Configuration", lambda r: escape(r["configuration"]), "l"),
            Column("Metric", lambda r: escape(r["metric"]), "l"),
            *(count(c) for c in ("planned", "not_run", "failed", "produced", "excluded", "analysed"))]
    return booktabs(flow, cols, caption="Study flow: planned, not run, failed, produced, excluded and analysed "
                                        "units per stage, arm and configuration.", label="tab:flow")


def run_flow(study: StudyConfig, tables: dict[str, pd.DataFrame], documents: pd.DataFrame,
             validation: pd.DataFrame, analysed: pd.DataFrame, planned: dict[str, int | None],
             judge_pairs: pd.DataFrame | None = None, declared: dict[str, list[str]] | None = None) -> Any:
    """:func:`rhetorica.analysis.flow.study_flow` of a run's tidy tables (``variants``,
    ``assessments``, ``problems``, ``extracts``, ``annotations``, ``guided_reviews``); ``documents`` is the store's
    documents table, of which those with a current unit are the study's; ``judge_pairs`` and
    ``declared`` (:func:`rhetorica.judges.analysis.judge_pairs`, ``declared_metrics``) give
    the metric stage of a judge study. Each variant's row is under the stage that stored it
    (``variants.stage``), placed in the order of the study's unit graph."""

    variants, assessments = tables["variants"], tables["assessments"]
    used = set(variants["document_id"]) | set(assessments["document_id"])
    configurations: dict[str, list[str]] = {}
    for name, label in judge_labels(reviewer_records(study.reviewers)).items():
        configurations.setdefault(label, []).append(name)
    extracts = tables.get("extracts", pd.DataFrame())
    if not extracts.empty:
        extracts = extracts.assign(arm=arm_labels(extracts[["condition", "rewriter"]]),
                                   configuration=extracts["extractor"])
    annotations = tables.get("annotations", pd.DataFrame())
    if not annotations.empty:
        arms = assessments.set_index("unit_key")["arm"]
        annotations = annotations.assign(arm=annotations["assessment_key"].map(arms),
                                         configuration=annotations["annotator"])
    guided = tables.get("guided_reviews", pd.DataFrame())
    if not guided.empty:
        guided = guided.assign(configuration=guided["rewriter"])
    return study_flow(study.model_dump(mode="json"), documents=documents[documents["document_id"].isin(used)], variants=variants,
                      validation=validation, assessments=assessments, analysed=analysed,
                      problems=tables["problems"], planned=planned,
                      judge_pairs=judge_pairs, declared_metrics=declared, judge_configurations=configurations,
                      extracts=extracts, annotations=annotations, guided_reviews=guided,
                      stages=[stage.name for stage in study_stages(study)])


def planned_sizes(store: Any) -> dict[str, int | None]:
    """Stage -> size of its recorded plan (None: no plan recorded), for the planned stages."""

    return {stage: (None if (keys := plan_keys(store, stage)) is None else len(keys))
            for stage in ("rewrite", "review", "extract", "annotate", "guided-review")}


def study_documents(store: Any) -> pd.DataFrame:
    """The store's documents table (``document_id``, ``kind``), by id."""
    return pd.read_sql_query("SELECT document_id, kind FROM documents ORDER BY document_id", store.conn)


def store_flow(store: Any, study: StudyConfig) -> Any:
    """The study flow of an open store (:class:`rhetorica.analysis.flow.StudyFlow`), computed as
    the report computes it, without writing anything (the viewer's overview shows it)."""

    tables = {"variants": variants_table(store), "assessments": assessments_table(store),
              "problems": problems_table(store), "extracts": extracts_table(store),
              "annotations": annotations_table(store), "guided_reviews": guided_reviews_table(store)}
    checks = read_checks(store)
    current = plan_keys(store, "rewrite")
    if current is not None:
        checks = checks[checks["variant_key"].isin(current)].reset_index(drop=True)
    analysed = analysed_assessments(tables["assessments"], study)
    pairs, declared = None, None
    reviewers = reviewer_records(study.reviewers)
    if judge_names(study):  # the metric stage needs the pairs, not the tests
        style = study.judge_analysis.include_style
        scores = scores_long(store)
        pairs, _ = judge_pairs(scores[scores["unit_key"].isin(analysed["unit_key"])], reviewers,
                               paper_ids_of(document_jsons(store)), include_style=style)
        declared = declared_metrics(reviewers, include_style=style)
    return run_flow(study, tables, study_documents(store), validation_table(checks), analysed, planned_sizes(store),
                    pairs, declared)
