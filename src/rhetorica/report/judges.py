"""The report's review-metric section: Table 1 and Figure 1 of the review-metric study (STUDIES.md §3).

- **Table 1**, per rewrite condition: for the first judge, one row per classified metric —
  metric, family, scale, mean Δ = mean of S(rewrite) − S(original), Wilcoxon p, TOST p (bound δ_m),
  discriminability across reviews with its interval, class (the four classes, not informative,
  false robustness) with its reason, and the second judge's class with whether the two agree; under it, how many
  metrics both judges classified the same. Where judgements carry soft ratings (expected scores),
  the soft columns beside them: pairs, median and mean Δ of expected scores with the paired
  bootstrap interval, Wilcoxon p (:data:`rhetorica.judges.analysis.TABLE1_SOFT_COLUMNS`).
  Markdown/HTML through :class:`~rhetorica.report.sections.Section`, LaTeX through
  :func:`table1_latex` (booktabs, every cell escaped).
- The same classification with d averaged per paper first, shown when some class differs.
- **Figure 1**: each metric placed by its two p-values (x: −log10 Wilcoxon p, y: −log10 TOST p),
  with the Bonferroni α lines; the quadrants are the four classes.
- The review variants' checks (points, scores, recommendation, length, shift).

Numbers come from :func:`rhetorica.judges.analysis.judge_study`; nothing is computed here.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pandas as pd

from rhetorica.documents.models import lift_typed_metadata
from rhetorica.report.data import ReportData, fmt_ci
from rhetorica.report.views import Section, table_view
from rhetorica.judges.analysis import judge_study
from rhetorica.judges.kind import judge_options
from rhetorica.study.config import ReviewerSpec, StudyConfig
from rhetorica.report.latex import Column, booktabs, escape, number, pvalue
from rhetorica.report.plots import _png, _pyplot
from rhetorica.wording import counted

TABLE1_HEADERS = {
    "metric": "Metric", "family": "Family", "scale": "Scale", "n_pairs": "Pairs", "wilcoxon_n": "Non-zero d",
    "mean_diff": "Mean Δ", "wilcoxon_p": "Wilcoxon p", "bound": "δ", "tost_p": "TOST p", "classification": "Class",
    "discrimination": "Discriminability [CI]", "second_class": "Second judge", "agree": "Agree",
    "reason": "Why no test or no verdict",
}
SOFT_HEADERS = {
    "soft_n_pairs": "Soft pairs", "soft_nonzero": "Soft non-zero d", "soft_median_diff": "Soft median Δ",
    "soft_interval": "Soft mean Δ [95% CI]", "soft_wilcoxon_p": "Soft Wilcoxon p",
}
"""Table 1's soft columns (shown when the table has them), after the integer tests' columns."""
CLUSTER_HEADERS = {
    "judge": "Judge", "metric": "Metric", "n_pairs": "Units", "mean_diff": "Mean Δ", "wilcoxon_p": "Wilcoxon p",
    "tost_p": "TOST p", "classification": "Class",
}
DIFF_HEADERS = {"judge": "Judge", "metric": "Metric"}
CHECK_HEADERS = {"document_id": "Review", "condition": "Condition", "rewriter": "Rewriter", "passed": "Passed",
                 "reasons": "Problems"}


def judge_names(study: StudyConfig) -> set[str]:
    """Names of the study's judge configurations (:func:`rhetorica.judges.kind.judge_options`)."""
    return {r.name for r in study.reviewers if judge_options(r) is not None}


def reviewer_records(reviewers: list[ReviewerSpec]) -> list[dict[str, Any]]:
    """Reviewer configurations as the mappings :mod:`rhetorica.judges.analysis` reads
    (``name, kind, model, options``: the validated specs dumped, only the options set)."""
    return [r.model_dump() for r in reviewers]


def judges_applies(data: ReportData) -> bool:
    """Whether the study has judge configurations."""
    return bool(judge_names(data.study))


def judges_section(data: ReportData) -> Section:
    """The review-metric section (see the module docstring)."""
    note = ("Per metric m and rewrite i: d = S_m(rewrite_i) − S_m(original_i). Wilcoxon signed-rank on d (zeros "
            "discarded) tests surface sensitivity; TOST with bound δ_m (on the metric's scale) tests robustness; "
            "both at Bonferroni α = alpha / M, M = the number of metrics the judge was declared to classify "
            "(every metric of its families' forms; style-targeted metrics excluded unless "
            "judge_analysis.include_style), whether or not a metric produced data: a metric without a usable pair "
            "is listed with Pairs 0, class 'not computable' and why, and keeps its place in M. Pairs = rewrites "
            "with both sides scored; Non-zero d = the differences the Wilcoxon test ranked (zeros dropped). Classes: sensitive (Wilcoxon rejects, TOST does not), "
            "robust (TOST rejects, Wilcoxon does not), sensitive and robust (both), inconclusive (neither); "
            "before these, not informative when the data cannot carry a verdict (one score level in both arms or "
            "each arm constant; TOST not computable, its t statistic undefined because every difference is equal "
            "(zero variance) or there are fewer than two, with TOST p shown '–', while the Wilcoxon test does "
            "not reject; or neither test rejecting while the Wilcoxon test could not have "
            "rejected whatever the signs), with the reason. Discriminability: does the metric tell reviews "
            "apart — over review pairs ordered by the judge's score of their originals, the probability that a "
            "rewrite of the higher-scored review scores above one of the other (0.5 = chance; ties 1/2), with "
            "its review-bootstrap interval at the study's α; a robust metric whose interval reaches down to "
            "0.55 is false robustness (stable because it does not tell reviews apart), one whose "
            "discriminability is not computable is not informative. "
            "Judge = the judge configuration's model. Failed judgements are missing, never imputed.")
    section = Section("judges", "Review-quality judges: sensitive or robust to rewriting (Table 1)", note)
    if "judges" not in data.analysis:
        section.unavailable = data.unavailable.get("judges", "no judge scored both an original and a rewrite")
        return section
    table1 = data.analysis["judges"]
    if "soft_n_pairs" in table1.columns:
        section.note += (" Soft columns: the same pairs with S the expected score of a soft rating (the judge's "
                         "probability over the metric's levels; a judgement's expected score is the mean over the "
                         "calls or weakness points its score is made of, missing when any has no distribution, "
                         "never imputed): Soft pairs = rewrites with an expected score on both sides, median and "
                         "mean Δ with the mean's 95% paired BCa bootstrap interval, Wilcoxon signed-rank p (not "
                         "Bonferroni-adjusted, no class). The study flow lists the judgements without one and why.")
    clustered = data.analysis.get("judges_clustered", pd.DataFrame())
    differences = data.analysis.get("judges_differences", pd.DataFrame())
    for condition, part in table1.groupby("condition", sort=True):
        judge = part["judge"].iloc[0]
        alpha = part["alpha_bonferroni"].iloc[0]
        tested = int((part["n_pairs"] > 0).sum())
        caption = (f"Table 1 — condition {condition}, judge {judge}: M = {len(part)} declared metrics "
                   f"({tested} with a test), Bonferroni α = {alpha:.5f}")
        second = part["second_judge"].dropna()
        if len(second):
            compared = part["agree"].notna()  # None/NaN: nothing compared (equivalence.classes_agree)
            same = int(part.loc[compared, "agree"].astype(bool).sum())
            caption += (f"; {same} of the {counted(int(compared.sum()), 'metric')} both judges could classify classified the "
                        f"same by {second.iloc[0]} ({len(part) - int(compared.sum())} not compared: not "
                        "informative or untested for either judge)")
            caption += _untested_judge(data.analysis.get("judges_all", pd.DataFrame()), second.iloc[0], condition)
        headers = TABLE1_HEADERS if part["reason"].notna().any() else {
            k: v for k, v in TABLE1_HEADERS.items() if k != "reason"}
        shown = part.assign(classification=part["classification"].str.replace("_", " "),
                            second_class=part["second_class"].map(lambda c: c.replace("_", " ")
                                                                  if isinstance(c, str) else c),
                            discrimination=[fmt_ci(m, lo, hi, 2) for m, lo, hi in zip(
                                part["discriminability"], part["discriminability_low"],
                                part["discriminability_high"])])
        if "soft_n_pairs" in part.columns:
            headers = _soft_headers(headers)
            shown = shown.assign(soft_interval=[fmt_ci(m, lo, hi, 3) for m, lo, hi in zip(
                part["soft_mean_diff"], part["soft_ci_low"], part["soft_ci_high"])])
        section.tables.append(table_view(shown, headers, caption, digits={
            "mean_diff": 3, "wilcoxon_p": 4, "tost_p": 4, "soft_median_diff": 3, "soft_wilcoxon_p": 4,
            "soft_n_pairs": 0, "soft_nonzero": 0}))
        diff = differences[differences["condition"] == condition] if not differences.empty else differences
        level = data.study.judge_analysis.cluster
        units = clustered[(clustered["condition"] == condition) & (clustered["judge"] == judge)]["n_pairs"] \
            if not clustered.empty else pd.Series(dtype=float)
        if diff.empty:
            section.note += (f" Clustered analysis, condition {condition} (d averaged per {level} first, "
                             f"{int(units.max()) if len(units) else 0} {level}(s)): every metric keeps its "
                             "pair-level class.")
        else:
            level = [c for c in diff.columns if c.startswith("class_") and c != "class_pair"][0]
            rows = clustered[(clustered["condition"] == condition)
                             & clustered.set_index(["judge", "metric"]).index.isin(
                                 list(zip(diff["judge"], diff["metric"])))]
            section.tables.append(table_view(rows, CLUSTER_HEADERS,
                                        f"Condition {condition}: metrics whose class differs when d is averaged "
                                        f"per {level.removeprefix('class_')} first (clustered version)",
                                        digits={"mean_diff": 3}))
    checks = review_checks(data)
    if not checks.empty:
        passed = int(checks["passed"].sum())
        section.tables.append(table_view(checks, CHECK_HEADERS, f"Review variants: {passed} of {len(checks)} passed the "
                                                           "review checks (points, scores, recommendation, length, "
                                                           "intended shift)"))
    return section


def _untested_judge(every: pd.DataFrame, judge: str, condition: str) -> str:
    """`` (judge J: n = 0 for its M declared metrics — reasons)`` when ``judge`` has no test under
    ``condition`` in the pair-level classification ``every`` (``judges_all``), else empty."""
    if every.empty or "reason" not in every.columns:
        return ""
    mine = every[(every["judge"] == judge) & (every["condition"] == condition)]
    if mine.empty or (mine["n_pairs"] > 0).any():
        return ""
    reasons = "; ".join(dict.fromkeys(mine["reason"].dropna().astype(str)))
    return f" (judge {judge}: n = 0 for its {len(mine)} declared metrics — {reasons})"


def _soft_headers(headers: dict[str, str]) -> dict[str, str]:
    """``headers`` with :data:`SOFT_HEADERS` after the integer tests (before the class)."""
    out: dict[str, str] = {}
    for key, text in headers.items():
        if key == "classification":
            out |= SOFT_HEADERS
        out[key] = text
    return out


def review_checks(data: ReportData) -> pd.DataFrame:
    """One row per validated review variant: keys, ``passed`` and the problems found."""
    rows = data.validation
    if rows.empty or "reasons" not in rows.columns:
        return pd.DataFrame(columns=list(CHECK_HEADERS))
    if "review" not in rows.columns:
        return pd.DataFrame(columns=list(CHECK_HEADERS))
    review_rows = rows[rows["review"].fillna(False).astype(bool)]
    return review_rows[[c for c in CHECK_HEADERS if c in review_rows.columns]].reset_index(drop=True)


def _minus_log10(p: float) -> float:
    return -math.log10(max(float(p), 1e-300)) if p == p else float("nan")


def pvalue_figure(table1: pd.DataFrame) -> Any:
    """Figure 1: one panel per condition; each metric at (−log10 Wilcoxon p, −log10 TOST p),
    coloured by class, with the Bonferroni α lines.

    Raises:
        ValueError: ``table1`` is empty.
    """

    if table1.empty:
        raise ValueError("no classified metric to place")
    plt = _pyplot()
    conditions = sorted(set(table1["condition"]))
    fig, axes = plt.subplots(1, len(conditions), figsize=(5.2 * len(conditions), 4.4), squeeze=False)
    colours = {"sensitive": "#d62728", "robust": "#2ca02c", "sensitive_and_robust": "#9467bd",
               "inconclusive": "#7f7f7f", "not_informative": "#bcbd22", "false_robustness": "#ff7f0e"}
    for ax, condition in zip(axes.flat, conditions):
        part = table1[table1["condition"] == condition]
        x = part["wilcoxon_p"].map(_minus_log10)
        y = part["tost_p"].map(_minus_log10)
        for cls, colour in colours.items():
            mask = part["classification"] == cls
            if mask.any():
                ax.scatter(x[mask], y[mask], s=28, color=colour, label=cls.replace("_", " "))
        line = _minus_log10(float(part["alpha_bonferroni"].iloc[0]))
        ax.axvline(line, color="black", lw=0.8, ls="--")
        ax.axhline(line, color="black", lw=0.8, ls="--")
        for xi, yi, name in zip(x, y, part["metric"]):
            ax.annotate(str(name).split(".", 1)[-1], (xi, yi), fontsize=6, xytext=(2, 2), textcoords="offset points")
        ax.set_xlabel("−log10 Wilcoxon p (sensitivity)")
        ax.set_ylabel("−log10 TOST p (robustness)")
        ax.set_title(f"{condition}: judge {part['judge'].iloc[0]}", fontsize=9)
        ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    return fig


def pvalue_png(table1: pd.DataFrame) -> bytes:
    """PNG of :func:`pvalue_figure`."""

    return _png(pvalue_figure(table1), None)


def table1_latex(table1: pd.DataFrame) -> str:
    """Table 1 as booktabs LaTeX (every text cell escaped), conditions separated by rules."""

    cols = [
        Column("Condition", lambda r: escape(r["condition"]), "l"),
        Column("Metric", lambda r: escape(r["metric"]), "l"),
        Column("Family", lambda r: escape(r["family"]), "l"),
        Column("Scale", lambda r: escape(r["scale"]), "l"),
        Column("$n$", lambda r: str(int(r["n_pairs"]))),
        Column(r"$n_{\neq 0}$", lambda r: str(int(r["wilcoxon_n"]))),
        Column(r"Mean $\Delta$", lambda r: number(r["mean_diff"], 3)),
        Column(r"$p_{\mathrm{W}}$", lambda r: pvalue(r["wilcoxon_p"])),
        Column(r"$p_{\mathrm{TOST}}$", lambda r: pvalue(r["tost_p"])),
        *(_SOFT_LATEX if "soft_n_pairs" in table1.columns else ()),
        Column("Class", lambda r: escape(str(r["classification"]).replace("_", " ")), "l"),
        Column("Agree", lambda r: "--" if r["agree"] is None or r["agree"] != r["agree"]
               else ("yes" if bool(r["agree"]) else "no"), "l"),
    ]
    judge = escape(", ".join(dict.fromkeys(table1["judge"].astype(str))))
    soft = (" Soft: the same pairs on expected scores (soft ratings): n_s pairs, median and mean difference "
            "with its 95% paired bootstrap interval, Wilcoxon p.") if "soft_n_pairs" in table1.columns else ""
    return booktabs(table1, cols, caption=f"Review-quality metrics under rewriting (judge {judge}); "
                                          "Wilcoxon and TOST at Bonferroni alpha / M, M the judge's declared "
                                          "metrics; n: pairs, then the non-zero differences the Wilcoxon test "
                                          "used." + soft,
                    label="tab:judges-table1", group_by="condition")


_SOFT_LATEX = (
    Column("$n_s$", lambda r: "--" if pd.isna(r["soft_n_pairs"]) else str(int(r["soft_n_pairs"]))),
    Column(r"Soft med.\ $\Delta$", lambda r: number(r["soft_median_diff"], 3)),
    Column(r"Soft $\Delta$ [95\% CI]", lambda r: "--" if pd.isna(r["soft_mean_diff"]) else
           f"{number(r['soft_mean_diff'], 3)} [{number(r['soft_ci_low'], 3)}, {number(r['soft_ci_high'], 3)}]"),
    Column(r"Soft $p_{\mathrm{W}}$", lambda r: pvalue(r["soft_wilcoxon_p"])),
)
"""Table 1's soft columns in LaTeX (when the table has them)."""


def study_judges(scores: pd.DataFrame, study: StudyConfig, paper_ids: dict[str, str]) -> Any:
    """:func:`rhetorica.judges.analysis.judge_study` of a run's long scores under the study's
    ``judge_analysis`` settings (the report and ``rhetorica check`` call it); ``None`` for a study
    without judge configurations.

    Args:
        scores: the long scores of the analysed assessments.
        study: the run's study.
        paper_ids: review document id -> paper id.
    """

    if not judge_names(study):
        return None
    settings = study.judge_analysis
    return judge_study(scores, reviewer_records(study.reviewers), paper_ids, alpha=settings.alpha,
                       bounds=settings.bounds or None, include_style=settings.include_style,
                       cluster=settings.cluster)


def collect_judges(scores: pd.DataFrame, study: StudyConfig, paper_ids: dict[str, str],
                   analysis: dict[str, pd.DataFrame], unavailable: dict[str, str]) -> Any:
    """Fill ``analysis["judges"]`` (Table 1), ``judges_all`` (every judge, pair level),
    ``judges_clustered`` and ``judges_differences`` — or ``unavailable["judges"]`` — for a study
    with judge configurations (the report's collect step calls it with the analysed assessments'
    long scores); returns the :class:`~rhetorica.judges.analysis.JudgeStudy` (``None``
    without judges)."""
    result = study_judges(scores, study, paper_ids)
    if result is None:
        return None
    if result.unavailable:
        unavailable["judges"] = result.unavailable
        return result
    analysis["judges"] = result.table1
    analysis["judges_all"] = result.reliability
    analysis["judges_clustered"] = result.clustered
    analysis["judges_differences"] = result.differences
    return result


def paper_ids_of(document_jsons: list[str]) -> dict[str, str]:
    """Document id -> :attr:`~rhetorica.documents.models.Document.paper_id` of the stored review documents."""
    out = {}
    for text in document_jsons:
        doc = lift_typed_metadata(json.loads(text))
        if doc.get("paper_id"):
            out[doc["id"]] = str(doc["paper_id"])
    return out
