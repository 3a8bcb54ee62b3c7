"""The ``evidence`` dimension (STUDIES.md §2): quantitative evidence framing.

- Directions: ``evidence:+`` quantitative evidence foregrounded, ``evidence:-`` backgrounded.
- Instruction texts: ``rhetorica/rewriting/instructions/v2/evidence_{plus,minus}.md``; third of the
  six targets of ``joint``.
- Lexicon: ``rhetorica/data/quantities/lexicon.tsv`` (units, comparison and metric cues, reference words).
- Shift measure: :func:`measure` = :func:`evidence_foregrounding`.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache, partial

from rhetorica.dimensions import register_dimension
from rhetorica.validation.rhetoric import (
    lexicon_versions,
    load_lexicon,
    paragraph_index,
    paragraph_starts,
    per_1k,
    prepared_tokens,
    raw_text,
)
from rhetorica.validation.shift import Instructions, measured_dimension
from rhetorica.tokenizer import Tokens

@lru_cache(maxsize=1)
def _quantity_patterns() -> tuple[re.Pattern[str], frozenset[str], frozenset[str]]:
    lex = load_lexicon("quantities")
    units = sorted(lex.category("unit"), key=len, reverse=True)
    unit = "|".join(re.escape(u).replace(r"\ ", r"\s+") for u in units)
    number = re.compile(
        r"(?<![\w.\-/])(?P<num>\d+(?:[.,]\d+)*)"
        r"(?P<suffix>\s*(?:\\?%|×|\\times\b|-?(?:" + unit + r")(?![A-Za-z])))?",
        re.IGNORECASE,
    )
    return number, lex.category("cue"), lex.category("reference")


_PREV_WORD = re.compile(r"([A-Za-z][A-Za-z.]*)[\s~]*$")
_NUMERIC_MATH = re.compile(r"^[\d.,\s%<>=~+\-x]*\d[\d.,\s%<>=~+\-x]*$")
_MATH_NOISE = re.compile(r"\\(?:times|pm|sim|approx|leq?|geq?|%|,|;|!|mathrm|text|bf|mathbf|boldsymbol)|[{}$^]|\\\(|\\\)")
_MATH_UNIT = re.compile(r"\\%|\\times\s*(?:\$+|\\\)|\\\])?\s*$")  # a percent sign or a trailing multiplier
_YEAR = re.compile(r"^(?:19|20)\d\d$")


def quantitative_expressions(text: str | Tokens) -> list[tuple[int, int]]:
    """Character spans of the quantitative expressions of ``text``.

    A numeral (digits with optional decimal/thousands separators, not glued to a word as in
    ``ResNet-50`` or ``L2``) is a quantitative expression when it carries a percent sign, a
    multiplier (``×``, ``x``, ``times``, ``-fold``) or a unit from ``rhetorica/data/quantities``
    (``points``, ``ms``, ``GB`` ...), or when its sentence holds a comparison or metric cue
    (``outperforms``, ``higher``, ``than``, ``accuracy`` ...). A numeral right after a reference
    word (``Table 2``, ``Section 3``, ``Eq. 4``) and a year or decade (1900-2099, ``1980s``; with a percent sign it counts) are
    not. A math region that holds only a number with operators counts as one expression under
    the same rule: with a percent sign or a trailing multiplier (``$92.3\\%$``,
    ``$\\sim 2\\times$``) always, otherwise (``$4$``) only in a sentence with a cue; math with a
    letter (``$k = 3$``) never.
    Citations, references, URLs, tables and figures are masked by the tokenizer and never count.

    Returns:
        ``(start, end)`` offsets into ``text`` (comments and headings blanked, same length),
        sorted.
    """
    return _quantities(prepared_tokens(text))


def _quantities(tokens: Tokens) -> list[tuple[int, int]]:
    number, cues, references = _quantity_patterns()
    masked = tokens.masked
    sentence_starts = [a for a, _ in tokens.sentence_spans]
    cue_sentences = {tokens.sentence_ids[i] for i, w in enumerate(tokens.lower) if w in cues}
    spans: list[tuple[int, int]] = []
    for match in number.finditer(masked):
        before = _PREV_WORD.search(masked, max(0, match.start() - 40), match.start())
        if before and before.group(1).lower().rstrip(".") in references:
            continue
        suffix = match.group("suffix")
        if _YEAR.match(match.group("num")) and (suffix is None or "%" not in suffix):
            continue  # a year or a decade ("in 2016", "the 1980s")
        if suffix is None:
            if _sentence_of(tokens, sentence_starts, match.start()) not in cue_sentences:
                continue
        spans.append(match.span())
    for start, end, kind in tokens.regions:
        source = tokens.text[start:end]
        if kind != "math" or not _NUMERIC_MATH.match(_MATH_NOISE.sub(" ", source)):
            continue
        if _MATH_UNIT.search(source) or _sentence_of(tokens, sentence_starts, start) in cue_sentences:
            spans.append((start, end))
    return sorted(spans)


def _sentence_of(tokens: Tokens, sentence_starts: list[int], offset: int) -> int | None:
    index = bisect_right(sentence_starts, offset) - 1
    return index if index >= 0 and offset < tokens.sentence_spans[index][1] else None


_ABSTRACT = re.compile(r"\\begin\{abstract\}.*?\\end\{abstract\}", re.DOTALL)
_INTRODUCTION = re.compile(
    r"\\section\*?\{\s*introduction\s*\}.*?(?=\\section\*?\{|\\appendix\b|\\end\{document\}|\Z)",
    re.DOTALL | re.IGNORECASE,
)


def foregrounded_spans(text: str) -> list[tuple[int, int]]:
    """Foregrounded regions of ``text``: abstract, introduction, and every paragraph's first sentence.

    Foregrounded positions are those a reader (and a reviewer skimming) meets first: the LaTeX
    ``abstract`` environment, the section titled "Introduction" up to the next ``\\section``, and
    the first sentence of every paragraph (blank-line separated; headings and comments blanked).
    Sources: reviewers are asked whether the abstract and introduction state the claims (NeurIPS
    Paper Checklist, item "Claims"); the first sentence of a paragraph is its topic position
    (Swales & Feak 2012, *Academic Writing for Graduate Students*, 3rd ed.).

    Returns:
        ``(start, end)`` offsets into ``text``, possibly overlapping.
    """
    return _foreground(text, prepared_tokens(text))


def _foreground(raw: str, tokens: Tokens) -> list[tuple[int, int]]:
    spans = [m.span() for m in _ABSTRACT.finditer(raw)] + [m.span() for m in _INTRODUCTION.finditer(raw)]
    starts = paragraph_starts(tokens.text)
    seen: set[int] = set()
    for a, b in tokens.sentence_spans:
        paragraph = paragraph_index(starts, a)
        if paragraph not in seen:
            seen.add(paragraph)
            spans.append((a, b))
    return spans


def _evidence(raw: str, tokens: Tokens) -> tuple[int, int]:
    quantities = _quantities(tokens)
    regions = _foreground(raw, tokens)
    front = sum(1 for s, _ in quantities if any(a <= s < b for a, b in regions))
    return len(quantities), front


def evidence_counts(text: str | Tokens) -> tuple[int, int]:
    """``(quantitative expressions, of which in foregrounded positions)`` of ``text``."""
    return _evidence(raw_text(text), prepared_tokens(text))


def evidence_foregrounding(text: str | Tokens) -> float | None:
    """Quantitative evidence framing: foregrounded quantitative expressions per 1,000 words.

    ``1000 * (quantitative expressions inside foregrounded regions) / words``, with the
    expressions of :func:`quantitative_expressions` and the regions of
    :func:`foregrounded_spans`. The project's rules keep every reported number (the LaTeX checker
    compares them), so a rewrite moves this measure by moving and framing numbers, not by adding
    them: ``evidence:+`` leads paragraphs, the abstract and the introduction with the measured
    result; ``evidence:-`` states findings qualitatively first and the numbers later.

    Returns:
        The rate (>= 0), or ``None`` for a text without words.
    """
    tokens = prepared_tokens(text)
    return per_1k(_evidence(raw_text(text), tokens)[1], tokens.n_words)



measure = evidence_foregrounding

DIMENSION = register_dimension(measured_dimension(
    "evidence", "foregrounded quantitative expressions/1k", measure,
    directions={"+": "quantitative evidence foregrounded", "-": "quantitative evidence backgrounded"},
    instructions=Instructions("v2", files={"+": "evidence_plus.md", "-": "evidence_minus.md"}),
    joint=3, lexicons=partial(lexicon_versions, "quantities")))
