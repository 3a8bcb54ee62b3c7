"""Shift checks of the six-dimension study (STUDIES.md §2): one measure per rhetorical dimension.

Each measure is a pure function of a text (LaTeX source, or Markdown with inline LaTeX) and is
meant for paired use: the same measure on an original and on its rewrite, ``+`` conditions asking
it to rise and ``-`` conditions asking it to fall (:mod:`rhetorica.validation.shift`). Rates are
per 1,000 words of the shared tokenizer (:func:`rhetorica.validation.tokenizer.tokenize`); LaTeX
comments and sectioning commands are blanked first (same length), so commented-out text and
headings never count.

- ``novelty``: (novelty/priority markers + boosters − hedges) per 1k words, :func:`novelty_stance`;
- ``scope``: (generalisation markers − scope-limiting qualifiers) per 1k words,
  :func:`scope_generality`;
- ``evidence``: quantitative expressions in foregrounded sentences per 1k words,
  :func:`evidence_foregrounding`;
- ``contribution``: (contribution signposts + enumerated contribution items) per 1k words,
  :func:`contribution_signposting`;
- ``register``: (technical words + formalisation-marker words + math expressions) per 1k words,
  :func:`register_technicality`;
- ``complexity``: sqrt(mean sentence length × Advanced Guiraud), :func:`complexity_index`.

The lexicons are package data under ``rhetorica/data/<name>/lexicon.tsv``, each with a README
naming its sources and version; hedges and boosters come from the Hyland lexicon of
:mod:`rhetorica.validation.metadiscourse`, and the frequent-word list from
:func:`rhetorica.validation.lexical.frequent_words`. Matching is lexical, as in the studies these
measures follow: a phrase is counted in every use, whether or not it carries the rhetorical
function, so absolute rates are noisier than a hand annotation, but the paired difference between
a text and its rewrite shows the shift.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import resources

from pydantic import BaseModel

from rhetorica.validation.lexical import advanced_guiraud, frequent_words
from rhetorica.validation.metadiscourse import marker_counts
from rhetorica.validation.tokenizer import Tokens, tokenize

LEXICONS = ("novelty", "scope", "contribution", "register", "quantities")
"""Folders under ``rhetorica/data`` holding a ``lexicon.tsv`` read by this module."""


# --------------------------------------------------------------------------- lexicons


@dataclass(frozen=True)
class PhraseLexicon:
    """A versioned list of lower-case words and phrases, each in one category.

    Attributes:
        name: folder name under ``rhetorica/data``.
        version: the token after ``version`` on the file's first line.
        items: ``item -> category``; an item is lower-case words joined by single spaces.
    """

    name: str
    version: str
    items: dict[str, str]

    def category(self, name: str) -> frozenset[str]:
        """The items of one category (empty for an unknown category)."""
        return frozenset(item for item, cat in self.items.items() if cat == name)

    @cached_property
    def index(self) -> tuple[dict[tuple[str, ...], str], dict[str, int]]:
        """``(word tuple -> category, first word -> longest item length)`` for :func:`find_phrases`."""
        keys = {tuple(item.split()): cat for item, cat in self.items.items()}
        longest: dict[str, int] = {}
        for key in keys:
            longest[key[0]] = max(longest.get(key[0], 0), len(key))
        return keys, longest


def parse_phrase_lexicon(text: str, name: str) -> PhraseLexicon:
    """Parse a ``lexicon.tsv``: ``# ... version X ...``, a header, then ``item<TAB>category<TAB>source``.

    Args:
        text: the file content.
        name: lexicon name (for messages and the result).

    Returns:
        The :class:`PhraseLexicon`.

    Raises:
        ValueError: naming the lexicon and line for a missing version line, a row without a
            category, an item that is not lower-case single-spaced words, or an item listed twice.
    """
    lines = text.splitlines()
    if not lines or "version" not in lines[0]:
        raise ValueError(f"{name}/lexicon.tsv: first line must be '# ... version <VERSION> ...'")
    version = lines[0].split("version", 1)[1].split()[0]
    items: dict[str, str] = {}
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip() or line.startswith("#") or line.startswith("item\t"):
            continue
        fields = line.split("\t")
        item = fields[0]
        if len(fields) < 2 or not fields[1]:
            raise ValueError(f"{name}/lexicon.tsv:{number}: expected 'item<TAB>category<TAB>source'")
        if not item.strip() or item != item.lower() or item != " ".join(item.split()):
            raise ValueError(f"{name}/lexicon.tsv:{number}: item {item!r} must be lower-case words")
        if item in items:
            raise ValueError(f"{name}/lexicon.tsv:{number}: item {item!r} is listed twice")
        items[item] = fields[1]
    return PhraseLexicon(name=name, version=version, items=items)


@lru_cache(maxsize=None)
def load_lexicon(name: str) -> PhraseLexicon:
    """Load the packaged lexicon ``rhetorica/data/<name>/lexicon.tsv`` (cached).

    Raises:
        ValueError: for a name outside :data:`LEXICONS` or a malformed file.
    """
    if name not in LEXICONS:
        raise ValueError(f"unknown lexicon {name!r}; known: {', '.join(LEXICONS)}")
    path = resources.files("rhetorica").joinpath("data", name, "lexicon.tsv")
    return parse_phrase_lexicon(path.read_text(encoding="utf-8"), name)


def lexicon_versions() -> dict[str, str]:
    """``name -> version`` of every lexicon this module reads (record it with measurements)."""
    return {name: load_lexicon(name).version for name in LEXICONS}


def find_phrases(tokens: Tokens, lexicon: PhraseLexicon) -> list[tuple[int, int, str]]:
    """Longest-match, left-to-right, non-overlapping matches of the lexicon's items in sentences.

    The matching rule of :mod:`rhetorica.validation.metadiscourse` ('Style over Substance'
    protocol): lower-cased words, whole words, a multi-word item consumes its words, and no match
    crosses a sentence end.

    Args:
        tokens: the tokenized text.
        lexicon: the items to find.

    Returns:
        ``(first word index, number of words, category)`` per match, in text order.
    """
    index, longest = lexicon.index
    words, sentence, n = tokens.lower, tokens.sentence_ids, len(tokens.lower)
    found: list[tuple[int, int, str]] = []
    free = 0
    for i, word in enumerate(words):
        if i < free or word not in longest:
            continue
        for length in range(min(longest[word], n - i), 0, -1):
            if sentence[i + length - 1] != sentence[i]:
                continue
            category = index.get(words[i : i + length])
            if category is not None:
                found.append((i, length, category))
                free = i + length
                break
    return found


# --------------------------------------------------------------------------- text preparation

_COMMENT = re.compile(r"(?<![\\\d])%[^\n]*")
_HEADING = re.compile(
    r"\\(?:part|chapter|section|subsection|subsubsection|paragraph|subparagraph)\*?"
    r"(?:\[[^\]]*\])?\{[^{}]*\}|^[ \t]*#{1,6}[ \t][^\n]*$",
    re.MULTILINE,
)
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")


def _blank(text: str, pattern: re.Pattern[str]) -> str:
    return pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def prose_text(text: str) -> str:
    """``text`` with LaTeX comments and sectioning commands/Markdown headings blanked.

    A comment is a ``%`` to the end of its line, unless escaped (``\\%``) or right after a digit
    (``92.3%`` is a percent sign in Markdown; LaTeX sources write ``92.3\\%``).

    Args:
        text: LaTeX or Markdown.

    Returns:
        A string of the same length; blanked characters become spaces (newlines are kept, so a
        heading on its own line leaves a blank line, which is a paragraph break).
    """
    return _blank(_blank(text, _COMMENT), _HEADING)


def _raw(text: str | Tokens) -> str:
    return text.text if isinstance(text, Tokens) else text


def _tokens(text: str | Tokens) -> Tokens:
    if isinstance(text, Tokens):
        prepared = prose_text(text.text)
        return text if prepared == text.text else tokenize(prepared)
    return tokenize(prose_text(text))


def _per_1k(count: float, words: int) -> float | None:
    return 1000.0 * count / words if words else None


def _paragraph_starts(text: str) -> list[int]:
    """Start offsets of the paragraphs of ``text`` (blank-line separated), ascending."""
    return [0] + [m.end() for m in _PARAGRAPH_BREAK.finditer(text)]


def _paragraph_index(starts: list[int], offset: int) -> int:
    """Index of the paragraph (of :func:`_paragraph_starts`) holding ``offset``."""
    return bisect_right(starts, offset) - 1


# --------------------------------------------------------------------------- novelty


def novelty_markers(text: str | Tokens) -> int:
    """Number of novelty and priority markers (``rhetorica/data/novelty``) in ``text``."""
    return len(find_phrases(_tokens(text), load_lexicon("novelty")))


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
    tokens = _tokens(text)
    markers = marker_counts(tokens)
    novelty = len(find_phrases(tokens, load_lexicon("novelty")))
    return _per_1k(novelty + markers.boosters - markers.hedges, tokens.n_words)


# --------------------------------------------------------------------------- scope


def scope_counts(text: str | Tokens) -> tuple[int, int]:
    """``(generalisation markers, scope-limiting qualifiers)`` of ``text`` (``rhetorica/data/scope``)."""
    matches = find_phrases(_tokens(text), load_lexicon("scope"))
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
    tokens = _tokens(text)
    general, limiting = scope_counts(tokens)
    return _per_1k(general - limiting, tokens.n_words)


# --------------------------------------------------------------------------- evidence


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
    return _quantities(_tokens(text))


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
    return _foreground(text, _tokens(text))


def _foreground(raw: str, tokens: Tokens) -> list[tuple[int, int]]:
    spans = [m.span() for m in _ABSTRACT.finditer(raw)] + [m.span() for m in _INTRODUCTION.finditer(raw)]
    starts = _paragraph_starts(tokens.text)
    seen: set[int] = set()
    for a, b in tokens.sentence_spans:
        paragraph = _paragraph_index(starts, a)
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
    return _evidence(_raw(text), _tokens(text))


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
    tokens = _tokens(text)
    return _per_1k(_evidence(_raw(text), tokens)[1], tokens.n_words)


# --------------------------------------------------------------------------- contribution

_ENUMERATOR = re.compile(r"\\item\b|(?<![\w)])\((?:[ivx]{1,4}|\d{1,2}|[a-h])\)|^[ \t]*(?:[-*+]|\d{1,2}[.)])[ \t]",
                         re.MULTILINE)
_LIST_START = re.compile(r"\s*(?:\\begin\{(?:itemize|enumerate|description)\}|[-*+][ \t]|\d{1,2}[.)][ \t])")


def _contribution(tokens: Tokens) -> tuple[int, int]:
    lex = load_lexicon("contribution")
    text = tokens.text
    starts = _paragraph_starts(text)
    signposted: set[int] = set()
    signposts = 0
    word_enumerators: list[int] = []
    for i, _, cat in find_phrases(tokens, lex):
        paragraph = _paragraph_index(starts, tokens.starts[i])
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
    items += sum(1 for m in _ENUMERATOR.finditer(listed) if _paragraph_index(starts, m.start()) in counted)
    return signposts, items


def contribution_counts(text: str | Tokens) -> tuple[int, int]:
    """``(contribution signposts, enumerated contribution items)`` of ``text``.

    Signposts are the ``signpost`` items of ``rhetorica/data/contribution`` ("we propose",
    "our main contributions" ...). Enumerated items are counted only in a paragraph that holds a
    signpost, or in the lists (``itemize``/``enumerate``/Markdown) that open the paragraphs right
    after one: ``\\item``, ``(i)``/``(1)``/``(a)`` outside math, Markdown list markers, and the
    word enumerators ``first``, ``second``, ``finally`` ... of the lexicon.
    """
    return _contribution(_tokens(text))


def contribution_signposting(text: str | Tokens) -> float | None:
    """Contribution structure: ``1000 * (signposts + enumerated contribution items) / words``.

    Sources: the "occupying the niche" move of Swales (1990), *Genre Analysis*, Cambridge UP,
    p. 141 (announcing present research, announcing principal findings); the NeurIPS Paper
    Checklist's request that the abstract and introduction state the contributions. Lexicon:
    ``rhetorica/data/contribution/README.md``.

    Returns:
        The rate (>= 0), or ``None`` for a text without words.
    """
    tokens = _tokens(text)
    return _per_1k(sum(_contribution(tokens)), tokens.n_words)


# --------------------------------------------------------------------------- register


def register_counts(text: str | Tokens) -> tuple[int, int, int]:
    """``(technical words, formalisation-marker words, math expressions)`` of ``text``.

    Technical words are word tokens outside the 2,000 most frequent English forms
    (:func:`rhetorica.validation.lexical.frequent_words`); formalisation-marker words are the
    words covered by a ``formal`` item of ``rhetorica/data/register`` ("let", "denote",
    "theorem", "such that" ...) that are not already technical; math expressions are the inline
    and display math regions the tokenizer masks.
    """
    tokens = _tokens(text)
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
    tokens = _tokens(text)
    return _per_1k(sum(register_counts(tokens)), tokens.n_words)


# --------------------------------------------------------------------------- complexity


def mean_sentence_length(text: str | Tokens) -> float | None:
    """Mean sentence length in words (Lu 2010's MLS), or ``None`` without sentences."""
    tokens = _tokens(text)
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
    tokens = _tokens(text)
    return _geometric(mean_sentence_length(tokens), advanced_guiraud(tokens))


def _geometric(msl: float | None, ag: float | None) -> float | None:
    return None if msl is None or ag is None else math.sqrt(msl * ag)


# --------------------------------------------------------------------------- all measures


class RhetoricMeasures(BaseModel):
    """The six shift measures of one text (see each function for its definition and source).

    Attributes:
        novelty_stance: :func:`novelty_stance`.
        scope_generality: :func:`scope_generality`.
        evidence_foregrounding: :func:`evidence_foregrounding`.
        contribution_signposting: :func:`contribution_signposting`.
        register_technicality: :func:`register_technicality`.
        complexity_index: :func:`complexity_index`.
        lexicon_versions: ``name -> version`` of the lexicons used (:func:`lexicon_versions`).
    """

    novelty_stance: float | None
    scope_generality: float | None
    evidence_foregrounding: float | None
    contribution_signposting: float | None
    register_technicality: float | None
    complexity_index: float | None
    lexicon_versions: dict[str, str]


def measure_rhetoric(text: str | Tokens) -> RhetoricMeasures:
    """All six measures of ``text`` with one tokenization (a :class:`Tokens` is re-tokenized only
    when it holds LaTeX comments or headings)."""
    tokens = _tokens(text)
    words = tokens.n_words
    return RhetoricMeasures(
        novelty_stance=novelty_stance(tokens),
        scope_generality=scope_generality(tokens),
        evidence_foregrounding=_per_1k(_evidence(_raw(text), tokens)[1], words),
        contribution_signposting=_per_1k(sum(_contribution(tokens)), words),
        register_technicality=register_technicality(tokens),
        complexity_index=complexity_index(tokens),
        lexicon_versions=lexicon_versions(),
    )
