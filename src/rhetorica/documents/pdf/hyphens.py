"""Whether a hyphen at a line end is the word's own or the one TeX set to break the word.

The PDF holds the two alike: a compound's hyphen (``lower-`` + ``bound``) and a hyphenation point
(``guide-`` + ``lines``) are the same glyph at the end of a justified line, so the choice rests on
how the word is written. First the document's own usage (a piece that is itself a compound, the
hyphenated form written elsewhere: the hyphen is the word's; the joined form written elsewhere: it
is TeX's); then, for two pieces that are both words, how English writes them: joined when the
joined form is an English word of :func:`solid_words` or a word that opens with one of the particle
prefixes ``out``, ``over``, ``under`` (:func:`particle_words`), else kept as a compound. The
*Chicago Manual of Style* (17th ed., 7.89) sets compounds formed with prefixes solid as a rule;
writers in this field follow it after these three particles (``outperform``, ``overtraining``,
``underestimate``) but not after others (``non-linear``, ``multi-scale``, ``pre-trained``), so a
rare word (Zipf below the general list's 3.5) is taken as written solid only after the three.

The threshold of that list (Zipf frequency >= 3.5: at least 3,162 occurrences per billion words)
was chosen on real text nobody here wrote, breaking every word at each of TeX's own hyphenation
points (Liang's patterns as TeX Live ships them) and every compound at its hyphen
(``benchmarks/hyphen_calibration.py``; ``benchmarks/results/issue39_hyphens.txt``): among
thresholds 1.0-4.0 it gives the least sum of error rates over PeerPrism's 674 human OpenReview
reviews (195,888 breaks: 0.134 % wrong; no list: 0.214 %) and the six shared LaTeX papers (22,197
breaks: 0.306 %; no list: 0.424 %); 3.0 and 3.25 come within 0.00002. Frequency cannot tell every
case: ``overtraining`` (Zipf 1.9) is rarer than compounds people write with a hyphen
(``long-term``: ``longterm`` 2.75). The particle prefixes have their own threshold (Zipf >= 1.5),
chosen the same way with the general list at 3.5: the sum of error rates falls from 0.00441 to
0.00413 (reviews 263 -> 262 wrong, papers 68 -> 62); 1.75 ties, 2.0 gives 0.00418, 1.0 0.00420.
Thirteen prefixes tried alone at 1.5: ``out``, ``over`` and ``under`` lower the sum, ``inter`` by
one paper break (too little to tell), ``non``, ``multi``, ``pre``, ``sub`` and ``super`` raise it,
the rest change nothing; 37 common prefixes (``ante`` to ``under``) together at any threshold from
1.0 to 2.5 make both corpora worse (reviews 296-440 wrong, papers 69-76).
"""

from __future__ import annotations

from collections.abc import Container
from functools import lru_cache
from importlib import resources

SOLID_WORDS_FILE = "wordfreq_en_solid_compounds.txt"
PARTICLE_WORDS_FILE = "wordfreq_en_particle_compounds.txt"
PARTICLES = ("out", "over", "under")


@lru_cache(maxsize=1)
def solid_words() -> frozenset[str]:
    """English words written solid that are two words put together (``somewhat``, ``guidelines``).

    Package data derived once from wordfreq 3.1.1 (``rhetorica/data/wordlists/README.md`` gives the
    derivation and its CC BY-SA 4.0 licence): lower-case a-z words of Zipf frequency >= 3.5 made of
    two such words of at least 3 letters each.

    Returns:
        2,409 lower-case words.
    """
    return _word_list(SOLID_WORDS_FILE)


@lru_cache(maxsize=1)
def particle_words() -> frozenset[str]:
    """English words that open with a particle prefix of :data:`PARTICLES` (``outperform``,
    ``overtraining``, ``underestimate``).

    Package data derived once from wordfreq 3.1.1 (``rhetorica/data/wordlists/README.md``):
    lower-case a-z words of Zipf frequency >= 1.5 made of ``out``, ``over`` or ``under`` and at
    least 3 more letters.

    Returns:
        882 lower-case words.
    """
    return _word_list(PARTICLE_WORDS_FILE)


def _word_list(name: str) -> frozenset[str]:
    path = resources.files("rhetorica").joinpath("data", "wordlists", name)
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
        joined form is a word neither of the document nor of :func:`solid_words` nor (after a
        particle prefix) of :func:`particle_words`; ``False`` (join them) otherwise.
    """
    if "-" in left or "-" in right or f"{left}-{right}" in vocabulary:
        return True
    joined = left + right
    if joined in vocabulary or joined in solid_words() or (left in PARTICLES and joined in particle_words()):
        return False
    return len(left) >= 3 and len(right) >= 3 and left in vocabulary and right in vocabulary
