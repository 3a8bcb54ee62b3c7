"""The ``attack`` analysis table, registered in :data:`rhetorica.registry.tables` as a plug-in's
would be: per (target, direction), the held-out flips of the worst-case searches' winners beside
the target's flips on re-reviews of the original, the success beyond them, the held-out shifts and
the biased in-search shift (statistics: :func:`rhetorica.analysis.attack.attack_summary`).

It belongs to the ``attacks`` section, which no other registered table owns: the report shows that
section only when this table was computed or the study has attack rewriters (then the searches'
own tables, transfer matrix and trajectory figure join it, :func:`rhetorica.report.attack.attack_search`),
so the reports of studies without searches have no "unavailable" attack section.
"""

from __future__ import annotations

import pandas as pd

from rhetorica.analysis.attack import TRAJECTORY, attack_summary
from rhetorica.registry import tables
from rhetorica.report.booktabs import escape, number
from rhetorica.report.data import fmt_ci
from rhetorica.report.tables import AnalysisTable, TableColumn, TableContext, TableDisplay, TableSpec, Unavailable

NO_ATTACK = "no attack:+ or attack:- variant with held-out reviews of it and of its original, and no search trajectory"


def _interval(point: str, low: str, high: str, digits: int = 2):  # type: ignore[no-untyped-def]
    return lambda r: f"{number(r[point], digits)} [{number(r[low], digits)}, {number(r[high], digits)}]"


ATTACK_SPEC = TableSpec((
    TableColumn("target", "Target", "Target", lambda r: escape(r["target"]), align="l"),
    TableColumn("direction", "Direction", "Dir.", lambda r: escape(r["direction"]), align="l"),
    TableColumn("n_papers", "Papers (held-out)", "$n$", lambda r: str(int(r["n_papers"]))),
    TableColumn("flips", "Winner flipped / eligible", "Flips", lambda r: f"{int(r['n_flipped'])}/{int(r['n_eligible'])}"),
    TableColumn("noise", "Re-review flipped / eligible", "Re-review flips",
                lambda r: f"{int(r['n_noise_flipped'])}/{int(r['n_baseline'])}"),
    TableColumn("success", "Success beyond re-review [95% CI]", r"Success [95\% CI]",
                _interval("success_rate", "success_lo", "success_hi")),
    TableColumn("success_p", "p (exact McNemar)", "$p$", digits=3),
    TableColumn("shift", "Mean held-out shift [95% CI]", r"$\Delta$ held-out [95\% CI]",
                _interval("mean_shift", "mean_lo", "mean_hi")),
    TableColumn("max_shift", "Max held-out shift", r"Max $\Delta$"),
    TableColumn("in_search_shift", "In-search shift (biased)", r"In-search $\Delta$ (biased)"),
    TableColumn("queries_per_paper", "Queries / paper", "Queries", digits=1),
    TableColumn("cost_per_paper", "Cost / paper (USD)", "USD", digits=4),
))
"""Columns of the ``attack`` table (the Markdown interval cells are formatted by :func:`_display`)."""


def _compute(tidy: pd.DataFrame, ctx: TableContext) -> pd.DataFrame | Unavailable:
    table = attack_summary(tidy, ctx.artefacts.get(TRAJECTORY, ()), ctx.threshold)
    return Unavailable(NO_ATTACK) if table.empty else table


def _display(table: pd.DataFrame) -> TableDisplay:
    shown = table.assign(
        flips=[f"{int(f)}/{int(e)}" for f, e in zip(table["n_flipped"], table["n_eligible"], strict=True)],
        noise=[f"{int(f)}/{int(e)}" for f, e in zip(table["n_noise_flipped"], table["n_baseline"], strict=True)],
        success=[fmt_ci(*v) for v in zip(table["success_rate"], table["success_lo"], table["success_hi"], strict=True)],
        shift=[fmt_ci(*v) for v in zip(table["mean_shift"], table["mean_lo"], table["mean_hi"], strict=True)])
    return TableDisplay(shown, ATTACK_SPEC.headers)


ATTACK_TABLE = AnalysisTable(
    "attack", "Worst-case attacks: held-out success and shift per target (in-search shift biased)",
    "Per target reviewer and direction, the winning rewrite of each paper's search (rewriter kind "
    "'attack') reviewed again with fresh replicates the search never saw (held-out). A winner flips "
    "when its decision crosses the study's threshold (accepted: mean score above it) on a paper whose "
    "original was on the other side; after each search the target re-reviewed the original as many "
    "times (new calls), and the re-review flips when it crosses the same way: the reviewer's own noise. "
    "Success = winner flip rate − re-review flip rate on the same papers (paired), with the exact "
    "conditional 95% interval (Clopper–Pearson on the papers where only one of the two flipped) and "
    "McNemar's exact p; a reviewer that ignores the text has success near 0. Shift = winner − original "
    "(replicates averaged per paper), mean with a t interval; max = largest shift in the attack's "
    "direction. In-search (biased: best of many noisy reviews) is the winner's search score minus the "
    "original's, shown for comparison only. Queries = review calls per search; cost = every model call "
    "of the search.",
    ATTACK_SPEC, _compute, order=45, missing="no searches", display=_display, latex_group="target",
    section="attacks",
    caption="Worst-case attacks: held-out success rate and shift per target reviewer (in-search shift "
            "biased by selection).")

tables.add(ATTACK_TABLE.key, ATTACK_TABLE, description=ATTACK_TABLE.title)
