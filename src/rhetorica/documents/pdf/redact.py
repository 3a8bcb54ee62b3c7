"""A blinded copy of a PDF: what a reviewer system that reads PDF files receives (issue 24 §1).

The text that blinding removed (a blinding audit: the author block line by line, author names and
lists, emails, identity URLs, the paper's own DOIs/ISBNs/arXiv ids, running headers naming an
author, the acknowledgements) and the authors' names, emails and own identifiers are looked up in the PDF's
text layer and removed from the page, so the file holds neither the text nor the glyphs. The
reviewer-input builder (:func:`rhetorica.documents.inputs.pdf_input`) gathers the audit: the
document reader's, the one blinding function's on the document, and the one blinding function's on
the PDF's own text layer.

How: PDFium (pypdfium2) finds each string on each page with letters and digits compared
case-folded without accents and everything else ignored (a URL broken across a line or hyphenated still matches);
every text object of the page content that overlaps a found character is removed, and so is every
annotation over one and every link that opens an identity URL (``\\href{https://github.com/<author>}{our
code}`` shows no identity string but opens one); the document information (author, title, subject,
keywords, creator) is not copied: the copy is written from the pages alone. A text object is a run
of text in one font (pdfTeX writes one per font change within a line), so a removed run may carry
words next to an identity string; every removed run is in the audit with its page.

Strings shorter than :data:`MIN_PROBE` letters and digits are looked up only when they are an
acronym (3 to 5 letters and digits, two capitals or more: ``EPFL``, ``UvA``), as a whole word as
written; any other short string is not looked up (too many chance matches: ``and``).
"""

from __future__ import annotations

import ctypes
import re
from pathlib import Path

from rhetorica.documents.blinding import Identity, fold
from rhetorica.documents.models import RemovedItem

#: Audit items whose text names or points at the authors (see the module docstring).
IDENTITY_ITEMS = frozenset({"author block", "author list", "author name", "email", "identity URL",
                            "acknowledgements section"})
MIN_PROBE = 6
_ACRONYM = re.compile(r"(?=(?:[^A-Z]*[A-Z]){2})[A-Za-z0-9]{3,5}")  # EPFL, UvA, LTS2: two capitals or more


def _compact(text: str) -> str:
    """Letters and digits, lower-case, accents dropped (PDF text may set "ë" as "e" after a
    spacing diaeresis: "Micha¨el")."""
    return fold(text)


def identity_strings(identity: Identity, removed: list[RemovedItem]) -> list[str]:
    """The strings to remove from a PDF: the identity-carrying entries of the blinding audit
    ``removed``, line by line and cell by cell (see :data:`IDENTITY_ITEMS`; ``own ...`` items are the paper's own
    identifiers; a running header that holds an author's surname), and the names, emails and own identifiers of ``identity``; longest first,
    without duplicates, none under :data:`MIN_PROBE` letters and digits but acronyms (module
    docstring)."""
    found: list[str] = [*identity.names, *identity.emails, *identity.own_ids]
    for item in removed:
        # a running header names the authors ("Seo et al.") or the venue or the paper's short title
        # (kept: it is also part of the title)
        header = item.item == "running header" and any(s in fold(item.text) for s in identity.surnames)
        if item.item in IDENTITY_ITEMS or item.item.startswith("own ") or header:
            # line by line, and cell by cell: authors set side by side are read as one line with
            # wide gaps (see rhetorica.documents.pdf.layout.table_cells)
            found.extend(cell.strip() for line in item.text.splitlines() for cell in re.split(r" {3,}", line))
    unique = {_compact(s): s for s in map(str.strip, found) if len(_compact(s)) >= MIN_PROBE or _ACRONYM.fullmatch(s)}
    return sorted(unique.values(), key=lambda s: -len(_compact(s)))


def pdf_text(path: Path) -> str:
    """The text layer of every page of ``path`` as PDFium reads it, pages apart by a blank line.

    Raises:
        pypdfium2.PdfiumError: ``path`` is no readable PDF.
    """
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        return "\n\n".join(pdf[i].get_textpage().get_text_range().replace("\r\n", "\n") for i in range(len(pdf)))
    finally:
        pdf.close()


def _boxes(textpage: object, probes: list[str]) -> list[tuple[float, float, float, float]]:
    """Boxes ``(left, bottom, right, top)`` of every character of every probe found on the page."""
    import pypdfium2.raw as pdfium_c

    count = pdfium_c.FPDFText_CountChars(textpage.raw)  # type: ignore[attr-defined]
    raw = "".join(chr(pdfium_c.FPDFText_GetUnicode(textpage.raw, i) or 32) for i in range(count))  # type: ignore[attr-defined]
    chars: list[str] = []
    index: list[int] = []
    for i, ch in enumerate(raw):
        folded = _compact(ch)
        chars.append(folded)
        index.extend([i] * len(folded))
    hay = "".join(chars)
    found: set[int] = set()
    for probe in probes:
        key = _compact(probe)
        if len(key) >= MIN_PROBE:
            found.update(index[k] for m in re.finditer(re.escape(key), hay) for k in range(m.start(), m.end()))
        else:  # a short one (an acronym: EPFL) as a whole word, as written
            word = re.compile(r"(?<!\w)" + re.escape(probe.strip()) + r"(?!\w)")
            found.update(k for m in word.finditer(raw) for k in range(m.start(), m.end()))
    return [textpage.get_charbox(i) for i in sorted(found)]  # type: ignore[attr-defined]


def _overlaps(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _object_text(obj: object, textpage: object) -> str:
    import pypdfium2.raw as pdfium_c

    size = pdfium_c.FPDFTextObj_GetText(obj.raw, textpage.raw, None, 0)  # type: ignore[attr-defined]
    buffer = (ctypes.c_ushort * (size // 2 + 1))()
    pdfium_c.FPDFTextObj_GetText(obj.raw, textpage.raw, buffer, size)  # type: ignore[attr-defined]
    text = bytes(buffer)[: max(size - 2, 0)].decode("utf-16-le", errors="replace")
    return text.replace("\x02", "-")  # PDFium's mark of a hyphen that ends a line


def _link_uri(pdf: object, annot: object) -> str:
    """The URI a link annotation opens (``""`` for any other annotation)."""
    import pypdfium2.raw as pdfium_c

    link = pdfium_c.FPDFAnnot_GetLink(annot)
    action = pdfium_c.FPDFLink_GetAction(link) if link else None
    if not action or pdfium_c.FPDFAction_GetType(action) != pdfium_c.PDFACTION_URI:
        return ""
    size = pdfium_c.FPDFAction_GetURIPath(pdf.raw, action, None, 0)  # type: ignore[attr-defined]
    buffer = ctypes.create_string_buffer(size)
    pdfium_c.FPDFAction_GetURIPath(pdf.raw, action, buffer, size)  # type: ignore[attr-defined]
    return buffer.value.decode("ascii", errors="replace")


def redact_pdf(source: Path, strings: list[str], out: Path, identity: Identity | None = None) -> list[RemovedItem]:
    """Write ``source`` to ``out`` without the text runs that show any of ``strings`` and the
    annotations over them or whose link opens an identity URL (one of ``strings``, or one that
    ``identity`` names: :meth:`Identity.why`); returns the audit, one entry per removed run or
    annotation (module docstring).

    Raises:
        pypdfium2.PdfiumError: ``source`` is no readable PDF.
    """
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    probes = [s for s in strings if len(_compact(s)) >= MIN_PROBE or _ACRONYM.fullmatch(s.strip())]
    keys = [_compact(s) for s in probes]
    pdf = pdfium.PdfDocument(str(source))
    removed: list[RemovedItem] = []
    copy = pdfium.PdfDocument.new()
    try:
        for number in range(len(pdf)):
            page = pdf[number]
            textpage = page.get_textpage()
            boxes = _boxes(textpage, probes) if probes else []
            where = f"page {number + 1}"
            for obj in list(page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_TEXT], max_depth=1)) if boxes else []:
                if any(_overlaps(obj.get_bounds(), box) for box in boxes):
                    removed.append(RemovedItem(item="PDF text run", location=where, text=_object_text(obj, textpage),
                                               reason="shows an identity string of the blinding audit"))
                    page.remove_obj(obj)
            for k in reversed(range(pdfium_c.FPDFPage_GetAnnotCount(page.raw))):
                annot = pdfium_c.FPDFPage_GetAnnot(page.raw, k)
                rect = pdfium_c.FS_RECTF()
                pdfium_c.FPDFAnnot_GetRect(annot, rect)
                target = _link_uri(pdf, annot)
                pdfium_c.FPDFPage_CloseAnnot(annot)
                area = (rect.left, min(rect.bottom, rect.top), rect.right, max(rect.bottom, rect.top))
                if any(_overlaps(area, box) for box in boxes):
                    why = "lies over an identity string"
                elif target and any(key in _compact(target) for key in keys):
                    why = "its link opens an identity string"
                elif target and identity is not None and (named := identity.why(target)):
                    why = f"its link opens an identity URL ({named})"
                else:
                    continue
                pdfium_c.FPDFPage_RemoveAnnot(page.raw, k)
                removed.append(RemovedItem(item="PDF annotation", location=where, text=target, reason=why))
            if boxes:
                page.gen_content()
        copy.import_pages(pdf)
        out.parent.mkdir(parents=True, exist_ok=True)
        copy.save(str(out))
    finally:
        copy.close()
        pdf.close()
    return removed
