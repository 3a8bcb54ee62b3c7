"""The backend-neutral unit of PDF text: one positioned line."""

from __future__ import annotations

from dataclasses import dataclass, field


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


@dataclass
class PageLines:
    """All text lines of one page, with the page size in points."""

    index: int
    width: float
    height: float
    lines: list[Line] = field(default_factory=list)
