"""De-obfuscation before instruction matching: NFKC, homoglyphs, invisible characters, letter spacing.

:func:`normalise` returns the cleaned text together with, for every cleaned character, the index
of the source character it came from and which tricks produced it, so a match in the cleaned text
is reported as the exact span of the source.

Steps (each character once, in order): Unicode tag characters U+E0020-U+E007E are decoded to the
ASCII character they shadow ("ASCII smuggling"; the tag block is default-ignorable, Unicode
Standard §23.9); zero-width and other default-ignorable format characters are dropped; soft
hyphens are dropped (common in PDF text, not a trick); letters of :data:`CONFUSABLES` become the
Latin letter they imitate; everything else goes through NFKC (fullwidth forms, ligatures). Then
runs of four or more single letters separated by one space, dot, hyphen or underscore
("I G N O R E") are joined. The confusables table is our own small selection of Cyrillic and
Greek letters that render like Latin ones (after the idea of Unicode TR39 confusables, not its data).
"""

from __future__ import annotations

import re
import unicodedata
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

_TRICKS = (TAG_TRICK, ZERO_WIDTH_TRICK, HOMOGLYPH_TRICK, SPACING_TRICK)
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
_SPACED_HINT = re.compile(r"[ ._\-][^\W\d_][ ._\-][^\W\d_][ ._\-]")
_SPACED = re.compile(r"(?<![^\W\d_])(?:[^\W\d_][ ._\-]){3,}[^\W\d_](?![^\W\d_])")


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


def normalise(text: str) -> Normalised:
    """Clean ``text`` for instruction matching; see the module docstring for the steps.

    Runs of ASCII characters (which no step changes) are copied whole; only the other characters
    are looked at one by one, so the cost is linear in the length of the text.

    Args:
        text: any text.

    Returns:
        :class:`Normalised` (its text may be shorter or longer than ``text``).
    """
    parts: list[str] = []
    origin: list[int] = []
    flags: list[int] = []
    previous_zero_width = False
    position = 0
    for special in _NON_ASCII.finditer(text):
        if special.start() > position:
            _copy_ascii(text, position, special.start(), previous_zero_width, parts, origin, flags)
            previous_zero_width = False
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
            elif char in CONFUSABLES:
                pieces, flag = CONFUSABLES[char], 1 << 2
            else:
                pieces, flag = unicodedata.normalize("NFKC", char), 0
            if previous_zero_width:
                flag |= 1 << 1
                previous_zero_width = False
            parts.append(pieces)
            origin.extend([index] * len(pieces))
            flags.extend([flag] * len(pieces))
        position = special.end()
    if position < len(text):
        _copy_ascii(text, position, len(text), previous_zero_width, parts, origin, flags)
    joined = "".join(parts)
    # a letter-spaced run has " x y " inside it: search only near such places
    near = windows([m.start() for m in _SPACED_HINT.finditer(joined)], len(joined), reach=12)
    spaced = [match for lo, hi in near for match in _SPACED.finditer(joined, lo, hi)]
    if not spaced:
        if len(parts) == 1 and not any(flags):  # ASCII text: every character is its own origin
            return Normalised(joined, range(len(joined)), bytes(len(joined)))
        return Normalised(joined, tuple(origin), tuple(flags))
    # letter-spaced runs: keep the letters (every other character), mark them
    kept: list[str] = []
    kept_origin: list[int] = []
    kept_flags: list[int] = []
    position = 0
    for match in spaced:
        start, end = match.span()
        kept.append(joined[position:start])
        kept_origin.extend(origin[position:start])
        kept_flags.extend(flags[position:start])
        kept.append(joined[start:end:2])
        kept_origin.extend(origin[start:end:2])
        kept_flags.extend(value | 1 << 3 for value in flags[start:end:2])
        position = end
    kept.append(joined[position:])
    kept_origin.extend(origin[position:])
    kept_flags.extend(flags[position:])
    return Normalised("".join(kept), tuple(kept_origin), tuple(kept_flags))


def _copy_ascii(text: str, start: int, end: int, after_zero_width: bool, parts: list[str], origin: list[int],
                flags: list[int]) -> None:
    """Append ASCII ``text[start:end]`` unchanged; its first character carries the zero-width flag
    when invisible characters came just before it."""
    parts.append(text[start:end])
    origin.extend(range(start, end))
    if after_zero_width:
        flags.append(1 << 1)
        flags.extend(bytes(end - start - 1))
    else:
        flags.extend(bytes(end - start))


def decode_tags(text: str) -> str:
    """The ASCII text shadowed by the Unicode tag characters of ``text`` (other characters dropped)."""
    return "".join(chr(ord(c) - 0xE0000) for c in text if 0xE0020 <= ord(c) <= 0xE007E)
