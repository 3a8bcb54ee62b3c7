"""One pass over a text for the keywords of many rules, and the windows each rule must search.

Scanning a long text with every instruction rule costs (rules x characters); most rules can only
match where one of a few words occurs. :class:`KeywordIndex` finds every occurrence of every
keyword of every rule in one regular-expression pass (the keywords compiled as a trie, so the
engine tries one branch per character, the idea of Aho and Corasick's automaton with the standard
library's ``re``), and :func:`windows` turns a rule's occurrences into the spans of the text that
rule has to search. A rule's matches must each contain one of its keywords and lie within
:data:`REACH` characters of it on either side.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

REACH = 250
"""Characters on either side of a keyword occurrence that a rule's match may extend over."""


WORD_END = "$"
"""A keyword ending with this counts only where its word ends there too (``give$`` is not in "given")."""


def trie_pattern(words: Iterable[str]) -> str:
    """A regular expression matching exactly ``words`` (the longest at a position), factored as a trie;
    a word ending with :data:`WORD_END` matches only before a word boundary.

    Raises:
        ValueError: for an empty word list or an empty word.
    """
    trie: dict[str, dict] = {}
    for word in words:
        if not word.removesuffix(WORD_END):
            raise ValueError("empty keyword")
        node = trie
        for char in word.removesuffix(WORD_END):
            node = node.setdefault(re.escape(char), {})
        if word.endswith(WORD_END):
            node = node.setdefault(r"\b", {})
        node[""] = {}
    if not trie:
        raise ValueError("no keywords")

    def build(node: dict[str, dict]) -> str:
        branches = [token + build(child) for token, child in sorted(node.items()) if token]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        if "" in node:
            return "(?:" + body + ")?" if len(branches) == 1 else body + "?"
        return body

    return build(trie)


class KeywordIndex:
    """Keywords of named rules, found in one pass.

    Args:
        keywords: rule name -> lower-case keywords (a rule may share keywords with others).
        word_start: count a keyword only at the start of a word (the character before it is not a
            letter, digit or underscore); every keyword must then begin with a letter or digit.

    Raises:
        ValueError: for no keywords, an empty keyword, or a word-start keyword that does not begin
            with a letter or digit.
    """

    def __init__(self, keywords: Mapping[str, Iterable[str]], *, word_start: bool) -> None:
        self._rules: dict[str, set[str]] = {}
        for rule, words in keywords.items():
            for word in words:
                if word_start and not word[:1].isalnum():
                    raise ValueError(f"word-start keyword {word!r} of {rule} does not begin with a letter or digit")
                self._rules.setdefault(word.removesuffix(WORD_END), set()).add(rule)
        self._pattern = re.compile((r"\b" if word_start else "")
                                   + trie_pattern(sorted({w for words in keywords.values() for w in words})))
        # the pattern reports the longest keyword at a position: the rules of its prefixes count too
        self._closure = {w: frozenset().union(*(self._rules.get(w[:k], set()) for k in range(1, len(w) + 1)))
                         for w in self._rules}

    def occurrences(self, lowered: str, found: dict[str, list[int]] | None = None) -> dict[str, list[int]]:
        """Rule name -> start indices of its keywords in ``lowered`` (the text, lower-cased), added to
        ``found`` when given (indices ascending within one call)."""
        found = {} if found is None else found
        search = self._pattern.search
        match = search(lowered)
        while match is not None:
            start = match.start()
            for rule in self._closure[match.group(0)]:
                found.setdefault(rule, []).append(start)
            match = search(lowered, start + 1)
        return found


def windows(positions: list[int], length: int, reach: int = REACH) -> list[tuple[int, int]]:
    """Merged spans ``[p - reach, p + reach]`` (clipped to ``[0, length]``) around ``positions``, in text order."""
    spans: list[tuple[int, int]] = []
    for position in sorted(positions):
        lo, hi = max(0, position - reach), min(length, position + reach)
        if spans and lo <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(spans[-1][1], hi))
        else:
            spans.append((lo, hi))
    return spans
