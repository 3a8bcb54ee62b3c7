"""Lexical support of a core's claim in its manuscript: does one passage of the manuscript hold
most of the claim's content words?

Definition (used by :func:`rhetorica.reviewers.scicore.validate.validate_core`):

- *terms* of a text: the shared tokenizer's lower-cased words
  (:func:`rhetorica.tokenizer.tokenize`; maths, citations and URLs are masked, digits
  are not words), without scikit-learn's English stop-word list
  (``sklearn.feature_extraction.text.ENGLISH_STOP_WORDS``) and without the attribution words the
  core is asked to use (:data:`ATTRIBUTION_WORDS`: "the manuscript states …" is the record's
  wording, not the manuscript's), each without one final "s" (not of "ss": "graphs" is "graph",
  "loss" stays) and cut to its first :data:`STEM_CHARS` characters (a truncation stem, so that
  "improves" and "improvement" are one term);
- *passages* of the manuscript: each sentence and each pair of adjacent sentences (a claim
  often joins a statement and its qualifier from consecutive sentences);
- *support* of a claim: the largest share, over passages, of the claim's distinct terms that
  occur in the passage — a number in [0, 1]; a claim without terms has support 0.

A claim is supported when its support is at least :data:`SUPPORT_THRESHOLD` = 0.5: at least half
of what the claim says in content words is said in one place of the manuscript. The threshold
tolerates the paraphrase and attribution the core is asked for (third person, short statements)
and rejects a claim whose content the manuscript does not state anywhere together; it is a lexical
check, so it cannot tell a negated claim from the original (documented limit).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from rhetorica.tokenizer import tokenize

#: Share of a claim's terms one manuscript passage must hold for the claim to be supported.
SUPPORT_THRESHOLD = 0.5
#: Characters kept of each word (truncation stem).
STEM_CHARS = 6
#: Words of attribution the core's instructions ask for; never counted as a claim's content.
ATTRIBUTION_WORDS: frozenset[str] = frozenset(
    """manuscript manuscripts paper article authors author states stated state stating reports reported
    report reporting claims claimed claim claiming describes described according argues argued asserts
    asserted notes noted writes written says said""".split())


def terms(text: str) -> frozenset[str]:
    """The distinct terms of ``text`` (see the module docstring)."""
    return frozenset(_terms_of(tokenize(text).lower))


def _stem(word: str) -> str:
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    return word[:STEM_CHARS]


@cache
def _stop_words() -> frozenset[str]:
    """scikit-learn's English stop words (the validation extra, loaded on first use so that a core
    install can load rhetorica without it)."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return ENGLISH_STOP_WORDS


def _terms_of(words: tuple[str, ...] | list[str]) -> list[str]:
    stop = _stop_words()
    return [_stem(w) for w in words if w not in stop and w not in ATTRIBUTION_WORDS and len(w) > 1]


@dataclass(frozen=True)
class Support:
    """How well one claim is supported.

    Attributes:
        score: largest share of the claim's terms found in one passage, in [0, 1].
        passage: that passage of the manuscript (``""`` when no term was found anywhere).
        missing: the claim's terms absent from that passage, sorted.
    """

    score: float
    passage: str
    missing: tuple[str, ...]


class ManuscriptPassages:
    """The manuscript's passages and their terms, computed once for all claims of a core.

    Args:
        text: the manuscript as the extractor read it (Markdown).
    """

    def __init__(self, text: str) -> None:
        tokens = tokenize(text)
        sentences = tokens.sentences()
        per_sentence: list[set[str]] = [set() for _ in sentences]
        for word, sentence in zip(tokens.lower, tokens.sentence_ids, strict=True):
            per_sentence[sentence].update(_terms_of([word]))
        self.passages: list[tuple[str, frozenset[str]]] = [
            (s, frozenset(t)) for s, t in zip(sentences, per_sentence, strict=True)]
        self.passages += [(f"{a} {b}", frozenset(ta | tb)) for (a, ta), (b, tb)
                          in zip(self.passages[: len(sentences)], self.passages[1: len(sentences)], strict=False)]

    def support(self, claim: str) -> Support:
        """The :class:`Support` of ``claim`` (ties go to the earliest passage)."""
        wanted = terms(claim)
        if not wanted:
            return Support(0.0, "", ())
        best_score, best_passage, best_terms = 0.0, "", frozenset[str]()
        for passage, found in self.passages:
            score = len(wanted & found) / len(wanted)
            if score > best_score:
                best_score, best_passage, best_terms = score, passage, found
        return Support(best_score, best_passage, tuple(sorted(wanted - best_terms)))
