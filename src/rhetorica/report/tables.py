"""Every report table declared once: its columns, their Markdown/HTML headers and LaTeX cells,
and the record (:class:`AnalysisTable`) by which an analysis table registers itself.

A :class:`TableSpec` lists a table's columns in Markdown order. A column shows in the Markdown and
HTML report when it has a ``header`` (the cell is :func:`rhetorica.report.build.display_table`'s
formatting of the column ``key``), and in the LaTeX table (:mod:`rhetorica.report.latex`) when it
has a ``latex`` header (the cell is ``cell(row)``, by default the number in ``key`` to ``digits``
decimals). LaTeX columns keep the list's order, except the keys named in ``latex_first``, which
lead. A column of only one output (the LaTeX ``A vs B`` label, the Markdown ``A`` and ``B``) is
declared beside the others so that the two outputs of one table are read in one place.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
import pandas as pd

from rhetorica.report.booktabs import Column, booktabs, escape, number, pvalue


@dataclass(frozen=True)
class TableColumn:
    """One column of a report table.

    Attributes:
        key: the column of the table's DataFrame (or a name of the LaTeX-only column).
        header: Markdown/HTML header; ``None``: not shown there.
        latex: LaTeX header (not escaped); ``None``: not in the LaTeX table.
        cell: LaTeX cell of a row; ``None``: :func:`~rhetorica.report.booktabs.number` of
            ``row[key]`` to ``digits`` decimals.
        digits: decimals of the default LaTeX cell.
        align: LaTeX alignment (``l`` or ``r``).
        optional: the LaTeX column is left out when the DataFrame has no ``key`` column.
    """

    key: str
    header: str | None = None
    latex: str | None = None
    cell: Callable[[pd.Series], str] | None = None
    digits: int = 2
    align: str = "r"
    optional: bool = False

    def latex_column(self) -> Column:
        """The :class:`~rhetorica.report.booktabs.Column` of the LaTeX table."""
        key, digits = self.key, self.digits
        cell = self.cell or (lambda r: number(r[key], digits))
        return Column(self.latex or "", cell, self.align)


@dataclass(frozen=True)
class TableSpec:
    """A report table: its columns (Markdown order) and the keys that lead the LaTeX table."""

    columns: tuple[TableColumn, ...]
    latex_first: tuple[str, ...] = ()

    @property
    def headers(self) -> dict[str, str]:
        """Column -> Markdown/HTML header, in order (the ``headers`` of ``display_table``)."""
        return {c.key: c.header for c in self.columns if c.header is not None}

    def latex_columns(self, present: Iterable[str] = ()) -> list[Column]:
        """The LaTeX columns, ``latex_first`` leading; an optional column whose key is not in
        ``present`` is left out."""
        present = set(present)
        shown = [c for c in self.columns if c.latex is not None and (not c.optional or c.key in present)]
        lead = [c for key in self.latex_first for c in shown if c.key == key]
        return [c.latex_column() for c in lead + [c for c in shown if c not in lead]]


def _text(key: str) -> Callable[[pd.Series], str]:
    return lambda r: escape(r[key])


def _int(key: str) -> Callable[[pd.Series], str]:
    return lambda r: str(int(r[key]))


def _p(key: str) -> Callable[[pd.Series], str]:
    return lambda r: pvalue(r[key])


def _versus(r: pd.Series) -> str:
    return escape(f"{r['first']} vs {r['second']}")


def _ci(point: object, low: object, high: object) -> str:
    if point is None or (isinstance(point, float) and math.isnan(point)):
        return "--"
    if pd.isna(low) or pd.isna(high):  # no interval (one paper per stratum, ...)
        return f"{number(point)} [n/a]"
    return f"{number(point)} [{number(low)}, {number(high)}]"


def _interval(name: str) -> Callable[[pd.Series], str]:
    return lambda r: _ci(r[name], r[f"{name}_low"], r[f"{name}_high"])


def _verdict(verdict: object) -> str:
    return {"pass": "pass", "fail": r"\textbf{fail}"}.get(str(verdict), "not enough data")


def _checked(value: str, verdict: str, digits: int = 2) -> Callable[[pd.Series], str]:
    return lambda r: f"{number(r[value], digits)} ({_verdict(r[verdict])})"


_REVIEWER = TableColumn("reviewer", "Reviewer", "Reviewer", _text("reviewer"), align="l")
_A, _B = TableColumn("first", "A"), TableColumn("second", "B")
_VERSUS = TableColumn("versus", None, "Comparison (A vs B)", _versus, align="l")
_N_PAIRS = TableColumn("n_pairs", "Papers", "$n$", _int("n_pairs"))
_PREFERENCE = (
    TableColumn("pct_first_higher", "% A higher", r"A $>$ B (\%)", digits=1),
    TableColumn("pct_second_higher", "% B higher", r"B $>$ A (\%)", digits=1),
    TableColumn("pct_tie", "% tie", r"Tie (\%)", digits=1),
    TableColumn("preference_ratio", "Pref. ratio", "Ratio"),
    TableColumn("sign_test_p", "Sign test p", "$p$", _p("sign_test_p")),
)
_SOFT = (  # only where the reviews carry soft ratings (rhetorica.analysis.soft)
    TableColumn("soft_mean_diff", "Soft A−B", r"Soft $d$", optional=True),
    TableColumn("soft_ci_low", "Soft CI low", r"Soft 95\% CI",
                lambda r: f"[{number(r['soft_ci_low'])}, {number(r['soft_ci_high'])}]", optional=True),
    TableColumn("soft_ci_high", "Soft CI high"),
    TableColumn("wilcoxon_p", "Wilcoxon p", r"$p_{\mathrm{W}}$", _p("wilcoxon_p"), optional=True),
)
_MEANS = (TableColumn("mean_first", "Mean A", "Mean A"), TableColumn("mean_second", "Mean B", "Mean B"))

COMPARISON = TableSpec((
    TableColumn("pair", None, "Comparison (A vs B)", _text("_pair"), align="l"),
    _REVIEWER, _A, _B, _N_PAIRS, *_PREFERENCE,
    TableColumn("mixed_diff", "Mixed A−B"), TableColumn("mixed_p", "Mixed p"),
    *_SOFT,
    TableColumn("flips_first_accept_pct", "Flip A acc. (%)", r"Flip A (\%)", digits=1),
    TableColumn("flips_second_accept_pct", "Flip B acc. (%)", r"Flip B (\%)", digits=1),
    *_MEANS,
    TableColumn("missing_first", "Missing A"), TableColumn("missing_second", "Missing B"),
    TableColumn("missing_both", "Missing both"),
))
"""Table 4 of 'Style over Substance' (:func:`rhetorica.analysis.paired.comparison_table`); the
LaTeX table labels each row's pair (and ``| given``) in a ``_pair`` column added before rendering."""

CRITERIA = TableSpec((
    _REVIEWER, TableColumn("score", "Criterion", "Criterion", _text("score"), align="l"),
    _A, _B, _VERSUS, _N_PAIRS, *_PREFERENCE, TableColumn("mean_first", "Mean A"),
    TableColumn("mean_second", "Mean B"),
), latex_first=("score",))
"""Per-criterion comparison (:func:`rhetorica.analysis.paired.criterion_table`)."""

MAGNITUDE = TableSpec((
    _REVIEWER, _A, _B, _VERSUS, _N_PAIRS,
    TableColumn("mean_diff", "Mean A − B", r"Mean $d$"),
    TableColumn("mean_abs_diff", "Mean |A − B|", r"Mean $|d|$"),
    TableColumn("share_within_1", "Share |d| ≤ 1", r"$|d| \le 1$ (\%)",
                lambda r: number(100 * float(r["share_within_1"]), 1)),
    TableColumn("share_ge_2", "Share |d| ≥ 2", r"$|d| \ge 2$ (\%)",
                lambda r: number(100 * float(r["share_ge_2"]), 1)),
))
"""Magnitude of paired differences (:func:`rhetorica.analysis.paired.difference_magnitude`)."""

CHANGE = TableSpec((
    _REVIEWER, TableColumn("first", "Condition"), TableColumn("second", "vs"),
    TableColumn("versus", None, "Condition", _versus, align="l"),
    TableColumn("n_papers", "Papers", "$n$", _int("n_papers")), TableColumn("n_strata", "Strata"),
    TableColumn("change", "Mean change [95% CI]", r"$\Delta$ [95\% CI]", _interval("mean_change")),
    TableColumn("abs_change", "Mean |change| [95% CI]", r"$|\Delta|$ [95\% CI]", _interval("mean_abs_change")),
    TableColumn("weak_accept_first", "P(weak accept) rewrite", "WA A"),
    TableColumn("weak_accept_second", "P(weak accept) original", "WA B"),
    TableColumn("wa_change", "Δ P(weak accept) [95% CI]", r"$\Delta$WA [95\% CI]", _interval("weak_accept_change")),
))
"""Change versus the original (:func:`rhetorica.analysis.change.paired_change`); the Markdown
``change``, ``abs_change`` and ``wa_change`` cells are the intervals formatted by the report."""

ROBUSTNESS = TableSpec((
    TableColumn("reviewer", "Reviewer", "Reviewer",
                lambda r: escape(r["reviewer"])
                + (r"$^\dagger$" if pd.notna(r["false_robustness"]) and r["false_robustness"] else ""), align="l"),
    TableColumn("n_papers", "Papers"), TableColumn("n_variants", "Paper-arm scores"),
    TableColumn("mad", "MAD ↓", r"MAD $\downarrow$"),
    TableColumn("drift_sd", "Drift SD ↓", r"Drift SD $\downarrow$"),
    TableColumn("icc1", "ICC(1) ↑", r"ICC(1) $\uparrow$"),
    TableColumn("icc_a1", "ICC(A,1) ↑", r"ICC(A,1) $\uparrow$"),
    TableColumn("spr", "SPR ↑", r"SPR $\uparrow$"),
    TableColumn("discriminability", "Discriminability ↑", r"Disc. $\uparrow$"),
    TableColumn("human_mae", "Human MAE ↓", r"Human MAE $\downarrow$"),
    TableColumn("human_spearman", "Spearman ↑", r"Spearman $\uparrow$"),
    TableColumn("n_human", "Papers with human scores"), TableColumn("false_robustness", "False robustness"),
))
"""RobustReview metrics (:func:`rhetorica.analysis.robustness.robustness_table`); a LaTeX dagger
marks false robustness."""

POOLED_SD = TableSpec((
    _REVIEWER, TableColumn("n_groups", "Repeated inputs", "Inputs", _int("n_groups")),
    TableColumn("n_reviews", "Reviews", "Reviews", _int("n_reviews")),
    TableColumn("pooled_sd", "Pooled SD", "Pooled SD"),
))
"""Pooled SD of replicates (:func:`rhetorica.analysis.variance.pooled_sd`)."""

SCORECARD = TableSpec((
    _REVIEWER, TableColumn("passed", "Verdict"),
    TableColumn("preference", "Preference |ln R|", r"$|\ln R|$", _checked("abs_log_ratio", "verdict_preference")),
    TableColumn("flips", "Flips (%)", r"Flips (\%)", _checked("flip_pct", "verdict_flips", 1)),
    TableColumn("discrimination", "Discriminability", "Disc.",
                _checked("discriminability", "verdict_discriminability")),
    TableColumn("failures", "Failure-rate gap (pts)", "Fail gap", _checked("failure_gap_pct", "verdict_failures", 1)),
    TableColumn("soft_shift", "Largest soft shift [95% CI]"),
    TableColumn("soft_mean_diff", None, r"Soft $d$ [95\% CI]",
                lambda r: _ci(r["soft_mean_diff"], r["soft_ci_low"], r["soft_ci_high"]), optional=True),
    TableColumn("reasons", "Reasons"),
    TableColumn("verdict", None, "Verdict", lambda r: _verdict(r["verdict"]), align="l"),
))
"""The scorecard (:func:`rhetorica.analysis.scorecard.scorecard`); the Markdown cells are each
check's value, interval and verdict formatted by the report."""

VALIDATION = TableSpec((
    TableColumn("condition", "Condition", "Condition", _text("condition"), align="l"),
    TableColumn("rewriter", "Rewriter", "Rewriter", _text("rewriter"), align="l", optional=True),
    TableColumn("n", "Variants", "$n$", _int("n")),
    TableColumn("n_passed", "Passed", "Passed", digits=0),
    TableColumn("mtld", "MTLD", "MTLD", digits=1),
    TableColumn("advanced_guiraud", "AG", "AG"),
    TableColumn("gunning_fog", "Gunning Fog", "GF", digits=1),
    TableColumn("boosters_per_1k", "Boosters /1k", "Boost./1k"),
    TableColumn("hedges_per_1k", "Hedges /1k", "Hedge/1k"),
    TableColumn("semantic_similarity", "Semantic sim.", "Sem. sim.", digits=3),
    TableColumn("tfidf_cosine", "TF-IDF cos.", "TF-IDF", digits=3),
    TableColumn("protected_spans_kept", "Protected kept", "Spans kept", digits=3),
))
"""Table 2 of 'Style over Substance' (:func:`rhetorica.validation.summary.summarise_by_condition`)."""

SHIFTS = TableSpec((
    TableColumn("condition", "Condition", "Condition", _text("condition"), align="l"),
    TableColumn("rewriter", "Rewriter", "Rewriter", _text("rewriter"), align="l"),
    TableColumn("part", "Intended shift", "Shift", _text("part"), align="l"),
    TableColumn("measure", "Measure", "Measure", _text("measure"), align="l"),
    TableColumn("n", "Variants", "$n$", _int("n")),
    TableColumn("n_present", "Shift present", "Present", _int("n_present")),
    TableColumn("original", "Mean original", "Original"),
    TableColumn("variant", "Mean rewrite", "Rewrite"),
))
"""Intended-shift checks per condition (:func:`rhetorica.validation.summary.summarise_shifts`): every
registered dimension's measure, a plug-in's included."""

RELIABILITY = TableSpec((
    TableColumn("judge", None, "Judge", _text("judge"), align="l"),
    TableColumn("metric", None, "Metric", _text("metric"), align="l"),
    TableColumn("n_pairs", None, "$n$", _int("n_pairs")),
    TableColumn("mean_diff", None, r"Mean $d$"),
    TableColumn("wilcoxon_p", None, r"$p_{\mathrm{W}}$", _p("wilcoxon_p")),
    TableColumn("bound", None, r"$\delta$"),
    TableColumn("tost_p", None, r"$p_{\mathrm{TOST}}$", _p("tost_p")),
    TableColumn("classification", None, "Class", lambda r: escape(str(r["classification"]).replace("_", " ")),
                align="l"),
))
"""Judge reliability (:func:`rhetorica.analysis.equivalence.judge_reliability`; LaTeX only)."""

MOVEMENT = TableSpec((
    TableColumn("reviewer", "Reviewer"), TableColumn("arm", "Condition"), TableColumn("initial_bin", "Initial score"),
    TableColumn("n_papers", "Papers"), TableColumn("mean_change", "Mean change"),
    TableColumn("mean_abs_change", "Mean |change|"), TableColumn("share_up", "Share up"),
    TableColumn("share_down", "Share down"), TableColumn("share_same", "Share same"),
))
"""Movement by the initial score (:func:`rhetorica.analysis.change.movement_by_initial_score`;
Markdown/HTML only)."""


@dataclass(frozen=True)
class Unavailable:
    """What a table's ``compute`` returns when the study cannot give it: one sentence saying why."""

    reason: str


@dataclass(frozen=True)
class TableContext:
    """What a registered table's ``compute`` reads besides the tidy assessments: the study's
    settings, typed and with their defaults applied.

    Attributes:
        pairs: the compared ``(first, second)`` arms (empty when no two arms share papers).
        threshold: acceptance threshold on the overall score (the study's ``decision_threshold``).
        n_resamples: bootstrap resamples (the report's ``--resamples``).
        seed: bootstrap seed (the same seed gives the same table).
        artefacts: artefact name -> its values (parsed JSON) over the study's current units, e.g.
            the searches' ``attack_trajectory`` records (:func:`rhetorica.store.export.artefacts_table`);
            empty where the caller read none.
    """

    pairs: list[tuple[str, str]]
    threshold: float
    n_resamples: int = 5000
    seed: int = 0
    artefacts: Mapping[str, Sequence[Any]] = field(default_factory=dict)


@dataclass(frozen=True)
class TableDisplay:
    """A computed table as the Markdown/HTML report shows it: the frame (with any formatted
    columns added), the column headers and a sentence added to the section's note."""

    frame: pd.DataFrame
    headers: dict[str, str]
    note: str = ""


@dataclass(frozen=True)
class AnalysisTable:
    """One analysis table of the report, registered in :data:`rhetorica.registry.tables`.

    Markdown, HTML, LaTeX (``tables/<key>.tex``), the CSV export (``tables/<key>.csv``) and the
    viewer's ``/tables`` page show every registered table; adding one is one registration::

        from rhetorica.registry import tables
        tables.add("my_table", AnalysisTable("my_table", "Title", "How to read it.", SPEC, compute))

    Attributes:
        key: the table's name (file stem, HTML id, key of ``ReportData.analysis``).
        title: heading of its report section.
        note: the section's text (definitions, units, sources).
        spec: its columns: Markdown/HTML headers and LaTeX cells (:class:`TableSpec`); a spec without
            LaTeX columns writes no ``.tex`` file.
        compute: ``(tidy assessments, context) -> table`` or :class:`Unavailable` with the reason; an
            empty table shows ``missing``. Called with the analysed assessments of the study's
            reviewers (every status, judge configurations excluded) once at least one is ``ok``; a
            ``ValueError`` it raises is shown as the reason (``analysis failed: ...``).
        order: position among the registered tables in the report (ascending; ties by key).
        missing: the reason shown when ``compute`` returns an empty table.
        caption: LaTeX caption (default: ``title``).
        latex_group: column whose runs of equal values LaTeX separates by rules.
        display: ``table -> TableDisplay`` for Markdown/HTML (default: the frame with ``spec``'s
            headers).
        section: key of the section it belongs to (default its own); a table of another's section
            is shown below that section's table, under ``title`` as caption, when both are computed.
    """

    key: str
    title: str
    note: str
    spec: TableSpec
    compute: Callable[[pd.DataFrame, TableContext], pd.DataFrame | Unavailable]
    order: int = 100
    missing: str = "no rows"
    caption: str | None = None
    latex_group: str | None = None
    display: Callable[[pd.DataFrame], TableDisplay] | None = None
    section: str | None = None

    def shown(self, table: pd.DataFrame) -> TableDisplay:
        """The Markdown/HTML form of a computed table (:attr:`display`)."""
        return self.display(table) if self.display is not None else TableDisplay(table, self.spec.headers)

    def latex(self, table: pd.DataFrame) -> str | None:
        """The booktabs ``table`` environment of a computed table (``label`` ``tab:<key>``), or
        ``None`` when the spec has no LaTeX column."""
        columns = self.spec.latex_columns(table.columns)
        if not columns:
            return None
        return booktabs(table, columns, caption=self.caption or self.title, label=f"tab:{self.key.replace('_', '-')}",
                        group_by=self.latex_group)
