"""Build a run's report from its store: Markdown, self-contained HTML and tidy tables.

Reads only the store (never calls a model), so ``rhetorica report RUN_DIR`` can rebuild it at any
time, including for a partly finished study.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from rhetorica.labels import ORIGINAL
from rhetorica.models.budget import PRICED_COUNTS
from rhetorica.models.redaction import redact_urls
from rhetorica.report.data import UNREPORTED_COLUMNS, ReportData
from rhetorica.report.flow import planned_sizes, run_flow, study_documents
from rhetorica.report.selection import analysed_assessments, study_pairs
from rhetorica.store.export import arm_labels, export_tables
from rhetorica.store.plan import plan_keys
from rhetorica.store.runs import open_run_store, run_wall_time, read_checks, document_jsons
from rhetorica.study.config import StudyConfig
from rhetorica.study.estimate import assumed_reuse
from rhetorica.study.run_study import load_run_study
from rhetorica.study.scheduling import PROMPT_CACHE_EVENT, cache_model
from rhetorica.analysis.flow import effective_n
from rhetorica.recipes.comparison import compare_run
from rhetorica.recipes.model import RecipeError
from rhetorica.analysis.soft import apply_min_covered, soft_rating_reasons
from rhetorica.analysis.paired import paper_scores
from rhetorica.analysis.summary import study_tables
from rhetorica.analysis.tidy import primary_metric
from rhetorica.analysis.variance import pooled_sd_by_metric
from rhetorica.report.appendix import DEFAULT_APPENDIX_PAPERS, paper_examples
from rhetorica.report.aspects import aspect_tables
from rhetorica.report.attack import collect_attacks
from rhetorica.report.coverage import configuration_gaps, with_every_configuration
from rhetorica.report.forms import form_scores, needs_form_table
from rhetorica.report.judges import collect_judges, judge_names, paper_ids_of
from rhetorica.report.paper_tables import registered_tables
from rhetorica.report.scorecard import search_rereviews, study_scorecard
from rhetorica.report.tables import TableContext, Unavailable
from rhetorica.report.validation import review_check_summary, shift_table, validation_summary, validation_table


def _condition_means(assessments: pd.DataFrame, paper_of: Mapping[str, str] | None = None) -> pd.DataFrame:
    """Per reviewer and arm: documents with a primary score, ok and failed assessments, the mean
    and SD over documents of each document's mean primary score (replicates averaged first).

    Args:
        assessments: the analysed tidy assessments.
        paper_of: for a study whose documents are reviews (a judge study), review document id ->
            paper id (a review without one is its own paper); the table then counts ``papers``
            (distinct papers of the scored reviews) and ``reviews`` (the scored reviews, the units of
            the mean) apart. ``None``: the documents are papers (``papers`` counts them).
    """
    # the columns keep their names (mean_overall, sd_overall): they hold each reviewer's primary
    # score (judges of different metric families have different primary metrics)
    columns = ["reviewer", "arm", "papers", *(["reviews"] if paper_of is not None else []), "ok", "failed",
               "mean_overall", "sd_overall"]
    if assessments.empty:
        return pd.DataFrame(columns=columns)
    papers = pd.concat([paper_scores(rows, score=(score := primary_metric(rows))).rename(columns={score: "_primary"})
                        for _, rows in assessments.groupby("reviewer", sort=True)])
    grouped = papers.groupby(["reviewer", "arm"], sort=True)
    out = grouped["_primary"].agg(papers="count", mean_overall="mean", sd_overall="std").reset_index()
    if paper_of is not None:
        scored = papers[papers["_primary"].notna()]
        distinct = scored.assign(_paper=scored["document_id"].map(lambda d: paper_of.get(d, d)))
        counts = distinct.groupby(["reviewer", "arm"])["_paper"].nunique()
        out["reviews"] = out["papers"]
        out["papers"] = [int(counts.get((r, a), 0)) for r, a in zip(out["reviewer"], out["arm"])]
    counts = assessments.assign(ok=assessments["status"].eq("ok")).groupby(["reviewer", "arm"])["ok"]
    out = out.merge(counts.agg(ok="sum", total="count").reset_index(), on=["reviewer", "arm"])
    out["failed"] = out["total"] - out["ok"]
    return out[columns]


def _usage(calls: pd.DataFrame, study: StudyConfig, probed: Mapping[str, str] | None = None) -> pd.DataFrame:
    """Per provider and model: requests, cache hits, failed requests, tokens (the input tokens the
    server reported reused from its prompt cache among them), cost, seconds, the calls never answered
    (``abandoned`` by an interrupted run, or ``in_flight`` in a store no run has resumed) with their
    reserved worst-case cost (the provider may bill them up to that); beside the reused tokens, what
    ``estimate`` assumed a repeated prompt reuses (:func:`rhetorica.study.estimate.assumed_reuse`) and
    the prompt cache the run scheduled replicates for (:func:`rhetorica.study.scheduling.prompt_cache`;
    ``probed``: model name -> the label of its probed cache, the store's ``prompt-cache`` events).
    ``<column>_unreported`` (not shown as columns; the section's note says them): of the calls, those
    whose provider reported no usable count for that token column (``model_calls.usage_unreported``):
    their 0 is in the sum, which is therefore a lower bound. ``charged_at_bound`` (not shown either):
    of the calls, the priced ones (cost > 0) without a usable input or output count, which the
    budget charged at their bound (:func:`rhetorica.models.budget.charged_cost`). ``call_seconds``:
    the summed durations of the real calls, NaN (not measured) for a model whose real calls none was
    timed — every logged duration exactly 0, as a model that answers in-process without measuring
    (the mock provider) and batch results log them; ``untimed_calls`` (not shown): the real calls
    logged with no duration."""
    columns = ["provider", "model", "calls", "cache_hits", "failed_calls", "input_tokens", "cached_tokens",
               "estimate_assumes", "prompt_cache", "output_tokens", "cost_usd", "call_seconds", "unanswered_calls",
               "unanswered_reserved_usd", *UNREPORTED_COLUMNS.values(), "charged_at_bound", "untimed_calls"]
    if calls.empty:
        return pd.DataFrame(columns=columns)
    unanswered = calls["status"].isin(["abandoned", "in_flight"])
    reserved = calls["reserved_usd"] if "reserved_usd" in calls.columns else 0.0
    unreported = (calls["usage_unreported"] if "usage_unreported" in calls.columns
                  else pd.Series("", index=calls.index)).fillna("").str.split(",")
    calls = calls.assign(real=1 - calls["cache_hit"], failed=calls["status"].ne("ok").astype(int),
                         untimed=calls["latency_s"].eq(0).astype(int),
                         unanswered=unanswered.astype(int), unanswered_usd=reserved * unanswered,
                         **{flag: unreported.map(lambda names, c=column: int(c in names))
                            for column, flag in UNREPORTED_COLUMNS.items()},
                         charged_at_bound=(calls["cost_usd"].gt(0) & unreported.map(
                             lambda names: bool(set(PRICED_COUNTS) & set(names)))).astype(int))
    real = calls[calls["cache_hit"] == 0]
    out = calls.groupby(["provider", "model"]).agg(cache_hits=("cache_hit", "sum"), failed_calls=("failed", "sum"),
                                                   unanswered_calls=("unanswered", "sum"),
                                                   unanswered_reserved_usd=("unanswered_usd", "sum"))
    sums = real.groupby(["provider", "model"]).agg(
        calls=("real", "sum"), input_tokens=("input_tokens", "sum"), cached_tokens=("cached_tokens", "sum"),
        output_tokens=("output_tokens", "sum"), cost_usd=("cost_usd", "sum"), call_seconds=("latency_s", "sum"),
        **{flag: (flag, "sum") for flag in UNREPORTED_COLUMNS.values()}, charged_at_bound=("charged_at_bound", "sum"),
        untimed_calls=("untimed", "sum"))
    out = out.join(sums, how="left").fillna(0).reset_index()
    out["call_seconds"] = out["call_seconds"].mask(out["calls"].gt(0) & out["untimed_calls"].eq(out["calls"]))
    called = [_called_as(study, provider, model) for provider, model in zip(out["provider"], out["model"])]
    out["estimate_assumes"] = [assumed_reuse(name, study.models) for name in called]
    out["prompt_cache"] = [_scheduled_cache(study, name, probed or {}) for name in called]
    return out[columns]


def _called_as(study: StudyConfig, provider: str, model: str) -> str:
    """The name a logged (provider, model) was called by: the ``models:`` entry that declares that
    provider and model (name, and endpoint where the logged model carries one), else the inline
    ``provider/model`` id."""
    name, _, url = str(model).partition("@")
    for key, spec in study.models.items():
        urls = {redact_urls(e.base_url.rstrip("/")) for e in spec.endpoints if e.base_url}
        if spec.provider == provider and name == spec.model and (not url or not urls or url in urls):
            return key
    return f"{provider}/{model}"


def _scheduled_cache(study: StudyConfig, called: str, probed: Mapping[str, str]) -> str:
    """The label (:meth:`CacheModel.label`) of the prompt cache the model ``called`` (:func:`_called_as`)
    was scheduled for (:func:`cache_model`, with the run's probe answers)."""
    cache = cache_model(called, study.models)
    return probed.get(called, cache.label()) if cache.source == "not probed" else cache.label()


def _failures(tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Every current unit stored with a status other than ``ok`` and every problem of the run:
    ``stage, item, status, reason``. A variant's failure is under the stage that made it
    (``variants.stage``: ``rewrite``, ``attack``, ``rewrite-<n>``, ``guided-rewrite``), as
    ``rhetorica run`` counts it; a failed review of the guided workflow under ``guided-review``, a
    failed science-core extraction under ``extract``, a failed aspect annotation under ``annotate``."""
    frames = []
    for table, stage in (("variants", None), ("guided_reviews", "guided-review")):
        rows = tables.get(table)
        if rows is None or rows.empty:
            continue
        bad = rows[rows["status"] != "ok"]
        frames.append(pd.DataFrame({
            "stage": bad["stage"] if stage is None else stage,
            "item": bad["document_id"] + " / " + bad["condition"] + " / " + bad["rewriter"],
            "status": bad["status"], "reason": bad["reason"]}))
    assessments = tables["assessments"]
    bad = assessments[assessments["status"] != "ok"]
    frames.append(pd.DataFrame({
        "stage": "review",
        "item": bad["document_id"] + " / " + bad["arm"] + " / " + bad["reviewer"] + " / rep " + bad["replicate"].astype(str),
        "status": bad["status"], "reason": bad["reason"]}))
    extracts, annotations = tables.get("extracts", pd.DataFrame()), tables.get("annotations", pd.DataFrame())
    if not extracts.empty:
        bad = extracts[extracts["status"] != "ok"]
        arms = arm_labels(extracts[["condition", "rewriter"]])[bad.index]
        frames.append(pd.DataFrame({
            "stage": "extract",
            "item": bad["document_id"] + " / " + arms + " / " + bad["extractor"] + " / rep " + bad["replicate"].astype(str),
            "status": bad["status"], "reason": bad["reason"]}))
    if not annotations.empty:
        bad = annotations[annotations["status"] != "ok"]
        frames.append(pd.DataFrame({"stage": "annotate", "item": bad["assessment_key"] + " / " + bad["annotator"],
                                    "status": bad["status"], "reason": bad["reason"]}))
    frames.append(tables["problems"][["stage", "item", "status", "reason"]])
    frames = [f for f in frames if not f.empty]
    if not frames:
        return pd.DataFrame(columns=["stage", "item", "status", "reason"])
    return pd.concat(frames, ignore_index=True)


def _replicated(assessments: pd.DataFrame) -> bool:
    ok = assessments[assessments["status"] == "ok"]
    return bool(len(ok)) and bool(ok.groupby(["reviewer", "document_id", "arm"]).size().max() > 1)


JUDGES_ONLY = "does not apply: every evaluator of this study is a review-quality judge (see Table 1)"
"""Why the paper-review tables are absent from a study whose every evaluator is a judge."""


def analyse(
    assessments: pd.DataFrame,
    study: StudyConfig,
    *,
    n_resamples: int = 5000,
    seed: int = 0,
    artefacts: Mapping[str, Sequence[Any]] | None = None,
) -> tuple[pd.DataFrame, dict[str, pd.DataFrame], dict[str, str], list[tuple[str, str]]]:
    """Every applicable analysis table of a tidy assessments table, and why the others are not.

    Calls :func:`rhetorica.analysis.summary.study_tables` (the statistics live there) for the
    comparison, conditional and pooled-SD tables, and every registered analysis table
    (:func:`rhetorica.report.paper_tables.registered_tables`), on the assessments of the study's
    reviewers (judge configurations are analysed apart, by
    :func:`rhetorica.report.judges.collect_judges`), and decides what a report shows: the Table-5
    ``conditional`` table only with 2x2 compound arms, pooled SD only with replicates. A
    registered table that returns :class:`~rhetorica.report.tables.Unavailable` or raises
    ``ValueError`` is left out with its reason; the others are still computed.

    Args:
        assessments: tidy assessments (``rhetorica.store.export.assessments_table``).
        study: the run's study (its reviewers, ``decision_threshold`` and ``comparisons``).
        n_resamples: bootstrap resamples of the change table (the six-dimension study used 5,000).
        seed: bootstrap seed.
        artefacts: artefact name -> values of the current units, for the registered tables
            (:attr:`rhetorica.report.tables.TableContext.artefacts`).

    Returns:
        ``(comparisons, analysis, unavailable, pairs)``: the Table-4 comparison (empty when no pair
        exists), the other tables by key, one reason per table key that is not computable, and the
        compared pairs.
    """

    judges = judge_names(study)
    if judges and not assessments.empty:  # judges are analysed by the review-metric study (Table 1)
        assessments = assessments[~assessments["reviewer"].isin(judges)]
    threshold = study.decision_threshold
    pairs = study_pairs(study, assessments)
    unavailable: dict[str, str] = {}
    registered = registered_tables()
    keys = ("comparison", *(t.key for t in registered), "pooled_sd")
    if judges and assessments.empty:
        return pd.DataFrame(), {}, dict.fromkeys(keys, JUDGES_ONLY), pairs
    if assessments.empty or not assessments["status"].eq("ok").any():
        reason = "no successful assessments in the store yet"
        return pd.DataFrame(), {}, dict.fromkeys(keys, reason), pairs
    try:
        computed = study_tables(assessments, pairs=pairs, threshold=threshold, seed=seed)
    except ValueError as exc:
        return pd.DataFrame(), {}, dict.fromkeys(keys, f"analysis failed: {exc}"), pairs
    comparisons = computed.pop("comparison")
    if not pairs:
        unavailable["comparison"] = "needs two conditions with assessments of the same papers"
    if computed["conditional"].empty:
        computed.pop("conditional")  # only shown for 2x2 compound rewrites
    if not _replicated(assessments):
        computed.pop("pooled_sd")  # only shown with repeated reviews of identical input
    elif computed["pooled_sd"]["pooled_sd"].isna().all():
        unavailable["pooled_sd"] = "needs at least two successful replicates of one paper"
    analysis = {k: v for k, v in computed.items() if k not in unavailable and not v.empty}
    context = TableContext(pairs, threshold, n_resamples, seed, artefacts or {})
    for table in registered:
        try:
            result = table.compute(assessments, context)
        except ValueError as exc:
            result = Unavailable(f"analysis failed: {exc}")
        if isinstance(result, Unavailable):
            unavailable[table.key] = result.reason
        elif not result.empty:
            analysis[table.key] = result
    return comparisons, analysis, unavailable, pairs


def artefact_values(artefacts: pd.DataFrame) -> dict[str, list[Any]]:
    """Artefact name -> the parsed values of the current units, in the table's order (the
    ``artefacts`` of :func:`analyse`), from :func:`rhetorica.store.export.artefacts_table`."""
    values: dict[str, list[Any]] = {}
    for name, value in zip(artefacts["name"], artefacts["value_json"], strict=True):
        values.setdefault(name, []).append(json.loads(value))
    return values


def _scorecard(assessments: pd.DataFrame, study: StudyConfig, pairs: list[tuple[str, str]],
               judges: Any = None, rereviews: pd.DataFrame | None = None) -> tuple[pd.DataFrame, str | None]:
    if assessments.empty:
        return pd.DataFrame(), "no assessments in the store yet"
    try:
        return study_scorecard(assessments, study, pairs=pairs, judges=judges, rereviews=rereviews), None
    except ValueError as exc:
        return pd.DataFrame(), f"scorecard failed: {exc}"


def collect(run_dir: Path, *, n_resamples: int = 5000, seed: int = 0, appendix_papers: int | None = None) -> ReportData:
    """Read the store of ``run_dir`` into :class:`ReportData` and export the tidy tables.

    Args:
        run_dir: a run directory (holding ``store.sqlite`` and ``study.json``).
        n_resamples: bootstrap resamples of the change-versus-original table.
        seed: bootstrap seed (the report is reproducible).
        appendix_papers: papers in the per-paper appendix (default
            :data:`rhetorica.report.appendix.DEFAULT_APPENDIX_PAPERS`; 0 leaves it out).

    Raises:
        FileNotFoundError: if ``run_dir`` has no store.
        rhetorica.store.db.StoreError: if the store is not a rhetorica store (see :func:`rhetorica.store.runs.open_run_store`).
        rhetorica.study.config.ConfigError: if ``study.json`` is missing, unreadable or not a valid
            study (see :func:`rhetorica.study.run_study.load_run_study`).
    """

    store = open_run_store(run_dir)
    try:
        study = load_run_study(run_dir)
        tables = export_tables(store, run_dir / "tables")
        wall = run_wall_time(store)
        checks = read_checks(store)
        current_variants = plan_keys(store, "rewrite")
        scans = pd.DataFrame(store.scan_rows())
        paper_ids = paper_ids_of(document_jsons(store))
        examples = paper_examples(store, DEFAULT_APPENDIX_PAPERS if appendix_papers is None else appendix_papers)
        planned = planned_sizes(store)
        documents = study_documents(store)
        probed = {model: label for model, event, label in store.endpoint_events() if event == PROMPT_CACHE_EVENT}
    finally:
        store.close()
    if current_variants is not None:  # checks of superseded variants are superseded with them
        checks = checks[checks["variant_key"].isin(current_variants)].reset_index(drop=True)
    artefacts = tables.get("artefacts", pd.DataFrame())
    tables["assessments"], tables["scores"] = apply_min_covered(tables["assessments"], tables["scores"], artefacts,
                                                                study.soft_ratings.min_covered)
    assessments = analysed_assessments(tables["assessments"], study)
    comparisons, analysis, unavailable, pairs = analyse(assessments, study, n_resamples=n_resamples, seed=seed,
                                                        artefacts=artefact_values(tables["artefacts"]))
    analysed_scores = tables["scores"][tables["scores"]["unit_key"].isin(assessments["unit_key"])]
    review_papers = paper_ids if study.reviewers and judge_names(study) == {r.name for r in study.reviewers} else None
    gaps = configuration_gaps(assessments, [r.name for r in study.reviewers])  # configurations without data
    if needs_form_table(analysed_scores):
        analysis["forms"] = form_scores(analysed_scores, review_papers, gaps)

    judges = collect_judges(analysed_scores, study, paper_ids, analysis, unavailable)  # the review-metric study
    _replicate_spread(analysed_scores, analysis)
    collect_attacks(assessments, tables["artefacts"], study, analysis, unavailable)  # worst-case searches
    try:  # the aspect section's tables (rhetorica.report.aspects), when the study annotated its reviews
        analysis.update(aspect_tables(tables, assessments, pairs))
    except ValueError as exc:
        unavailable["aspects"] = f"aspect analysis failed: {exc}"
    card, card_problem = _scorecard(assessments, study, pairs, judges, search_rereviews(tables["artefacts"]))
    if card_problem:
        unavailable["scorecard"] = card_problem
    validation = validation_table(checks)
    summary = pd.DataFrame()
    if validation.empty:
        unavailable["validation"] = "no variant has been validated (no rows in the store's checks table)"
    elif validation["validated"].any():
        summary = validation_summary(validation)
    elif review_check_summary(validation).empty:  # review variants have checks, not measures
        unavailable["validation"] = "no stored validation result carries measures; see the list below"
    if study.recipe is not None:  # a run made by `rhetorica recipe init`: the published numbers beside its own
        recipe_comparison(study, comparisons, analysis, summary, assessments, unavailable)
    flow = run_flow(study, tables, documents, validation, assessments, planned,
                    judges.pairs if judges is not None else None, judges.declared if judges is not None else None)
    effective = _effective_n(study, assessments, judges, comparisons, analysis,
                             soft_rating_reasons(artefacts, study.soft_ratings.min_covered))
    return ReportData(study=study, comparisons=comparisons,
                      condition_means=with_every_configuration(_condition_means(assessments, review_papers), gaps),
                      usage=_usage(tables["model_calls"], study, probed), failures=_failures(tables), wall_time_s=wall,
                      tables=tables, analysis=analysis, unavailable=unavailable, scorecard=card,
                      validation=validation, validation_summary=summary,
                      shift_checks=shift_table(checks), pairs=pairs,
                      superseded=tables["superseded"], scans=scans, examples=examples, flow=flow,
                      effective_n=effective, paper_ids=paper_ids,
                      table_gaps={name: why for name, why in gaps.items() if name not in judge_names(study)})


def recipe_comparison(study: StudyConfig, comparisons: pd.DataFrame, analysis: dict[str, pd.DataFrame],
                      validation_summary: pd.DataFrame, assessments: pd.DataFrame, unavailable: dict[str, str]) -> None:
    """Fill ``analysis["published_vs_run"]`` and ``analysis["published_design"]``
    (:func:`rhetorica.recipes.comparison.compare_run`) for a study made from a recipe, or say why not."""
    assert study.recipe is not None
    tables = {"paired": comparisons, "validation": validation_summary, "assessments": assessments,
              **{k: analysis[k] for k in ("conditional", "judges", "change", "movement", "robustness") if k in analysis}}
    ok = assessments[(assessments["status"] == "ok") & (assessments["arm"] == ORIGINAL)] if not assessments.empty else assessments
    units = int(ok["document_id"].nunique()) if not ok.empty else 0
    try:
        side, design = compare_run(study.recipe.name, study.recipe.parameters, study.recipe.sample, tables, units)
    except RecipeError as exc:
        unavailable["published_vs_run"] = str(exc)
        return
    analysis["published_vs_run"], analysis["published_design"] = side, design


def _replicate_spread(scores: pd.DataFrame, analysis: dict[str, pd.DataFrame]) -> None:
    """``analysis["pooled_sd_metrics"]``: the pooled SD of replicates of every metric (original arm
    when present), when some input was reviewed more than once."""

    ok = scores[(scores["status"] == "ok") & scores["value"].notna()] if not scores.empty else scores
    if ok.empty or ok.groupby(["reviewer", "document_id", "arm", "metric"]).size().max() < 2:
        return
    has_original = bool((ok["arm"] == ORIGINAL).any())
    analysis["pooled_sd_metrics"] = pooled_sd_by_metric(scores, arm=ORIGINAL if has_original else None)


def _effective_n(study: StudyConfig, analysed: pd.DataFrame, judges: Any, comparisons: pd.DataFrame,
                 analysis: dict[str, pd.DataFrame], soft_reasons: pd.DataFrame) -> pd.DataFrame:
    """:func:`rhetorica.analysis.flow.effective_n` of the report's tables: Table 4, Table 1 (with
    the other judges' pair-level rows) and robustness, and their tests on expected scores
    (``soft_reasons``: :func:`rhetorica.analysis.soft.soft_rating_reasons`)."""

    table1 = analysis.get("judges", pd.DataFrame())
    every = analysis.get("judges_all", pd.DataFrame())
    if not table1.empty and not every.empty:  # Table 1 (first judge, declared metrics) and the other judges
        table1 = pd.concat([table1, every[~every["judge"].isin(set(table1["judge"]))]], ignore_index=True)
    return effective_n(comparisons=comparisons, analysed=analysed, judges=table1,
                       judges_clustered=analysis.get("judges_clustered"),
                       judge_pairs=judges.pairs if judges is not None else None,
                       cluster=study.judge_analysis.cluster,
                       robustness=analysis.get("robustness"), soft_reasons=soft_reasons)
