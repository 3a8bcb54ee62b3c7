"""One tokenizer and sentence splitter for academic English, shared by every lexical measure.

Markdown with inline LaTeX (what :class:`rhetorica.documents.models.Document` sections hold) is
first *masked*: math, citation/reference/label commands, URLs and code are overwritten with spaces
of the same length, so that character offsets into the original text stay valid. Words are then
runs of letters with internal hyphens or apostrophes (``state-of-the-art``, ``don't``) or dotted
abbreviations (``e.g.``, ``i.e.``); digits and punctuation are not words. The word count is the
denominator of every per-1,000-words rate.

Sentence ends are ``.``, ``!`` or ``?`` followed by whitespace, possibly after closing quotes,
brackets, braces or emphasis marks (``**optimal.** Then``, ``\\textbf{optimal.} Then``,
``_x._ Then``; ``rhetorica ingest`` writes run-in headings this way), except after a known
abbreviation (``e.g.``, ``i.e.``, ``et al.``, ``Fig.``, ``Eq.``, ``Sec.`` ...), a single capital
initial, or a list number at the start of a line, and except when the next word (after any
opening quote, bracket, brace or emphasis mark) starts in lower case. Decimals (``0.72``) never
split because no whitespace follows their point. A blank line, a Markdown heading, a list item
or a LaTeX ``\\item`` always starts a new sentence, and a heading line is a sentence of its own.
The known trade-off: a sentence that really ends on an abbreviation ("... by
Smith et al. We then ...") is joined with the next one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

MATH_ENVIRONMENTS = (
    "equation",
    "align",
    "alignat",
    "gather",
    "multline",
    "eqnarray",
    "flalign",
    "math",
    "displaymath",
    "split",
)
"""LaTeX environments whose content is mathematics (starred forms included)."""
_BLOCK_ENVIRONMENTS = (
    "algorithm",
    "algorithmic",
    "verbatim",
    "lstlisting",
    "tabular",
    "table",
    "figure",
)
_NON_PROSE_COMMANDS = (
    r"[a-zA-Z]*cite[a-zA-Z]*|[a-zA-Z]*ref|label|url|includegraphics|input|include|bibliography|"
    r"bibliographystyle|footnotemark"
)
_MASK = re.compile(
    r"(?=[`$\\hw])"  # every alternative starts with one of these: skip other positions fast
    r"(?:(?P<code>```.*?```|`[^`\n]*`)"
    r"|(?P<math>\$\$.*?\$\$"
    r"|(?<!\\)\$(?:\\.|[^$\\\n]|\n(?![ \t]*\n))+\$"  # inline math, within a paragraph
    r"|\\\[.*?\\\]|\\\(.*?\\\)"
    r"|\\begin\{(?P<menv>(?:" + "|".join(MATH_ENVIRONMENTS) + r")\*?)\}.*?\\end\{(?P=menv)\})"
    r"|(?P<block>\\begin\{(?P<benv>(?:" + "|".join(_BLOCK_ENVIRONMENTS) + r")\*?)\}.*?"
    r"\\end\{(?P=benv)\})"
    r"|(?P<command>\\(?:" + _NON_PROSE_COMMANDS + r")\*?(?:\[[^\]]*\])*(?:\{[^{}]*\})+)"
    r"|(?P<name>\\[a-zA-Z@]+\*?)"  # any other command name (its braced argument stays prose)
    r"|(?P<url>(?:https?://|www\.)[^\s)\]}>]*[^\s)\]}>.,;:!?'\"]))",
    re.DOTALL,
)
_WORD = re.compile(r"[A-Za-z](?:\.[A-Za-z])+\.|[^\W\d_]+(?:['\u2019\-][^\W\d_]+)*")
_END = re.compile(r"[.!?]+[\"'\u2019\u201d)\]}*_]*(?=\s)")
_HARD_BREAK = re.compile(
    r"\n[ \t]*\n|\n(?=[ \t]*(?:#|[-*+][ \t]|\d+[.)][ \t]|\\item\b))|^[ \t]*#{1,6}[ \t][^\n]*\n",
    re.MULTILINE,
)
_PREV_WORD = re.compile(r"([A-Za-z][A-Za-z.]*)$")
_LIST_NUMBER = re.compile(r"(?:^|\n)[ \t]*\(?\d+$")

ABBREVIATIONS: frozenset[str] = frozenset(
    """
    e.g eg i.e ie cf vs viz al etal fig figs eq eqs eqn eqns sec secs sect tab tbl no nos approx
    resp ref refs ch chap app appx dr mr mrs ms prof st ca vol pp p ed eds def thm lem prop cor alg
    algo incl w.r.t wrt a.k.a u.s ph.d jr sr inc ltd co corp dept univ est min max avg std var mt op
    cit
    """.split()
)
"""Lower-cased words (without their final period) after which a period does not end a sentence."""


@dataclass(frozen=True)
class Tokens:
    """A tokenized text: words, the sentence each belongs to, and (lazily) character offsets.

    Attributes:
        text: the input text, unchanged.
        masked: ``text`` with non-prose regions blanked (same length; see :func:`mask_non_prose`).
        regions: the blanked regions as ``(start, end, kind)`` (see :func:`mask_regions`).
        words: word forms as written, in order.
        lower: the same words lower-cased (typographic apostrophes folded to ``'``).
        sentence_ids: index of the sentence of each word (0-based, non-decreasing).
        sentence_spans: ``(start, end)`` character offsets of every sentence that holds a word.
    """

    text: str
    masked: str
    regions: tuple[tuple[int, int, str], ...]
    words: tuple[str, ...]
    lower: tuple[str, ...]
    sentence_ids: tuple[int, ...]
    sentence_spans: tuple[tuple[int, int], ...]

    @property
    def n_words(self) -> int:
        """Number of words (the per-1,000-words denominator)."""
        return len(self.words)

    @property
    def n_sentences(self) -> int:
        """Number of sentences that contain at least one word."""
        return len(self.sentence_spans)

    @cached_property
    def _offsets(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        spans = [
            m.span() for a, b in self.sentence_spans for m in _WORD.finditer(self.masked, a, b)
        ]
        return tuple(x for x, _ in spans), tuple(y for _, y in spans)

    @property
    def starts(self) -> tuple[int, ...]:
        """Character offset of each word in ``text`` (computed on first use)."""
        return self._offsets[0]

    @property
    def ends(self) -> tuple[int, ...]:
        """End offset (exclusive) of each word in ``text`` (computed on first use)."""
        return self._offsets[1]

    def sentences(self) -> list[str]:
        """The sentences (those with at least one word) as substrings of ``text``, stripped."""
        return [self.text[a:b].strip() for a, b in self.sentence_spans]


def mask_regions(text: str) -> tuple[str, tuple[tuple[int, int, str], ...]]:
    """Masked text (see :func:`mask_non_prose`) and the masked regions.

    Args:
        text: Markdown or LaTeX-flavoured Markdown.

    Returns:
        ``(masked, regions)``; each region is ``(start, end, kind)`` with kind ``"code"``,
        ``"math"``, ``"block"`` (algorithm, verbatim, table, figure environments), ``"command"``
        (citation, reference, label, URL, include commands with their arguments), ``"name"``
        (any other command name) or ``"url"``.
    """
    regions: list[tuple[int, int, str]] = []

    def blank(match: re.Match[str]) -> str:
        regions.append((match.start(), match.end(), match.lastgroup or "name"))
        return " " * (match.end() - match.start())

    return _MASK.sub(blank, text), tuple(regions)


def mask_non_prose(text: str) -> str:
    """Overwrite math, citation/ref/label commands, URLs and code with spaces.

    Args:
        text: Markdown or LaTeX-flavoured Markdown.

    Returns:
        A string of the same length as ``text`` in which only prose (and punctuation) is left. A
        masked region is blanked entirely, newlines included, so a blank line inside a display
        equation does not break its paragraph.
    """
    return mask_regions(text)[0]


def _is_sentence_end(masked: str, end_start: int, after: int) -> bool:
    """Whether the punctuation at ``end_start`` ends a sentence (rules in the module docstring)."""
    if masked[end_start] != ".":
        return True
    prev = _PREV_WORD.search(masked, max(0, end_start - 40), end_start)
    if prev is not None:
        word = prev.group(1).lower().rstrip(".")
        if word in ABBREVIATIONS or word.replace(".", "") in ABBREVIATIONS:
            return False
        if len(prev.group(1)) == 1 and prev.group(1).isupper():
            return False  # an initial, as in "J. Smith"
    elif _LIST_NUMBER.search(masked, max(0, end_start - 12), end_start):
        return False  # "1. First item" at the start of a line
    nxt = after
    while nxt < len(masked) and masked[nxt] in " \t\r\n\"'(\u201c\u2018[{*_":
        nxt += 1
    return not (nxt < len(masked) and masked[nxt].islower())


def _bounds(masked: str, regions: tuple[tuple[int, int, str], ...]) -> list[tuple[int, int]]:
    region_end = {a: b for a, b, _ in regions}
    cuts: set[int] = {0, len(masked)}
    for m in _HARD_BREAK.finditer(masked):
        cuts.add(m.end())
    for m in _END.finditer(masked):
        if _is_sentence_end(masked, m.start(), m.end()):
            cut = m.end()
            # "end.\cite{x}, Next": what is glued to the period stays with its sentence
            while True:
                if cut in region_end:
                    cut = region_end[cut]
                elif cut < len(masked) and not masked[cut].isspace():
                    cut += 1
                else:
                    break
            cuts.add(cut)
    ordered = sorted(cuts)
    return [(a, b) for a, b in zip(ordered, ordered[1:], strict=False) if b > a]


def sentence_bounds(text: str) -> list[tuple[int, int]]:
    """Split ``text`` into sentence ``(start, end)`` offsets covering the whole text.

    Rules in the module docstring; whatever is glued to a sentence's final punctuation (a
    citation, a closing bracket, a comma after a citation) stays with that sentence, so a cut
    always falls on whitespace.

    Args:
        text: Markdown with inline LaTeX, or plain text.

    Returns:
        Contiguous, non-overlapping spans in order; empty spans are dropped.
    """
    return _bounds(*mask_regions(text))


def tokenize(text: str) -> Tokens:
    """Tokenize ``text`` into words and sentences (see the module docstring for the rules).

    Args:
        text: Markdown with inline LaTeX, or plain text.

    Returns:
        :class:`Tokens`; a text without letters gives zero words and zero sentences.
    """
    masked, regions = mask_regions(text)
    words: list[str] = []
    sentence_ids: list[int] = []
    spans: list[tuple[int, int]] = []
    for a, b in _bounds(masked, regions):
        found = _WORD.findall(masked, a, b)
        if not found:
            continue
        words.extend(found)
        sentence_ids.extend([len(spans)] * len(found))
        spans.append((a, b))
    # words hold no spaces: fold them all in one call, then split them apart again
    lower = " ".join(words).lower().replace("\u2019", "'").split(" ") if words else []
    return Tokens(
        text=text,
        masked=masked,
        regions=regions,
        words=tuple(words),
        lower=tuple(lower),
        sentence_ids=tuple(sentence_ids),
        sentence_spans=tuple(spans),
    )


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text`` that contain at least one word, stripped, in order.

    Args:
        text: Markdown with inline LaTeX, or plain text.

    Returns:
        Substrings of ``text`` (masked regions such as math are kept in the returned strings).
    """
    return tokenize(text).sentences()
