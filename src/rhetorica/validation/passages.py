"""Passages: paragraphs cut to fit an embedding model's token limit, never truncated."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from rhetorica.tokenizer import mask_non_prose, sentence_bounds

PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
"""A blank line: the paragraph separator."""


def paragraphs(texts: Sequence[str]) -> list[str]:
    """Split texts (e.g. a document's section bodies) into non-empty paragraphs at blank lines.

    Blank lines inside masked regions (a display equation, a code block; see
    :func:`rhetorica.tokenizer.mask_non_prose`) do not split.

    Args:
        texts: texts in order.

    Returns:
        Stripped paragraphs in order, across all texts.
    """
    out: list[str] = []
    for text in texts:
        start = 0
        for m in PARAGRAPH_BREAK.finditer(mask_non_prose(text)):
            out.append(text[start : m.start()])
            start = m.end()
        out.append(text[start:])
    return [p.strip() for p in out if p.strip()]


def _split_words(sentence: str, count_tokens: Callable[[str], int], max_tokens: int) -> list[str]:
    """Cut an overlong sentence at word boundaries into pieces of at most ``max_tokens`` tokens."""
    words = sentence.split()
    if len(words) <= 1:
        # a single "word" longer than the limit (e.g. a huge formula): cut by characters
        half = max(1, len(sentence) // 2)
        if len(sentence) <= 1 or count_tokens(sentence) <= max_tokens:
            return [sentence]
        return _split_words(sentence[:half], count_tokens, max_tokens) + _split_words(
            sentence[half:], count_tokens, max_tokens
        )
    pieces: list[str] = []
    current: list[str] = []
    for word in words:
        candidate = " ".join([*current, word])
        if current and count_tokens(candidate) > max_tokens:
            pieces.append(" ".join(current))
            current = [word]
        else:
            current.append(word)
    if current:
        pieces.append(" ".join(current))
    out: list[str] = []
    for piece in pieces:
        if count_tokens(piece) > max_tokens:
            out.extend(_split_words(piece, count_tokens, max_tokens))
        else:
            out.append(piece)
    return out


def split_passages(
    texts: Sequence[str], count_tokens: Callable[[str], int], max_tokens: int
) -> list[str]:
    """Cut texts into passages of at most ``max_tokens`` model tokens, without dropping any text.

    A passage is a paragraph. A paragraph over the limit is cut into runs of whole sentences (the
    shared sentence splitter) packed greedily up to the limit; a sentence over the limit is cut at
    word boundaries. Every character of every paragraph (apart from whitespace at the cuts) ends up
    in exactly one passage, so nothing is silently truncated by the model.

    Args:
        texts: texts in order (e.g. section bodies).
        count_tokens: number of model tokens of a string, special tokens excluded.
        max_tokens: token budget per passage (>= 1).

    Returns:
        Passages in text order.

    Raises:
        ValueError: if ``max_tokens < 1``.
    """
    if max_tokens < 1:
        raise ValueError(f"max_tokens must be >= 1, got {max_tokens}")
    passages: list[str] = []
    for paragraph in paragraphs(texts):
        if count_tokens(paragraph) <= max_tokens:
            passages.append(paragraph)
            continue
        sentences = [paragraph[a:b].strip() for a, b in sentence_bounds(paragraph)]
        current = ""
        for sentence in filter(None, sentences):
            candidate = f"{current} {sentence}".strip()
            if count_tokens(candidate) <= max_tokens:
                current = candidate
                continue
            if current:
                passages.append(current)
            if count_tokens(sentence) <= max_tokens:
                current = sentence
            else:
                passages.extend(_split_words(sentence, count_tokens, max_tokens))
                current = ""
        if current:
            passages.append(current)
    return passages
