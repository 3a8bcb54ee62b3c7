"""Shared toolkit of the dimension measures: phrase lexicons, their matching, and text preparation.

Each rewrite dimension's measure lives in the dimension's own module (:mod:`rhetorica.dimensions`,
or a plug-in's) and is registered with it; this module holds what those measures share. Every
measure is a pure function of a text (LaTeX source, or Markdown with inline LaTeX) and is meant for
paired use: the same measure on an original and on its rewrite, ``+`` conditions asking it to rise
and ``-`` conditions asking it to fall (:mod:`rhetorica.validation.shift`). Rates are per 1,000
words of the shared tokenizer (:func:`rhetorica.tokenizer.tokenize`); LaTeX comments and
sectioning commands are blanked first (same length, :func:`prepared_tokens`), so commented-out
text and headings never count.

Lexicons are package data under ``<package>/data/<name>/lexicon.tsv``, each with a README naming
its sources and version (:func:`load_lexicon`). Matching is lexical, as in the studies these
measures follow: a phrase is counted in every use, whether or not it carries the rhetorical
function, so absolute rates are noisier than a hand annotation, but the paired difference between
a text and its rewrite shows the shift.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import resources

from rhetorica.tokenizer import Tokens, tokenize


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
def load_lexicon(name: str, package: str = "rhetorica") -> PhraseLexicon:
    """Load the packaged lexicon ``<package>/data/<name>/lexicon.tsv`` (cached).

    Raises:
        ValueError: naming the lexicon when the package has no such file, or for a malformed file.
    """
    path = resources.files(package).joinpath("data", name, "lexicon.tsv")
    if not path.is_file():
        raise ValueError(f"unknown lexicon {name!r}: package {package} has no data/{name}/lexicon.tsv")
    return parse_phrase_lexicon(path.read_text(encoding="utf-8"), name)


def lexicon_versions(*names: str, package: str = "rhetorica") -> dict[str, str]:
    """``name -> version`` of the packaged lexicons ``names`` (a dimension records them with its measure)."""
    return {name: load_lexicon(name, package).version for name in names}


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


def raw_text(text: str | Tokens) -> str:
    """The source text of ``text`` (its ``Tokens.text``, or the string itself), nothing blanked."""
    return text.text if isinstance(text, Tokens) else text


def prepared_tokens(text: str | Tokens) -> Tokens:
    """The tokens of :func:`prose_text` of ``text`` (a :class:`Tokens` is re-tokenized only when it
    holds LaTeX comments or headings)."""
    if isinstance(text, Tokens):
        prepared = prose_text(text.text)
        return text if prepared == text.text else tokenize(prepared)
    return tokenize(prose_text(text))


def per_1k(count: float, words: int) -> float | None:
    """``1000 * count / words``, or ``None`` for a text without words."""
    return 1000.0 * count / words if words else None


def paragraph_starts(text: str) -> list[int]:
    """Start offsets of the paragraphs of ``text`` (blank-line separated), ascending."""
    return [0] + [m.end() for m in _PARAGRAPH_BREAK.finditer(text)]


def paragraph_index(starts: list[int], offset: int) -> int:
    """Index of the paragraph (of :func:`paragraph_starts`) holding ``offset``."""
    return bisect_right(starts, offset) - 1
