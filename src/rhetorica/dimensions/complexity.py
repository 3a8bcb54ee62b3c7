"""The ``complexity`` dimension (STUDIES.md §2): lexical and syntactic complexity.

- Directions: ``complexity:+`` higher, ``complexity:-`` lower.
- Instruction texts: ``rhetorica/rewriting/instructions/v2/complexity_{plus,minus}.md``; sixth of
  the six targets of ``joint``.
- Lexicon: the 2,000 most frequent English forms behind Advanced Guiraud
  (:func:`rhetorica.validation.lexical.frequent_words`).
- Measure: :func:`measure` = :func:`complexity_index` of the prose (comments and headings
  blanked), recorded in ``TextMeasures.dimensions``. The shift check computes the same index from
  the lexical measures of the validation table (words, sentences, Advanced Guiraud of the text as
  validated, :func:`index_of_measures`), as it always has, so its numbers match that table.
"""

from __future__ import annotations

import math

from rhetorica.dimensions import register_dimension
from rhetorica.validation.lexical import advanced_guiraud
from rhetorica.validation.rhetoric import prepared_tokens
from rhetorica.validation.shift import Dimension, Instructions, ShiftRule
from rhetorica.tokenizer import Tokens
from rhetorica.validation.measures import TextMeasures



def mean_sentence_length(text: str | Tokens) -> float | None:
    """Mean sentence length in words (Lu 2010's MLS), or ``None`` without sentences."""
    tokens = prepared_tokens(text)
    return tokens.n_words / tokens.n_sentences if tokens.n_sentences else None


def complexity_index(text: str | Tokens) -> float | None:
    """Lexical and syntactic complexity: ``sqrt(mean sentence length * Advanced Guiraud)``.

    The geometric mean of the two ratios, so the paired check "the index rises" means
    ``(MLS' / MLS) * (AG' / AG) > 1``: both components weigh by their relative change, whatever
    their units. Sources: mean length of sentence, Lu, X. (2010), "Automatic analysis of syntactic
    complexity in second language writing", Int. J. Corpus Linguistics 15(4):474-496; Advanced
    Guiraud, Daller, van Hout & Treffers-Daller (2003) (:func:`rhetorica.validation.lexical.advanced_guiraud`).

    Returns:
        The index (>= 0), or ``None`` for a text without words.
    """
    tokens = prepared_tokens(text)
    return _geometric(mean_sentence_length(tokens), advanced_guiraud(tokens))


def _geometric(msl: float | None, ag: float | None) -> float | None:
    return None if msl is None or ag is None else math.sqrt(msl * ag)


def index_of_measures(m: TextMeasures) -> float | None:
    """``sqrt(words / sentences * Advanced Guiraud)`` from a text's lexical measures (Lu 2010; Daller et al. 2003)."""
    if not m.sentences or m.advanced_guiraud is None:
        return None
    return math.sqrt(m.words / m.sentences * m.advanced_guiraud)


measure = complexity_index

DIMENSION = register_dimension(Dimension(
    "complexity", ShiftRule("sqrt(mean sentence length x Advanced Guiraud)", index_of_measures), measure=measure,
    directions={"+": "lexical and syntactic complexity (higher)", "-": "lexical and syntactic complexity (lower)"},
    instructions=Instructions("v2", files={"+": "complexity_plus.md", "-": "complexity_minus.md"}),
    joint=6))
