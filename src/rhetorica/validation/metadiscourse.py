"""Hedges and boosters (Hyland's interactional metadiscourse): lexicon, matcher and rates.

Source of the categories: Hyland, K. (1998). Boosting, hedging and the negotiation of academic
knowledge. *TEXT* 18(3), 349-382; and Hyland, K. (2005). *Metadiscourse: Exploring Interaction in
Writing*. Continuum, Appendix 1 ("Metadiscourse items investigated"): hedges withhold full
commitment to a proposition, boosters express certainty. The item list is our own compilation
(``rhetorica/data/metadiscourse/lexicon.tsv``; sources per item in its README).

Matching follows the 'Style over Substance' protocol: lower-cased words with punctuation stripped
(the shared tokenizer), whole-word matching, hedge and booster lists mutually exclusive, and one
left-to-right longest-match pass inside each sentence, so a multi-word item consumes its words
(``to a certain extent`` is one hedge; its ``certain`` is not also a booster).
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict, PrivateAttr, model_validator

from rhetorica.tokenizer import Tokens, tokenize

Category = Literal["hedge", "booster"]
LEXICON_FILE = "lexicon.tsv"


class Lexicon(BaseModel):
    """A versioned hedge/booster lexicon.

    Attributes:
        version: version string of the item list (recorded with every measurement).
        hedges: lower-case items, single words or space-separated phrases.
        boosters: lower-case items; disjoint from ``hedges``.

    Raises:
        pydantic.ValidationError: if the lists overlap, or an item is empty or not lower-case.
    """

    model_config = ConfigDict(frozen=True)

    version: str
    hedges: frozenset[str]
    boosters: frozenset[str]
    _index: dict[tuple[str, ...], Category] = PrivateAttr(default_factory=dict)
    _longest_from: dict[str, int] = PrivateAttr(default_factory=dict)

    @model_validator(mode="after")
    def _check_items(self) -> Lexicon:
        overlap = self.hedges & self.boosters
        if overlap:
            raise ValueError(f"lexicon {self.version}: items in both lists: {sorted(overlap)}")
        for item in self.hedges | self.boosters:
            if not item.strip() or item != item.lower() or item != " ".join(item.split()):
                raise ValueError(f"lexicon {self.version}: item {item!r} must be lower-case words")
        return self

    def model_post_init(self, __context: object) -> None:
        index: dict[tuple[str, ...], Category] = {}
        for item in self.hedges:
            index[tuple(item.split())] = "hedge"
        for item in self.boosters:
            index[tuple(item.split())] = "booster"
        longest: dict[str, int] = {}
        for key in index:
            longest[key[0]] = max(longest.get(key[0], 0), len(key))
        self._index = index
        self._longest_from = longest


class Match(BaseModel):
    """One hedge or booster found in a text.

    Attributes:
        item: the lexicon item (lower case, words joined by single spaces).
        category: ``"hedge"`` or ``"booster"``.
        start: character offset of the first word in the input text.
        end: end offset (exclusive) of the last word.
        word_index: index of the first word among the tokenizer's words.
        n_words: number of words the item spans.
    """

    model_config = ConfigDict(frozen=True)

    item: str
    category: Category
    start: int
    end: int
    word_index: int
    n_words: int


class MarkerCounts(BaseModel):
    """Hedge and booster counts and rates of one text.

    Attributes:
        words: word count (the denominator, from the shared tokenizer).
        hedges: number of hedge matches.
        boosters: number of booster matches.
        hedges_per_1k: ``1000 * hedges / words`` (``None`` when ``words == 0``).
        boosters_per_1k: ``1000 * boosters / words`` (``None`` when ``words == 0``).
        lexicon_version: version of the lexicon used.
    """

    words: int
    hedges: int
    boosters: int
    hedges_per_1k: float | None
    boosters_per_1k: float | None
    lexicon_version: str


@lru_cache(maxsize=1)
def load_metadiscourse_lexicon() -> Lexicon:
    """Load the packaged lexicon (``rhetorica/data/metadiscourse/lexicon.tsv``).

    The file's first line is ``# ... version X ...``; then a header ``item category source`` and one
    tab-separated row per item.

    Returns:
        The :class:`Lexicon` (cached; it is immutable).

    Raises:
        ValueError: if the file has a malformed row or no version line.
    """
    path = resources.files("rhetorica").joinpath("data", "metadiscourse", LEXICON_FILE)
    return parse_lexicon(path.read_text(encoding="utf-8"), name=LEXICON_FILE)


def parse_lexicon(text: str, *, name: str = "<lexicon>") -> Lexicon:
    """Parse a lexicon file (format of :func:`load_metadiscourse_lexicon`).

    Args:
        text: file content.
        name: file name used in error messages.

    Returns:
        The parsed :class:`Lexicon`.

    Raises:
        ValueError: naming the file and line of a malformed row, or a missing version line.
    """
    lines = text.splitlines()
    if not lines or "version" not in lines[0]:
        raise ValueError(f"{name}: first line must be '# ... version <VERSION> ...'")
    version = lines[0].split("version", 1)[1].split()[0]
    hedges: set[str] = set()
    boosters: set[str] = set()
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip() or line.startswith("#") or line.startswith("item\t"):
            continue
        fields = line.split("\t")
        if len(fields) < 2 or fields[1] not in ("hedge", "booster"):
            raise ValueError(f"{name}:{number}: expected 'item<TAB>hedge|booster<TAB>source'")
        (hedges if fields[1] == "hedge" else boosters).add(fields[0].strip())
    return Lexicon(version=version, hedges=frozenset(hedges), boosters=frozenset(boosters))


def _scan(tokens: Tokens, lexicon: Lexicon) -> list[tuple[int, int, Category]]:
    """Longest-match pass: ``(first word index, number of words, category)`` per match."""
    index = lexicon._index
    longest_from = lexicon._longest_from
    words = tokens.lower
    sentence = tokens.sentence_ids
    n = len(words)
    found: list[tuple[int, int, Category]] = []
    free = 0  # first word not consumed by an earlier match
    for i in [i for i, w in enumerate(words) if w in longest_from]:
        if i < free:
            continue
        for length in range(min(longest_from[words[i]], n - i), 0, -1):
            if length > 1 and sentence[i + length - 1] != sentence[i]:
                continue
            category = index.get(words[i : i + length])
            if category is not None:
                found.append((i, length, category))
                free = i + length
                break
    return found


def find_markers(text: str | Tokens, lexicon: Lexicon | None = None) -> list[Match]:
    """Find hedges and boosters in ``text`` with one longest-match pass.

    Args:
        text: text (Markdown/LaTeX allowed; math and citations are masked) or :class:`Tokens`.
        lexicon: lexicon to use; default :func:`load_metadiscourse_lexicon`.

    Returns:
        Matches in text order; they never overlap.
    """
    tokens = text if isinstance(text, Tokens) else tokenize(text)
    lex = load_metadiscourse_lexicon() if lexicon is None else lexicon
    return [
        Match(
            item=" ".join(tokens.lower[i : i + length]),
            category=category,
            start=tokens.starts[i],
            end=tokens.ends[i + length - 1],
            word_index=i,
            n_words=length,
        )
        for i, length, category in _scan(tokens, lex)
    ]


def marker_counts(text: str | Tokens, lexicon: Lexicon | None = None) -> MarkerCounts:
    """Hedges and boosters per 1,000 words (Hyland's categories, see the module docstring).

    Args:
        text: text or :class:`Tokens`.
        lexicon: lexicon to use; default :func:`load_metadiscourse_lexicon`.

    Returns:
        :class:`MarkerCounts`; rates are ``None`` for a text without words.
    """
    tokens = text if isinstance(text, Tokens) else tokenize(text)
    lex = load_metadiscourse_lexicon() if lexicon is None else lexicon
    matches = _scan(tokens, lex)
    hedges = sum(1 for _, _, c in matches if c == "hedge")
    boosters = len(matches) - hedges
    words = tokens.n_words
    return MarkerCounts(
        words=words,
        hedges=hedges,
        boosters=boosters,
        hedges_per_1k=1000.0 * hedges / words if words else None,
        boosters_per_1k=1000.0 * boosters / words if words else None,
        lexicon_version=lex.version,
    )
