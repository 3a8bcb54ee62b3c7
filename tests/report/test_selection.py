"""Reviews of variants that failed validation leave the analysis under the default `exclude`."""

from __future__ import annotations

import pandas as pd

from rhetorica.report.selection import analysed_assessments

from .runs import hand_study

TABLE = pd.DataFrame({"arm": ["original", "confidence:+", "confidence:-"], "variant_passed": [None, 1.0, 0.0]})


def test_exclude_drops_failed_variants_only() -> None:
    kept = analysed_assessments(TABLE, hand_study({"validation": {"failed_variants": "exclude"}}))
    assert kept["arm"].tolist() == ["original", "confidence:+"]
    assert analysed_assessments(TABLE, hand_study())["arm"].tolist() == ["original", "confidence:+"]  # the default


def test_include_keeps_them_marked() -> None:
    kept = analysed_assessments(TABLE, hand_study({"validation": {"failed_variants": "include"}}))
    assert kept["variant_passed"].tolist()[1:] == [1.0, 0.0]
