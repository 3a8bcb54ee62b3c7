"""The stability-vs-discrimination scatter marks the false-robustness region; the per-aspect plot
draws one row per (reviewer, pair, aspect)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from rhetorica.report.plots import aspect_difference_figure, stability_figure


def test_the_false_robustness_region_is_shaded_up_to_chance_plus_the_margin() -> None:
    table = pd.DataFrame({"reviewer": ["collapsed", "reads"], "drift_sd": [0.1, 0.6], "mad": [0.1, 0.5],
                          "discriminability": [0.52, 0.8], "false_robustness": [True, False]})
    fig = stability_figure(table, low_drift=0.25, chance_margin=0.05)
    ax = fig.axes[0]
    (region,) = [p for p in ax.patches if p.get_label().startswith("false-robustness region")]
    ys = region.get_path().transformed(region.get_patch_transform()).vertices[:, 1]
    assert (ys.min(), ys.max()) == pytest.approx((0.0, 0.55))
    assert "MAD ≤ 0.25" in region.get_label()
    marks = {c.get_label(): c.get_offsets() for c in ax.collections}
    assert np.allclose(marks["false robustness"], [[0.1, 0.52]]) and np.allclose(marks["reviewer"], [[0.6, 0.8]])


def test_aspect_plot_has_one_point_per_row_with_a_mean() -> None:
    rows = pd.DataFrame({"reviewer": ["r", "r", "r"], "aspect": ["presentation", "novelty", "theory"],
                         "first": ["a"] * 3, "second": ["b"] * 3, "mean_difference": [2.5, -1.0, np.nan],
                         "sd": [0.7, np.nan, np.nan], "n_papers": [2, 1, 0], "ci_low": [-3.9, np.nan, np.nan],
                         "ci_high": [8.9, np.nan, np.nan]})
    ax = aspect_difference_figure(rows).axes[0]
    (points,) = [c for c in ax.collections if len(c.get_offsets()) == 2]
    assert sorted(points.get_offsets()[:, 0]) == [-1.0, 2.5]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["r: presentation (a vs b)", "r: novelty (a vs b)"]
    with pytest.raises(ValueError):
        aspect_difference_figure(rows.iloc[[2]])
