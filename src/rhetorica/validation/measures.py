"""The per-text measures of validation: lexical, metadiscourse and six-dimension shift measures.

Kept apart from :mod:`rhetorica.validation.validate` (which compares two texts) so that the shift
rules (:mod:`rhetorica.validation.shift`) and the validator both build on it.
"""

from __future__ import annotations

from pydantic import BaseModel

from rhetorica.validation.lexical import advanced_guiraud, mtld
from rhetorica.validation.metadiscourse import marker_counts
from rhetorica.validation.readability import gunning_fog
from rhetorica.validation.rhetoric import RhetoricMeasures, measure_rhetoric
from rhetorica.validation.tokenizer import Tokens, tokenize


class TextMeasures(BaseModel):
    """Lexical and metadiscourse measures of one text (all from the shared tokenizer).

    Attributes:
        words: word count.
        sentences: sentences holding at least one word.
        mtld: MTLD (words per factor) or ``None`` when undefined.
        advanced_guiraud: Advanced Guiraud or ``None`` without words.
        gunning_fog: Gunning Fog grade or ``None`` without words.
        hedges: hedge count.
        boosters: booster count.
        hedges_per_1k: hedges per 1,000 words.
        boosters_per_1k: boosters per 1,000 words.
        rhetoric: the six-dimension shift measures (:mod:`rhetorica.validation.rhetoric`);
            ``None`` when not measured.
    """

    words: int
    sentences: int
    mtld: float | None
    advanced_guiraud: float | None
    gunning_fog: float | None
    hedges: int
    boosters: int
    hedges_per_1k: float | None
    boosters_per_1k: float | None
    rhetoric: RhetoricMeasures | None = None


def measure_text(text: str | Tokens) -> TextMeasures:
    """Compute the lexical and metadiscourse measures of ``text`` with one tokenization.

    Args:
        text: Markdown with inline LaTeX, or plain text, or its :class:`Tokens`.

    Returns:
        :class:`TextMeasures` (see each measure's function for its definition and source).
    """
    tokens = text if isinstance(text, Tokens) else tokenize(text)
    markers = marker_counts(tokens)
    return TextMeasures(
        words=tokens.n_words,
        sentences=tokens.n_sentences,
        mtld=mtld(tokens),
        advanced_guiraud=advanced_guiraud(tokens),
        gunning_fog=gunning_fog(tokens),
        hedges=markers.hedges,
        boosters=markers.boosters,
        hedges_per_1k=markers.hedges_per_1k,
        boosters_per_1k=markers.boosters_per_1k,
        rhetoric=measure_rhetoric(tokens),
    )
