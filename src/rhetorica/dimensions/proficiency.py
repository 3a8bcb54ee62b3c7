"""The ``proficiency`` dimension ('Style over Substance', STUDIES.md §1): perceived language proficiency.

- Directions: ``proficiency:+`` native-associated academic English, ``proficiency:-``
  non-native-associated academic English.
- Instruction texts: ``rhetorica/rewriting/instructions/v1/proficiency_{plus,minus}.md``.
- Lexicon: the 2,000 most frequent English word forms (:func:`rhetorica.validation.lexical.frequent_words`).
- Shift measure: Advanced Guiraud (Daller, van Hout & Treffers-Daller 2003), read from the lexical
  measures every text gets (``TextMeasures.advanced_guiraud``).
"""

from __future__ import annotations


from rhetorica.dimensions import register_dimension
from rhetorica.validation.shift import Dimension, Instructions, ShiftRule
from rhetorica.validation.measures import TextMeasures


LABEL = "Advanced Guiraud"


def sophistication(m: TextMeasures) -> float | None:
    """The Advanced Guiraud of one text (``None`` without words)."""
    return m.advanced_guiraud


DIMENSION = register_dimension(Dimension(
    "proficiency", ShiftRule(LABEL, sophistication),
    directions={"+": "native-associated academic English", "-": "non-native-associated academic English"},
    instructions=Instructions("v1", files={"+": "proficiency_plus.md", "-": "proficiency_minus.md"})))
