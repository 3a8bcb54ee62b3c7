"""The per-text measures of validation: lexical and metadiscourse measures, and every registered
dimension's own measure, as a mapping.

Kept apart from :mod:`rhetorica.validation.validate` (which compares two texts) so that the shift
rules (:mod:`rhetorica.validation.shift`) and the validator both build on it.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from rhetorica.validation.lexical import advanced_guiraud, mtld
from rhetorica.validation.metadiscourse import marker_counts
from rhetorica.validation.readability import gunning_fog
from rhetorica.registry import dimensions
from rhetorica.tokenizer import Tokens, tokenize


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
        dimensions: dimension name -> value of its own measure (``None`` where undefined), for
            every registered dimension that has one (:func:`measure_dimensions`); empty when not
            measured.
        lexicon_versions: lexicon name -> version of the word lists those measures read.
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
    dimensions: dict[str, float | None] = Field(default_factory=dict)
    lexicon_versions: dict[str, str] = Field(default_factory=dict)


def measure_dimensions(text: str | Tokens) -> tuple[dict[str, float | None], dict[str, str]]:
    """Every registered dimension's own measure of ``text`` (:attr:`rhetorica.validation.shift.Dimension.measure`),
    and the lexicon versions they read.

    Args:
        text: the text or its :class:`Tokens` (each measure prepares its own view of it, e.g.
            with LaTeX comments blanked).

    Returns:
        ``({dimension: value}, {lexicon: version})``, dimensions by name.

    Raises:
        rhetorica.registry.PluginError: an installed plug-in failed to load.
    """
    values: dict[str, float | None] = {}
    versions: dict[str, str] = {}
    measured = [e.value for e in dimensions.entries() if getattr(e.value, "measure", None) is not None]
    for dimension in measured:
        value = dimension.measure(text)
        values[dimension.name] = None if value is None else float(value)
        if dimension.lexicons is not None:
            versions.update(dimension.lexicons())
    return values, dict(sorted(versions.items()))


def measure_text(text: str | Tokens) -> TextMeasures:
    """Compute the lexical and metadiscourse measures of ``text`` with one tokenization.

    Args:
        text: Markdown with inline LaTeX, or plain text, or its :class:`Tokens`.

    Returns:
        :class:`TextMeasures` (see each measure's function for its definition and source).
    """
    tokens = text if isinstance(text, Tokens) else tokenize(text)
    markers = marker_counts(tokens)
    values, versions = measure_dimensions(tokens)
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
        dimensions=values,
        lexicon_versions=versions,
    )
