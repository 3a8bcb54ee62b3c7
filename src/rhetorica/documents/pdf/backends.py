"""PDF text-extraction backends behind one interface: ``extract(path) -> list[PageLines]``.

Each backend only turns a PDF into positioned lines; reading order, headings, cleaning and
blinding are done once for all of them in :mod:`rhetorica.documents.pdf.layout`.

Backends (all permissively licensed, offline):

========== ============================== =========================================
name       package                        licence
========== ============================== =========================================
pdfium     pypdfium2 (PDFium)             Apache-2.0 or BSD-3-Clause; PDFium BSD-3
pdfminer   pdfminer.six                   MIT
pdfplumber pdfplumber (on pdfminer.six)   MIT
pypdf      pypdf                          BSD-3-Clause
========== ============================== =========================================

The default order (first = default, the rest are fallbacks) was chosen by measured quality and
speed on the shared PDFs (``benchmarks/bench_pdf_backends.py``).
"""

from __future__ import annotations

import logging
import re
import statistics
import unicodedata
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

from rhetorica.documents.pdf.lines import Line, PageLines

DEFAULT_ORDER = ("pdfium", "pdfminer", "pypdf")
PACKAGES = {"pdfium": "pypdfium2", "pdfminer": "pdfminer.six", "pdfplumber": "pdfplumber", "pypdf": "pypdf"}


class PdfEncryptedError(Exception):
    """The PDF needs a password."""


class PdfInvalidError(Exception):
    """The file is not a readable PDF."""


def backend_version(name: str) -> str:
    """Installed version of the package behind backend ``name`` (``"unknown"`` if absent)."""
    try:
        return metadata.version(PACKAGES[name])
    except metadata.PackageNotFoundError:
        return "unknown"


def available_backends() -> list[str]:
    """Names of backends whose package is installed."""
    return [name for name in PACKAGES if backend_version(name) != "unknown"]


def _norm(text: str) -> str:
    """NFKC text; soft hyphens marked ``\\u00ad``; an accent set before its letter (``Micha¨el``,
    as TeX's accent primitive places it) is attached to that letter."""
    text = text.replace("\ufffe", "\u00ad").replace("\x02", "\u00ad")
    text = unicodedata.normalize("NFKC", text).replace("\ufffd", "")
    text = re.sub(r"(?<=[A-Za-z]) ([\u0300-\u036f])([A-Za-z])", r"\2\1", text)
    text = re.sub(r"(?:(?<=\s)|^)([\u0300-\u036f])([A-Za-z])", r"\2\1", text)
    return unicodedata.normalize("NFC", text)


def _is_bold(font_name: str) -> bool:
    name = font_name.lower()
    return any(k in name for k in ("bold", "black", "heavy", "semibold", "-medi", "cmbx", "demi"))


def extract_pdfium(path: Path) -> list[PageLines]:
    """Lines from PDFium's text page, split where PDFium ran two fragments together.

    PDFium's own line breaks are kept, but a line is cut where the horizontal gap between two
    characters exceeds 1.2 x the font size (a column gutter), or 0.4 x after a run of digits only
    (a line number in the margin), or where the text goes backwards or changes baseline. Rotated
    characters (a diagonal watermark, a vertical arXiv stamp) become separate lines flagged
    ``rotated``. Cost: a constant number of PDFium calls per character.
    """
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        if "password" in str(exc).lower():
            raise PdfEncryptedError(str(exc)) from exc
        raise PdfInvalidError(str(exc)) from exc
    pages: list[PageLines] = []
    try:
        for index in range(len(pdf)):
            page = pdf[index]
            width, height = page.get_size()
            textpage = page.get_textpage()
            out = PageLines(index=index, width=width, height=height)
            text = _pdfium_chars(textpage)
            start = 0
            for raw_line in text.split("\r\n"):
                if raw_line.strip():
                    out.lines.extend(_pdfium_line(textpage, index, height, start, raw_line))
                start += len(raw_line) + 2
            textpage.close()
            page.close()
            pages.append(out)
    finally:
        pdf.close()
    return pages


def _pdfium_chars(textpage: object) -> str:
    """The page's characters, one per PDFium character index.

    ``get_text_range`` is not used: it expands ligatures (``ﬃ`` -> ``ffi``), so its offsets drift
    from the character indices that boxes and fonts are looked up by, and every box after the
    first ligature of a page belongs to another character.
    """
    import pypdfium2.raw as raw

    count = raw.FPDFText_CountChars(textpage.raw)  # type: ignore[attr-defined]
    codes = [raw.FPDFText_GetUnicode(textpage.raw, i) for i in range(count)]  # type: ignore[attr-defined]
    chars = []
    for k, c in enumerate(codes):
        if 0xD800 <= c < 0xDC00 and k + 1 < count and 0xDC00 <= codes[k + 1] < 0xE000:
            c = 0x10000 + ((c - 0xD800) << 10) + (codes[k + 1] - 0xDC00)  # a UTF-16 pair: one char
            codes[k + 1] = 0
        chars.append(chr(c) if 0 < c < 0x110000 and not 0xD800 <= c < 0xE000 else "\ufffd")
    return "".join(chars)


_Char = tuple[int, float, float, float, float, float]  # offset, x0, y0, x1, y1, size
_SOFT_HYPHENS = "\x02\ufffe\u00ad"


def _is_rotated(angle: float) -> bool:
    turn = 6.283185307179586
    a = angle % turn
    return min(a, turn - a) > 0.05


def _pdfium_line(textpage: object, page: int, height: float, start: int, raw_line: str) -> list[Line]:
    """Split one PDFium line into fragments (see :func:`extract_pdfium`).

    A character with an empty box (PDFium gives some glyphs a point box, sometimes far from the
    glyph) and PDFium's line-end hyphen take no part in the geometry: they go with the fragment of
    the next (or previous) character that has a box.
    """
    import pypdfium2.raw as raw

    upright: list[list[_Char]] = []
    rotated: list[_Char] = []
    floating: list[_Char] = []
    digits = True
    for offset, ch in enumerate(raw_line):
        if ch.isspace():
            continue
        i = start + offset
        x0, y0, x1, y1 = textpage.get_charbox(i)  # type: ignore[attr-defined]
        size = float(raw.FPDFText_GetFontSize(textpage.raw, i))  # type: ignore[attr-defined]
        char = (offset, x0, y0, x1, y1, max(size, y1 - y0))
        if _is_rotated(raw.FPDFText_GetCharAngle(textpage.raw, i)):  # type: ignore[attr-defined]
            rotated.append(char)
            continue
        if ch in _SOFT_HYPHENS or (x1 - x0 < 0.01 and y1 - y0 < 0.01):
            if upright and not floating:
                upright[-1].append((offset, *upright[-1][-1][1:]))
            else:
                floating.append(char)
            continue
        if upright:
            prev = upright[-1][-1]
            gap = x0 - prev[3]
            scale = max(prev[5], 1.0)
            if gap > 1.2 * scale or (digits and gap > 0.4 * scale) or x1 < prev[1] - scale \
                    or abs((y0 + y1) - (prev[2] + prev[4])) / 2 > 1.2 * scale:
                upright.append([])
                digits = True
        else:
            upright.append([])
            digits = True
        digits = digits and ch.isdigit()  # the fragment so far is a number (a line number?)
        upright[-1].extend((f[0], *char[1:]) for f in floating)
        floating = []
        upright[-1].append(char)
    if floating and upright:
        upright[-1].extend((f[0], *upright[-1][-1][1:]) for f in floating)
    lines = [_pdfium_fragment(textpage, page, height, start, raw_line, chars, False) for chars in upright]
    if rotated:
        lines.append(_pdfium_fragment(textpage, page, height, start, raw_line, rotated, True))
    return [ln for ln in lines if ln.text.strip()]


def _pdfium_fragment(
    textpage: object, page: int, height: float, start: int, raw_line: str, chars: list[_Char], rotated: bool
) -> Line:
    import pypdfium2.raw as raw

    keep = {c[0] for c in chars}
    first, last = chars[0][0], chars[-1][0]
    if rotated:
        text = "".join(ch for k, ch in enumerate(raw_line) if k in keep or (ch.isspace() and first < k < last))
    else:
        text = raw_line[first:last + 1]
    step = max(1, len(chars) // 8)
    sample = chars[::step]
    sizes = [float(raw.FPDFText_GetFontSize(textpage.raw, start + c[0])) for c in sample]  # type: ignore[attr-defined]
    styles = [_pdfium_style(textpage, start + c[0]) for c in sample]
    return Line(
        page=page, x0=min(c[1] for c in chars), top=height - max(c[4] for c in chars),
        x1=max(c[3] for c in chars), bottom=height - min(c[2] for c in chars),
        text=_norm(text), size=float(statistics.median(sizes)),
        bold=sum(st[0] for st in styles) >= 0.9 * len(styles), rotated=rotated,
        italic=sum(st[1] for st in styles) >= 0.9 * len(styles),
        smallcaps=sum(st[2] for st in styles) >= 0.5 * len(styles),
    )


def _pdfium_style(textpage: object, index: int) -> tuple[bool, bool, bool]:
    """``(bold, italic, small caps)`` of a character: the declared weight (>= 600) or a bold font
    name; the font's italic flag (PDF font flag 7) or an italic name; a small-caps font name."""
    import ctypes

    import pypdfium2.raw as raw

    weight = raw.FPDFText_GetFontWeight(textpage.raw, index)  # type: ignore[attr-defined]
    size = raw.FPDFText_GetFontInfo(textpage.raw, index, None, 0, None)  # type: ignore[attr-defined]
    buffer = ctypes.create_string_buffer(max(size, 1))
    flags = ctypes.c_int(0)
    raw.FPDFText_GetFontInfo(textpage.raw, index, buffer, size, flags)  # type: ignore[attr-defined]
    name = buffer.value.decode(errors="replace")
    lower = name.lower()
    italic = bool(flags.value & 64) or any(k in lower for k in ("italic", "oblique", "ital", "cmti", "cmmi"))
    caps = "caps" in lower or "cmcsc" in lower or lower.endswith("-sc")
    return weight >= 600 or _is_bold(name), italic, caps


def _pdfminer_pages(path: Path) -> list[PageLines]:
    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LAParams, LTChar, LTTextContainer, LTTextLine
    from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect
    from pdfminer.pdfparser import PDFSyntaxError

    pages: list[PageLines] = []
    try:
        for index, layout in enumerate(extract_pages(str(path), laparams=LAParams())):
            out = PageLines(index=index, width=layout.width, height=layout.height)
            for element in layout:
                if not isinstance(element, LTTextContainer):
                    continue
                for line in element:
                    if not isinstance(line, LTTextLine) or not line.get_text().strip():
                        continue
                    chars = [c for c in line if isinstance(c, LTChar)]
                    size = statistics.median(c.size for c in chars) if chars else 0.0
                    bold = sum(_is_bold(c.fontname) for c in chars) >= 0.9 * len(chars) if chars else False
                    out.lines.append(Line(
                        page=index, x0=line.x0, top=layout.height - line.y1, x1=line.x1,
                        bottom=layout.height - line.y0, text=_norm(line.get_text().rstrip("\n")),
                        size=float(size), bold=bold,
                    ))
            pages.append(out)
    except (PDFPasswordIncorrect, PDFEncryptionError) as exc:
        raise PdfEncryptedError(str(exc) or type(exc).__name__) from exc
    except PDFSyntaxError as exc:
        raise PdfInvalidError(str(exc)) from exc
    return pages


def extract_pdfminer(path: Path) -> list[PageLines]:
    """Lines from pdfminer.six's layout analysis (default ``LAParams``)."""
    logging.getLogger("pdfminer").setLevel(logging.ERROR)
    return _pdfminer_pages(path)


def extract_pdfplumber(path: Path) -> list[PageLines]:
    """Lines from pdfplumber's ``extract_text_lines`` (pdfminer.six underneath)."""
    import pdfplumber
    from pdfminer.pdfdocument import PDFPasswordIncorrect
    from pdfminer.pdfparser import PDFSyntaxError

    logging.getLogger("pdfminer").setLevel(logging.ERROR)
    pages: list[PageLines] = []
    try:
        with pdfplumber.open(str(path)) as pdf:
            for index, page in enumerate(pdf.pages):
                out = PageLines(index=index, width=float(page.width), height=float(page.height))
                for line in page.extract_text_lines(return_chars=True, x_tolerance=1.5):
                    chars = line.get("chars", [])
                    size = statistics.median(c["size"] for c in chars) if chars else 0.0
                    bold = sum(_is_bold(c.get("fontname", "")) for c in chars) >= 0.9 * len(chars) if chars else False
                    out.lines.append(Line(
                        page=index, x0=line["x0"], top=line["top"], x1=line["x1"], bottom=line["bottom"],
                        text=_norm(line["text"]), size=float(size), bold=bold,
                    ))
                pages.append(out)
    except PDFPasswordIncorrect as exc:
        raise PdfEncryptedError(str(exc) or "password required") from exc
    except PDFSyntaxError as exc:
        raise PdfInvalidError(str(exc)) from exc
    return pages


def extract_pypdf(path: Path) -> list[PageLines]:
    """Lines from pypdf's text visitor: fragments grouped by baseline (widths estimated)."""
    import pypdf
    from pypdf.errors import FileNotDecryptedError, PdfReadError

    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = pypdf.PdfReader(str(path))
        if reader.is_encrypted and not reader.decrypt(""):
            raise PdfEncryptedError("password required")
        pages: list[PageLines] = []
        for index, page in enumerate(reader.pages):
            width, height = float(page.mediabox.width), float(page.mediabox.height)
            fragments: list[tuple[float, float, str, float, bool]] = []

            def visit(
                text: str, cm: list[float], tm: list[float], font: dict | None, size: float,
                fragments: list[tuple[float, float, str, float, bool]] = fragments,
            ) -> None:
                if not text.strip():
                    return
                x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
                y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
                scale = (abs(tm[3] * cm[3]) or abs(tm[0] * cm[0]) or 1.0)
                name = str((font or {}).get("/BaseFont", ""))
                for k, piece in enumerate(text.split("\n")):
                    if piece.strip():
                        fragments.append((x, y - k * size * scale * 1.2, piece, size * scale, _is_bold(name)))

            page.extract_text(visitor_text=visit)
            out = PageLines(index=index, width=width, height=height)
            fragments.sort(key=lambda f: (-round(f[1]), f[0]))
            row: list[tuple[float, float, str, float, bool]] = []
            for frag in [*fragments, (0.0, float("-inf"), "", 0.0, False)]:
                if row and (abs(frag[1] - row[0][1]) > 2 or frag[0] - _row_end(row) > 3 * row[-1][3]):
                    size = statistics.median(f[3] for f in row)
                    out.lines.append(Line(
                        page=index, x0=row[0][0], top=height - row[0][1] - size, x1=_row_end(row),
                        bottom=height - row[0][1] + 0.2 * size,
                        text=_norm(" ".join(f[2].strip() for f in row)), size=size,
                        bold=sum(f[4] for f in row) >= 0.9 * len(row),
                    ))
                    row = []
                row.append(frag)
            pages.append(out)
        return pages
    except FileNotDecryptedError as exc:
        raise PdfEncryptedError(str(exc)) from exc
    except PdfReadError as exc:
        raise PdfInvalidError(str(exc)) from exc


def _row_end(row: list[tuple[float, float, str, float, bool]]) -> float:
    last = row[-1]
    return last[0] + 0.5 * last[3] * len(last[2])


BACKENDS: dict[str, Callable[[Path], list[PageLines]]] = {
    "pdfium": extract_pdfium,
    "pdfminer": extract_pdfminer,
    "pdfplumber": extract_pdfplumber,
    "pypdf": extract_pypdf,
}
