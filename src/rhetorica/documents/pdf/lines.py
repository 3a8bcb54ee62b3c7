"""The backend-neutral unit of PDF text: one positioned line."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

SCRIPT_SIZE = 0.85
"""A script's font is at most this share of its line's main font size."""
SUPER_RISE = 0.15
"""A superscript's baseline lies at least this share of the main font size above the line's."""
SUB_DROP = 0.08
"""A subscript's baseline lies at least this share of the main font size below the line's.

TeX raises superscripts about 0.36 em and lowers subscripts 0.15-0.25 em, in fonts of 70 % and 50 %
of the text size (Knuth, *The TeXbook*, Appendix G, rules 18a-18f)."""
_PLAIN_SCRIPT = re.compile(r"[−-]?\d+(?:[.,]\d+)?|\S")


def script_text(mark: str, text: str) -> str:
    """A script written as the reading shows it: ``^2``, ``_1``, ``^-4``, or in braces when it is
    more than one number or character (``^{l-1}``, ``_{ij}``); ``mark`` is ``"^"`` or ``"_"``."""
    text = text.strip()
    return mark + (text if _PLAIN_SCRIPT.fullmatch(text) else "{" + text + "}")


def script_kind(size: float, baseline: float, main_size: float, main_baseline: float) -> str:
    """``"^"``, ``"_"`` or ``""``: whether text of font ``size`` on ``baseline`` is a superscript or
    a subscript of text of ``main_size`` on ``main_baseline`` (baselines in points from the top)."""
    if main_size <= 0 or not 0 < size <= SCRIPT_SIZE * main_size:
        return ""
    if main_baseline - baseline >= SUPER_RISE * main_size:
        return "^"
    if baseline - main_baseline >= SUB_DROP * main_size:
        return "_"
    return ""


@dataclass(frozen=True)
class Line:
    """A line (or line fragment) of text on a page.

    Coordinates are PDF points (1/72 inch) from the page's top-left corner: ``top < bottom``.

    Attributes:
        page: 0-based page index.
        x0, top, x1, bottom: bounding box in points.
        text: the characters, NFKC-normalised, soft hyphens marked by ``\\u00ad``.
        size: font size in points (median over the characters; 0 when unknown).
        bold: whether most characters are in a bold font.
        rotated: the characters are not upright (a diagonal watermark, a vertical side stamp).
        italic: most characters are in an italic font.
        smallcaps: at least half the characters are in a small-capitals font.
        baseline: the baseline of the characters that are no superscript or subscript, in points
            from the page's top (0 when unknown).
        mono: most characters are in a monospaced (typewriter) font, or the fragment is set in
            fixed columns (:mod:`rhetorica.documents.pdf.columns`).
        pitch: the width of a character cell in points of a fragment set in fixed columns (0
            otherwise: a typewriter font's is measured from its text).
        element: ``""`` for a line of text; ``"table"`` or ``"code"`` for a whole layout element
            set apart from the running text (:mod:`rhetorica.documents.pdf.elements`), its rows in
            ``text`` one per line and its box the element's.
    """

    page: int
    x0: float
    top: float
    x1: float
    bottom: float
    text: str
    size: float = 0.0
    bold: bool = False
    rotated: bool = False
    italic: bool = False
    smallcaps: bool = False
    baseline: float = 0.0
    mono: bool = False
    element: str = ""
    pitch: float = 0.0


@dataclass(frozen=True)
class Graphic:
    """A drawn object of a page: ``kind`` is ``"rule"`` (a horizontal line at most
    :data:`RULE_THICKNESS` thick: table rules, fraction bars, the footnote rule), ``"line"`` (any
    other line that thin: a tick mark, a vertical rule) or ``"shape"`` (a path with area, an
    image, a form); box in points from the page's top-left corner, as :class:`Line`'s."""

    kind: str
    x0: float
    top: float
    x1: float
    bottom: float


RULE_THICKNESS = 2.5
"""Points; a rule's box includes its stroke (booktabs' 0.8 pt \\toprule spans 1.6 pt)."""


@dataclass(frozen=True)
class HiddenRun:
    """A run of characters a human reader cannot see, left out of a page's lines.

    Attributes:
        text: the characters as PDFium extracts them (line breaks as ``\\n``).
        box: ``(left, bottom, right, top)`` in PDF points (origin bottom left).
        reason: why they are hidden, in words (``fill colour (255, 255, 255) on a white page``).
    """

    text: str
    box: tuple[float, float, float, float]
    reason: str


@dataclass
class PageLines:
    """All text lines of one page, with the page size in points, its drawn objects, and the hidden
    runs left out of its lines (:func:`rhetorica.documents.pdf.backends.extract_pdfium` with
    ``drop_hidden``)."""

    index: int
    width: float
    height: float
    lines: list[Line] = field(default_factory=list)
    graphics: list[Graphic] = field(default_factory=list)
    hidden: list[HiddenRun] = field(default_factory=list)
