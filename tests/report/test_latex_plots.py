"""LaTeX tables and PNG figures built from the analysis tables."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from rhetorica.analysis.change import paired_change
from rhetorica.analysis.controls import ControlReviewer, simulate_assessments
from rhetorica.analysis.equivalence import judge_reliability
from rhetorica.analysis.paired import compare_arms, comparison_table, default_pairs
from rhetorica.analysis.robustness import robustness_table
from rhetorica.registry import tables
from rhetorica.report import latex, plots

from tests.analysis.test_equivalence import judge_table
from tests.analysis.test_paired import table4_data

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
ARMS = ["original", "confidence:+", "confidence:-"]


@pytest.fixture(scope="module")
def study() -> object:
    reviewers = [
        ControlReviewer(name="null_rev", noise_sd=0.5, integer_scores=True),
        ControlReviewer(name="biased", noise_sd=0.5, bias_arm="confidence:+", preference_ratio=2.0),
    ]
    return simulate_assessments(40, ARMS, reviewers, replicates=2, seed=3)


def test_comparison_latex_row_matches_hand_computed_table4() -> None:
    tex = latex.comparison_latex(compare_arms(table4_data(), "confidence:+", "confidence:-"))
    assert tex.startswith("\\begin{table}[t]") and "\\toprule" in tex and "\\bottomrule" in tex
    row = (
        "confidence:+ vs confidence:- & R & 12 & 66.7 & 16.7 & 16.7 & 4.00 & 0.109 & 16.7 & 8.3"
        " & 5.25 & 4.33 \\\\"
    )
    assert row in tex.splitlines()
    assert "\\begin{tabular}{llrrrrrrrrrr}" in tex


def test_latex_escaping_and_special_values() -> None:
    assert latex.escape("a_b & 50% #1") == "a\\_b \\& 50\\% \\#1"
    assert latex.number(float("inf")) == "$\\infty$"
    assert latex.number(float("nan")) == "--"
    assert latex.pvalue(1e-5) == "$<$0.001" and latex.pvalue(0.04321) == "0.043"


def test_comparison_latex_separates_pairs_with_rules(study) -> None:  # noqa: ANN001
    comp = comparison_table(study, default_pairs(ARMS))
    tex = latex.comparison_latex(comp)
    body = tex.split("\\midrule", 1)[1]
    assert body.count("\\midrule") == 2  # three pairs -> two separators
    assert body.count("null\\_rev") == 3


def test_other_latex_tables(study) -> None:  # noqa: ANN001
    ch = tables.get("change").latex(paired_change(study, n_resamples=200))
    assert "$\\Delta$ [95\\% CI]" in ch and ch.count(" vs original") == 4
    assert "\\label{tab:change}" in ch
    rb = tables.get("robustness").latex(robustness_table(study))
    assert rb.count("\\\\") == 3  # header + two reviewers
    rel = latex.reliability_latex(judge_reliability(judge_table(), 1.0))
    assert "sensitive and robust" in rel


def test_preference_figure_draws_three_segments_per_row(study) -> None:  # noqa: ANN001
    plt = pytest.importorskip("matplotlib.pyplot")
    comp = comparison_table(study, default_pairs(ARMS))
    fig = plots.preference_figure(comp)
    assert len(fig.axes[0].patches) == 3 * len(comp)
    widths = [p.get_width() for p in fig.axes[0].patches]
    assert sum(widths) == pytest.approx(100.0 * len(comp))
    plt.close(fig)


def test_pngs_are_written_and_decodable(study, tmp_path: Path) -> None:  # noqa: ANN001
    import matplotlib.image as mpimg

    comp = comparison_table(study, default_pairs(ARMS))
    outputs = {
        "pref.png": plots.preference_bars(comp, tmp_path / "pref.png"),
        "forest.png": plots.forest_plot(
            paired_change(study, n_resamples=200), tmp_path / "forest.png"
        ),
        "scatter.png": plots.stability_scatter(robustness_table(study), tmp_path / "scatter.png"),
        "hist.png": plots.difference_histograms(study, default_pairs(ARMS), tmp_path / "hist.png"),
    }
    for name, data in outputs.items():
        assert data.startswith(PNG_MAGIC)
        assert (tmp_path / name).read_bytes() == data
        image = mpimg.imread(io.BytesIO(data))
        assert image.shape[0] > 100 and image.shape[1] > 100
        assert np.std(image) > 0  # not a blank canvas


def test_forest_intervals_match_the_table(study) -> None:  # noqa: ANN001
    plt = pytest.importorskip("matplotlib.pyplot")
    change = paired_change(study, n_resamples=200)
    fig = plots.forest_figure(change)
    xs = sorted(fig.axes[0].lines[0].get_xdata())
    assert xs == pytest.approx(sorted(change["mean_change"]))
    plt.close(fig)


def test_plots_reject_empty_input(study) -> None:  # noqa: ANN001
    comp = comparison_table(study, default_pairs(ARMS))
    with pytest.raises(ValueError, match="no rows to plot"):
        plots.preference_bars(comp.iloc[0:0])
    with pytest.raises(ValueError, match="no pairs"):
        plots.difference_histograms(study, [])
