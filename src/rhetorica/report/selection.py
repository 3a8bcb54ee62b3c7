"""What a report analyses: the assessments kept under the study's validation setting, and the
compared pairs of arms (shared by the report and ``rhetorica check``)."""

from __future__ import annotations

import pandas as pd
from rhetorica.analysis.arms import default_pairs
from rhetorica.study.config import StudyConfig


def study_pairs(study: StudyConfig, assessments: pd.DataFrame) -> list[tuple[str, str]]:
    """The compared arms: the study's ``comparisons`` if given, else the default pairs; only pairs
    whose two arms have assessments."""

    arms = sorted(set(assessments["arm"])) if not assessments.empty else []
    pairs = list(study.comparisons or []) or default_pairs(arms)
    return [p for p in pairs if p[0] in arms and p[1] in arms]


def analysed_assessments(assessments: pd.DataFrame, study: StudyConfig) -> pd.DataFrame:
    """The assessments the analysis uses: under ``validation.failed_variants: exclude`` (the
    default) reviews of variants that failed validation are left out; the exported tidy table keeps
    every row, with ``variant_passed``."""
    if study.validation.failed_variants != "exclude" or "variant_passed" not in assessments.columns:
        return assessments
    return assessments[assessments["variant_passed"].ne(0) | assessments["variant_passed"].isna()]
