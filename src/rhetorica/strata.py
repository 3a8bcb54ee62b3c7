"""Human mean-rating strata of the six-dimension study (STUDIES.md §2).

Papers were sampled 20 per bin of their reviewers' mean rating: [1,3), [3,4), [4,5), [5,6), [6,7)
and the closed top bin [7,8.5] (no sampled paper's mean lies above 8.5). Change analyses average
within paper, then give each stratum equal weight. This is the one definition: datasets sample by
it, the tidy export labels papers by it, the control simulation draws human scores inside it.
"""

from __future__ import annotations

import math

#: ``(low, high, label)`` per stratum, in order; every bin is ``[low, high)`` but the last, ``[7, 8.5]``.
HUMAN_STRATA: tuple[tuple[float, float, str], ...] = (
    (1.0, 3.0, "[1,3)"), (3.0, 4.0, "[3,4)"), (4.0, 5.0, "[4,5)"),
    (5.0, 6.0, "[5,6)"), (6.0, 7.0, "[6,7)"), (7.0, 8.5, "[7,8.5]"),
)

#: Lowest and highest mean rating inside some stratum: ``(1.0, 8.5)``.
STRATA_SPAN: tuple[float, float] = (HUMAN_STRATA[0][0], HUMAN_STRATA[-1][1])


def human_stratum(score: float | None) -> str | None:
    """Stratum label of a mean human rating (1-10 scale).

    Returns:
        e.g. ``"[7,8.5]"`` for 8.5; ``None`` when the score is missing (``None`` or NaN) or outside
        [1, 8.5].
    """
    if score is None or math.isnan(float(score)):
        return None
    for low, high, label in HUMAN_STRATA:
        if low <= score < high or (label.endswith("]") and score == high):
            return label
    return None
