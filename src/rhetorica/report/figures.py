"""The report's figures: which plots of :mod:`rhetorica.report.plots` apply to a run, as PNG bytes.

A plot that cannot be drawn (e.g. no paired papers, a single paper) is kept with the reason
instead of its bytes, so the report can say "not computable (reason)" where the figure would be.
"""

from __future__ import annotations

from collections.abc import Callable

from rhetorica.report.data import ReportData
from rhetorica.report.views import FigureResult
from rhetorica.report import plots
from rhetorica.report.flow import flow_png
from rhetorica.report.judges import pvalue_png
from rhetorica.report.attack import ATTACK_SECTION, trajectory_png


def _draw(name: str, section: str, title: str, draw: Callable[[], bytes]) -> FigureResult:
    try:
        return FigureResult(name, section, title, draw())
    except ValueError as exc:
        return FigureResult(name, section, title, None, str(exc))


def report_figures(data: ReportData) -> list[FigureResult]:
    """Draw every figure that belongs to a section the report shows.

    Figures: the study flow (``flow``), preference bars per reviewer and comparison (``comparison`` section), histograms
    of paired differences (``magnitude``), forest plot of change versus the original with
    bootstrap CIs (``change``), stability-versus-discrimination scatter (``robustness``), the attack
    searches' in-search trajectories (``attacks``),
    net-polarity difference per aspect (``aspects``).

    Args:
        data: the collected report data.

    Returns:
        One :class:`FigureResult` per applicable figure, in report order.
    """

    figures: list[FigureResult] = []
    if data.flow is not None and data.flow.flow["planned"].any():

        flow = data.flow.flow
        figures.append(_draw("flow", "flow", "Study flow: analysed, excluded, failed and not-run units per stage, arm "
                             "and configuration", lambda: flow_png(flow)))
    if not data.comparisons.empty:
        figures.append(_draw("preference", "comparison",
                             "Share of papers where A scored higher, tied, or B scored higher",
                             lambda: plots.preference_bars(data.comparisons)))
    if "magnitude" in data.analysis and data.pairs:
        assessments = data.tables["assessments"]
        figures.append(_draw("differences", "magnitude", "Histograms of paired differences (A minus B)",
                             lambda: plots.difference_histograms(assessments, data.pairs)))
    if "change" in data.analysis:
        change = data.analysis["change"]
        figures.append(_draw("forest", "change", "Mean change versus the original with 95% bootstrap CIs",
                             lambda: plots.forest_plot(change)))
    if "robustness" in data.analysis:
        robust = data.analysis["robustness"]
        figures.append(_draw("stability", "robustness", "Stability (drift SD) against discriminability",
                             lambda: plots.stability_scatter(robust)))
    if "judges" in data.analysis:  # Figure 1 of the review-metric study (rhetorica.report.judges)

        table1 = data.analysis["judges"]
        table1 = table1[table1["n_pairs"] > 0]
        unplaced = int((table1["wilcoxon_p"].isna() | table1["tost_p"].isna()).sum())
        figures.append(_draw("judges_pvalues", "judges", "Each metric by its Wilcoxon and TOST p-values "
                             "(−log10), with the Bonferroni α lines"
                             + (f"; {unplaced} metric row(s) with a p not computable (no non-zero difference, "
                                "or every difference equal) not placed" if unplaced else ""),
                             lambda: pvalue_png(table1)))
    if "attack_trajectory" in data.analysis:  # worst-case searches (rhetorica.report.attack)
        trajectory = data.analysis["attack_trajectory"]
        figures.append(_draw("attack_trajectory", ATTACK_SECTION, "In-search score of the kept candidate per round, "
                             "one line per paper and target (biased: best of many noisy reviews)",
                             lambda: trajectory_png(trajectory)))
    if "aspect_differences" in data.analysis:
        differences = data.analysis["aspect_differences"]
        figures.append(_draw("aspects", "aspects", "Within-paper net-polarity difference per aspect (A minus B)",
                             lambda: plots.aspect_difference_plot(differences)))
    return figures
