"""The shift rule of the ``readability`` dimension.

The Gunning Fog index (Gunning, *The Technique of Clear Writing*, 1952: 0.4 x (words per sentence +
100 x share of words of three or more syllables)) estimates the years of schooling a text needs.
rhetorica already measures it on every original and variant
(``TextMeasures.gunning_fog``); a ``readability:+`` rewrite must lower it, ``readability:-`` raise
it. The rule returns minus the index so that ``+`` means "the measure rises", as for every dimension.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rhetorica.validation.validate import TextMeasures

FOG_MEASURE = "minus Gunning Fog index"


def minus_gunning_fog(measures: TextMeasures) -> float | None:
    """``-gunning_fog`` of one text, or ``None`` when the index is undefined (no sentences)."""
    return None if measures.gunning_fog is None else -measures.gunning_fog
