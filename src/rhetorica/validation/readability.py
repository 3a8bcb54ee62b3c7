"""Gunning Fog index with Gunning's exclusions, and the syllable counter it needs."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from functools import lru_cache

from rhetorica.tokenizer import Tokens, tokenize

_VOWEL_GROUP = re.compile(r"[aeiouy]+")
_HIATUS = re.compile(r"(?<![cgst])i[aou]|(?<!p)eo|(?<![qg])u[ao]")
_ES_SOUNDED = ("ses", "xes", "zes", "ches", "shes", "ges", "ces")


@lru_cache(maxsize=65536)
def count_syllables(word: str) -> int:
    """Estimate the number of syllables of an English word by rule.

    Rule (our own heuristic, documented so that results can be reproduced):

    1. lower-case the word and keep its letters only;
    2. count groups of consecutive vowels (``a e i o u y``);
    3. add one per hiatus that splits a vowel group into two syllables: ``ia``, ``io``, ``iu``
       (not after ``c g s t``, as in *social*, *region*, *nation*), ``eo`` (not after ``p``, as in
       *people*), ``ua``, ``uo`` (not after ``q g``, as in *quality*, *language*)
       (*period* 3, *video* 3, *actual* 3);
    4. subtract one for a silent final ``e`` after a consonant (*make* 1) unless the word ends in
       consonant + ``le`` (*table* 2);
    5. subtract one for ``-ed`` not after ``t``/``d`` (*jumped* 1, *wanted* 2) and for ``-es`` not
       after a sibilant (*makes* 1, *boxes* 2, *passes* 2);
    6. every word with a letter has at least one syllable.

    Args:
        word: a word form; hyphenated compounds should be split by the caller.

    Returns:
        Syllable estimate (>= 1 when ``word`` has a letter, else 0).
    """
    w = "".join(ch for ch in word.lower() if ch.isalpha())
    if not w:
        return 0
    count = len(_VOWEL_GROUP.findall(w)) + len(_HIATUS.findall(w))
    if len(w) > 2 and w.endswith("e") and w[-2] not in "aeiouy":
        if not (w.endswith("le") and len(w) > 3 and w[-3] not in "aeiouy"):
            count -= 1
    elif len(w) > 3 and w.endswith("ed") and w[-3] not in "td" and w[-3] not in "aeiouy":
        count -= 1
    elif len(w) > 3 and w.endswith("es") and not w.endswith(_ES_SOUNDED) and w[-3] not in "aeiouy":
        count -= 1
    return max(count, 1)


def is_complex_word(word: str, *, sentence_initial: bool, exclusions: bool = True) -> bool:
    """Whether a word counts as "hard" (three or more syllables) in the Gunning Fog index.

    With ``exclusions`` (Gunning 1952), a word is not hard when it is capitalised and not the first
    word of its sentence (a proper noun), when it is a hyphenated compound, or when it reaches three
    syllables only through an ``-ed`` or ``-es`` ending (*created*, *trespasses*).

    Args:
        word: the word as written.
        sentence_initial: whether it is the first word of its sentence.
        exclusions: apply Gunning's exclusions (``False`` gives the plain 3-syllable rule; a
            hyphenated compound then counts the syllables of all its parts).

    Returns:
        ``True`` if the word is hard.
    """
    syllables = sum(count_syllables(part) for part in word.split("-"))
    if syllables < 3:
        return False
    if not exclusions:
        return True
    if "-" in word:
        return False
    if word[0].isupper() and not sentence_initial:
        return False
    lower = word.lower()
    if lower.endswith(("ed", "es")) and count_syllables(lower[:-2]) < 3:
        return False
    return True


def gunning_fog(text: str | Tokens, *, exclusions: bool = True) -> float | None:
    """Gunning Fog index: ``0.4 * (words / sentences + 100 * hard words / words)``.

    Source: Gunning, R. (1952). *The Technique of Clear Writing*. McGraw-Hill, chapter "The Fog
    Index": average sentence length plus the percentage of words of three or more syllables,
    times 0.4; proper nouns, easy compounds (hyphenated here) and verb forms made three syllables by
    ``-ed``/``-es`` are not counted as hard. Sentences and words come from
    :func:`rhetorica.tokenizer.tokenize` (abbreviation- and decimal-safe); syllables from
    :func:`count_syllables`.

    Args:
        text: text or :class:`Tokens`.
        exclusions: apply Gunning's exclusions (see :func:`is_complex_word`).

    Returns:
        The index in US school grade levels (>= 0.4), or ``None`` for a text without words.
    """
    tokens = text if isinstance(text, Tokens) else tokenize(text)
    n_words = tokens.n_words
    if n_words == 0:
        return None
    # decide once per distinct word form and position (sentence-initial or not), weight by count
    first = [bisect_left(tokens.sentence_ids, s) for s in range(tokens.n_sentences)]
    initial = Counter(tokens.words[i] for i in first)
    inner = Counter(tokens.words)
    inner.subtract(initial)
    hard = sum(
        count
        for word, count in inner.items()
        if count and is_complex_word(word, sentence_initial=False, exclusions=exclusions)
    ) + sum(
        count
        for word, count in initial.items()
        if is_complex_word(word, sentence_initial=True, exclusions=exclusions)
    )
    return 0.4 * (n_words / tokens.n_sentences + 100.0 * hard / n_words)
