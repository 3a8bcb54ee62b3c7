"""The report's scorecard of a study and ``rhetorica check``: the verdicts of
:func:`rhetorica.analysis.scorecard.scorecard` (the statistics live there) for the reviewer
configurations, and those of the judge configurations from their metrics' Table-1 classes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rhetorica.analysis.attack import rereview_means
from rhetorica.analysis.scorecard import FAIL, PASS, SCORECARD_COLUMNS, UNDECIDED, _combine, scorecard
from rhetorica.analysis.equivalence import FALSE_ROBUSTNESS, NOT_INFORMATIVE
from rhetorica.analysis.soft import apply_min_covered
from rhetorica.labels import ORIGINAL
from rhetorica.scorecard_thresholds import ScorecardThresholds
from rhetorica.judges.analysis import judge_labels
from rhetorica.judges.kind import judge_options
from rhetorica.report.attack import attack_records
from rhetorica.report.data import not_run_units
from rhetorica.report.flow import store_flow
from rhetorica.report.judges import judge_names, paper_ids_of, reviewer_records, study_judges
from rhetorica.report.selection import analysed_assessments, study_pairs
from rhetorica.store.export import artefacts_table, assessments_table, scores_long
from rhetorica.store.lock import RunLockedError, lock_holder
from rhetorica.store.runs import document_jsons, open_run_store
from rhetorica.study.config import ReviewerSpec, StudyConfig
from rhetorica.study.run_study import load_run_study
import pandas as pd


NOT_APPLICABLE = ""
"""A check that does not apply to the configuration (a judge's row has no paper-review check)."""


def judge_verdicts(judges: Any, reviewers: list[ReviewerSpec]) -> pd.DataFrame:
    """One :data:`SCORECARD_COLUMNS` row per judge configuration, from its metrics' Table-1 classes.

    A judge configuration **fails** when any of its family's declared metrics is classified
    ``sensitive`` under some rewrite condition (the rewrite moved the score and TOST could not show
    it stays within δ_m) or ``false_robustness`` (stable by TOST, but it does not tell reviews
    apart: :func:`rhetorica.judges.analysis.with_discrimination`): that metric is a finding, and
    ``rhetorica check`` exits 1, as it does for a reviewer whose discriminability fails. It
    **passes** when every declared metric is ``robust`` or ``sensitive and robust`` (a shift inside
    δ_m) under every condition, and has **not enough data** otherwise (an inconclusive or not
    informative metric, or one without a test). The paper-review checks do not apply
    (:data:`NOT_APPLICABLE`, value columns NaN).

    Args:
        judges: :class:`rhetorica.judges.analysis.JudgeStudy` of the run.
        reviewers: the study's reviewer configurations.
    """

    labels = judge_labels(reviewer_records(reviewers))
    rows = []
    reliability = judges.reliability
    conditions = sorted(set(judges.pairs["condition"]) - {ORIGINAL}) if not judges.pairs.empty else []
    for spec in reviewers:
        options = judge_options(spec)
        if options is None:
            continue
        name, label, family = spec.name, labels[spec.name], options.family
        metrics = [m for m in judges.declared.get(label, []) if m.startswith(f"{family}.")]
        found: dict[str, list[str]] = {}
        if judges.unavailable or not conditions:
            found["no test"] = [judges.unavailable or "no rewrite was judged"]
        for condition in conditions:
            mine = reliability[(reliability["judge"] == label) & (reliability["condition"] == condition)] \
                if not reliability.empty else reliability
            classes = dict(zip(mine["metric"], mine["classification"])) if not mine.empty else {}
            why = dict(zip(mine["metric"], mine["reason"])) if "reason" in mine.columns else {}
            for metric in metrics:
                cls = classes.get(metric, "no test")
                if cls in (NOT_INFORMATIVE, FALSE_ROBUSTNESS) and isinstance(why.get(metric), str):
                    found.setdefault(cls, []).append(f"{metric} ({condition}: {why[metric]})")
                elif cls not in ("robust", "sensitive_and_robust"):
                    found.setdefault(cls, []).append(f"{metric} ({condition})")
        verdict = FAIL if {"sensitive", FALSE_ROBUSTNESS} & set(found) else (PASS if not found else UNDECIDED)
        reasons = [f"{cls.replace('_', ' ')}: {', '.join(items)}" for cls, items in sorted(found.items())]
        nan = float("nan")
        rows.append({**dict.fromkeys(SCORECARD_COLUMNS, nan), "reviewer": name, "verdict": verdict,
                     "worst_pair": "", "flip_pair": "", "failure_pair": "",
                     **{f"verdict_{k}": NOT_APPLICABLE for k in ("preference", "flips", "discriminability",
                                                                 "failures")},
                     "passed": verdict == PASS, "reasons": "; ".join(reasons) if verdict != PASS else ""})
    return pd.DataFrame(rows, columns=SCORECARD_COLUMNS)


def study_scorecard(assessments: pd.DataFrame, study: StudyConfig, *,
                    pairs: Sequence[tuple[str, str]] | None, judges: Any = None,
                    rereviews: pd.DataFrame | None = None) -> pd.DataFrame:
    """The scorecard of every configuration of a study under its ``scorecard`` thresholds:
    :func:`scorecard` of the reviewers' analysed assessments (flips judged beyond the re-reviews
    of the originals where the worst-case searches made some: ``rereviews``,
    :func:`rhetorica.analysis.attack.rereview_means`), :func:`judge_verdicts` of its judge
    configurations (``judges`` is their :class:`~rhetorica.judges.analysis.JudgeStudy`), one row
    each, sorted by name.

    Raises:
        ValueError: as :func:`scorecard`.
    """

    judged = judge_names(study)
    reviewed = assessments[~assessments["reviewer"].isin(judged)] if judged else assessments
    parts = []
    if not reviewed.empty:
        parts.append(scorecard(reviewed, study.scorecard, pairs=pairs, decision_threshold=study.decision_threshold,
                               rereviews=rereviews))
    if judges is not None:
        parts.append(judge_verdicts(judges, study.reviewers))
    parts = [p for p in parts if not p.empty]
    if not parts:
        return pd.DataFrame(columns=SCORECARD_COLUMNS)
    return pd.concat(parts, ignore_index=True).sort_values("reviewer", ignore_index=True)


def search_rereviews(artefacts: pd.DataFrame) -> pd.DataFrame | None:
    """The re-review means of the originals made by the study's worst-case searches
    (:func:`rhetorica.analysis.attack.rereview_means` of the current trajectories), or ``None``
    when there is none or a trajectory cannot be read (then flips are judged as they are)."""
    try:
        means = rereview_means(attack_records(artefacts))
    except (ValueError, KeyError):
        return None
    return means if not means.empty else None


CHECK_EXIT_CODES = {PASS: 0, FAIL: 1, UNDECIDED: 3}
"""Exit codes of ``rhetorica check``: 0 every configuration passes, 1 at least one fails (a judge
metric classified sensitive or false robustness included), 3 no verdict: none fails but at least one
has not enough data (a not informative metric included), or the run is incomplete or in progress (2 is
a usage error or an unreadable run directory)."""


@dataclass
class RunCheck:
    """The scorecard of a run directory and what it means for a CI gate.

    Attributes:
        run_dir: the run directory checked.
        scorecard: :func:`scorecard` of its assessments (empty when there are none).
        thresholds: the thresholds applied.
        verdict: :data:`FAIL` when any configuration fails, :data:`PASS` when every one passes,
            :data:`UNDECIDED` otherwise (also when there is no assessment).
        problem: why there is no verdict (no scorecard could be computed, or the run is
            incomplete), or ``None``.
        not_run: planned rewrite and review units of the study never run
            (:func:`rhetorica.report.data.not_run_units`); more than 0 leaves the verdict
            :data:`UNDECIDED` (the scorecard shown is of the units run so far).
    """

    run_dir: Path
    scorecard: pd.DataFrame
    thresholds: ScorecardThresholds
    verdict: str
    problem: str | None = None
    not_run: int = 0

    @property
    def exit_code(self) -> int:
        """:data:`CHECK_EXIT_CODES` of the verdict."""
        return CHECK_EXIT_CODES[self.verdict]


def check_run(run_dir: Path) -> RunCheck:
    """Scorecard verdicts of a run directory, from its store and ``study.json`` (no model call,
    nothing written). A run with planned units not run (interrupted, stopped, budget) gets no
    verdict: :data:`UNDECIDED`, with the count in ``problem``.

    Uses the assessments the report analyses (:func:`rhetorica.report.selection.analysed_assessments`)
    and the study's compared pairs, decision threshold and ``scorecard`` settings.

    Args:
        run_dir: a run directory.

    Returns:
        :class:`RunCheck`.

    Raises:
        FileNotFoundError: if ``run_dir`` has no store.
        rhetorica.store.db.StoreError: if its store is not a rhetorica store.
        rhetorica.store.lock.RunLockedError: a run of the study holds the run lock (in progress).
        rhetorica.study.config.ConfigError: if ``study.json`` is missing, unreadable or not a valid
            study, its scorecard settings included (the message names the file and key).
    """

    store = open_run_store(run_dir)
    holder = lock_holder(run_dir)
    if holder is not None:  # a run in progress: its store is changing and its plan is not done
        store.close()
        raise RunLockedError(run_dir, holder)
    try:
        study = load_run_study(run_dir)
        not_run = not_run_units(store_flow(store, study))
        artefacts = artefacts_table(store)
        every, scores = apply_min_covered(assessments_table(store), scores_long(store), artefacts,
                                          study.soft_ratings.min_covered)
        assessments = analysed_assessments(every, study)
        rereviews = search_rereviews(artefacts)
        paper_ids = paper_ids_of(document_jsons(store))
    finally:
        store.close()
    incomplete = (f"the run is incomplete: {not_run} planned unit(s) not run (see the study flow); a verdict "
                  "needs every planned unit run" if not_run else None)
    if assessments.empty:
        return RunCheck(run_dir, pd.DataFrame(columns=SCORECARD_COLUMNS), study.scorecard, UNDECIDED,
                        incomplete or "not enough data: no assessments in the store yet", not_run)
    judges = study_judges(scores[scores["unit_key"].isin(assessments["unit_key"])], study, paper_ids)
    card = study_scorecard(assessments, study, pairs=study_pairs(study, assessments), judges=judges,
                           rereviews=rereviews)
    verdict = UNDECIDED if not_run else _combine(list(card["verdict"]))
    return RunCheck(run_dir, card, study.scorecard, verdict, incomplete, not_run)
