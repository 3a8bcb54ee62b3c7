"""Lexical diversity and sophistication: MTLD and Advanced Guiraud.

Both read the words of :func:`rhetorica.tokenizer.tokenize`, lower-cased.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources

from rhetorica.tokenizer import Tokens, tokenize

MTLD_THRESHOLD = 0.72
"""Factor size of McCarthy & Jarvis (2010), Sect. "Calculation of MTLD"."""

FREQUENT_WORDS_FILE = "wordfreq_en_top2000.txt"
"""Package data file (in ``rhetorica/data/wordlists``): the 2,000 most frequent English forms."""


def _as_tokens(text: str | Tokens) -> Tokens:
    return text if isinstance(text, Tokens) else tokenize(text)


def _mtld_pass(words: Sequence[str], threshold: float) -> float:
    """Number of factors (full + partial) in one directional pass."""
    factors = 0.0
    types: set[str] = set()
    count = 0
    ttr = 1.0
    for word in words:
        types.add(word)
        count += 1
        ttr = len(types) / count
        if ttr < threshold:
            factors += 1.0
            types = set()
            count = 0
            ttr = 1.0
    if count > 0:
        factors += (1.0 - ttr) / (1.0 - threshold)
    return factors


def mtld(text: str | Tokens, threshold: float = MTLD_THRESHOLD) -> float | None:
    """Measure of Textual Lexical Diversity (McCarthy & Jarvis 2010).

    Source: McCarthy, P. M. & Jarvis, S. (2010). MTLD, vocd-D, and HD-D: A validation study of
    sophisticated approaches to lexical diversity assessment. *Behavior Research Methods* 42(2),
    381-392, section "The measure of textual lexical diversity".

    Walk the words keeping a running type-token ratio (TTR); when it falls strictly below
    ``threshold`` one factor is complete and the count restarts with the next word. The words left
    at the end add a partial factor ``(1 - TTR) / (1 - threshold)``. A pass's value is
    ``words / factors``; MTLD is the mean of the forward and the backward pass.

    Args:
        text: text or :class:`Tokens`; words are compared lower-cased.
        threshold: factor threshold in (0, 1); the published value is 0.72.

    Returns:
        MTLD in words per factor (>= 1), or ``None`` when it is undefined: no words, or a pass with
        zero factors (every word distinct, so the TTR never leaves 1).

    Raises:
        ValueError: if ``threshold`` is not in (0, 1).
    """
    if not 0.0 < threshold < 1.0:
        raise ValueError(f"MTLD threshold must be in (0, 1), got {threshold}")
    words = _as_tokens(text).lower
    if not words:
        return None
    forward = _mtld_pass(words, threshold)
    backward = _mtld_pass(words[::-1], threshold)
    if forward == 0.0 or backward == 0.0:
        return None
    n = len(words)
    return (n / forward + n / backward) / 2.0


@lru_cache(maxsize=1)
def frequent_words() -> frozenset[str]:
    """The 2,000 most frequent English word forms used by :func:`advanced_guiraud`.

    The list ships as package data, derived once from ``wordfreq`` (see
    ``rhetorica/data/wordlists/README.md`` for its version, derivation and CC BY-SA 4.0 licence).

    Returns:
        Lower-case alphabetic word forms (2,000 of them).
    """
    path = resources.files("rhetorica").joinpath("data", "wordlists", FREQUENT_WORDS_FILE)
    lines = path.read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and not line.startswith("#"))


def advanced_guiraud(text: str | Tokens, frequent: frozenset[str] | None = None) -> float | None:
    """Advanced Guiraud: advanced types divided by the square root of the number of tokens.

    Source: Daller, H., van Hout, R. & Treffers-Daller, J. (2003). Lexical richness in the
    spontaneous speech of bilinguals. *Applied Linguistics* 24(2), 197-222 (the "Advanced
    Guiraud" index, ``AG = advanced types / sqrt(tokens)``). A type is advanced when it lies
    outside the 2,000 most frequent word forms of the language; here: outside
    :func:`frequent_words`.

    Args:
        text: text or :class:`Tokens`; types are lower-cased word forms (no lemmatisation).
        frequent: override of the basic-vocabulary set (lower-case forms).

    Returns:
        AG (>= 0), or ``None`` for a text without words.
    """
    words = _as_tokens(text).lower
    if not words:
        return None
    basic = frequent_words() if frequent is None else frequent
    advanced = {w for w in set(words) if w not in basic}
    return len(advanced) / math.sqrt(len(words))
