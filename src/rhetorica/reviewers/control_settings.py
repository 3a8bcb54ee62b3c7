"""Settings of a control reviewer and the shift that gives its preference ratio.

Shared by the control reviewer inside a study (:mod:`rhetorica.reviewers.control`), the study
config that checks its options, and the simulations of :mod:`rhetorica.analysis.controls` and
:mod:`rhetorica.analysis.power`; it sits below all of them. The derivation of the shift is in the
docstring of :mod:`rhetorica.analysis.controls`.
"""

from __future__ import annotations

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator
from scipy.stats import norm


class ControlReviewer(BaseModel):
    """A simulated reviewer with known behaviour.

    Attributes:
        name: reviewer configuration name in the tidy table.
        noise_sd: SD of one review around the paper's latent quality (score points, 1-10 scale);
            the 'Style over Substance' study measured pooled SDs of about 0.5 to 1.2.
        bias_arm: arm the reviewer favours; ``None`` for a null reviewer.
        preference_ratio: target R of ``bias_arm`` over any other arm (> 0; 1 means no bias).
        integer_scores: round each review to an integer as real review forms do.
        failure_rate: share of reviews recorded as failed (status ``error``, no score).
    """

    model_config = ConfigDict(allow_inf_nan=False)

    name: str
    noise_sd: float = Field(default=0.5, ge=0)
    bias_arm: str | None = None
    preference_ratio: float = Field(default=1.0, gt=0)
    integer_scores: bool = False
    failure_rate: float = Field(default=0.0, ge=0, lt=1)

    @model_validator(mode="after")
    def _bias_needs_noise(self) -> ControlReviewer:
        if self.preference_ratio != 1.0 and self.noise_sd == 0:
            raise ValueError(
                f"control reviewer {self.name!r}: a preference ratio != 1 needs noise_sd > 0"
            )
        if self.preference_ratio != 1.0 and self.bias_arm is None:
            raise ValueError(f"control reviewer {self.name!r}: preference_ratio needs bias_arm")
        return self


def mean_shift_for_ratio(preference_ratio: float, noise_sd: float, replicates: int = 1) -> float:
    """Shift of one arm's scores giving preference ratio R on replicate-averaged paper scores.

    Args:
        preference_ratio: R > 0.
        noise_sd: SD of one review (score points).
        replicates: reviews averaged per paper and arm (m >= 1).

    Returns:
        ``delta = noise_sd * sqrt(2 / m) * Phi^{-1}(R / (1 + R))`` in score points.

    Raises:
        ValueError: on R <= 0 or m < 1.
    """

    if preference_ratio <= 0 or replicates < 1:
        raise ValueError(
            f"need preference_ratio > 0 and replicates >= 1, got {preference_ratio}, {replicates}"
        )
    return float(
        noise_sd * np.sqrt(2.0 / replicates) * norm.ppf(preference_ratio / (1 + preference_ratio))
    )
