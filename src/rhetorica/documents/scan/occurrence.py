"""Which copy of a hidden span's words in a text is the hidden one.

Hidden words are often written visibly too: a paper that hides "good" in white also says "good"
and "goodness". Taking such a span out of a reading by string would take every copy, and letters
inside longer words ("goodness" -> "ness"); locating it by the first copy names the wrong line.

A *copy* of a span in a text is a run of the span's words, any whitespace (or none, as a PDF may
extract it) between them, with no letter right before it where the span starts with a letter and
none right after it where the span ends with one: taking it out never takes letters of a longer
word (a digit or mark a reader glued to it, as in ``0Ignore`` from ``\\texttransparent{0}{Ignore``,
may stand beside it). The hidden copy is the copy whose preceding words share most words (as a
multiset, case-folded) with the words a reader gets right before the span
(:attr:`rhetorica.documents.scan.findings.Finding.before`), and at least half of them: a span that
stands nowhere as whole words (glued to a neighbour by a reader) has no hidden copy, and no visible
copy is taken for it. The first copy on a tie, or when those words are not known.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

CONTEXT_WORDS = 8
"""How many words before a span are kept (:attr:`Finding.before`) and compared."""

_WORD = re.compile(r"\w+")


def copies(text: str, span: str, *, whole_words: bool = True) -> list[re.Match[str]]:
    """Every copy of ``span`` in ``text`` (module docstring), in order; none for a blank span.
    ``whole_words=False`` also takes copies inside longer words (to locate a fragment of a word,
    never to remove one)."""
    words = span.split()
    if not words:
        return []
    head = r"(?<![^\W\d_])" if whole_words and re.match(r"[^\W\d_]", words[0]) else ""
    tail = r"(?![^\W\d_])" if whole_words and re.search(r"[^\W\d_]$", words[-1]) else ""
    return list(re.finditer(head + r"\s*".join(re.escape(w) for w in words) + tail, text))


def words_before(text: str, at: int, count: int = CONTEXT_WORDS) -> list[str]:
    """The last ``count`` words (runs of letters and digits, case-folded) of ``text[:at]``."""
    return [w.casefold() for w in _WORD.findall(text[max(0, at - 40 * count):at])][-count:]


def hidden_copy(preceding: Sequence[list[str]], before: str | None, *, strict: bool = True) -> int | None:
    """Index of the hidden copy among copies of one span, each given by the words right before it
    (:func:`words_before`, up to ``CONTEXT_WORDS + 4``), or ``None``.

    Args:
        preceding: per copy, in reading order, the words before it.
        before: the words a reader gets right before the hidden span (``None`` or blank: unknown,
            and the first copy is taken).
        strict: a copy must share at least half of ``before``'s words to be the hidden one (so a
            visible copy is never taken for a hidden span that stands nowhere as whole words);
            ``False`` takes the best copy whatever it shares (to name a place, not to remove one).
    """
    if not preceding:
        return None
    wanted = Counter(w.casefold() for w in _WORD.findall(before or ""))
    if not wanted:
        return 0
    scores = [sum((Counter(words) & wanted).values()) for words in preceding]
    best = max(scores)
    if strict and 2 * best < sum(wanted.values()):
        return None
    return scores.index(best)
