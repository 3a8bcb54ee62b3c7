"""Pooled SD of replicates for every metric of a long scores table, against a hand computation."""

from __future__ import annotations

import math

import pandas as pd

from rhetorica.analysis.variance import pooled_sd, pooled_sd_by_metric


def _long(records: list[tuple[str, str, str, str, float | None, str]]) -> pd.DataFrame:
    return pd.DataFrame(records, columns=["reviewer", "document_id", "arm", "metric", "value", "status"])


def test_pooled_sd_per_metric_by_hand() -> None:
    scores = _long([
        ("R", "d1", "original", "x", 1, "ok"), ("R", "d1", "original", "x", 3, "ok"),
        ("R", "d2", "original", "x", 2, "ok"), ("R", "d2", "original", "x", 2, "ok"),
        ("R", "d2", "original", "x", 5, "ok"), ("R", "d2", "original", "x", None, "malformed"),
        ("R", "d1", "original", "y", 4, "ok"), ("R", "d1", "original", "y", 4, "ok"),
        ("R", "d1", "original", "z", 4, "ok"), ("R", "d1", "rewrite", "z", 1, "ok"),
        ("R", "d1", "rewrite", "x", 9, "ok"), ("R", "d1", "rewrite", "x", 1, "ok"),
    ])
    out = pooled_sd_by_metric(scores, arm="original").set_index("metric")
    # x: d1 {1, 3} variance 2 (1 dof), d2 {2, 2, 5} variance 3 (2 dof): sqrt((2 + 2*3) / 3)
    assert out.loc["x", "n_groups"] == 2 and out.loc["x", "n_reviews"] == 5
    assert math.isclose(out.loc["x", "pooled_sd"], math.sqrt(8 / 3))
    assert out.loc["y", "pooled_sd"] == 0.0
    assert out.loc["z", "n_groups"] == 0 and math.isnan(out.loc["z", "pooled_sd"])  # no input scored twice
    # every arm pooled: x adds the rewrite's {9, 1} (variance 32, 1 dof)
    every = pooled_sd_by_metric(scores).set_index("metric")
    assert math.isclose(every.loc["x", "pooled_sd"], math.sqrt((2 + 2 * 3 + 32) / 4))


def test_agrees_with_the_wide_pooled_sd_on_one_metric() -> None:
    scores = _long([("R", d, "original", "overall", v, "ok") for d, v in
                    [("d1", 5), ("d1", 7), ("d2", 3), ("d2", 4), ("d2", 8)]])
    wide = scores.rename(columns={"value": "overall"}).drop(columns="metric")
    assert math.isclose(pooled_sd_by_metric(scores)["pooled_sd"].iloc[0], pooled_sd(wide, score="overall")["pooled_sd"].iloc[0])
