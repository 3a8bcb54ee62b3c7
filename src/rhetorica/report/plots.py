"""Report figures (matplotlib, Agg backend, imported lazily).

Each public function takes an analysis DataFrame, returns the PNG bytes and, given ``path``,
also writes them there. ``*_figure`` builders return the matplotlib Figure (for tests and for
callers that want another format); close it with ``matplotlib.pyplot.close(fig)``.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd

from rhetorica.analysis.tidy import primary_metric
from rhetorica.files import write_atomic

from rhetorica.analysis.paired import paper_scores
import matplotlib
import matplotlib.pyplot as plt
from matplotlib.figure import Figure


DPI = 110
COLORS = {"first": "#2c7fb8", "tie": "#bdbdbd", "second": "#f03b20", "ci": "#404040"}


def _pyplot():  # noqa: ANN202 - returns the pyplot module

    matplotlib.use("Agg", force=False)

    return plt


def _png(fig: Figure, path: str | Path | None) -> bytes:
    plt = _pyplot()
    buffer = io.BytesIO()
    try:
        fig.savefig(buffer, format="png", dpi=DPI, bbox_inches="tight")
    finally:
        plt.close(fig)
    data = buffer.getvalue()
    if path is not None:
        write_atomic(Path(path), data)
    return data


def _require(df: pd.DataFrame, what: str) -> None:
    if df.empty:
        raise ValueError(f"{what}: no rows to plot")


def preference_figure(comparisons: pd.DataFrame) -> Figure:
    """Stacked 100% bars per reviewer and comparison: A higher / tie / B higher.

    Args:
        comparisons: output of :func:`rhetorica.analysis.paired.comparison_table`.

    Returns:
        Figure with one horizontal bar (three segments) per row with pairs.

    Raises:
        ValueError: if no row has a paired paper.
    """
    df = comparisons[comparisons["n_pairs"] > 0]
    _require(df, "preference bars")
    plt = _pyplot()
    labels = [f"{r.reviewer}: {r.first} vs {r.second}" for r in df.itertuples()]
    y = np.arange(len(df))[::-1]
    fig, ax = plt.subplots(figsize=(8, 0.45 * len(df) + 1.2))
    a, t, b = (
        df[c].to_numpy(dtype=float) for c in ("pct_first_higher", "pct_tie", "pct_second_higher")
    )
    ax.barh(y, a, color=COLORS["first"], label="A higher")
    ax.barh(y, t, left=a, color=COLORS["tie"], label="tie")
    ax.barh(y, b, left=a + t, color=COLORS["second"], label="B higher")
    for yi, ratio, p in zip(y, df["preference_ratio"], df["sign_test_p"]):
        text = "R=inf" if np.isinf(ratio) else ("R=n/a" if np.isnan(ratio) else f"R={ratio:.2f}")
        ax.text(101, yi, f"{text}  " + ("p=n/a" if np.isnan(p) else f"p={p:.3g}"), va="center", fontsize=8)
    ax.set_yticks(y, labels, fontsize=8)
    ax.set_xlim(0, 100)
    ax.axvline(50, color="black", linewidth=0.6, linestyle=":")
    ax.set_xlabel("% of paired papers")
    ax.legend(
        loc="upper center", bbox_to_anchor=(0.5, -0.12 - 0.5 / len(df)), ncol=3, frameon=False
    )
    fig.tight_layout()
    return fig


def preference_bars(comparisons: pd.DataFrame, path: str | Path | None = None) -> bytes:
    """PNG of :func:`preference_figure`."""
    return _png(preference_figure(comparisons), path)


def forest_figure(change: pd.DataFrame) -> Figure:
    """Forest plot of signed mean change with bootstrap CIs, one line per reviewer and condition.

    Args:
        change: output of :func:`rhetorica.analysis.change.paired_change`.

    Returns:
        Figure with a point and an interval per row with papers, and a reference line at 0.

    Raises:
        ValueError: if no row has papers.
    """
    df = change[change["n_papers"] > 0]
    _require(df, "forest plot")
    plt = _pyplot()
    y = np.arange(len(df))[::-1]
    fig, ax = plt.subplots(figsize=(7, 0.4 * len(df) + 1.2))
    mean = df["mean_change"].to_numpy(dtype=float)
    low = df["mean_change_low"].to_numpy(dtype=float)
    high = df["mean_change_high"].to_numpy(dtype=float)
    ax.errorbar(mean, y, xerr=[mean - low, high - mean], fmt="o", color=COLORS["ci"], capsize=3)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(
        y, [f"{r.reviewer}: {r.first} vs {r.second}" for r in df.itertuples()], fontsize=8
    )
    ax.set_xlabel("Mean change in overall score (95% stratified bootstrap CI)")
    fig.tight_layout()
    return fig


def forest_plot(change: pd.DataFrame, path: str | Path | None = None) -> bytes:
    """PNG of :func:`forest_figure`."""
    return _png(forest_figure(change), path)


def stability_figure(robustness: pd.DataFrame, *, low_drift: float = 0.25, chance_margin: float = 0.05) -> Figure:
    """Stability (drift SD, lower is better) against discriminability, one point per reviewer.

    Args:
        robustness: output of :func:`rhetorica.analysis.robustness.robustness_table`.
        low_drift, chance_margin: the false-robustness thresholds the table was computed with
            (MAD <= ``low_drift`` with discriminability <= 0.5 + ``chance_margin``).

    Returns:
        Figure; false-robust reviewers are drawn as crosses, chance (0.5) as a dotted line, and the
        false-robustness region (near-chance discriminability) shaded below 0.5 + ``chance_margin``;
        the flag also needs MAD <= ``low_drift`` (stated in the shaded region's label).

    Raises:
        ValueError: if no reviewer has both measures.
    """
    df = robustness.dropna(subset=["drift_sd", "discriminability"])
    _require(df, "stability-vs-discrimination scatter")
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4.5))
    ax.axhspan(min(0.0, float(df["discriminability"].min())), 0.5 + chance_margin, color=COLORS["tie"], alpha=0.35,
               label=f"false-robustness region (discr. ≤ {0.5 + chance_margin:g} with MAD ≤ {low_drift:g})")
    flagged = df["false_robustness"].eq(True).to_numpy()  # None: not computable, not flagged
    ax.scatter(
        df["drift_sd"][~flagged],
        df["discriminability"][~flagged],
        color=COLORS["first"],
        label="reviewer",
    )
    if flagged.any():
        ax.scatter(
            df["drift_sd"][flagged],
            df["discriminability"][flagged],
            marker="x",
            color=COLORS["second"],
            label="false robustness",
        )
    for r in df.itertuples():
        ax.annotate(
            str(r.reviewer),
            (r.drift_sd, r.discriminability),
            fontsize=8,
            xytext=(4, 3),
            textcoords="offset points",
        )
    ax.axhline(0.5, color="black", linewidth=0.6, linestyle=":")
    ax.set_xlabel("Drift SD (within-paper, lower is more stable)")
    ax.set_ylabel("Discriminability (0.5 = chance)")
    ax.legend(frameon=False, fontsize=8)
    fig.tight_layout()
    return fig


def stability_scatter(robustness: pd.DataFrame, path: str | Path | None = None) -> bytes:
    """PNG of :func:`stability_figure`."""
    return _png(stability_figure(robustness), path)


def aspect_difference_figure(differences: pd.DataFrame) -> Figure:
    """Within-paper net-polarity difference per aspect, one row per (reviewer, pair, aspect) with
    its 95% t interval (where computable).

    Args:
        differences: rows of :func:`rhetorica.analysis.aspects.net_polarity_difference`.

    Raises:
        ValueError: if no row has a mean difference.
    """
    df = differences.dropna(subset=["mean_difference"]).reset_index(drop=True)
    _require(df, "per-aspect net-polarity plot")
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 0.35 * len(df) + 1.5))
    y = np.arange(len(df))[::-1]
    has_ci = df["ci_low"].notna().to_numpy()
    ax.errorbar(df["mean_difference"][has_ci], y[has_ci],
                xerr=[(df["mean_difference"] - df["ci_low"])[has_ci], (df["ci_high"] - df["mean_difference"])[has_ci]],
                fmt="none", ecolor=COLORS["ci"], capsize=2)
    ax.scatter(df["mean_difference"], y, color=COLORS["first"], zorder=3)
    ax.axvline(0, color="black", linewidth=0.6, linestyle=":")
    ax.set_yticks(y, [f"{r.reviewer}: {r.aspect} ({r.first} vs {r.second})" for r in df.itertuples()], fontsize=8)
    ax.set_xlabel("Mean within-paper difference in net polarity (A − B)")
    fig.tight_layout()
    return fig


def aspect_difference_plot(differences: pd.DataFrame, path: str | Path | None = None) -> bytes:
    """PNG of :func:`aspect_difference_figure`."""
    return _png(aspect_difference_figure(differences), path)


def difference_figure(
    df: pd.DataFrame, pairs: list[tuple[str, str]], *, score: str | None = None
) -> Figure:
    """Histograms of paired paper-level differences ``A - B``, one panel per pair, reviewers
    overlaid as outlines.

    Args:
        df: tidy assessments.
        pairs: ``(first, second)`` arm labels.
        score: score column.

    Returns:
        Figure with ``len(pairs)`` panels in a grid of up to three columns.

    Raises:
        ValueError: if ``pairs`` is empty or no pair has a paired paper.
    """
    score = score or primary_metric(df)
    if not pairs:
        raise ValueError("difference histograms: no pairs given")
    ps = paper_scores(df, score)
    wide = ps.pivot(index=["reviewer", "document_id"], columns="arm", values=score)
    plt = _pyplot()
    ncols = 1 if len(pairs) <= 2 else (2 if len(pairs) <= 4 else 3)
    nrows = -(-len(pairs) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(5 * ncols, 2.4 * nrows), squeeze=False)
    for ax in axes.flat[len(pairs):]:
        ax.set_visible(False)
    drawn = 0
    for ax, (first, second) in zip(axes.flat, pairs):
        if first not in wide.columns or second not in wide.columns:
            raise ValueError(f"difference histograms: arm {first!r} or {second!r} not in the data")
        d = (wide[first] - wide[second]).dropna()
        if d.empty:
            ax.set_title(f"{first} vs {second}: no paired papers", fontsize=9)
            continue
        edges = np.arange(np.floor(d.min()) - 0.25, np.ceil(d.max()) + 0.5, 0.5)
        for reviewer, part in d.groupby(level="reviewer"):
            ax.hist(
                part.to_numpy(), bins=edges, histtype="step", linewidth=1.4, label=str(reviewer)
            )
            drawn += 1
        ax.axvline(0, color="black", linewidth=0.6, linestyle=":")
        ax.set_xlim(min(edges[0], -1.5), max(edges[-1], 1.5))  # keep a readable scale when all d = 0
        ax.set_title(f"{first} minus {second}", fontsize=9)
        ax.set_ylabel("papers")
        ax.legend(frameon=False, fontsize=7)
    if drawn == 0:
        plt.close(fig)
        raise ValueError("difference histograms: no pair has a paired paper")
    for ax in axes.flat[max(0, len(pairs) - ncols) : len(pairs)]:
        ax.set_xlabel(f"Paired difference in {score}")
    fig.tight_layout()
    return fig


def difference_histograms(
    df: pd.DataFrame,
    pairs: list[tuple[str, str]],
    path: str | Path | None = None,
    *,
    score: str | None = None,
) -> bytes:
    """PNG of :func:`difference_figure`."""
    score = score or primary_metric(df)
    return _png(difference_figure(df, pairs, score=score), path)
