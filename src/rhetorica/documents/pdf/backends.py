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
    text = text.replace("\ufffe", "\u00ad").replace("\x02", "\u00ad")
    return unicodedata.normalize("NFKC", text).replace("\ufffd", "")


def _is_bold(font_name: str) -> bool:
    name = font_name.lower()
    return any(k in name for k in ("bold", "black", "heavy", "semibold", "-medi", "cmbx", "demi"))


def extract_pdfium(path: Path) -> list[PageLines]:
    """Lines from PDFium's text page: its line breaks, with char boxes, font size and weight."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

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
            text = textpage.get_text_range()
            start = 0
            for raw_line in text.split("\r\n"):
                end = start + len(raw_line)
                boxes = [textpage.get_charbox(i) for i in range(start, end) if not raw_line[i - start].isspace()]
                if boxes and raw_line.strip():
                    sizes = [raw.FPDFText_GetFontSize(textpage.raw, i) for i in range(start, end, max(1, (end - start) // 8))]
                    weights = [_pdfium_weight(textpage, i) for i in range(start, end, max(1, (end - start) // 8))]
                    out.lines.append(Line(
                        page=index,
                        x0=min(b[0] for b in boxes), top=height - max(b[3] for b in boxes),
                        x1=max(b[2] for b in boxes), bottom=height - min(b[1] for b in boxes),
                        text=_norm(raw_line), size=float(statistics.median(sizes)),
                        bold=sum(w >= 600 for w in weights) >= 0.9 * len(weights),
                    ))
                start = end + 2
            textpage.close()
            page.close()
            pages.append(out)
    finally:
        pdf.close()
    return pages


def _pdfium_weight(textpage: object, index: int) -> int:
    """Font weight of a character; from the font name when the font does not declare one."""
    import ctypes

    import pypdfium2.raw as raw

    weight = raw.FPDFText_GetFontWeight(textpage.raw, index)  # type: ignore[attr-defined]
    if weight > 0:
        return int(weight)
    size = raw.FPDFText_GetFontInfo(textpage.raw, index, None, 0, None)  # type: ignore[attr-defined]
    buffer = ctypes.create_string_buffer(max(size, 1))
    raw.FPDFText_GetFontInfo(textpage.raw, index, buffer, size, None)  # type: ignore[attr-defined]
    return 700 if _is_bold(buffer.value.decode(errors="replace")) else 400


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
