"""The ``register`` dimension (STUDIES.md §2): technical register and formalisation.

- Directions: ``register:+`` more, ``register:-`` less technical and formal.
- Instruction texts: ``rhetorica/rewriting/instructions/v2/register_{plus,minus}.md``; fifth of the
  six targets of ``joint``.
- Lexicon: ``rhetorica/data/register/lexicon.tsv`` (formalisation markers), with the 2,000 most
  frequent English forms (:func:`rhetorica.validation.lexical.frequent_words`).
- Shift measure: :func:`measure` = :func:`register_technicality`.
"""

from __future__ import annotations

from functools import partial

from rhetorica.dimensions import register_dimension
from rhetorica.validation.lexical import frequent_words
from rhetorica.validation.rhetoric import find_phrases, lexicon_versions, load_lexicon, per_1k, prepared_tokens
from rhetorica.validation.shift import Instructions, measured_dimension
from rhetorica.tokenizer import Tokens


def register_counts(text: str | Tokens) -> tuple[int, int, int]:
    """``(technical words, formalisation-marker words, math expressions)`` of ``text``.

    Technical words are word tokens outside the 2,000 most frequent English forms
    (:func:`rhetorica.validation.lexical.frequent_words`); formalisation-marker words are the
    words covered by a ``formal`` item of ``rhetorica/data/register`` ("let", "denote",
    "theorem", "such that" ...) that are not already technical; math expressions are the inline
    and display math regions the tokenizer masks.
    """
    tokens = prepared_tokens(text)
    basic = frequent_words()
    technical = {i for i, w in enumerate(tokens.lower) if w not in basic}
    formal: set[int] = set()
    for i, length, _ in find_phrases(tokens, load_lexicon("register")):
        formal.update(range(i, i + length))
    math_regions = sum(1 for _, _, kind in tokens.regions if kind == "math")
    return len(technical), len(formal - technical), math_regions


def register_technicality(text: str | Tokens) -> float | None:
    """Technical register and formalisation: technical items per 1,000 words.

    ``1000 * (technical words + formalisation-marker words + math expressions) / words``
    (:func:`register_counts`). The technical-word share is the "Beyond 2000" band of the Lexical
    Frequency Profile (Laufer & Nation 1995, "Vocabulary size and use: lexical richness in L2
    written production", Applied Linguistics 16(3):307-322); formalisation markers follow the
    features of Biber's (1988) informational, explicit registers (*Variation across Speech and
    Writing*, Cambridge UP). Math is protected by the project's rules, so its count moves only
    with the length of the prose around it.

    Returns:
        The rate (>= 0), or ``None`` for a text without words.
    """
    tokens = prepared_tokens(text)
    return per_1k(sum(register_counts(tokens)), tokens.n_words)


measure = register_technicality

DIMENSION = register_dimension(measured_dimension(
    "register", "(technical words + formal markers + math)/1k", measure,
    directions={"+": "technical register and formalisation (more)", "-": "technical register and formalisation (less)"},
    instructions=Instructions("v2", files={"+": "register_plus.md", "-": "register_minus.md"}),
    joint=5, lexicons=partial(lexicon_versions, "register")))
