"""The ``median_shift`` analysis table: the median paired shift per reviewer, with a bootstrap interval.

Per reviewer, each paper scored under the original and at least one rewrite gives its paired shift,
the mean over its rewrites of ``rewrite - original`` on the reviewer's primary score (replicates
averaged within paper first). The table holds the median of those shifts over the papers and its
95% percentile bootstrap interval over papers (``scipy.stats.bootstrap``, the report's resamples and
seed). One registration in ``__init__.py`` adds it to the report (Markdown, HTML, LaTeX, CSV) and to
the viewer's tables page.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import bootstrap

from rhetorica.analysis.paired import paper_scores
from rhetorica.analysis.tidy import primary_metric
from rhetorica.labels import ORIGINAL
from rhetorica.report.booktabs import escape, number
from rhetorica.report.tables import AnalysisTable, TableColumn, TableContext, TableSpec, Unavailable

COLUMNS = ["reviewer", "n_papers", "median_shift", "median_shift_low", "median_shift_high"]


def median_shift(df: pd.DataFrame, ctx: TableContext) -> pd.DataFrame | Unavailable:
    """One row per reviewer with two or more paired papers (columns :data:`COLUMNS`; the interval is
    NaN when every paper shifts by the same amount)."""
    if ORIGINAL not in set(df["arm"]):
        return Unavailable("needs the original arm and rewrites of the same papers")
    score = primary_metric(df)
    rows = []
    for reviewer, part in paper_scores(df, score).groupby("reviewer", sort=True):
        wide = part.pivot(index="document_id", columns="arm", values=score)
        shifts = wide.drop(columns=[ORIGINAL]).sub(wide[ORIGINAL], axis=0).mean(axis=1).dropna().to_numpy()
        if len(shifts) < 2:
            continue
        low = high = np.nan
        if np.ptp(shifts) > 0:
            ci = bootstrap((shifts,), np.median, n_resamples=ctx.n_resamples, method="percentile",
                           random_state=np.random.default_rng(ctx.seed)).confidence_interval
            low, high = float(ci.low), float(ci.high)
        rows.append([reviewer, len(shifts), float(np.median(shifts)), low, high])
    if not rows:
        return Unavailable("needs two papers scored under the original and a rewrite by one reviewer")
    return pd.DataFrame(rows, columns=COLUMNS)


def _interval(row: pd.Series) -> str:
    """``median [low, high]`` for LaTeX (``--`` for a missing bound)."""
    return f"{number(row['median_shift'])} [{number(row['median_shift_low'])}, {number(row['median_shift_high'])}]"


MEDIAN_SHIFT = AnalysisTable(
    key="median_shift",
    title="Median paired shift per reviewer",
    note=("Per reviewer: the median over papers of each paper's mean shift rewrite − original (primary "
          "score, replicates averaged within paper), with a 95% percentile bootstrap interval over papers."),
    spec=TableSpec((
        TableColumn("reviewer", "Reviewer", "Reviewer", align="l", cell=lambda r: escape(r["reviewer"])),
        TableColumn("n_papers", "Papers", "$n$", digits=0),
        TableColumn("median_shift", "Median shift", None),
        TableColumn("median_shift_low", "95% low", None),
        TableColumn("median_shift_high", "95% high", None),
        TableColumn("interval", None, r"Median shift [95\% CI]", _interval),
    )),
    compute=median_shift,
    order=50,
    caption="Median paired shift (rewrite - original) per reviewer, 95% percentile bootstrap interval.",
)
