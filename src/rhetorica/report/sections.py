"""What the report shows, in order: one :class:`Section` per part, shared by Markdown and HTML.

A section holds formatted tables, figures and a note, or the reason it is not computable. A
section that does not apply to the study (e.g. the Table-5 conditional comparison without 2x2
compound rewrites, pooled SD without replicates) is left out.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import pandas as pd

from rhetorica.labels import ORIGINAL
from rhetorica.report.data import UNREPORTED_COLUMNS, ReportData, fmt, fmt_p
from rhetorica.report.views import FigureResult, Section, table_view
from rhetorica.report.scorecard import (
    FAIL as CARD_FAIL,
    NOT_APPLICABLE as CARD_NOT_APPLICABLE,
    PASS as CARD_PASS,
)
from rhetorica.report.tables import COMPARISON, POOLED_SD, SCORECARD, SHIFTS, VALIDATION
from rhetorica.analysis.paired import no_test_reasons
from rhetorica.analysis.tidy import primary_metric
from rhetorica.forms import REVIEW_000
from rhetorica.report.appendix import appendix_sections
from rhetorica.report.aspects import aspects_section
from rhetorica.report.attack import attack_applies, attack_search
from rhetorica.report.flow import flow_section
from rhetorica.report.coverage import WHY, with_every_configuration
from rhetorica.report.forms import form_score_views
from rhetorica.report.injection import injection_applies, injection_section
from rhetorica.report.judges import judges_applies, judges_section
from rhetorica.report.paper_tables import registered_tables
from rhetorica.report.recipe import recipe_applies, recipe_section
from rhetorica.report.six_dimensions import six_dimensions_applies, six_dimensions_section
from rhetorica.report.truncation import input_truncation
from rhetorica.report.validation import failed_variants, review_check_summary
from rhetorica.strata import HUMAN_STRATA
from rhetorica.validation.summary import summarise_shifts
from rhetorica.wording import counted

CONDITIONAL_HEADERS = {"reviewer": "Reviewer", "given": "Given", **{
    k: v for k, v in COMPARISON.headers.items() if k != "reviewer"}}
FAILED_HEADERS = {"document_id": "Document", "condition": "Condition", "rewriter": "Rewriter",
                  "status": "Status", "reasons": "Reasons"}
USAGE_HEADERS = {
    "provider": "Provider", "model": "Model", "calls": "Calls", "cache_hits": "Cache hits",
    "failed_calls": "Failed calls", "input_tokens": "Input tokens", "cached_tokens": "Reused input tokens",
    "estimate_assumes": "Reuse the estimate assumes", "prompt_cache": "Prompt cache (schedule)", "output_tokens": "Output tokens",
    "cost_usd": "Cost (USD)", "call_seconds": "Seconds in calls", "unanswered_calls": "Never answered",
    "unanswered_reserved_usd": "Reserved for them (USD)",
}


def usage_note(usage: pd.DataFrame) -> str:
    """The usage table's note: the calls never answered (cut off by an interrupted run) and, per token
    column, how many calls the server gave no usable count for (their 0 is in the sum), and how many
    priced calls were charged at their bound for it (:func:`rhetorica.models.budget.charged_cost`);
    '' when none of these."""
    if not len(usage):
        return ""
    notes = []
    if usage["unanswered_calls"].sum():
        notes.append("Calls never answered were cut off by an interrupted run: they count at the cost of their "
                     "input tokens, and the provider may still bill them, up to the reserved cost "
                     "(`rhetorica calls release RUN_DIR` stops counting them).")
    lacking = [f"{USAGE_HEADERS[column].lower()} of {int(usage[flag].sum()):,} call(s)"
               for column, flag in UNREPORTED_COLUMNS.items() if flag in usage.columns and usage[flag].sum()]
    if lacking:
        notes.append("The server reported no usable count (missing, not a non-negative integer, or a part larger "
                     f"than its whole) for the {'; the '.join(lacking)}: these count as 0 in the token sums, which are "
                     "therefore lower bounds.")
    untimed = usage["call_seconds"].isna() & usage["calls"].gt(0)
    if untimed.any():
        notes.append(f"Seconds in calls: not measured for {int(untimed.sum())} model(s) whose calls carry no duration "
                     "(each logged as 0 s: a model answering in-process without a timed request, such as a mock "
                     "model, or batch results).")
    bounded = int(usage["charged_at_bound"].sum()) if "charged_at_bound" in usage.columns else 0
    if bounded:
        notes.append(f"{bounded:,} priced call(s) without a usable input or output count (or whose answer could not "
                     "be read) are charged at their bound in the cost and the budget: the request's input tokens as "
                     "the budget counts them, max_tokens output tokens (without max_tokens: the answer's text "
                     "counted so), no reused input.")
    return " ".join(notes)


def usage_shown(usage: pd.DataFrame) -> pd.DataFrame:
    """The usage table as shown: ``Seconds in calls`` reads ``not measured`` where no call was timed
    (NaN in :func:`rhetorica.report.build._usage`), never a made-up 0.00."""
    if "call_seconds" not in usage.columns or not usage["call_seconds"].isna().any():
        return usage
    return usage.assign(call_seconds=usage["call_seconds"].astype(object).where(usage["call_seconds"].notna(),
                                                                              "not measured"))


MEANS_HEADERS = {
    "reviewer": "Reviewer", "arm": "Condition", "papers": "Papers", "ok": "OK reviews", "failed": "Failed",
    "mean_overall": "Mean overall", "sd_overall": "SD (papers)",
}
JUDGE_MEANS_HEADERS = {
    "reviewer": "Judge configuration", "arm": "Condition", "papers": "Papers", "reviews": "Reviews",
    "ok": "OK judgements", "failed": "Failed judgements", "mean_overall": "Mean primary score",
    "sd_overall": "SD (reviews)",
}
"""The means table of a judge study, whose documents are reviews (papers and reviews counted apart)."""
JUDGE_MEANS_NOTE = ("Per judge configuration and condition: the mean and SD over the judged reviews of each "
                    "review's primary score (repeated judgements averaged first; ok judgements only). Reviews = "
                    "the reviews with a score (the units); Papers = the distinct papers they review; OK / Failed "
                    "judgements = stored judgements by status.")
FAILURE_HEADERS = {"stage": "Stage", "item": "Item", "status": "Status", "reason": "Reason"}
SUPERSEDED_HEADERS = {"stage": "Stage", "configuration": "Rewriter / reviewer", "model": "Model / prompt version",
                      "detail": "Condition / protocol", "units": "Units", "first_created": "First",
                      "last_created": "Last", "checks": "Checks", "checks_passed": "Checks passed"}
TRUNCATION_HEADERS = {"reviewer": "Reviewer", "words_kept": "Words kept", "document_id": "Document",
                      "title": "Title", "arms": "Conditions cut", "reviews_cut": "Reviews cut",
                      "reviews": "Reviews"}

PASS, FAIL, UNDECIDED = "pass", "FAIL", "not enough data"
"""Scorecard cell words (the HTML colours cells by them)."""


def _check(verdict: str, value: Any, low: Any, high: Any, digits: int = 2) -> str:
    if verdict == CARD_NOT_APPLICABLE:
        return "does not apply"
    word = {CARD_PASS: PASS, CARD_FAIL: FAIL}.get(verdict, UNDECIDED)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return f"{word} (–)"
    if low is None or (isinstance(low, float) and math.isnan(low)):
        return f"{word} ({fmt(value, digits)})"
    return f"{word} ({fmt(value, digits)} [{fmt(low, digits)}, {fmt(high, digits)}])"


def _scorecard(data: ReportData) -> Section:
    t = data.study.scorecard
    accept = t.threshold if t.threshold is not None else data.threshold
    alpha = t.alpha
    note = (
        f"Each check is decided from a two-sided {100 * (1 - alpha):g}% interval (the study's scorecard alpha = "
        f"{alpha:g}; Bonferroni-corrected over a check's pairs), shown as value [low, high]: it fails when the "
        "interval lies beyond the threshold, passes when it lies within, and otherwise has not enough data. "
        f"Thresholds (the study's scorecard settings): |ln preference ratio| ≤ {fmt(t.max_abs_log_ratio)} "
        "(exact Clopper-Pearson interval over the untied papers of each compared pair); decision-flip rate of a "
        f"pair (both directions, threshold {accept:g}) ≤ {t.max_flip_pct:g}% (Clopper-Pearson); "
        f"discriminability ≥ {t.min_discriminability:g} (percentile paper bootstrap, from "
        f"{counted(t.min_papers, 'paper')} on); failure-rate gap between conditions ≤ "
        f"{t.max_failure_gap_pct:g} points (Newcombe interval of each difference). A configuration "
        "fails when any check fails, passes when all pass, and otherwise has not enough data "
        "(rhetorica check RUN_DIR exits 1, 0 or 3). A review-quality judge configuration is judged by its "
        "metrics' Table-1 classes: it fails when a metric is classified sensitive (a finding), passes when every "
        "declared metric is robust under every condition, and otherwise has not enough data."
    )
    section = Section("scorecard", "Scorecard per reviewer configuration", note)
    if data.scorecard.empty:
        section.unavailable = data.unavailable.get("scorecard", "no reviewer configuration to score")
        return section
    card = data.scorecard
    shown = pd.DataFrame({
        "reviewer": card["reviewer"],
        "passed": [{CARD_PASS: PASS, CARD_FAIL: FAIL}.get(v, UNDECIDED) for v in card["verdict"]],
        "preference": [_check(v, p, lo, hi) + (f", {w}" if isinstance(w, str) and w else "")
                       for v, p, lo, hi, w in zip(card["verdict_preference"], card["abs_log_ratio"],
                                                  card["abs_log_ratio_low"], card["abs_log_ratio_high"],
                                                  card["worst_pair"])],
        "flips": [_check(*v, 1) for v in zip(card["verdict_flips"], card["flip_pct"], card["flip_pct_low"],
                                             card["flip_pct_high"])],
        "discrimination": [_check(*v) for v in zip(card["verdict_discriminability"], card["discriminability"],
                                                   card["discriminability_low"], card["discriminability_high"])],
        "failures": [_check(*v, 1) for v in zip(card["verdict_failures"], card["failure_gap_pct"],
                                                card["failure_gap_low"], card["failure_gap_high"])],
        "reasons": [r or "–" for r in card["reasons"]],
    })
    if "soft_mean_diff" in card.columns:  # reviews with soft ratings: their largest expected-score shift
        shown.insert(len(shown.columns) - 1, "soft_shift", [
            "–" if not pair else f"{fmt(d)} [{fmt(lo)}, {fmt(hi)}], Wilcoxon p {fmt_p(p)}, {pair}"
            for pair, d, lo, hi, p in zip(card["soft_pair"], card["soft_mean_diff"], card["soft_ci_low"],
                                          card["soft_ci_high"], card["wilcoxon_p"])])
    section.tables.append(table_view(shown, SCORECARD.headers))
    return section


def _truncation(data: ReportData) -> Section | None:
    """The reviews whose input was cut by ``max_input_words``; ``None`` when no input was cut."""

    table = input_truncation(data.tables.get("assessments", pd.DataFrame()), data.study)
    if table.empty:
        return None
    configs = sorted(set(table["reviewer"]))
    note = (f"{len(configs)} reviewer configuration(s) ({', '.join(configs)}) read only the first 'Words kept' "
            f"words of {table['document_id'].nunique()} document(s) (their max_input_words): those reviews "
            "score a cut manuscript, not the whole paper. Every status is counted.")
    return Section("truncation", "Reviewer input cut by max_input_words", note,
                   [table_view(table, TRUNCATION_HEADERS)])


def _comparison(data: ReportData) -> Section:
    note = (
        "Papers are the unit: replicates are averaged within paper first. % A/B higher and % tie are shares of "
        "papers with both sides present; preference ratio = % A higher / % B higher (– when neither is ever "
        "higher); sign test: exact two-sided binomial on papers with a difference (ties dropped). A flip is a "
        f"paper accepted (mean overall > {data.threshold:g}) under one condition and rejected under the other, "
        "as % of papers ('Style over Substance', Table 4). Missing A / B: papers of the reviewer scored under "
        "the other condition only; Missing both: under neither. A comparison without a paired paper has no test "
        "(p –)."
    )
    section = Section("comparison", "Paired comparison of conditions (overall score)", note)
    if data.comparisons.empty:
        section.unavailable = data.unavailable.get("comparison", "no compared pair of conditions")
    else:
        section.tables.append(table_view(with_every_configuration(data.comparisons, data.table_gaps),
                                         COMPARISON.headers))
        reasons = no_test_reasons(data.comparisons)
        if reasons:
            section.note += " No test: " + "; ".join(reasons) + "."
    return section


def _conditional(data: ReportData) -> Section:
    note = ("The same comparison within the 2x2 combined rewrites: A and B differ in one dimension while the "
            "'given' dimension is held at one level ('Style over Substance', Table 5).")
    return Section("conditional", "Conditional comparison given the other dimension (Table 5)", note,
                   [table_view(data.analysis["conditional"], CONDITIONAL_HEADERS)])


def registered_sections(analysis: dict[str, pd.DataFrame], unavailable: dict[str, str],
                        gaps: Mapping[str, str] | None = None) -> list[Section]:
    """One section per registered analysis table (:func:`rhetorica.report.paper_tables.registered_tables`),
    in their order, from the computed tables by key and the reasons of the others: the table as its record shows it (:meth:`~rhetorica.report.tables.AnalysisTable.shown`),
    or why it could not be computed (the record's ``missing`` when nothing says why); a table of another
    table's section is shown under it, with its title as caption, when both were computed; a table whose
    ``section`` names no registered table gets a section of that key only when computed (a section
    built elsewhere may add to it: :func:`rhetorica.report.attack.attack_search`). ``gaps``: the
    reviewer configurations without data and why (:attr:`ReportData.table_gaps`), shown in every
    table that lists configurations (:func:`rhetorica.report.coverage.with_every_configuration`)."""

    def shown_of(key: str) -> Any:
        return records_by_key[key].shown(with_every_configuration(analysis[key], gaps or {}))

    sections: dict[str, Section] = {}
    records = registered_tables()
    records_by_key = {record.key: record for record in records}
    owners = {record.key for record in records}
    for record in records:
        if record.section is not None and record.section not in owners:  # a section of its own key, when computed
            if record.key in analysis:
                shown = shown_of(record.key)
                section = sections.setdefault(record.section, Section(record.section, record.title, record.note))
                section.note += shown.note
                section.tables.append(table_view(shown.frame, shown.headers))
            continue
        if record.section is not None and record.section != record.key:
            owner = sections.get(record.section)
            if owner is not None and not owner.unavailable and record.key in analysis:
                shown = shown_of(record.key)
                owner.tables.append(table_view(shown.frame, shown.headers, record.title))
            continue
        section = sections[record.key] = Section(record.key, record.title, record.note)
        if record.key in analysis:
            shown = shown_of(record.key)
            section.note += shown.note
            section.tables.append(table_view(shown.frame, shown.headers))
        else:
            section.unavailable = unavailable.get(record.key, record.missing)
    return list(sections.values())


def _pooled(data: ReportData) -> Section:
    note = ("Reviewer variance: pooled standard deviation of repeated reviews of identical input (same paper "
            "and condition), in overall-score points, on the original arm when present ('Style over Substance').")
    section = Section("pooled_sd", "Reviewer variance (pooled SD of replicates)", note)
    if "pooled_sd" in data.analysis:
        section.tables.append(table_view(data.analysis["pooled_sd"], POOLED_SD.headers))
    elif not data.judge_only:
        section.unavailable = data.unavailable.get("pooled_sd", "no input reviewed more than once")
    if "pooled_sd_metrics" in data.analysis:
        section.tables.append(table_view(data.analysis["pooled_sd_metrics"], POOLED_METRIC_HEADERS,
                                         "Every metric: pooled SD of replicates in the metric's units",
                                         digits={"pooled_sd": 3}))
    return section


def _validation(data: ReportData) -> Section:
    note = ("Each variant against its original ('Style over Substance', Table 2): MTLD, Advanced Guiraud (AG) and "
            "Gunning Fog of the text; boosters and hedges per 1,000 words (Hyland's lists); semantic similarity "
            "(mean over original passages of the best cosine to the rewrite's passages), TF-IDF cosine on "
            "uni+bigrams, share of protected spans kept. Means over variants; the 'original' row describes the "
            "originals.")
    section = Section("validation", "Validation of the rewrites", note)
    reviews = review_check_summary(data.validation)
    if not data.validation_summary.empty:
        integrity = dict.fromkeys(("semantic_similarity", "tfidf_cosine", "protected_spans_kept"), 3)
        section.tables.append(table_view(data.validation_summary, VALIDATION.headers, digits=integrity))
    elif reviews.empty:
        section.unavailable = data.unavailable.get("validation", "no validation results")
    if not reviews.empty:
        section.note += (" Review variants are checked, not measured: each rewrite of a review keeps its points, "
                         "scores and recommendation, its length, and its intended shift (the review checks).")
        section.tables.append(table_view(reviews, REVIEW_SUMMARY_HEADERS,
                                         f"Review checks: {int(reviews['passed'].sum())} of "
                                         f"{int(reviews['variants'].sum())} review variants passed"))
    if not data.shift_checks.empty:
        section.tables.append(table_view(summarise_shifts(data.shift_checks), SHIFTS.headers,
                                         "Intended shifts: the condition's dimension measure, original → rewrite"))
    if not data.validation.empty:

        failed = failed_variants(data.validation)
        if not failed.empty:
            section.tables.append(table_view(failed, FAILED_HEADERS,
                                        f"Variants that failed validation or lack measures ({len(failed)})"))
    return section


REVIEW_SUMMARY_HEADERS = {"condition": "Condition", "rewriter": "Rewriter", "variants": "Variants", "passed": "Passed",
                          "failed": "Failed", "failing_checks": "Failing checks"}

POOLED_METRIC_HEADERS = {"reviewer": "Reviewer", "metric": "Metric", "n_groups": "Inputs repeated",
                         "n_reviews": "Reviews", "pooled_sd": "Pooled SD"}

STRATA_HEADERS = {"human_stratum": "Human-rating stratum", "papers": "Papers", "mean_human": "Mean human rating",
                  "mean_overall": "Mean AI overall (original)"}


def _strata(data: ReportData) -> Section | None:
    """Papers per human mean-rating stratum (STUDIES.md §2), or ``None`` when no paper has human scores."""

    df = data.tables.get("assessments", pd.DataFrame())
    if df.empty or "human_stratum" not in df or df["human_stratum"].isna().all():
        return None
    papers = df.dropna(subset=["human_stratum"]).groupby("document_id").agg(
        human_stratum=("human_stratum", "first"), human=("human_score", "first"))
    originals = df[(df["condition"] == ORIGINAL) & (df["status"] == "ok")]
    by_reviewer = {name: primary_metric(rows) for name, rows in originals.groupby("reviewer")}
    if len(set(by_reviewer.values())) > 1:  # judges of other families: the overall score's reviewers only
        originals = originals[originals["reviewer"].map(by_reviewer).eq(REVIEW_000.primary.name)]
        if originals.empty:
            return None
    ai = originals.groupby("document_id")[primary_metric(originals)].mean()
    papers["ai"] = ai.reindex(papers.index)
    order = [label for _, _, label in HUMAN_STRATA]
    table = (papers.groupby("human_stratum")
             .agg(papers=("human", "size"), mean_human=("human", "mean"), mean_overall=("ai", "mean"))
             .reindex(order).dropna(subset=["papers"]).reset_index())
    note = ("Papers by the mean of their human reviewers' overall ratings, in the bins of the six-dimension "
            "study ([1,3), [3,4), [4,5), [5,6), [6,7), [7,8.5]); the change tables weight these strata equally.")
    return Section("strata", "Papers by human-rating stratum", note, [table_view(table, STRATA_HEADERS)])


def _forms(data: ReportData) -> Section:
    """Each form's primary and secondary scores (one table per form)."""

    tables = []
    for form, label, wide in form_score_views(data.analysis["forms"]):
        headers = {"reviewer": "Reviewer", "arm": "Condition", "papers": "Papers"}
        if "reviews" in wide.columns:
            headers["reviews"] = "Reviews"
        for metric in (c for c in wide.columns[len(headers):] if c != WHY):
            primary = form is not None and form.primary.name == metric
            headers[metric] = f"{metric} (primary)" if primary else str(metric)
        caption = f"{label}: {form.description}" if form is not None else label
        tables.append(table_view(wide, headers, caption))
    note = ("The reviewers of this study answer on different forms. Per form, reviewer and condition: the "
            "mean over papers of each score (replicates averaged within paper first; ok reviews only), the "
            "form's primary score first.") if not data.judge_only else (
        "The judges of this study answer on different forms. Per form, judge configuration and condition: the "
        "mean over the judged reviews of each score (repeated judgements of a review averaged first; ok "
        "judgements only), the form's primary score first; Reviews = the judged reviews (the units of the "
        "means), Papers = the distinct papers they review.")
    if not data.judge_only:
        note += " The tables above use the shared primary score."
    return Section("forms", "Scores by form", note, tables)


def report_sections(data: ReportData, figures: list[FigureResult]) -> list[Section]:
    """The report's sections in order, with their figures attached.

    Order: study flow (:mod:`rhetorica.report.flow`), scorecard, reviewer input cut by ``max_input_words`` (only when some was), Table-4
    comparison, Table-5 conditional comparison (2x2 compound rewrites
    only), the registered analysis tables (:func:`registered_sections`: per-criterion ratios,
    magnitude of differences, change versus the original, robustness, then any plug-in's), pooled SD (replicated studies only), validation (when present or expected), hidden instructions
    (when the study has injection conditions or the scan found something), papers by human-rating
    stratum (when papers have human scores), scores by form (when reviewers answer on forms with
    different metrics), means by condition, usage, failures, superseded units
    (when any), then one appendix section per example paper (:attr:`ReportData.examples`).

    Args:
        data: the collected report data.
        figures: from :func:`rhetorica.report.figures.report_figures`.

    Returns:
        Sections; each figure is attached to the section named by its ``section``.
    """

    sections = ([recipe_section(data)] if recipe_applies(data) else []) + [flow_section(data), _scorecard(data)]
    truncation = _truncation(data)
    if truncation is not None:
        sections.append(truncation)
    if not data.judge_only:  # the paper-review tables; a judges-only study says so once, in the header
        sections.append(_comparison(data))
        if "conditional" in data.analysis:
            sections.append(_conditional(data))
        sections += registered_sections(data.analysis, data.unavailable, data.table_gaps)
        if attack_applies(data.study):  # the searches, under the registered attack table
            attack_search(sections, data)
    if "pooled_sd" in data.analysis or "pooled_sd_metrics" in data.analysis or (
            "pooled_sd" in data.unavailable and not data.judge_only):
        sections.append(_pooled(data))
    if data.study.validation.enabled or not data.validation.empty:
        sections.append(_validation(data))

    if injection_applies(data):
        sections.append(injection_section(data))

    if six_dimensions_applies(data):
        sections.append(six_dimensions_section(data))
    strata = _strata(data)
    if strata is not None:
        sections.append(strata)
    if "forms" in data.analysis:
        sections.append(_forms(data))

    if judges_applies(data):
        sections.append(judges_section(data))

    aspects = aspects_section(data)
    if aspects is not None:
        sections.append(aspects)
    sections += [
        Section("means", "Mean overall score by condition", JUDGE_MEANS_NOTE if "reviews" in data.condition_means
                else "", [table_view(data.condition_means, JUDGE_MEANS_HEADERS if "reviews" in data.condition_means
                                     else MEANS_HEADERS)]),
        Section("usage", "Model calls, tokens and cost", usage_note(data.usage),
                [table_view(usage_shown(data.usage), USAGE_HEADERS)]),
        Section("failures", "Failures",
                "Failed outputs are kept as data and never imputed; they are missing in every table above.",
                [table_view(data.failures, FAILURE_HEADERS)]),
    ]
    if not data.superseded.empty:
        sections.append(Section(
            "superseded", "Superseded units",
            f"{int(data.superseded['units'].sum())} stored unit(s) from earlier declarations of this study (another "
            "protocol, prompt, sampling setting or document text) are kept in the store and left out of every "
            "table above.", [table_view(data.superseded, SUPERSEDED_HEADERS)]))

    sections += appendix_sections(data.examples)
    by_key = {s.key: s for s in sections}
    for figure in figures:
        if figure.section in by_key:
            by_key[figure.section].figures.append(figure)
    return sections
