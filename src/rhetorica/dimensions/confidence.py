"""The ``confidence`` dimension ('Style over Substance', STUDIES.md §1): expressed confidence.

- Directions: ``confidence:+`` high expressed confidence (fewer hedges, more boosters),
  ``confidence:-`` low (more hedges, fewer boosters).
- Instruction texts: ``rhetorica/rewriting/instructions/v1/confidence_{plus,minus}.md``.
- Lexicon: the hedges and boosters of Hyland, K. (2005), *Metadiscourse*, Appendix 1
  (:func:`rhetorica.validation.metadiscourse.load_metadiscourse_lexicon`).
- Shift measure: stance = boosters per 1,000 words − hedges per 1,000 words, read from the
  metadiscourse rates every text gets (``TextMeasures.boosters_per_1k``/``hedges_per_1k``), so the
  check uses exactly the numbers of the validation table.
"""

from __future__ import annotations


from rhetorica.dimensions import register_dimension
from rhetorica.validation.metadiscourse import load_metadiscourse_lexicon
from rhetorica.validation.shift import Dimension, Instructions, ShiftRule
from rhetorica.validation.measures import TextMeasures


LABEL = "boosters/1k - hedges/1k"


def stance(m: TextMeasures) -> float | None:
    """``boosters_per_1k - hedges_per_1k`` of one text, ``None`` when either rate is undefined (no words)."""
    if m.boosters_per_1k is None or m.hedges_per_1k is None:
        return None
    return m.boosters_per_1k - m.hedges_per_1k


def lexicons() -> dict[str, str]:
    """``{"metadiscourse": version}`` of the hedge/booster lexicon."""
    return {"metadiscourse": load_metadiscourse_lexicon().version}


DIMENSION = register_dimension(Dimension(
    "confidence", ShiftRule(LABEL, stance),
    directions={"+": "high expressed confidence (fewer hedges, more boosters)",
                "-": "low expressed confidence (more hedges, fewer boosters)"},
    instructions=Instructions("v1", files={"+": "confidence_plus.md", "-": "confidence_minus.md"}),
    lexicons=lexicons))
