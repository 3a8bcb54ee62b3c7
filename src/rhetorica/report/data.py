"""What a report shows (:class:`ReportData`) and how its cells are formatted: the bottom of the
report package, imported by every section, table and page module (it imports none of them)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from rhetorica.problems import is_warning
from rhetorica.analysis.flow import StudyFlow
from rhetorica.judges.kind import judge_options
from rhetorica.scorecard_thresholds import ScorecardThresholds
from rhetorica.study.config import StudyConfig
from rhetorica.wording import fixed

#: Token column of the usage table -> the column of the same frame counting the calls whose provider
#: reported no usable count for it (``model_calls.usage_unreported``; their 0 is in the sum).
UNREPORTED_COLUMNS = {"input_tokens": "input_tokens_unreported", "cached_tokens": "cached_tokens_unreported",
                      "output_tokens": "output_tokens_unreported"}


def not_run_units(flow: StudyFlow | None) -> int:
    """Planned rewrite and review units never run (stopped configuration, budget, not yet run),
    from the study flow (0 without one)."""
    if flow is None or flow.flow.empty:
        return 0
    rows = flow.flow
    return int(rows.loc[rows["stage"].isin(["rewrite", "review"]), "not_run"].sum())


@dataclass
class ReportData:
    """Everything a report shows, as DataFrames (shapes documented per attribute).

    Attributes:
        study: the run's validated study (:func:`rhetorica.study.run_study.load_run_study`).
        comparisons: the Table-4-shaped comparison table (one row per reviewer x pair).
        condition_means: per reviewer x arm: papers, ok assessments, failed, mean/SD of paper-level overall
            (a judge study: papers and the judged ``reviews`` counted apart, mean/SD over reviews).
        usage: per provider/model: calls, cache hits, tokens in/out, cost (USD), seconds in calls, and
            per token column the calls without a usable count (:data:`UNREPORTED_COLUMNS`).
        failures: every non-ok unit and problem: stage, item, status, reason.
        wall_time_s: wall-clock seconds over all runs of this study.
        tables: the tidy store tables (``assessments``, ``variants``, ``model_calls``, ``problems``,
            ``superseded``); assessments and variants hold only the study's current units.
        analysis: the applicable tables of :func:`rhetorica.analysis.summary.study_tables` and the
            registered tables (:data:`rhetorica.registry.tables`)
            (``conditional``, ``criteria``, ``magnitude``, ``change``, ``movement``, ``pooled_sd``,
            ``robustness``) and ``forms`` (:func:`rhetorica.report.forms.form_scores`, only when
            the study's reviewers answer on forms with different metrics) and the aspect tables
            (:data:`rhetorica.report.aspects.ASPECT_TABLES`, when reviews were annotated); a key
            is absent when its table cannot be computed.
        unavailable: table key -> one sentence saying why it is not computable.
        scorecard: :func:`rhetorica.analysis.scorecard.scorecard`, one row per reviewer (empty when
            not computable; see ``unavailable["scorecard"]``).
        validation: one tidy row per validated variant (:mod:`rhetorica.report.validation`).
        validation_summary: Table-2 summary per condition and rewriter (empty without checks).
        shift_checks: one row per intended-shift check (:func:`rhetorica.report.validation.shift_table`).
        pairs: the compared ``(first, second)`` arms.
        superseded: stored units of earlier declarations of the study, never analysed
            (:func:`rhetorica.store.plan.superseded_units`; empty when none).
        scans: rows of the store's ``scans`` table (hidden-instruction scan; empty when none).
        examples: the per-paper appendix (:func:`rhetorica.report.appendix.paper_examples`).
        flow: the study flow (:class:`rhetorica.analysis.flow.StudyFlow`; ``None`` when not computed).
        effective_n: the n behind each test (:func:`rhetorica.analysis.flow.effective_n`).
        paper_ids: review document id -> its paper's id (empty when the documents are papers).
        table_gaps: reviewer configuration (judges apart) without an ``ok`` assessment -> why
            (:func:`rhetorica.report.coverage.configuration_gaps`): the paper-review tables show it
            as they are rendered (:func:`rhetorica.report.coverage.with_every_configuration`), the
            computed tables themselves are left as the analysis gave them.
    """

    study: StudyConfig
    comparisons: pd.DataFrame
    condition_means: pd.DataFrame
    usage: pd.DataFrame
    failures: pd.DataFrame
    wall_time_s: float
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    analysis: dict[str, pd.DataFrame] = field(default_factory=dict)
    unavailable: dict[str, str] = field(default_factory=dict)
    scorecard: pd.DataFrame = field(default_factory=pd.DataFrame)
    validation: pd.DataFrame = field(default_factory=pd.DataFrame)
    validation_summary: pd.DataFrame = field(default_factory=pd.DataFrame)
    shift_checks: pd.DataFrame = field(default_factory=pd.DataFrame)
    pairs: list[tuple[str, str]] = field(default_factory=list)
    superseded: pd.DataFrame = field(default_factory=pd.DataFrame)
    scans: pd.DataFrame = field(default_factory=pd.DataFrame)
    examples: list[Any] = field(default_factory=list)
    flow: StudyFlow | None = None
    effective_n: pd.DataFrame = field(default_factory=pd.DataFrame)
    paper_ids: dict[str, str] = field(default_factory=dict)
    table_gaps: dict[str, str] = field(default_factory=dict)

    @property
    def judge_only(self) -> bool:
        """Whether every evaluator of the study is a review-quality judge (``kind: judge``): the
        paper-review tables (comparison, change, robustness …) then do not apply."""
        reviewers = self.study.reviewers
        return bool(reviewers) and all(judge_options(r) is not None for r in reviewers)

    @property
    def not_run(self) -> int:
        """:func:`not_run_units` of the study flow."""
        return not_run_units(self.flow)

    @property
    def failure_counts(self) -> tuple[int, int]:
        """``(units, other problems)`` among :attr:`failures`: variants (of every stage that makes
        them), reviews, guided-workflow reviews, science-core extractions and aspect annotations stored
        with a status other than ``ok``, and the rows of the ``problems`` table (unreadable or duplicate
        documents, stopped configurations, budget stops: not a unit's result), warnings excluded."""
        problems = len(self.tables.get("problems", ()))
        return len(self.failures) - problems, problems - self.warning_count

    @property
    def warning_count(self) -> int:
        """Rows of the ``problems`` table that are warnings (:func:`rhetorica.problems.is_warning`:
        the item was read and used, e.g. compiled with a substitute class)."""
        problems = self.tables.get("problems", pd.DataFrame())
        if problems.empty or "reason" not in problems.columns:
            return 0
        return int(problems["reason"].astype(str).map(is_warning).sum())

    def failures_line(self, units: int | None = None) -> str:
        """``Failures: N unit(s) and M other problem(s) listed in the report.`` (the run's last line),
        with ``; K warning(s)`` before the period when there are warnings and, when planned units
        never ran, ``; U planned unit(s) not run (see the study flow)`` (:attr:`not_run`), so the
        line accounts for everything ``rhetorica run`` counts as a problem.

        Args:
            units: N, when the caller counted the units stored as a failure itself (``rhetorica run``:
                every stage's, :func:`rhetorica.study.status.stage_failures`); default: the units of
                :attr:`failure_counts`."""
        counted, problems = self.failure_counts
        units = counted if units is None else units
        warnings = f"; {self.warning_count} warning(s)" if self.warning_count else ""
        not_run = f"; {self.not_run} planned unit(s) not run (see the study flow)" if self.not_run else ""
        return f"Failures: {units} unit(s) and {problems} other problem(s){warnings} listed in the report{not_run}."

    @property
    def thresholds(self) -> ScorecardThresholds:
        """The scorecard thresholds applied: the study's ``scorecard`` settings."""
        return self.study.scorecard

    @property
    def threshold(self) -> float:
        """The study's acceptance threshold on the overall score (:attr:`StudyConfig.decision_threshold`)."""

        return self.study.decision_threshold


def fmt(value: Any, digits: int = 2) -> str:
    """Format a cell: missing (None, NaN, NA) -> '–', inf -> '∞', floats to ``digits`` decimals,
    booleans as 'yes' / 'no'."""
    if value is None or value is pd.NA or value is pd.NaT:
        return "–"
    if isinstance(value, bool | np.bool_):
        return "yes" if value else "no"
    if isinstance(value, float | np.floating):
        if math.isnan(value):
            return "–"
        if math.isinf(value):
            return "∞" if value > 0 else "−∞"
        return fixed(float(value), digits)
    return str(value)


def fmt_p(value: Any, digits: int = 3) -> str:
    """Format a p-value cell to ``digits`` decimals; a p-value below the smallest value those
    decimals show is ``<0.001`` (three decimals) or ``<0.01`` (two), never a false ``0.000``;
    missing -> '–'. The LaTeX tables call it (:func:`rhetorica.report.latex.pvalue`)."""
    floor = 10.0 ** -digits
    if isinstance(value, float | np.floating) and not math.isnan(value) and value < floor:
        return f"<{floor:.{digits}f}"
    return fmt(value, digits)


P_COLUMNS = frozenset({"sign_test_p", "mixed_p", "wilcoxon_p", "tost_p", "soft_wilcoxon_p"})
"""Columns of the analysis tables that hold p-values (shown by :func:`fmt_p`)."""


def display_table(
    df: pd.DataFrame, headers: dict[str, str] | None = None, digits: dict[str, int] | None = None
) -> tuple[list[str], list[list[str]]]:
    """Headers and formatted rows of ``df`` (columns restricted and renamed by ``headers``).

    Args:
        df: the table.
        headers: column -> header text; only these columns are kept, in this order.
        digits: column -> decimals (default 3 for ``sign_test_p``, 2 otherwise); p-value columns
            (:data:`P_COLUMNS`) go through :func:`fmt_p`.

    Returns:
        ``(header texts, rows of cell texts)``.
    """
    if headers:
        df = df[[c for c in headers if c in df.columns]]
    names = [headers.get(c, c) if headers else c for c in df.columns]
    places = {"sign_test_p": 3, **(digits or {})}
    rows = [[(fmt_p if col in P_COLUMNS else fmt)(v, places.get(col, 2)) for col, v in zip(df.columns, row, strict=True)]
            for row in df.itertuples(index=False)]
    return names, rows


def fmt_ci(point: Any, low: Any, high: Any, digits: int = 2) -> str:
    """``point [low, high]`` with :func:`fmt` cells; '–' when the point is missing, ``point [no
    interval]`` when the interval is (e.g. one paper: :func:`rhetorica.analysis.bootstrap.resamplable`)."""
    if point is None or (isinstance(point, float) and math.isnan(point)):
        return "–"
    if fmt(low) == "–" or fmt(high) == "–":
        return f"{fmt(point, digits)} [no interval]"
    return f"{fmt(point, digits)} [{fmt(low, digits)}, {fmt(high, digits)}]"
