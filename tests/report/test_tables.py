"""One declaration per table: the Markdown headers and the LaTeX columns come from the same spec."""

from __future__ import annotations

import pandas as pd

from rhetorica.report.booktabs import booktabs
from rhetorica.report.tables import CRITERIA, VALIDATION, TableColumn, TableSpec


def test_a_spec_gives_markdown_headers_and_latex_columns_in_their_own_order():
    spec = TableSpec((
        TableColumn("who", "Who", "Who", lambda r: str(r["who"]), align="l"),
        TableColumn("x", "X only in Markdown"),
        TableColumn("y", None, "$y$", digits=1),
        TableColumn("z", "Zed", "Z", optional=True),
    ), latex_first=("y",))
    assert spec.headers == {"who": "Who", "x": "X only in Markdown", "z": "Zed"}
    frame = pd.DataFrame({"who": ["a"], "x": [1.0], "y": [2.25], "z": [3.0]})
    assert booktabs(frame, spec.latex_columns(frame.columns), caption="c", label="t").splitlines()[4:9] == [
        r"\begin{tabular}{rlr}", r"\toprule", r"$y$ & Who & Z \\", r"\midrule", r"2.2 & a & 3.00 \\"]
    assert [c.header for c in spec.latex_columns(["who", "y"])] == ["$y$", "Who"]  # z is optional


def test_the_declared_tables_keep_the_published_column_orders():
    assert list(CRITERIA.headers) == ["reviewer", "score", "first", "second", "n_pairs", "pct_first_higher",
                                      "pct_second_higher", "pct_tie", "preference_ratio", "sign_test_p",
                                      "mean_first", "mean_second"]
    assert [c.header for c in CRITERIA.latex_columns()] == [
        "Criterion", "Reviewer", "Comparison (A vs B)", "$n$", r"A $>$ B (\%)", r"B $>$ A (\%)", r"Tie (\%)",
        "Ratio", "$p$"]
    assert [c.header for c in VALIDATION.latex_columns(["condition"])][:3] == ["Condition", "$n$", "Passed"]
