"""The study flow: every unit a study planned, where it went, and the n behind every test.

The CONSORT diagram of an experiment (ARCHITECTURE.md, "The study flow"; Schulz, Altman & Moher
2010, "CONSORT 2010 Statement", BMJ 340:c332, item 13 and its flow diagram): per stage, arm and
configuration, the units planned, and for each that did not reach the analysis *why*, counted.

One row of :data:`FLOW_COLUMNS` per (stage, arm, configuration[, metric]):

- ``input`` (one row): documents planned = read + unreadable + the units a recipe's data step drew
  and left out (``recipe.left_out``: not run, by reason); analysed = documents with at least one
  analysed assessment.
- ``scan`` (one row, only when a scan had a problem): review inputs whose hidden-text scan failed or
  could not read a page or file (``not scanned: ...``), each counted as failed with its reason; the
  input itself is still reviewed.
- ``rewrite`` per arm (condition x rewriter): variants planned, stored ``ok`` = analysed (passed on);
  likewise each other stage that stores variants, under its own name (the ``stage`` each variant
  was stored with: ``attack``, ``rewrite-<n>``, ``guided-rewrite``), with its failures. Planned
  variants never stored, which no stored row places in a stage, are one ``rewrite`` row of arm
  ``(any)`` (the plan of every stage storing variants).
- ``guided-review`` per arm (the workflow it guides, ``guided``) and rewriter: the rewriting
  model's reviews of the variants a guided rewrite builds on; a failed review is counted with its
  status, and its guided rewrite, never planned, with it ("the guided rewrite was not made").
- ``validate`` per arm (when the study validates): the ``ok`` variants; produced = validated (or
  passed on without a check: reviewed unvalidated); passed on = those that passed (under
  ``failed_variants: include`` every variant; a check that could not be made is then no failure).
- ``review`` per reviewer configuration x arm: inputs passed on x replicates; analysed = ``ok``
  assessments the analysis reads.
- ``extract`` and ``annotate`` (SciCore's science cores, aspect annotations) per arm and
  configuration: the stored units and their failures.
- ``metric`` (judge studies) per rewrite condition x judge x declared metric: rewrites passed on;
  analysed = rewrites with both the rewrite and its original scored on that metric (Table 1's n).

Counts satisfy ``planned = not_run + failed + produced`` and ``planned - analysed = sum of the row's
exclusions`` (:data:`EXCLUSION_COLUMNS`, each with its ``kind`` — ``not run``, ``failed`` or
``excluded`` — its reason and n). A declared configuration or metric with no usable output is a row
with ``analysed = 0`` and its reasons; nothing disappears. Units superseded by a later
declaration of the study are not counted (the report lists them apart).

:func:`effective_n` lists, per test of the analysis tables, the n it used: papers, reviews,
pairs, non-zero differences (the sign and Wilcoxon tests drop ties) and clusters; for each test on
expected scores (soft ratings), also the reviews or judgements the integer test used that have no
expected score, counted by reason (:data:`SOFT_N_COLUMNS`).

Input is the tidy store tables (:mod:`rhetorica.store.export`); nothing here calls a model.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from rhetorica.forms import expected_metric
from rhetorica.labels import ORIGINAL, arm_label
from rhetorica.problems import WARNING_PREFIX, is_warning

FLOW_COLUMNS = ["stage", "arm", "configuration", "metric", "planned", "not_run", "failed", "produced", "excluded",
                "analysed"]
"""Columns of :attr:`StudyFlow.flow` (counts are ints; ``metric`` is empty but for the ``metric`` stage)."""

EXCLUSION_COLUMNS = ["stage", "arm", "configuration", "metric", "kind", "reason", "n"]
"""Columns of :attr:`StudyFlow.exclusions`."""

EFFECTIVE_N_COLUMNS = ["table", "test", "configuration", "comparison", "metric", "papers", "reviews", "pairs",
                       "nonzero", "clusters"]
"""Columns of :func:`effective_n` (NaN where a count does not apply to the test)."""

SOFT_N_COLUMNS = ["missing", "missing_reasons"]
"""Columns :func:`effective_n` adds when a table tests expected scores: on a soft test's row, the
assessments the integer test used that carry no expected score, and ``reason (n); …`` of them
(NaN and empty on other rows)."""

SOFT_TEST = "Wilcoxon signed-rank, bootstrap CI (expected scores)"
"""The ``test`` of a row of :func:`effective_n` on expected scores."""

NO_SOFT_RATING = "no soft rating stored (the configuration does not set soft_ratings)"
"""Why an assessment without a ``soft_ratings`` artefact entry has no expected score."""

STAGES = ("input", "rewrite", "guided-review", "validate", "extract", "review", "annotate", "metric")
"""Stages of the flow, in order; another stage's rows (one that stores variants: ``attack``,
``rewrite-<n>``, ``guided-rewrite``) follow the stage of these before it in the study's walk
(``stages`` of :func:`study_flow`), else ``rewrite``."""

NOT_RUN, FAILED, EXCLUDED = "not run", "failed", "excluded"
DISCARDED = "discarded"
"""A review left out by design (:class:`rhetorica.reviewers.external.base.NoPdfError`): excluded, not failed."""
"""The kinds of an exclusion: planned but never run, run and stored as a failure, produced but left out."""

@dataclass
class StudyFlow:
    """The flow of a study (module docstring).

    Attributes:
        flow: :data:`FLOW_COLUMNS`, stages in :data:`STAGES` order.
        exclusions: :data:`EXCLUSION_COLUMNS`, every unit between planned and analysed, by reason.
    """

    flow: pd.DataFrame
    exclusions: pd.DataFrame

    def stage_totals(self) -> pd.DataFrame:
        """Per stage, the sums of the count columns (one row per stage present)."""
        counts = FLOW_COLUMNS[4:]
        return self.flow.groupby("stage", sort=False)[counts].sum().reset_index()


def _stage_order(walk: Sequence[str]) -> dict[str, float]:
    """Sort key of each stage: its place in :data:`STAGES`; a stage outside them just after the
    last of them that ``walk`` (the study's stages in walk order) lists before it."""
    keys = {stage: float(i) for i, stage in enumerate(STAGES)}
    after, step = keys["rewrite"], 0
    for stage in walk:
        if stage in STAGES:
            after, step = keys[stage], 0
        elif stage not in keys:
            step += 1
            keys[stage] = after + step / (len(walk) + 1)
    return keys


class _Builder:
    def __init__(self, walk: Sequence[str] = ()) -> None:
        self.rows: list[dict[str, Any]] = []
        self.out: list[dict[str, Any]] = []
        self.order = _stage_order(walk)

    def add(self, stage: str, arm: str, configuration: str, planned: int, *, produced: int,
            exclusions: list[tuple[str, str, int]], metric: str = "") -> int:
        """Add one row; ``exclusions`` are (kind, reason, n); returns the analysed count."""
        exclusions = [(k, r, int(n)) for k, r, n in exclusions if n > 0]
        total = {kind: sum(n for k, _, n in exclusions if k == kind) for kind in (NOT_RUN, FAILED, EXCLUDED)}
        analysed = int(planned) - sum(total.values())
        self.rows.append({"stage": stage, "arm": arm, "configuration": configuration, "metric": metric,
                          "planned": int(planned), "not_run": total[NOT_RUN], "failed": total[FAILED],
                          "produced": int(produced), "excluded": total[EXCLUDED], "analysed": analysed})
        self.out += [{"stage": stage, "arm": arm, "configuration": configuration, "metric": metric, "kind": kind,
                      "reason": reason, "n": n} for kind, reason, n in exclusions]
        return analysed

    def result(self) -> StudyFlow:
        def key(stage: str) -> float:
            return self.order.get(stage, self.order["rewrite"] + 0.5)

        flow = pd.DataFrame(self.rows, columns=FLOW_COLUMNS)
        flow = flow.iloc[flow["stage"].map(key).argsort(kind="stable")].reset_index(drop=True)
        out = pd.DataFrame(self.out, columns=EXCLUSION_COLUMNS)
        out = out.iloc[out["stage"].map(key).argsort(kind="stable")].reset_index(drop=True)
        return StudyFlow(flow, out)


def check_label(reason: str) -> str:
    """The check a validation reason names, without its measured values:
    ``"semantic similarity 0.812 < 0.850"`` -> ``"semantic similarity"``,
    ``"3 protected span(s) missing: …"`` -> ``"protected span(s) missing"``; a parenthesis set off by
    a space is left out whole (``"point without a counterpart (best cosine 0.30 < 0.32): …"`` ->
    ``"point without a counterpart"``)."""
    text = re.sub(r"\s+\([^()]*\)", "", re.sub(r"^\s*[-\d.]+\s+", "", str(reason)))
    label = re.split(r"\s[-<>≤≥=]|\s\d|:|\(\d", text, maxsplit=1)[0].strip()
    return label or str(reason)


def _discarded(rows: pd.DataFrame) -> list[tuple[str, str, int]]:
    """One ``excluded`` exclusion per reason of the reviews left out by design (status ``discarded``:
    a reviewer that reads PDFs and a document without one), the reason's document part dropped."""
    found = rows[rows["status"] == DISCARDED]
    if found.empty:
        return []
    reasons = found["reason"].astype(str).str.split("): ", n=1, regex=False).str[-1] if "reason" in found.columns else \
        pd.Series("discarded", index=found.index)
    return [(EXCLUDED, str(reason), int(n)) for reason, n in reasons.value_counts().sort_index().items()]


def _status_exclusions(statuses: pd.Series, what: str) -> list[tuple[str, str, int]]:
    """One ``failed`` exclusion per non-ok status: ``"<what> malformed"`` (``what`` may hold a
    ``{status}`` field: ``"guided review {status}: …"``)."""
    bad = statuses[statuses != "ok"].value_counts()
    said = what if "{status}" in what else what + " {status}"
    return [(FAILED, said.format(status=status), int(n)) for status, n in sorted(bad.items())]


#: How a failed unit of a stage planned from stored units is named in the flow.
_STORED_FAILURE = {"guided-review": "guided review {status}: the guided rewrite was not made"}


def _not_run_reason(configuration: str, stops: Mapping[str, str], budget: str | None) -> str:
    if configuration in stops:
        return f"configuration stopped: {stops[configuration]}"
    if budget:
        return f"budget reached: {budget}"
    return "not run yet (run the study again to run it)"


def _arm(condition: str, rewriter: str, several: set[str]) -> str:
    return arm_label(condition, rewriter if condition in several else None)


def study_flow(study: Mapping[str, Any], *, documents: pd.DataFrame, variants: pd.DataFrame,
               validation: pd.DataFrame, assessments: pd.DataFrame, analysed: pd.DataFrame,
               problems: pd.DataFrame, planned: Mapping[str, int | None],
               judge_pairs: pd.DataFrame | None = None,
               declared_metrics: Mapping[str, list[str]] | None = None,
               judge_configurations: Mapping[str, list[str]] | None = None,
               extracts: pd.DataFrame | None = None, annotations: pd.DataFrame | None = None,
               guided_reviews: pd.DataFrame | None = None, stages: Sequence[str] = ()) -> StudyFlow:
    """The flow of a study from its tidy tables (module docstring).

    Args:
        study: the study as saved in ``study.json`` (``rewriters``, ``reviewers``, ``replicates``,
            ``validation``).
        documents: the study's documents, one row each (``document_id``).
        variants: current variants (:func:`rhetorica.store.export.variants_table`; ``stage``: the
            stage that made each, ``rewrite`` for all when the column is absent).
        validation: current checks, one row per variant (:func:`rhetorica.report.validation.validation_table`;
            ``variant_key``, ``passed``, ``reasons``, ``validated``); empty without validation.
        assessments: current assessments (:func:`rhetorica.store.export.assessments_table`).
        analysed: the assessments the analysis reads (a subset of ``assessments``).
        problems: the latest run's problems (``stage, item, status, reason``).
        planned: stage (``rewrite``, ``review``, ``extract``, ``annotate``) -> number of units of
            its recorded plan (None or absent: no plan recorded); units planned but not stored that
            the design cannot place are one row
            with arm ``(any)``.
        judge_pairs: the judge study's pair table (:func:`rhetorica.judges.analysis.judge_pairs`),
            for the ``metric`` stage.
        declared_metrics: judge label -> its declared metrics
            (:func:`rhetorica.judges.analysis.declared_metrics`).
        judge_configurations: judge label -> its configuration names (for their stop reasons).
        extracts: current science-core extractions (``arm``, ``configuration``, ``status``), for
            the ``extract`` stage.
        annotations: current aspect annotations (``arm``, ``configuration``, ``status``), for the
            ``annotate`` stage.
        guided_reviews: current reviews of the guided workflow (``arm``, ``configuration``,
            ``status``), for the ``guided-review`` stage.
        stages: the study's stage names in the order its unit graph walks them
            (:func:`rhetorica.study.graph.study_stages`), to place the rows of stages outside
            :data:`STAGES`.

    Returns:
        :class:`StudyFlow`.
    """
    b = _Builder(stages)
    replicates = int(study.get("replicates", 1) or 1)
    exclude = (study.get("validation") or {}).get("failed_variants", "exclude") == "exclude"
    validating = bool((study.get("validation") or {}).get("enabled", True))
    stops, budget = _stops(problems)
    problem_rows = problems if not problems.empty else pd.DataFrame(columns=["stage", "item", "status", "reason"])

    # input: documents read, unreadable inputs

    warning = problem_rows["reason"].astype(str).map(is_warning).astype(bool)
    ingest = problem_rows[(problem_rows["stage"] == "ingest") & ~warning]
    docs = set(documents["document_id"].astype(str)) if not documents.empty else set()
    used = set(analysed.loc[analysed["status"] == "ok", "document_id"].astype(str)) if not analysed.empty else set()
    unread = [(FAILED, f"unreadable input: {reason}", int(n))
              for reason, n in ingest["reason"].astype(str).value_counts().sort_index().items()]
    drawn = [str(unit.get("reason")) for unit in (study.get("recipe") or {}).get("left_out") or []]
    left_out = [(NOT_RUN, f"left out by the recipe's data step: {reason}", n)
                for reason, n in sorted(pd.Series(drawn, dtype=object).value_counts().items())]
    b.add("input", "–", "documents", len(docs) + len(ingest) + len(drawn), produced=len(docs),
          exclusions=unread + left_out + [(EXCLUDED, "no analysed assessment of the document", len(docs - used))])

    # scan: inputs not scanned in full (still reviewed: the scan removes nothing)
    scans = problem_rows[problem_rows["stage"] == "scan"]
    if not scans.empty:
        reasons = scans["reason"].astype(str).str.removeprefix(WARNING_PREFIX).value_counts().sort_index()
        b.add("scan", "–", "inputs", len(scans), produced=0,
              exclusions=[(FAILED, str(reason), int(n)) for reason, n in reasons.items()])

    # rewrite and validate, per arm
    several = {c for c, n in variants.groupby("condition")["rewriter"].nunique().items() if n > 1} \
        if not variants.empty else set()
    forwarded: dict[str, set[str]] = {}  # arm -> variant keys passed on to review
    arm_of_variant: dict[str, str] = {}
    stored_rewrites = len(variants)
    checks = validation.set_index("variant_key") if not validation.empty else pd.DataFrame()
    made = variants if "stage" in variants.columns else variants.assign(stage="rewrite")
    for (stage, condition, rewriter), rows in made.groupby(["stage", "condition", "rewriter"], sort=True):
        arm = _arm(str(condition), str(rewriter), several)
        ok = rows[rows["status"] == "ok"]
        b.add(str(stage), arm, str(rewriter), len(rows), produced=len(ok),
              exclusions=_status_exclusions(rows["status"], str(stage)))
        keys = list(ok["unit_key"].astype(str))
        arm_of_variant.update(dict.fromkeys(keys, arm))
        if not validating and checks.empty:
            forwarded[arm] = set(keys)
            continue
        passed_on = set()
        by_reason: dict[tuple[str, str], int] = {}
        for key in keys:
            if key not in checks.index:
                passed_on.add(key)  # reviewed unvalidated
                continue
            check = checks.loc[key]
            check = check.iloc[0] if isinstance(check, pd.DataFrame) else check
            if bool(check["passed"]):
                passed_on.add(key)
                continue
            if not exclude:
                passed_on.add(key)
                continue
            reasons = [r for r in str(check.get("reasons") or "").split("; ") if r]
            review = check.get("review")
            if bool(check.get("validated", True)) or (review is not None and pd.notna(review) and bool(review)):
                reason = f"failed validation: {check_label(reasons[0])}" if reasons else "failed validation"
                by_reason[(EXCLUDED, reason)] = by_reason.get((EXCLUDED, reason), 0) + 1
            else:
                reason = f"could not be validated: {reasons[0]}" if reasons else "could not be validated"
                by_reason[(FAILED, reason)] = by_reason.get((FAILED, reason), 0) + 1
        out = [(kind, reason, n) for (kind, reason), n in sorted(by_reason.items())]
        errors = sum(n for (kind, _), n in by_reason.items() if kind == FAILED)
        b.add("validate", arm, str(rewriter), len(keys), produced=len(keys) - errors, exclusions=out)
        forwarded[arm] = passed_on
    if planned.get("rewrite") is not None and planned["rewrite"] > stored_rewrites:
        missing = int(planned["rewrite"]) - stored_rewrites
        b.add("rewrite", "(any)", "(any)", missing, produced=0,
              exclusions=[(NOT_RUN, _not_run_reason("", stops, budget), missing)])

    # review, per reviewer configuration x arm: the design's inputs x replicates
    reviewers = [str(r["name"]) for r in study.get("reviewers") or []]
    reviewers += sorted(set(assessments["reviewer"].astype(str)) - set(reviewers)) if not assessments.empty else []
    stored_arms = set(assessments["arm"].astype(str)) if not assessments.empty else set()
    arms = [ORIGINAL, *sorted((set(forwarded) | stored_arms) - {ORIGINAL})]  # imported rows have no variant
    inputs = {ORIGINAL: len(docs), **{arm: len(keys) for arm, keys in forwarded.items()}}
    left_out = set(assessments["unit_key"]) - set(analysed["unit_key"]) if not assessments.empty else set()
    design: list[tuple[str, str, int, pd.DataFrame]] = []
    for reviewer in reviewers:
        mine = assessments[assessments["reviewer"] == reviewer] if not assessments.empty else assessments
        for arm in arms:
            rows = mine[mine["arm"] == arm] if not mine.empty else mine
            design.append((reviewer, arm, max(inputs.get(arm, 0) * replicates, len(rows)), rows))
    not_stored = sum(expected - len(rows) for _, _, expected, rows in design)
    plan_missing = None if planned.get("review") is None else int(planned["review"]) - len(assessments)
    attribute = plan_missing is None or plan_missing == not_stored
    for reviewer, arm, expected, rows in design:
        planned_n = expected if attribute else len(rows)
        ok = rows[rows["status"] == "ok"] if not rows.empty else rows
        out = [(NOT_RUN, _not_run_reason(reviewer, stops, budget), planned_n - len(rows))]
        out += _status_exclusions(rows["status"][rows["status"] != DISCARDED], "review") if not rows.empty else []
        out += _discarded(rows) if not rows.empty else []
        dropped = int(ok["unit_key"].isin(left_out).sum()) if not ok.empty else 0
        out.append((EXCLUDED, "review of a variant that failed validation (failed_variants: exclude)", dropped))
        b.add("review", arm, reviewer, planned_n, produced=len(ok), exclusions=out)
    if not attribute and plan_missing and plan_missing > 0:
        b.add("review", "(any)", "(any)", plan_missing, produced=0,
              exclusions=[(NOT_RUN, _not_run_reason("", stops, budget), plan_missing)])

    for stage, frame in (("guided-review", guided_reviews), ("extract", extracts), ("annotate", annotations)):
        if frame is not None and not frame.empty:
            _stored_stage(b, stage, frame, planned.get(stage), stops, budget)

    if judge_pairs is not None and declared_metrics:
        _metric_rows(b, judge_pairs, declared_metrics, forwarded, arm_of_variant, variants, judge_configurations or {},
                     stops, budget)
    return b.result()


def _stored_stage(b: _Builder, stage: str, frame: pd.DataFrame, planned: int | None, stops: Mapping[str, str],
                  budget: str | None) -> None:
    """A stage planned from stored units only (guided-review, extract, annotate): per arm and configuration, the
    stored units and their failures; planned units never stored are one ``(any)`` row."""
    for (arm, configuration), rows in frame.groupby(["arm", "configuration"], sort=True):
        ok = int((rows["status"] == "ok").sum())
        b.add(stage, str(arm), str(configuration), len(rows), produced=ok,
              exclusions=_status_exclusions(rows["status"], _STORED_FAILURE.get(stage, stage)))
    if planned is not None and planned > len(frame):
        b.add(stage, "(any)", "(any)", planned - len(frame), produced=0,
              exclusions=[(NOT_RUN, _not_run_reason("", stops, budget), planned - len(frame))])


def _metric_rows(b: _Builder, pairs: pd.DataFrame, declared: Mapping[str, list[str]],
                 forwarded: Mapping[str, set[str]], arm_of_variant: Mapping[str, str], variants: pd.DataFrame,
                 configurations: Mapping[str, list[str]], stops: Mapping[str, str], budget: str | None) -> None:
    """The ``metric`` stage: per rewrite condition, judge and declared metric, each rewrite passed
    on, analysed when it and its original have a usable score on the metric, else excluded with
    the missing side's reason, or the reason of a pair missing on both sides (:func:`_pair_state`)."""
    info = variants.set_index("unit_key")[["document_id", "condition"]] if not variants.empty else pd.DataFrame()
    rewrites = pairs[pairs["arm"] == "rewrite"]
    originals = pairs[pairs["arm"] == ORIGINAL]
    side_state = {
        "rewrite": _side_states(rewrites, ["judge", "metric", "variant"]),
        ORIGINAL: _side_states(originals, ["judge", "metric", "document_id"]),
    }
    conditions: dict[str, list[str]] = {}
    for arm, keys in forwarded.items():
        for key in keys:
            if key in info.index:
                conditions.setdefault(str(info.loc[key, "condition"]), []).append(key)
    for condition in sorted(conditions):
        keys = sorted(conditions[condition])
        for judge, metrics in declared.items():
            stop = next((stops[c] for c in configurations.get(judge, []) if c in stops), None)
            for metric in metrics:
                reasons: dict[tuple[str, str], int] = {}
                for key in keys:
                    found = _pair_state(side_state, judge, metric, key, str(info.loc[key, "document_id"]), stop,
                                        budget)
                    if found is not None:
                        reasons[found] = reasons.get(found, 0) + 1
                out = [(kind, reason, n) for (kind, reason), n in sorted(reasons.items())]
                b.add("metric", condition, judge, len(keys), metric=metric,
                      produced=len(keys) - sum(n for (kind, _), n in reasons.items() if kind != EXCLUDED),
                      exclusions=out)


def _side_states(rows: pd.DataFrame, keys: list[str]) -> dict[tuple[str, ...], str]:
    """Key -> ``usable`` (an ok judgement with a value), ``missing`` (ok, no value) or the most
    frequent failure status of the key's judgements."""
    if rows.empty:
        return {}
    frame = rows.assign(usable=rows["status"].eq("ok") & rows["score"].notna(), ok=rows["status"].eq("ok"))
    out: dict[tuple[str, ...], str] = {}
    for key, part in frame.groupby(keys, sort=False):
        if part["usable"].any():
            out[tuple(map(str, key))] = "usable"
        elif part["ok"].any():
            out[tuple(map(str, key))] = "missing"
        else:
            out[tuple(map(str, key))] = str(part["status"].value_counts().index[0])
    return out


def _pair_state(states: Mapping[str, Mapping[tuple[str, ...], str]], judge: str, metric: str, variant: str,
                document: str, stop: str | None, budget: str | None) -> tuple[str, str] | None:
    """(kind, reason) of a rewrite's pair that is not analysed on ``metric``, or ``None``: the side
    whose score is unusable, or ``both sides …`` with each side's state when neither is usable (a
    reason of its own: counted once, never under one side). The kind of a pair missing on both
    sides is ``failed`` when either side failed, else ``not run`` when either was not judged."""
    found = []
    for side, key in (("rewrite", (judge, metric, variant)), (ORIGINAL, (judge, metric, document))):
        state = states[side].get(key)
        if state is None:
            why = f"configuration stopped: {stop}" if stop else (f"budget reached: {budget}" if budget
                                                                 else "not run yet")
            found.append((NOT_RUN, f"{side} not judged ({why})", f"not judged ({why})"))
        elif state == "missing":
            found.append((EXCLUDED, f"metric missing from the {side}'s ok judgement", "metric missing"))
        elif state != "usable":
            found.append((FAILED, f"{side} judgement {state}", f"judgement {state}"))
        else:
            found.append(None)
    rewrite, original = found
    if rewrite is None or original is None:
        return (rewrite or original)[:2] if (rewrite or original) else None
    kinds = {rewrite[0], original[0]}
    kind = FAILED if FAILED in kinds else (NOT_RUN if NOT_RUN in kinds else EXCLUDED)
    return kind, f"both sides missing: rewrite {rewrite[2]}, original {original[2]}"


def _stops(problems: pd.DataFrame) -> tuple[dict[str, str], str | None]:
    """(configuration -> why it was stopped, the budget stop's reason) from the run's problems."""
    stops: dict[str, str] = {}
    budget = None
    if problems.empty:
        return stops, budget
    for row in problems.itertuples(index=False):
        reason = str(row.reason)
        if row.stage == "budget":
            budget = budget or reason
        elif row.stage in ("rewrite", "review", "extract", "annotate"):
            stops.setdefault(str(row.item), reason.removeprefix(
                "configuration stopped, its remaining units were not run: "))
    return stops, budget


def effective_n(*, comparisons: pd.DataFrame | None = None, analysed: pd.DataFrame | None = None,
                judges: pd.DataFrame | None = None, judges_clustered: pd.DataFrame | None = None,
                judge_pairs: pd.DataFrame | None = None, cluster: str = "paper",
                robustness: pd.DataFrame | None = None, soft_reasons: pd.DataFrame | None = None) -> pd.DataFrame:
    """The n behind each test of the analysis tables (:data:`EFFECTIVE_N_COLUMNS`, then
    :data:`SOFT_N_COLUMNS` when a table tests expected scores).

    - Table 4 (``comparisons``, sign test): ``papers`` with both arms scored, ``reviews`` the ok
      assessments of those papers in the two arms (replicates included), ``nonzero`` the papers
      whose paper-level scores differ (the sign test drops ties).
    - Table 1 (``judges`` and every judge's pair-level rows): ``pairs`` the rewrites with both sides
      scored, ``nonzero`` the non-zero differences the Wilcoxon test ranked, ``papers`` and
      ``reviews`` the distinct papers and original reviews among those pairs, ``clusters`` the
      units of the clustered analysis (d averaged per ``cluster`` first).
    - Robustness: ``papers`` and ``reviews`` (variants) of each reviewer.
    - Tests on expected scores (:data:`SOFT_TEST`; the rows of a table with soft columns, metric
      ``<metric>.expected``): Table 4's soft columns — ``papers`` = ``pairs`` with a mean expected
      score in both arms, ``reviews`` the ok assessments with an expected score of those papers,
      ``nonzero`` the papers whose mean expected scores differ; Table 1's soft columns —
      ``pairs`` the rewrites with an expected score on both sides, ``nonzero`` their non-zero
      differences, ``papers`` and ``reviews`` among them. ``missing``: the ok assessments with
      the integer score that the integer test read (Table 4: of the two arms; Table 1: of its
      pairs) but with no expected score; ``missing_reasons`` their reasons, counted
      (``soft_reasons``; :data:`NO_SOFT_RATING` for an assessment without one). A configuration
      that asked for soft ratings and got none (every reason recorded, e.g. a provider without
      log-probabilities: the table then has no soft columns) still has its test's row, with
      n = 0 and those reasons.

    Args:
        comparisons: :func:`rhetorica.analysis.paired.comparison_table` rows.
        analysed: the assessments those tables read (for the review counts).
        judges: the pair-level classification of every judge (``judges_all``) or Table 1.
        judges_clustered: the clustered classification (same keys).
        judge_pairs: the judge study's pair table (papers and reviews per pair).
        cluster: the clustered analysis' unit (``paper`` or ``review``).
        robustness: :func:`rhetorica.analysis.robustness.robustness_table` rows.
        soft_reasons: why an assessment's metric has no expected score
            (:func:`rhetorica.analysis.soft.soft_rating_reasons`: ``unit_key, metric, reason``).
    """
    rows: list[dict[str, Any]] = []
    why = _reason_lookup(soft_reasons)
    if comparisons is not None and not comparisons.empty:
        for r in comparisons.to_dict("records"):
            n = int(r["n_pairs"])
            ties = int(round(float(r["pct_tie"]) * n / 100)) if n and pd.notna(r["pct_tie"]) else 0
            reviews = np.nan
            if analysed is not None and not analysed.empty:
                ok = analysed[(analysed["reviewer"] == r["reviewer"]) & (analysed["status"] == "ok")]
                both = set(ok.loc[ok["arm"] == r["first"], "document_id"]) & set(
                    ok.loc[ok["arm"] == r["second"], "document_id"])
                reviews = int((ok["arm"].isin([r["first"], r["second"]]) & ok["document_id"].isin(both)).sum())
            given = f" given {r['given']}" if isinstance(r.get("given"), str) and r.get("given") else ""
            rows.append({"table": "comparison", "test": "sign test", "configuration": r["reviewer"],
                         "comparison": f"{r['first']} vs {r['second']}{given}", "metric": r.get("score", ""),
                         "papers": n, "reviews": reviews, "pairs": n, "nonzero": n - ties, "clusters": np.nan})
            if analysed is not None and not analysed.empty and ("soft_n_pairs" in r or why):
                soft = _soft_comparison_row(r, analysed, why, f"{r['first']} vs {r['second']}{given}")
                if "soft_n_pairs" in r or soft["asked"]:
                    rows.append(soft)
    if judges is not None and not judges.empty:
        clustered = (judges_clustered.set_index(["condition", "judge", "metric"])["n_pairs"]
                     if judges_clustered is not None and not judges_clustered.empty else pd.Series(dtype=float))
        ok = _usable_pairs(judge_pairs)
        for r in judges.to_dict("records"):
            key = (r["condition"], r["judge"], r["metric"])
            mine = ok[(ok["judge"] == r["judge"]) & (ok["metric"] == r["metric"])
                      & (ok["condition"] == r["condition"])] if not ok.empty else ok
            n = int(r["n_pairs"]) if pd.notna(r["n_pairs"]) else 0
            rows.append({"table": "judges", "test": "Wilcoxon signed-rank, TOST", "configuration": r["judge"],
                         "comparison": f"{r['condition']} vs original", "metric": r["metric"],
                         "papers": int(mine["paper_id"].nunique()) if n else 0,
                         "reviews": int(mine["document_id"].nunique()) if n else 0, "pairs": n,
                         "nonzero": int(r["wilcoxon_n"]) if pd.notna(r.get("wilcoxon_n")) else 0,
                         "clusters": int(clustered.get(key, 0)) if n else 0})
            if pd.notna(r.get("soft_n_pairs")) or why:
                soft = _soft_judge_row(r, judge_pairs, why)
                if pd.notna(r.get("soft_n_pairs")) or soft["asked"]:
                    rows.append(soft)
    if robustness is not None and not robustness.empty:
        for r in robustness.to_dict("records"):
            rows.append({"table": "robustness", "test": "MAD, ICC, SPR, discriminability",
                         "configuration": r["reviewer"], "comparison": "rewrites vs original", "metric": "",
                         "papers": int(r["n_papers"]), "reviews": int(r["n_variants"]), "pairs": np.nan,
                         "nonzero": np.nan, "clusters": int(r["n_papers"])})
    soft = any(r["test"] == SOFT_TEST for r in rows)
    rows = [{k: v for k, v in r.items() if k != "asked"} for r in rows]
    out = pd.DataFrame(rows, columns=EFFECTIVE_N_COLUMNS + (SOFT_N_COLUMNS if soft else []))
    if soft:
        out["missing_reasons"] = out["missing_reasons"].fillna("")
    return out


def _reason_lookup(soft_reasons: pd.DataFrame | None) -> dict[tuple[str, str], str]:
    if soft_reasons is None or soft_reasons.empty:
        return {}
    return {(str(u), str(m)): str(r) for u, m, r in zip(soft_reasons["unit_key"], soft_reasons["metric"],
                                                         soft_reasons["reason"])}


def _missing(rows: pd.DataFrame, metric: str, why: Mapping[tuple[str, str], str]) -> tuple[int, str, bool]:
    """(count, ``reason (n); …`` most frequent first, whether any has a recorded reason) of the
    assessments ``rows`` (``unit_key``) whose ``metric`` has no expected score. A recorded reason
    means its configuration asked for soft ratings (``soft_ratings: true``) and got none for it,
    e.g. from a provider without log-probabilities."""
    recorded = [why.get((str(k), metric)) for k in rows["unit_key"]]
    reasons = pd.Series([r if r is not None else NO_SOFT_RATING for r in recorded], dtype=object)
    counts = reasons.value_counts(sort=False).sort_index().sort_values(ascending=False, kind="stable")
    return len(rows), "; ".join(f"{reason} ({n})" for reason, n in counts.items()), any(r is not None for r in recorded)


def _soft_comparison_row(r: Mapping[str, Any], analysed: pd.DataFrame, why: Mapping[tuple[str, str], str],
                         comparison: str) -> dict[str, Any]:
    """The :data:`SOFT_TEST` row of a Table-4 row ``r`` with soft columns (:func:`effective_n`)."""
    score = str(r.get("score") or "overall")
    column = expected_metric(score)
    ok = analysed[(analysed["reviewer"] == r["reviewer"]) & (analysed["status"] == "ok")
                  & analysed["arm"].isin([r["first"], r["second"]])]
    ok = ok[ok[score].notna()] if score in ok.columns else ok.iloc[0:0]
    has = ok[column].notna() if column in ok.columns else pd.Series(False, index=ok.index)
    soft = ok[has]
    means = soft.groupby(["document_id", "arm"])[column].mean().unstack("arm") if len(soft) else pd.DataFrame()
    both = means.reindex(columns=[r["first"], r["second"]]).dropna() if len(means) else means
    n = int(r["soft_n_pairs"]) if pd.notna(r.get("soft_n_pairs")) else 0
    missing, reasons, asked = _missing(ok[~has], score, why)
    return {"table": "comparison", "test": SOFT_TEST, "configuration": r["reviewer"], "comparison": comparison,
            "metric": column, "papers": n, "reviews": int(soft["document_id"].isin(both.index).sum()), "pairs": n,
            "nonzero": int((both[r["first"]] != both[r["second"]]).sum()) if len(both) else 0, "clusters": np.nan,
            "missing": missing, "missing_reasons": reasons, "asked": asked}


def _soft_judge_row(r: Mapping[str, Any], pairs: pd.DataFrame | None,
                    why: Mapping[tuple[str, str], str]) -> dict[str, Any]:
    """The :data:`SOFT_TEST` row of a Table-1 row ``r`` with soft columns (:func:`effective_n`);
    a judge metric ``<family>.<metric>`` is stored (and has its reason) as ``<metric>``."""
    rewrites = _usable_pairs(pairs)
    rewrites = rewrites[(rewrites["judge"] == r["judge"]) & (rewrites["metric"] == r["metric"])
                        & (rewrites["condition"] == r["condition"])] if not rewrites.empty else rewrites
    used = pd.DataFrame(columns=["paper_id", "document_id", "expected", "unit_key", "arm"])
    if pairs is not None and not pairs.empty and not rewrites.empty:  # the integer test's judgements
        originals = pairs[(pairs["arm"] == ORIGINAL) & (pairs["judge"] == r["judge"])
                          & (pairs["metric"] == r["metric"]) & (pairs["status"] == "ok") & pairs["score"].notna()
                          & pairs["document_id"].isin(set(rewrites["document_id"]))]
        used = pd.concat([rewrites, originals], ignore_index=True)
    with_soft = used[used["expected"].notna()]
    soft_originals = set(with_soft.loc[with_soft["arm"] == ORIGINAL, "document_id"])
    paired = with_soft[(with_soft["arm"] == "rewrite") & with_soft["document_id"].isin(soft_originals)]
    missing, reasons, asked = _missing(used[used["expected"].isna()], str(r["metric"]).partition(".")[2], why)
    soft = pd.notna(r.get("soft_n_pairs"))
    return {"table": "judges", "test": SOFT_TEST, "configuration": r["judge"],
            "comparison": f"{r['condition']} vs original", "metric": expected_metric(str(r["metric"])),
            "papers": int(paired["paper_id"].nunique()), "reviews": int(paired["document_id"].nunique()),
            "pairs": int(r["soft_n_pairs"]) if soft else 0, "nonzero": int(r["soft_nonzero"]) if soft else 0,
            "clusters": np.nan, "missing": missing, "missing_reasons": reasons, "asked": asked}


def _usable_pairs(pairs: pd.DataFrame | None) -> pd.DataFrame:
    """Rewrite rows of the pair table with a usable score whose original has one too."""
    if pairs is None or pairs.empty:
        return pd.DataFrame(columns=["judge", "metric", "condition", "paper_id", "document_id"])
    usable = pairs[(pairs["status"] == "ok") & pairs["score"].notna()]
    originals = usable[usable["arm"] == ORIGINAL][["judge", "metric", "document_id"]].drop_duplicates()
    rewrites = usable[usable["arm"] == "rewrite"]
    return rewrites.merge(originals, on=["judge", "metric", "document_id"])
