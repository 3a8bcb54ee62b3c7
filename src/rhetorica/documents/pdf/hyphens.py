"""Whether a hyphen at a line end is the word's own or the one TeX set to break the word.

The PDF holds the two alike: a compound's hyphen (``lower-`` + ``bound``) and a hyphenation point
(``guide-`` + ``lines``) are the same glyph at the end of a justified line, so the choice rests on
how the word is written. First the document's own usage (a piece that is itself a compound, the
hyphenated form written elsewhere: the hyphen is the word's; the joined form written elsewhere: it
is TeX's); then, for two pieces that are both words, how English writes them: joined when the
joined form is an English word of :func:`solid_words`, else kept as a compound.

The threshold of that list (Zipf frequency >= 3.5: at least 3,162 occurrences per billion words)
was chosen on real text nobody here wrote, breaking every word at each of TeX's own hyphenation
points (Liang's patterns as TeX Live ships them) and every compound at its hyphen
(``benchmarks/hyphen_calibration.py``; ``benchmarks/results/issue39_hyphens.txt``): among
thresholds 1.0-4.0 it gives the least sum of error rates over PeerPrism's 674 human OpenReview
reviews (195,888 breaks: 0.134 % wrong; no list: 0.214 %) and the six shared LaTeX papers (22,197
breaks: 0.306 %; no list: 0.424 %); 3.0 and 3.25 come within 0.00002. Frequency cannot tell every
case: ``overtraining`` (Zipf 1.9) is rarer than compounds people write with a hyphen
(``long-term``: ``longterm`` 2.75), so a line-end ``over-`` + ``training`` stays hyphenated.
"""

from __future__ import annotations

from collections.abc import Container
from functools import lru_cache
from importlib import resources

SOLID_WORDS_FILE = "wordfreq_en_solid_compounds.txt"


@lru_cache(maxsize=1)
def solid_words() -> frozenset[str]:
    """English words written solid that are two words put together (``somewhat``, ``guidelines``).

    Package data derived once from wordfreq 3.1.1 (``rhetorica/data/wordlists/README.md`` gives the
    derivation and its CC BY-SA 4.0 licence): lower-case a-z words of Zipf frequency >= 3.5 made of
    two such words of at least 3 letters each.

    Returns:
        2,409 lower-case words.
    """
    path = resources.files("rhetorica").joinpath("data", "wordlists", SOLID_WORDS_FILE)
    return frozenset(w for w in path.read_text(encoding="utf-8").split() if w)


def real_hyphen(left: str, right: str, vocabulary: Container[str]) -> bool:
    """Whether the hyphen between ``left`` (before the line end) and ``right`` is the word's own.

    Args:
        left: the lower-case piece before the line-end hyphen (letters and hyphens).
        right: the lower-case piece that opens the next line.
        vocabulary: the document's lower-case words (:class:`rhetorica.documents.pdf.layout.Vocabulary`).

    Returns:
        ``True`` (keep ``left-right``) when a piece holds a hyphen (TeX breaks a word that has one
        only at its hyphens: ``out-of-`` + ``distribution``), when the document writes
        ``left-right``, or when both pieces are words of at least 3 letters of the document and the
        joined form is neither a word of the document nor of :func:`solid_words`; ``False`` (join
        them) otherwise.
    """
    if "-" in left or "-" in right or f"{left}-{right}" in vocabulary:
        return True
    joined = left + right
    if joined in vocabulary or joined in solid_words():
        return False
    return len(left) >= 3 and len(right) >= 3 and left in vocabulary and right in vocabulary
