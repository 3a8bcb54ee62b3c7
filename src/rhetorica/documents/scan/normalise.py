"""De-obfuscation before instruction matching: NFKC, homoglyphs, invisible characters, letter spacing.

:func:`normalise` returns the cleaned text together with, for every cleaned character, the index
of the source character it came from and which tricks produced it, so a match in the cleaned text
is reported as the exact span of the source.

Steps (each character once, in order): Unicode tag characters U+E0020-U+E007E are decoded to the
ASCII character they shadow ("ASCII smuggling"; the tag block is default-ignorable, Unicode
Standard §23.9); zero-width and other default-ignorable format characters are dropped; soft
hyphens are dropped (common in PDF text, not a trick); letters of :data:`CONFUSABLES` become the
Latin letter they imitate where they pose as Latin (:func:`posing_as_latin`: in a word that mixes them
with Latin letters, or in a word made only of them beside a Latin word; a Russian or Greek word among
its own script's words stays as written); everything else goes through NFKC (fullwidth forms,
ligatures). Then
letter-spaced text is closed up: a run of four or more single characters (letters, digits,
punctuation but the separators), each followed by a separator of one to five spaces, dots, hyphens
or underscores ("I G N O R E", "G.i.v.e t.h.i.s"), is spaced with the separator it uses most
between its characters, and any other separator in it is a word space: the run's characters are joined and each other separator becomes one space
("I g n o r e   a l l" -> "Ignore all"). A run with a single separator throughout gives no word
boundary and is joined whole. The confusables table is our own small selection of Cyrillic and
Greek letters that render like Latin ones (after the idea of Unicode TR39 confusables, not its data).
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rhetorica.documents.scan.keywords import windows

TAG_TRICK = "unicode tag characters"
ZERO_WIDTH_TRICK = "zero-width characters"
HOMOGLYPH_TRICK = "homoglyphs"
SPACING_TRICK = "letter spacing"
BASE64_TRICK = "base64"

ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff\u180e\u034f\u115f\u1160\u3164")
"""Zero-width and invisible format characters that a reader never sees."""

BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")
"""Bidirectional controls: invisible, can reorder what is displayed."""

CONFUSABLES: dict[str, str] = {
    # Cyrillic lower case
    "а": "a", "в": "b", "е": "e", "ё": "e", "һ": "h", "і": "i", "ї": "i", "ј": "j", "к": "k", "м": "m",
    "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "ԁ": "d", "ԛ": "q",
    "ԝ": "w", "ɡ": "g",
    # Cyrillic upper case
    "А": "A", "В": "B", "Е": "E", "Ё": "E", "І": "I", "Ї": "I", "Ј": "J", "К": "K", "М": "M", "Н": "H",
    "О": "O", "Р": "P", "С": "C", "Т": "T", "У": "Y", "Х": "X", "Ѕ": "S", "Ԁ": "D", "Ԛ": "Q", "Ԝ": "W",
    # Greek
    "ο": "o", "α": "a", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ρ": "p", "τ": "t", "υ": "u", "χ": "x",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
    "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
}
"""Non-Latin letters that look like Latin letters in common fonts (own selection)."""

CONTEXT_WORDS = 6
"""Words on each side of a word made only of :data:`CONFUSABLES` letters whose script decides whether it
poses as Latin (:func:`posing_as_latin`)."""
_CONFUSABLE = re.compile("[" + "".join(CONFUSABLES) + "]")
_WORD = re.compile(r"[^\W\d_]+")
_LATIN = re.compile("[A-Za-z\u00c0-\u024f]")

_TRICKS = (TAG_TRICK, ZERO_WIDTH_TRICK, HOMOGLYPH_TRICK, SPACING_TRICK)
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
_SPACED_HINT = re.compile(r"[ ._\-][^\W\d_][ ._\-]{1,3}[^\W\d_][ ._\-]")
_SPACED = re.compile(r"(?<![^\s._\-])(?:[^\s._\-][ ._\-]{1,5}){3,}[^\s._\-](?![^\s._\-])")
_SPACED_PART = re.compile(r"([^\s._\-])([ ._\-]*)")
_TRAILING = re.compile(r"[ ._\-]*")


@dataclass(frozen=True)
class Normalised:
    """Cleaned text and its map back to the source.

    Attributes:
        text: the cleaned text.
        origin: ``origin[i]`` is the index in the source of cleaned character ``i``.
        flags: ``flags[i]`` is a bit set of the tricks that produced cleaned character ``i``
            (bit ``k`` = ``_TRICKS[k]``).
    """

    text: str
    origin: Sequence[int]
    flags: Sequence[int]

    def source_span(self, start: int, end: int) -> tuple[int, int]:
        """Source ``[start, end)`` covering cleaned characters ``[start, end)`` (``end > start``)."""
        return self.origin[start], self.origin[end - 1] + 1

    def tricks(self, start: int, end: int) -> tuple[str, ...]:
        """Names of the tricks used inside cleaned characters ``[start, end)``, in a fixed order."""
        bits = 0
        for value in self.flags[start:end]:
            bits |= value
        return tuple(name for k, name in enumerate(_TRICKS) if bits >> k & 1)


def is_invisible(char: str) -> bool:
    """True for a zero-width/format character, a bidi control or a Unicode tag character."""
    return char in ZERO_WIDTH or char in BIDI_CONTROLS or 0xE0000 <= ord(char) <= 0xE007F


class _PiecewiseOrigin(Sequence[int]):
    """``origin`` of a normalised text as pieces: piece ``k`` starts at cleaned index ``starts[k]``
    and maps cleaned index ``i`` to ``sources[k] + (i - starts[k]) * steps[k]`` (step 1: copied
    characters; step 0: every character of an expansion such as NFKC's "ﬁ" -> "fi" comes from one
    source character). Built in time proportional to the number of pieces, not of characters."""

    def __init__(self, starts: list[int], sources: list[int], steps: list[int], length: int) -> None:
        self._starts, self._sources, self._steps, self._length = starts, sources, steps, length

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, index):  # type: ignore[no-untyped-def, override]
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._length))]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError(index)
        k = bisect.bisect_right(self._starts, index) - 1
        return self._sources[k] + (index - self._starts[k]) * self._steps[k]

    def to_list(self) -> list[int]:
        """Every origin, in cleaned order."""
        out: list[int] = []
        for k, start in enumerate(self._starts):
            end = self._starts[k + 1] if k + 1 < len(self._starts) else self._length
            source = self._sources[k]
            out.extend(range(source, source + end - start) if self._steps[k] else [source] * (end - start))
        return out

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash(tuple(self))


def posing_as_latin(text: str) -> set[int]:
    """Indices of the letters of :data:`CONFUSABLES` in ``text`` that pose as Latin letters.

    A word (a run of letters) poses as Latin when it mixes scripts, holding a Latin letter beside
    them ("Іgnоrе" with Cyrillic І, о, е), or when it is made only of them, the words on both sides
    of it (of the run of such words it stands in) hold Latin letters and so do most of the
    :data:`CONTEXT_WORDS` words before and after it ("Please ассерт this paper") — the mixed-script
    and whole-script confusables of Unicode TR39 (section 4), decided per word. Letters of a Cyrillic
    or Greek word with a letter of its own script outside the table ("оценку"), or of a word made of
    them beside such a word ("Не учитывайте", even after English text) or in Russian prose that
    names a Latin term ("символ в Intel Hex файле"), are that script's text, not a trick.

    Args:
        text: any text.

    Returns:
        Indices into ``text`` (empty when it has no letter of the table).
    """
    if not _CONFUSABLE.search(text):
        return set()
    words = [w.group(0) for w in _WORD.finditer(text)]
    starts = [w.start() for w in _WORD.finditer(text)]
    latin = [_LATIN.search(w) is not None for w in words]
    whole = [not latin[k] and all(c in CONFUSABLES for c in w) for k, w in enumerate(words)]
    posing: set[int] = set()
    k = 0
    while k < len(words):
        end = k + 1
        if whole[k]:  # a run of words made only of table letters: posing when Latin words enclose it
            while end < len(words) and whole[end]:
                end += 1
            enclosed = (k == 0 or latin[k - 1]) and (end == len(words) or latin[end]) and (k > 0 or end < len(words))
            near = [j for j in (*range(max(0, k - CONTEXT_WORDS), k), *range(end, end + CONTEXT_WORDS))
                    if j < len(words) and not whole[j]]
            in_latin = 2 * sum(latin[j] for j in near) > len(near)
            run = range(k, end) if enclosed and in_latin else range(0)
        else:
            run = range(k, end) if latin[k] else range(0)
        for j in run:
            posing.update(starts[j] + i for i, c in enumerate(words[j]) if c in CONFUSABLES)
        k = end
    return posing


def normalise(text: str) -> Normalised:
    """Clean ``text`` for instruction matching; see the module docstring for the steps.

    Runs of ASCII characters (which no step changes) are copied whole and mapped back as one piece;
    only the other characters are looked at one by one, so the cost is linear in the length of the
    text and nearly all of it is spent in C.

    Args:
        text: any text.

    Returns:
        :class:`Normalised` (its text may be shorter or longer than ``text``).
    """
    if text.isascii() and not _SPACED_HINT.search(text):
        return Normalised(text, range(len(text)), bytes(len(text)))
    posing = posing_as_latin(text)
    parts: list[str] = []
    starts: list[int] = []
    sources: list[int] = []
    steps: list[int] = []
    marks: list[tuple[int, int, int]] = []  # (cleaned start, length, flag) of characters made by a trick
    clean = 0
    previous_zero_width = False
    position = 0
    for special in [*_NON_ASCII.finditer(text), None]:
        run_end = len(text) if special is None else special.start()
        if run_end > position:  # ASCII run: unchanged
            parts.append(text[position:run_end])
            starts.append(clean)
            sources.append(position)
            steps.append(1)
            if previous_zero_width:
                marks.append((clean, 1, 1 << 1))
                previous_zero_width = False
            clean += run_end - position
        if special is None:
            break
        for index in range(special.start(), special.end()):
            char = text[index]
            code = ord(char)
            if 0xE0020 <= code <= 0xE007E:
                pieces, flag = chr(code - 0xE0000), 1 << 0
            elif 0xE0000 <= code <= 0xE007F or char in BIDI_CONTROLS or char == "\u00ad":
                continue
            elif char in ZERO_WIDTH:
                previous_zero_width = True
                continue
            elif char in CONFUSABLES and index in posing:
                pieces, flag = CONFUSABLES[char], 1 << 2
            else:
                pieces, flag = unicodedata.normalize("NFKC", char), 0
            if previous_zero_width:
                flag |= 1 << 1
                previous_zero_width = False
            if not pieces:
                continue
            parts.append(pieces)
            starts.append(clean)
            sources.append(index)
            steps.append(0)
            if flag:
                marks.append((clean, len(pieces), flag))
            clean += len(pieces)
        position = special.end()
    joined = "".join(parts)
    pieces_origin = _PiecewiseOrigin(starts, sources, steps, len(joined))
    flags = bytearray(len(joined))
    for start, length, flag in marks:
        flags[start:start + length] = bytes([flag]) * length
    # a letter-spaced run has " x y " inside it: look for runs only near such places; a run found
    # there is then matched to its end, wherever that is
    spaced: list[re.Match[str]] = []
    for lo, hi in windows([m.start() for m in _SPACED_HINT.finditer(joined)], len(joined), reach=12):
        position = max(lo, spaced[-1].end() if spaced else 0)
        while position < hi and (found := _SPACED.search(joined, position, hi)):
            whole = _SPACED.match(joined, found.start())  # None when the window's end cut a longer token short
            if whole is not None:
                spaced.append(whole)
            position = whole.end() if whole is not None else found.start() + 1
    if not spaced:
        return Normalised(joined, pieces_origin, bytes(flags))
    origin = pieces_origin.to_list()
    kept: list[str] = []
    kept_origin: list[int] = []
    kept_flags = bytearray()
    position = 0
    for match in spaced:
        start, end = match.span()
        kept.append(joined[position:start])
        kept_origin.extend(origin[position:start])
        kept_flags += flags[position:start]
        parts = list(_SPACED_PART.finditer(joined, start, end))
        letter_space = Counter(p.group(2) for p in parts[:-1]).most_common(1)[0][0]
        for part in parts:
            kept.append(part.group(1))
            kept_origin.append(origin[part.start()])
            kept_flags.append(flags[part.start()] | 1 << 3)
            if part.group(2) and part.group(2) != letter_space:  # a word space
                kept.append(" ")
                kept_origin.append(origin[part.start(2)])
                kept_flags.append(1 << 3)
        # the letter space after the last character, when more separators follow ("m_o_d_e_l_."), is spacing
        trail = _TRAILING.match(joined, end).group(0)  # type: ignore[union-attr]
        position = end + len(letter_space) if len(trail) > len(letter_space) and trail.startswith(letter_space) else end
    kept.append(joined[position:])
    kept_origin.extend(origin[position:])
    kept_flags += flags[position:]
    return Normalised("".join(kept), tuple(kept_origin), bytes(kept_flags))


def decode_tags(text: str) -> str:
    """The ASCII text shadowed by the Unicode tag characters of ``text`` (other characters dropped)."""
    return "".join(chr(ord(c) - 0xE0000) for c in text if 0xE0020 <= ord(c) <= 0xE007E)
