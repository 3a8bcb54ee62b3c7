"""The ``contribution`` dimension (STUDIES.md §2): contribution structure.

- Directions: ``contribution:+`` explicit and enumerated, ``contribution:-`` implicit.
- Instruction texts: ``rhetorica/rewriting/instructions/v2/contribution_{plus,minus}.md``; fourth
  of the six targets of ``joint``.
- Lexicon: ``rhetorica/data/contribution/lexicon.tsv`` (signposts and word enumerators).
- Shift measure: :func:`measure` = :func:`contribution_signposting`.
"""

from __future__ import annotations

import re
from functools import partial

from rhetorica.dimensions import register_dimension
from rhetorica.validation.rhetoric import (
    find_phrases,
    lexicon_versions,
    load_lexicon,
    paragraph_index,
    paragraph_starts,
    per_1k,
    prepared_tokens,
)
from rhetorica.validation.shift import Instructions, measured_dimension
from rhetorica.tokenizer import Tokens

_ENUMERATOR = re.compile(r"\\item\b|(?<![\w)])\((?:[ivx]{1,4}|\d{1,2}|[a-h])\)|^[ \t]*(?:[-*+]|\d{1,2}[.)])[ \t]",
                         re.MULTILINE)
_LIST_START = re.compile(r"\s*(?:\\begin\{(?:itemize|enumerate|description)\}|[-*+][ \t]|\d{1,2}[.)][ \t])")


def _contribution(tokens: Tokens) -> tuple[int, int]:
    lex = load_lexicon("contribution")
    text = tokens.text
    starts = paragraph_starts(text)
    signposted: set[int] = set()
    signposts = 0
    word_enumerators: list[int] = []
    for i, _, cat in find_phrases(tokens, lex):
        paragraph = paragraph_index(starts, tokens.starts[i])
        if cat == "signpost":
            signposts += 1
            signposted.add(paragraph)
        else:
            word_enumerators.append(paragraph)
    counted = set(signposted)
    for paragraph in signposted:
        following = paragraph + 1
        while following < len(starts) and _LIST_START.match(text, starts[following]):
            counted.add(following)
            following += 1
    # math, code, citations and URLs blanked; command names such as \item kept
    chars = list(text)
    for a, b, kind in tokens.regions:
        if kind != "name":
            chars[a:b] = " " * (b - a)
    listed = "".join(chars)
    items = sum(1 for p in word_enumerators if p in counted)
    items += sum(1 for m in _ENUMERATOR.finditer(listed) if paragraph_index(starts, m.start()) in counted)
    return signposts, items


def contribution_counts(text: str | Tokens) -> tuple[int, int]:
    """``(contribution signposts, enumerated contribution items)`` of ``text``.

    Signposts are the ``signpost`` items of ``rhetorica/data/contribution`` ("we propose",
    "our main contributions" ...). Enumerated items are counted only in a paragraph that holds a
    signpost, or in the lists (``itemize``/``enumerate``/Markdown) that open the paragraphs right
    after one: ``\\item``, ``(i)``/``(1)``/``(a)`` outside math, Markdown list markers, and the
    word enumerators ``first``, ``second``, ``finally`` ... of the lexicon.
    """
    return _contribution(prepared_tokens(text))


def contribution_signposting(text: str | Tokens) -> float | None:
    """Contribution structure: ``1000 * (signposts + enumerated contribution items) / words``.

    Sources: the "occupying the niche" move of Swales (1990), *Genre Analysis*, Cambridge UP,
    p. 141 (announcing present research, announcing principal findings); the NeurIPS Paper
    Checklist's request that the abstract and introduction state the contributions. Lexicon:
    ``rhetorica/data/contribution/README.md``.

    Returns:
        The rate (>= 0), or ``None`` for a text without words.
    """
    tokens = prepared_tokens(text)
    return per_1k(sum(_contribution(tokens)), tokens.n_words)



measure = contribution_signposting

DIMENSION = register_dimension(measured_dimension(
    "contribution", "(contribution signposts + enumerated items)/1k", measure,
    directions={"+": "contribution structure explicit and enumerated", "-": "contribution structure implicit"},
    instructions=Instructions("v2", files={"+": "contribution_plus.md", "-": "contribution_minus.md"}),
    joint=4, lexicons=partial(lexicon_versions, "contribution")))
