"""What a report analyses: the assessments kept under the study's validation setting, and the
compared pairs of arms (shared by the report and ``rhetorica check``)."""

from __future__ import annotations

from typing import Any

import pandas as pd
from rhetorica.analysis.arms import default_pairs
from rhetorica.scorecard_thresholds import DECISION_THRESHOLD


def study_pairs(study: dict[str, Any], assessments: pd.DataFrame) -> list[tuple[str, str]]:
    """The compared arms: the study's ``comparisons`` if given, else the default pairs; only pairs
    whose two arms have assessments."""

    arms = sorted(set(assessments["arm"])) if not assessments.empty else []
    pairs = [(str(p[0]), str(p[1])) for p in study.get("comparisons") or []] or default_pairs(arms)
    return [p for p in pairs if p[0] in arms and p[1] in arms]


def decision_threshold(study: dict[str, Any]) -> float:
    """The study's acceptance threshold on the overall score
    (:data:`rhetorica.scorecard_thresholds.DECISION_THRESHOLD` when unset)."""

    return float(study.get("decision_threshold", DECISION_THRESHOLD))


def analysed_assessments(assessments: pd.DataFrame, study: dict[str, Any]) -> pd.DataFrame:
    """The assessments the analysis uses: under ``validation.failed_variants: exclude`` (the
    default) reviews of variants that failed validation are left out; the exported tidy table keeps
    every row, with ``variant_passed``."""
    mode = study.get("validation", {}).get("failed_variants", "exclude")
    if mode != "exclude" or "variant_passed" not in assessments.columns:
        return assessments
    return assessments[assessments["variant_passed"].ne(0) | assessments["variant_passed"].isna()]
