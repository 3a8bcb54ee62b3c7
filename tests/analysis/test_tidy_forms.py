"""The analysis reads the metric it is given, by default the primary of the rows' forms, and
checks each row's score against the range its own form declares."""

from __future__ import annotations

import pandas as pd
import pytest

from rhetorica.analysis.paired import paper_scores
from rhetorica.analysis.tidy import CRITERIA, SCORE_RANGES, ok_scores, primary_metric
from rhetorica.forms import Form, Metric, register_form


def table(**columns: list) -> pd.DataFrame:
    n = len(next(iter(columns.values())))
    base = {"unit_key": [f"u{i}" for i in range(n)], "document_id": ["p1"] * n, "reviewer": ["r"] * n,
            "arm": ["original"] * n, "status": ["ok"] * n}
    return pd.DataFrame(base | columns)


def test_000_ranges_and_criteria_come_from_the_declared_form() -> None:
    assert SCORE_RANGES == {"overall": (1.0, 10.0), "soundness": (1.0, 4.0), "significance": (1.0, 4.0),
                            "evidence": (1.0, 4.0), "clarity": (1.0, 4.0), "confidence": (1.0, 5.0)}
    assert CRITERIA == ("soundness", "significance", "evidence", "clarity")


def test_primary_metric_default_and_mixed_primaries() -> None:
    assert primary_metric(table(overall=[6])) == "overall"  # no form column: the 000 form's primary
    assert primary_metric(table(overall=[6, 7], form=["review-000@1", "iclr-2026@1"])) == "overall"
    register_form(Form(name="test-judge-q", metrics=(Metric(name="quality", type="integer", low=0, high=100,
                                                            primary=True),)))
    mixed = table(overall=[6, None], quality=[None, 80], form=["review-000@1", "test-judge-q@1"])
    with pytest.raises(ValueError, match=r"different primary metrics \(overall, quality\); pass the metric"):
        primary_metric(mixed)
    judge = mixed[mixed["form"] == "test-judge-q@1"]
    assert paper_scores(judge)["quality"].tolist() == [80.0]  # default = that form's primary


def test_each_row_checked_against_its_own_form() -> None:
    # presentation 4 is in range on the ICLR form; 5 is not (and is named with its unit)
    ok = table(presentation=[4.0, 3.0], form=["iclr-2026@1", "iclr-2026@1"])
    assert ok_scores(ok, "presentation").tolist() == [4.0, 3.0]
    bad = table(presentation=[4.0, 5.0], form=["iclr-2026@1", "iclr-2026@1"])
    with pytest.raises(ValueError, match=r"assessment 'u1': presentation=5.0 lies outside \[1, 4\]"):
        ok_scores(bad, "presentation")
    # the control form's overall is continuous on 1-10: 9.75 passes, 10.5 does not
    control = table(overall=[9.75, 10.5], form=["control-000@1", "control-000@1"])
    with pytest.raises(ValueError, match=r"'u1': overall=10.5 lies outside \[1, 10\]"):
        ok_scores(control, "overall")
