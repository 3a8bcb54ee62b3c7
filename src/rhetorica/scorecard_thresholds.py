"""Pass/fail thresholds of the report's scorecard: the ``scorecard`` section of a study YAML.

Kept apart from :mod:`rhetorica.analysis.scorecard` (which applies them) so that the study config can
declare them without importing the report package.
"""

from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict, Field


DECISION_THRESHOLD = 4.5
"""Default acceptance threshold on the 1-10 overall score: a paper scored above it counts as accepted
(the study's ``decision_threshold``, the flips of the comparison table and the scorecard). The one
place this default is stated."""


class ScorecardThresholds(BaseModel):
    """Thresholds of the scorecard (defaults are ours, chosen as illustrative strictness).

    Attributes:
        max_abs_log_ratio: largest allowed ``|ln R|`` (default ln 1.5: neither arm may win 50%
            more often than the other).
        max_flip_pct: largest allowed decision-flip rate of a pair, both directions, in percent.
        min_discriminability: smallest allowed discriminability (0.5 is chance).
        max_failure_gap_pct: largest allowed failure-rate gap between arms, percentage points.
        alpha: significance level of every check: intervals are two-sided ``1 - alpha``
            (Bonferroni-corrected over a check's pairs).
        min_papers: fewest papers (with an original and a rewrite) from which the
            discriminability bootstrap decides; fewer give "not enough data".
        threshold: acceptance threshold for the flip counts (1-10 overall scale); ``None`` uses
            the ``decision_threshold`` passed to :func:`scorecard` (the study's, :data:`DECISION_THRESHOLD` by default).
    """

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    max_abs_log_ratio: float = Field(default=math.log(1.5), gt=0)
    max_flip_pct: float = Field(default=10.0, ge=0, le=100)
    min_discriminability: float = Field(default=0.7, ge=0, le=1)
    max_failure_gap_pct: float = Field(default=5.0, ge=0, le=100)
    alpha: float = Field(default=0.05, gt=0, lt=1)
    min_papers: int = Field(default=10, ge=2)
    threshold: float | None = None
