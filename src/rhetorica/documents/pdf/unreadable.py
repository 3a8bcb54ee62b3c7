"""Why a file cannot be read as a PDF, in the one wording the reader (``ingest``, studies) and the
scan (``scan``) both give."""

from __future__ import annotations

import re
from pathlib import Path

from rhetorica.documents.options import DocumentReadError

ENCRYPTED = "PDF is encrypted (password required); decrypt it first"


def check_pdf_file(path: Path) -> None:
    """Cheap checks before parsing.

    Raises:
        DocumentReadError: empty file, or no ``%PDF-`` header in the first 1 KiB.
    """
    with path.open("rb") as handle:
        head = handle.read(1024)
    if not head:
        raise DocumentReadError(path, "file is empty (0 bytes)")
    if b"%PDF-" not in head:
        raise DocumentReadError(path, "not a PDF (no %PDF- header); check the file type")


def unreadable(message: str, kind: str = "", path: Path | None = None) -> str:
    """The problem of a PDF that PDFium could not open or read, from the error's ``message``
    (``Failed to load document (PDFium: Data format error).``) and ``kind`` (the worker's error
    class: ``PdfEncryptedError``, ``Crash``, ...): encrypted when ``kind`` says so or the message
    names a password; else ``not a readable PDF (pdfium: <PDFium's error>)`` for a load error
    (PDFium's "Success", a file it could not load without naming an error, e.g. one without pages,
    as "could not load the document"), or ``not a readable PDF (pdfium: <kind>: <message>)``.

    PDFium keeps its last error per process, and a load that fails without an error of its own
    (a file without pages) reports the one before: in a process that opened other PDFs (the scan),
    give ``path``, so that a password error counts only for a file that declares encryption
    (:func:`declares_encryption`)."""
    if kind == "PdfEncryptedError" or ("password" in message.lower() and (path is None or declares_encryption(path))):
        return ENCRYPTED
    error = re.search(r"\(PDFium: ([^)]*)\)", message)
    if error:
        said = error.group(1).strip()
        stale = said.lower() == "success" or "password" in said.lower()
        return f"not a readable PDF (pdfium: {'could not load the document' if stale else said})"
    shown = kind if kind and kind != "PdfInvalidError" else ""
    return f"not a readable PDF (pdfium: {shown + ': ' if shown else ''}{message[:300]})"


def declares_encryption(path: Path) -> bool:
    """Whether the PDF at ``path`` declares an encryption dictionary (``/Encrypt`` in its last MiB,
    where its trailer is)."""
    with path.open("rb") as handle:
        handle.seek(0, 2)
        handle.seek(max(0, handle.tell() - (1 << 20)))
        return b"/Encrypt" in handle.read()
