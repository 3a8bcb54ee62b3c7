"""The paper-review analysis tables rhetorica registers (:data:`rhetorica.registry.tables`), as a
plug-in would register its own: per-criterion ratios, magnitude of differences, change versus the
original (with movement by initial score) and rhetorical robustness.

Each record pairs a compute function (which only calls :mod:`rhetorica.analysis`, where the
statistics live and are tested) with its columns (:mod:`rhetorica.report.tables`) and its section
text; the report, its LaTeX tables and the viewer iterate the registry.
"""

from __future__ import annotations

import pandas as pd

from rhetorica.analysis.change import movement_by_initial_score, paired_change
from rhetorica.analysis.paired import criterion_table, difference_magnitude
from rhetorica.analysis.robustness import robustness_table
from rhetorica.analysis.tidy import CRITERIA as CRITERION_SCORES
from rhetorica.labels import ORIGINAL
from rhetorica.registry import tables
from rhetorica.report.data import fmt_ci
from rhetorica.report.tables import (
    CHANGE,
    CRITERIA,
    MAGNITUDE,
    MOVEMENT,
    ROBUSTNESS,
    AnalysisTable,
    TableContext,
    TableDisplay,
    Unavailable,
)

NO_PAIR = "needs two conditions with assessments of the same papers"
NO_ORIGINAL = "needs the original arm and at least one rewrite of the same papers"


def _criteria(df: pd.DataFrame, ctx: TableContext) -> pd.DataFrame | Unavailable:
    if not ctx.pairs:
        return Unavailable(NO_PAIR)
    criteria = [c for c in CRITERION_SCORES if c in df.columns and df[c].notna().any()]
    table = criterion_table(df, ctx.pairs, criteria=criteria) if criteria else pd.DataFrame()
    return Unavailable("the reviews carry no criterion sub-scores") if table.empty else table


def _magnitude(df: pd.DataFrame, ctx: TableContext) -> pd.DataFrame | Unavailable:
    return difference_magnitude(df, ctx.pairs) if ctx.pairs else Unavailable(NO_PAIR)


def _vs_original(df: pd.DataFrame, ctx: TableContext) -> list[tuple[str, str]] | None:
    """The compared pairs against the original, or None without the original arm."""
    if ORIGINAL not in set(df["arm"]):
        return None
    return [(a, b) for a, b in ctx.pairs if b == ORIGINAL]


def _change(df: pd.DataFrame, ctx: TableContext) -> pd.DataFrame | Unavailable:
    pairs = _vs_original(df, ctx)
    table = paired_change(df, pairs, n_resamples=ctx.n_resamples, seed=ctx.seed) if pairs else pd.DataFrame()
    return Unavailable(NO_ORIGINAL) if table.empty else table


def _movement(df: pd.DataFrame, ctx: TableContext) -> pd.DataFrame | Unavailable:
    table = movement_by_initial_score(df) if _vs_original(df, ctx) is not None else pd.DataFrame()
    return Unavailable(NO_ORIGINAL) if table.empty else table


def _robustness(df: pd.DataFrame, ctx: TableContext) -> pd.DataFrame | Unavailable:
    table = robustness_table(df)
    return Unavailable("needs successful assessments of the original and rewrites") if table.empty else table


def _change_display(c: pd.DataFrame) -> TableDisplay:
    """The change table with each interval formatted ``point [low, high]``."""
    def interval(name: str) -> list[str]:
        return [fmt_ci(*v) for v in zip(c[name], c[f"{name}_low"], c[f"{name}_high"])]

    shown = c.assign(change=interval("mean_change"), abs_change=interval("mean_abs_change"),
                     wa_change=interval("weak_accept_change"))
    return TableDisplay(shown, CHANGE.headers)


def _robustness_display(r: pd.DataFrame) -> TableDisplay:
    """The robustness table without the human columns when no paper has human scores, and the
    sentences saying which measures were not computable."""
    headers, note = dict(ROBUSTNESS.headers), ""
    if not (r["n_human"] > 0).any():
        for key in ("human_mae", "human_spearman", "n_human"):
            headers.pop(key)
        note += (" Human MAE and Spearman: not computable (no document carries human scores; give the "
                 "study's documents human_scores).")
    if r["icc1"].isna().all() or r["discriminability"].isna().all():
        note += (" ICC, SPR and discriminability: not computable for a reviewer with fewer than two "
                 "papers scored under the original and a rewrite (discriminability also when every "
                 "original scores the same: no pair of papers is ordered); false robustness then too.")
    return TableDisplay(r, headers, note)


for _table in (
    AnalysisTable(
        "criteria", "Per-criterion preference ratios",
        "The comparison on each 1–4 criterion score: preference ratio = % A higher / % B higher, sign test "
        "as above.",
        CRITERIA, _criteria, order=10, missing="no criterion scores", latex_group="score",
        caption="Per-criterion paired comparison (1-4 scores; papers as units)."),
    AnalysisTable(
        "magnitude", "Magnitude of paired differences",
        "Paper-level paired differences d = A − B of the overall score: mean, mean absolute value, share of "
        "papers with |d| ≤ 1 point and with |d| ≥ 2 points (0–1).",
        MAGNITUDE, _magnitude, order=20, missing="no compared pair of conditions", latex_group="reviewer",
        caption="Magnitude of paired differences d = A - B in the overall score (papers as units)."),
    AnalysisTable(
        "change", "Change versus the original",
        "Each rewrite against its original (same paper and reviewer): signed and absolute mean change of "
        "the overall score, averaged within paper, then with equal weight over human-rating strata; 95% "
        "percentile intervals from a seeded stratified paper-level bootstrap; weak accept = overall ≥ 6 "
        "(the six-dimension study).",
        CHANGE, _change, order=30, missing="no original arm", latex_group="reviewer", display=_change_display,
        caption="Change versus the original: stratum-weighted means with 95% stratified bootstrap "
                "intervals; weak accept = overall >= 6."),
    AnalysisTable(
        "movement", "Movement by the reviewer's own initial score (original arm)", "", MOVEMENT, _movement,
        order=31, section="change"),
    AnalysisTable(
        "robustness", "Rhetorical robustness",
        "RobustReview metrics on paper-level overall scores. Within-paper (lower is better): MAD = mean "
        "|rewrite − original|, Drift SD = SD of the signed drifts. Joint stability and discrimination "
        "(higher is better): ICC(1) and ICC(A,1), SPR = between-paper SD / within-paper SD, discriminability "
        "= probability that a rewrite of the higher-rated paper scores above one of the lower-rated paper "
        "(0.5 = chance). False robustness: low drift with near-chance discriminability (score collapse). "
        "– = not computable.",
        ROBUSTNESS, _robustness, order=40, missing="no assessments", display=_robustness_display,
        caption="Rhetorical robustness per reviewer configuration."),
):
    tables.add(_table.key, _table, description=_table.title)


def registered_tables() -> list[AnalysisTable]:
    """Every registered analysis table, built-in and plug-in, in report order (``order``, then key)."""
    return sorted((e.value for e in tables.entries()), key=lambda t: (t.order, t.key))
