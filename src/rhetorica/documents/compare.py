"""Text-overlap measures used to compare two readings of the same paper (e.g. LaTeX vs PDF).

Tokens are lower-case alphabetic words of at least three letters; LaTeX math, citation and
reference commands are removed first, so only prose is compared. Both measures are on token *sets*:

- Jaccard index ``|A ∩ B| / |A ∪ B|`` (Jaccard 1912, "The distribution of the flora in the alpine
  zone", New Phytologist 11(2));
- containment ``|A ∩ B| / |A|`` (Broder 1997, "On the resemblance and containment of documents",
  Compression and Complexity of Sequences, §2), the share of A's vocabulary found in B.

For choosing which arXiv version matches a submitted PDF (STUDIES.md §2) two order-aware measures on
token *sequences* are added: the cosine of token-count vectors (Salton, Wong & Yang 1975, "A vector
space model for automatic indexing", CACM 18(11)) and the Jaccard index of word 5-gram sets
(Broder 1997's w-shingles with w = 5).
"""

from __future__ import annotations

import math
import re
from collections import Counter

_MATH = re.compile(r"\$\$.*?\$\$|\$[^$]*\$|\\begin\{(equation|align|gather|multline|eqnarray)\*?\}.*?\\end\{\1\*?\}", re.S)
_COMMAND = re.compile(r"\\[a-zA-Z]*(cite|ref)[a-zA-Z]*\*?(\[[^\]]*\])*\{[^}]*\}")
_WORD = re.compile(r"[a-z]{3,}")


def prose_tokens(text: str) -> set[str]:
    """Set of lower-case words (>= 3 letters) outside math and citation/reference commands."""
    text = _COMMAND.sub(" ", _MATH.sub(" ", text))
    return set(_WORD.findall(text.lower()))


def jaccard(a: set[str], b: set[str]) -> float:
    """Jaccard index of two sets, in [0, 1]; 1.0 for two empty sets."""
    union = a | b
    return len(a & b) / len(union) if union else 1.0


def containment(a: set[str], b: set[str]) -> float:
    """Share of ``a`` found in ``b``, in [0, 1]; 1.0 when ``a`` is empty."""
    return len(a & b) / len(a) if a else 1.0


def prose_sequence(text: str) -> list[str]:
    """Ordered lower-case words (>= 3 letters) outside math and citation/reference commands."""
    text = _COMMAND.sub(" ", _MATH.sub(" ", text))
    return _WORD.findall(text.lower())


def token_cosine(a: list[str], b: list[str]) -> float:
    """Cosine of the token-count vectors of two token sequences, in [0, 1]; 0.0 if either is empty."""
    ca, cb = Counter(a), Counter(b)
    norm = math.sqrt(sum(v * v for v in ca.values())) * math.sqrt(sum(v * v for v in cb.values()))
    if norm == 0:
        return 0.0
    return sum(count * cb[token] for token, count in ca.items()) / norm


def ngram_jaccard(a: list[str], b: list[str], n: int = 5) -> float:
    """Jaccard index of the sets of word ``n``-grams of two sequences, in [0, 1].

    Raises:
        ValueError: ``n < 1``.
    """
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    grams_a = {tuple(a[i:i + n]) for i in range(len(a) - n + 1)}
    grams_b = {tuple(b[i:i + n]) for i in range(len(b) - n + 1)}
    return jaccard(grams_a, grams_b) if (grams_a or grams_b) else 0.0
