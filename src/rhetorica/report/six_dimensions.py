"""Report section of the six-dimension study (STUDIES.md §2): the main table and the variants'
outcomes.

Shown when the study has a rewriter of a LaTeX-project kind (``latex-project``, ``agent``). Tables:

1. the main table — dimension × direction × reviewer × rewriter (and ``pooled``): signed and
   absolute change of the primary score against the original and the weak-accept change, 95%
   stratified bootstrap intervals (:func:`rhetorica.analysis.six_dimensions.main_table`);
2. ``+`` against ``-`` of the same dimension;
3. Strict − Standard of each model (when a model reviews under both);
4. every project variant's outcome: status and, for a discarded or failed one, why (the checker's
   and compiler's messages after the last repair round);
5. the guided workflow's intermediate reviews (the rewriting model's review of the compiled joint
   variant, the ``guided_reviews`` table): status, overall score, why it failed.

All cell text is escaped by the renderer.
"""

from __future__ import annotations

import json

import pandas as pd

from rhetorica.report.build import analysed_assessments
from rhetorica.problems import WARNING_PREFIX, is_warning
from rhetorica.report.data import ReportData, fmt_ci
from rhetorica.report.views import Section, table_view
from rhetorica.analysis.six_dimensions import direction_contrast, main_table, strict_minus_standard
from rhetorica.kinds import rewriter_kind


MAIN_HEADERS = {"dimension": "Dimension", "direction": "Direction", "reviewer": "Reviewer", "rewriter": "Rewriter",
                "n_papers": "Papers", "change": "Mean change [95% CI]", "abs_change": "Mean |change| [95% CI]",
                "wa_change": "Weak-accept change [95% CI]"}
#: The compile notes among a run's warnings (the wording of
#: :meth:`rhetorica.documents.latex.substitutes.Substitutes.describe`).
COMPILE_NOTE = r"substitute |missing figure drawn as a box|missing plot data|TikZ externalization disabled"
CONTRAST_HEADERS = {**MAIN_HEADERS, "direction": "Contrast"}
STRICT_HEADERS = {"reviewer": "Model / arm", "n_papers": "Papers", "change": "Strict − Standard [95% CI]",
                  "wa_change": "Weak-accept change [95% CI]"}
GUIDED_HEADERS = {"document_id": "Paper", "reviewer": "Rewriter", "status": "Review status", "overall": "Overall",
                  "reason": "Why not ok"}
OUTCOME_HEADERS = {"document_id": "Paper", "condition": "Condition", "rewriter": "Rewriter", "status": "Status",
                   "reason": "Why (after the last repair round)"}


def six_dimensions_applies(data: ReportData) -> bool:
    """Whether the study has a LaTeX-project rewriter (a kind that ``uses_project``)."""
    return any(rewriter_kind(rw.kind).uses_project for rw in data.study.rewriters)


def _shown(table: pd.DataFrame) -> pd.DataFrame:
    if table.empty:
        return table
    return table.assign(
        change=[fmt_ci(*v) for v in zip(table["mean_change"], table["mean_change_low"], table["mean_change_high"])],
        abs_change=[fmt_ci(*v) for v in zip(table["mean_abs_change"], table["mean_abs_change_low"],
                                         table["mean_abs_change_high"])],
        wa_change=[fmt_ci(*v) for v in zip(table["weak_accept_change"], table["weak_accept_change_low"],
                                        table["weak_accept_change_high"])])


def six_dimensions_section(data: ReportData, *, n_resamples: int = 5000, seed: int = 0) -> Section:
    """The section (see the module docstring)."""

    note = ("Each rewrite of a LaTeX project against its original (same paper, reviewer and protocol); both "
            "compiled and read from their PDFs by the same reader. Replicates averaged within paper, then equal "
            "weight over the human-rating strata; 95% percentile intervals from "
            f"{n_resamples:,} stratified paper-level bootstrap resamples; weak accept = overall ≥ 6. 'pooled' "
            "averages the rewriters' variants of a paper. Discarded variants (anchor violations or compile "
            "errors left after the repair rounds) are never reviewed and are missing here.")
    section = Section("six_dimensions", "Six-dimension study: change by dimension, direction, reviewer and rewriter", note)
    assessments = data.tables.get("assessments", pd.DataFrame())
    variants = data.tables.get("variants", pd.DataFrame())
    if not assessments.empty and assessments["status"].eq("ok").any():
        df = analysed_assessments(assessments, data.study)
        try:
            main = main_table(df, n_resamples=n_resamples, seed=seed)
            contrast = direction_contrast(df, n_resamples=n_resamples, seed=seed)
            strict = strict_minus_standard(df, n_resamples=n_resamples, seed=seed)
        except ValueError as exc:
            section.unavailable = f"analysis failed: {exc}"
            main = contrast = strict = pd.DataFrame()
        if not main.empty:
            section.tables.append(table_view(_shown(main), MAIN_HEADERS, "Main table: each rewrite versus its original"))
        if not contrast.empty:
            section.tables.append(table_view(_shown(contrast.assign(direction="+ vs −")), CONTRAST_HEADERS,
                                        "Positive versus negative direction of the same dimension"))
        if not strict.empty and strict["n_papers"].gt(0).any():
            section.tables.append(table_view(_shown(strict[strict["n_papers"] > 0]), STRICT_HEADERS,
                                        "Strict minus Standard (same model, paper and arm)"))
    elif section.unavailable is None:
        section.unavailable = "no successful assessments yet"
    problems = data.tables.get("problems", pd.DataFrame())
    if not problems.empty and "reason" in problems.columns:
        reasons = problems["reason"].astype(str)
        notes = problems[reasons.map(is_warning) & reasons.str.contains(COMPILE_NOTE)]
        if not notes.empty:
            by_project = notes.groupby("item", sort=False)["reason"].agg(
                lambda rs: ", ".join(r[len(WARNING_PREFIX):] for r in rs))
            section.note += (" Baselines compiled with substitutes for missing files: "
                             + "; ".join(f"{item}: {said}" for item, said in by_project.items()) + ".")
    if not variants.empty:
        outcome = variants[["document_id", "condition", "rewriter", "status", "reason"]].fillna("")
        counts = outcome["status"].value_counts()
        section.note += " Variants: " + ", ".join(f"{n} {s}" for s, n in counts.items()) + "."
        section.tables.append(table_view(outcome, OUTCOME_HEADERS, "Every project variant's outcome"))
    guided = _intermediate_reviews(data.tables.get("guided_reviews", pd.DataFrame()))
    if not guided.empty:
        section.tables.append(table_view(guided, GUIDED_HEADERS, "Guided workflow: the rewriting model's review of "
                                                                 "the compiled joint variant"))
    return section


def _intermediate_reviews(reviews: pd.DataFrame) -> pd.DataFrame:
    """One row per current guided review (:func:`rhetorica.store.export.guided_reviews_table`):
    paper, rewriter, status, overall, reason."""

    rows = []
    for record in reviews.to_dict("records"):
        overall = (json.loads(record["record_json"]).get("scores") or {}).get("overall")
        rows.append({"document_id": record["document_id"], "reviewer": record["rewriter"], "status": record["status"],
                     "overall": "–" if overall is None else f"{overall:g}", "reason": record["reason"] or ""})
    return pd.DataFrame(rows)
