"""Text-overlap measures used to compare two readings of the same paper (e.g. LaTeX vs PDF).

Tokens are lower-case alphabetic words of at least three letters; LaTeX math, citation and
reference commands are removed first, so only prose is compared. Both measures are on token *sets*:

- Jaccard index ``|A ∩ B| / |A ∪ B|`` (Jaccard 1912, "The distribution of the flora in the alpine
  zone", New Phytologist 11(2));
- containment ``|A ∩ B| / |A|`` (Broder 1997, "On the resemblance and containment of documents",
  Compression and Complexity of Sequences, §2), the share of A's vocabulary found in B.
"""

from __future__ import annotations

import re

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
