"""The ``novelty`` dimension (STUDIES.md §2): claim and novelty stance.

- Directions: ``novelty:+`` stronger, ``novelty:-`` more reserved.
- Instruction texts: ``rhetorica/rewriting/instructions/v2/novelty_{plus,minus}.md``; first of the
  six targets of ``joint``.
- Lexicon: ``rhetorica/data/novelty/lexicon.tsv`` (novelty and priority markers; sources in its
  README), with Hyland's hedges and boosters.
- Shift measure: :func:`measure` = :func:`novelty_stance`.
"""

from __future__ import annotations

from rhetorica.dimensions import register_dimension
from rhetorica.validation.metadiscourse import load_metadiscourse_lexicon, marker_counts
from rhetorica.validation.rhetoric import find_phrases, load_lexicon, lexicon_versions, per_1k, prepared_tokens
from rhetorica.validation.shift import Instructions, measured_dimension
from rhetorica.tokenizer import Tokens


def novelty_markers(text: str | Tokens) -> int:
    """Number of novelty and priority markers (``rhetorica/data/novelty``) in ``text``."""
    return len(find_phrases(prepared_tokens(text), load_lexicon("novelty")))


def novelty_stance(text: str | Tokens) -> float | None:
    """Claim and novelty stance: ``1000 * (novelty markers + boosters - hedges) / words``.

    Sources: boosters and hedges as in Hyland, K. (2005), *Metadiscourse*, Appendix 1 (via
    :func:`rhetorica.validation.metadiscourse.marker_counts`); novelty and priority markers
    after the positive words of Vinkers, Tijdink & Otte (2015), BMJ 351:h6467, and the
    novelty/primacy hype of Hyland & Jiang (2021), J. Pragmatics 182:189-202 (see
    ``rhetorica/data/novelty/README.md``). The novelty list is disjoint from the hedge and booster
    lists, so no word counts twice.

    Args:
        text: text or :class:`Tokens`.

    Returns:
        The stance rate (any real number; higher = bolder, more novelty-asserting), or ``None``
        for a text without words.
    """
    tokens = prepared_tokens(text)
    markers = marker_counts(tokens)
    novelty = len(find_phrases(tokens, load_lexicon("novelty")))
    return per_1k(novelty + markers.boosters - markers.hedges, tokens.n_words)


measure = novelty_stance


def lexicons() -> dict[str, str]:
    """Versions of the novelty lexicon and of the hedge/booster lexicon."""
    return {**lexicon_versions("novelty"), "metadiscourse": load_metadiscourse_lexicon().version}


DIMENSION = register_dimension(measured_dimension(
    "novelty", "(novelty markers + boosters - hedges)/1k", measure,
    directions={"+": "claim and novelty stance (stronger)", "-": "claim and novelty stance (more reserved)"},
    instructions=Instructions("v2", files={"+": "novelty_plus.md", "-": "novelty_minus.md"}),
    joint=1, lexicons=lexicons))
