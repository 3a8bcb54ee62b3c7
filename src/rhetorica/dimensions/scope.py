"""The ``scope`` dimension (STUDIES.md §2): scope and generalisation.

- Directions: ``scope:+`` wider, ``scope:-`` narrower.
- Instruction texts: ``rhetorica/rewriting/instructions/v2/scope_{plus,minus}.md``; second of the
  six targets of ``joint``.
- Lexicon: ``rhetorica/data/scope/lexicon.tsv`` (generalisation markers and scope-limiting qualifiers).
- Shift measure: :func:`measure` = :func:`scope_generality`.
"""

from __future__ import annotations

from functools import partial

from rhetorica.dimensions import register_dimension
from rhetorica.validation.rhetoric import find_phrases, load_lexicon, lexicon_versions, per_1k, prepared_tokens
from rhetorica.validation.shift import Instructions, measured_dimension
from rhetorica.tokenizer import Tokens


def scope_counts(text: str | Tokens) -> tuple[int, int]:
    """``(generalisation markers, scope-limiting qualifiers)`` of ``text`` (``rhetorica/data/scope``)."""
    matches = find_phrases(prepared_tokens(text), load_lexicon("scope"))
    general = sum(1 for _, _, cat in matches if cat == "general")
    return general, len(matches) - general


def scope_generality(text: str | Tokens) -> float | None:
    """Scope and generalisation: ``1000 * (generalisation markers - limiting qualifiers) / words``.

    Sources: generic and universal claims as in DeJesus, Callanan, Solis & Gelman (2019),
    "Generic language in scientific communication", PNAS 116(37):18370-18377; scope-limiting
    qualifiers after the NeurIPS Paper Checklist's "Claims" and "Limitations" items (claims should
    reflect how far results can be expected to generalise). Lexicon:
    ``rhetorica/data/scope/README.md``.

    Returns:
        The rate (higher = wider claimed scope), or ``None`` for a text without words.
    """
    tokens = prepared_tokens(text)
    general, limiting = scope_counts(tokens)
    return per_1k(general - limiting, tokens.n_words)


measure = scope_generality

DIMENSION = register_dimension(measured_dimension(
    "scope", "(generalisation - limiting qualifiers)/1k", measure,
    directions={"+": "scope and generalisation (wider)", "-": "scope and generalisation (narrower)"},
    instructions=Instructions("v2", files={"+": "scope_plus.md", "-": "scope_minus.md"}),
    joint=2, lexicons=partial(lexicon_versions, "scope")))
