"""Scan manuscripts for hidden text and for instructions aimed at a reviewer or a model (issue 17).

- :func:`scan_path`: a file or folder as submitted — PDF (character colour, size, render mode, box,
  clip, covering objects, metadata), LaTeX project or file, archive of a LaTeX project,
  Markdown / HTML / plain text;
- :func:`scan_document`: a :class:`~rhetorica.documents.models.Document` as a reviewer reads it
  (its Markdown sections), plus its source file when that still exists.

A scan never modifies what it reads; it returns a :class:`ScanReport` of :class:`Finding`\\ s.
Heavy imports (pdfium) happen inside the functions.
"""

from __future__ import annotations

import functools
from pathlib import Path

from rhetorica.documents.scan.cache import ScanCache, source_key, text_key
from rhetorica.documents.scan.findings import (
    SCANNER_VERSION,
    SEVERITIES,
    Finding,
    Location,
    ScanReport,
    Severity,
    Unread,
)
from rhetorica.documents.archive import unpacked
from rhetorica.documents.options import DocumentReadError
from rhetorica.documents.scan.instructions import DIRECTIVE_CATEGORIES, rule_names
from rhetorica.documents.scan.latex import LATEX_SUFFIXES, scan_latex
from rhetorica.documents.scan.markup import line_locator, text_findings, scan_markup_file
from rhetorica.documents.pdf.unreadable import check_pdf_file, unreadable
from rhetorica.documents.scan.pdf import scan_pdf
from rhetorica.documents.models import Document


__all__ = ["SCANNER_VERSION", "SEVERITIES", "Finding", "Location", "ScanCache", "ScanError", "ScanReport", "Severity",
           "Unread", "scan_document", "scan_path", "scan_paths"]

MARKUP_SUFFIXES = (".md", ".markdown", ".html", ".htm", ".xhtml", ".txt", ".text")
ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".tar", ".zip")


class ScanError(ValueError):
    """An input that cannot be scanned; the message names the path and the problem."""

    def __init__(self, path: str | Path, problem: str) -> None:
        self.path = str(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")


def scan_path(path: str | Path, *, cache: ScanCache | None = None) -> ScanReport:
    """Scan one submitted file or folder.

    Args:
        path: a ``.pdf``; a LaTeX project folder, ``.tex``/``.sty``/``.cls`` file or archive
            (``.tar.gz``, ``.tgz``, ``.tar``, ``.zip``); a ``.md``/``.html``/``.txt`` file.
        cache: reports of earlier scans by path and content (:func:`~rhetorica.documents.scan.cache.source_key`);
            a report found there is returned without scanning, a new one is put there.

    Returns:
        The :class:`ScanReport`.

    Raises:
        ScanError: missing path, unsupported type, unreadable or undecodable file, a PDF pdfium
            cannot open, an unsafe archive.
    """
    path = Path(path)
    key = None
    if cache is not None:
        try:
            key = source_key(path)
        except OSError as exc:
            raise ScanError(path, f"cannot be read ({exc.strerror or exc})") from exc
        cached = cache.get(key)
        if cached is not None:
            return cached
    report = _scan_path(path)
    if cache is not None and key is not None:
        cache.put(key, report)
    return report


def _scan_path(path: Path) -> ScanReport:

    name = path.name.lower()
    try:
        if path.is_dir():
            return scan_latex(path)
        if not path.is_file():
            raise ScanError(path, "no such file or folder")
        if name.endswith(".pdf"):
            return _scan_pdf(path)
        if name.endswith(LATEX_SUFFIXES):
            return scan_latex(path)
        if name.endswith(ARCHIVE_SUFFIXES):
            return _scan_archive(path)
        if name.endswith(MARKUP_SUFFIXES):
            return scan_markup_file(path)
    except UnicodeDecodeError as exc:
        raise ScanError(path, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    except FileNotFoundError as exc:
        raise ScanError(path, str(exc).removeprefix(f"{path}: ")) from exc
    except OSError as exc:
        raise ScanError(path, f"cannot be read ({exc.strerror or exc})") from exc
    raise ScanError(path, "unsupported file type (expected .pdf, a LaTeX folder/.tex/archive, .md, .html or .txt)")


def _scan_pdf(path: Path) -> ScanReport:
    import pypdfium2 as pdfium


    try:
        check_pdf_file(path)
        return scan_pdf(path)
    except DocumentReadError as exc:
        raise ScanError(path, exc.problem) from exc
    except pdfium.PdfiumError as exc:
        raise ScanError(path, unreadable(str(exc), path=path)) from exc


def _scan_archive(path: Path) -> ScanReport:

    try:
        with unpacked(path) as folder:
            report = scan_latex(folder)
    except DocumentReadError as exc:
        raise ScanError(path, exc.problem) from exc
    return report.model_copy(update={"target": str(path)})


def scan_paths(paths: list[str | Path]) -> list[ScanReport | ScanError]:
    """:func:`scan_path` on each path; an input that cannot be scanned gives its :class:`ScanError`
    in its place (one bad input never stops the others)."""
    out: list[ScanReport | ScanError] = []
    for path in paths:
        try:
            out.append(scan_path(path))
        except ScanError as exc:
            out.append(exc)
    return out


def scan_document(document: Document, *, include_source: bool = True, cache: ScanCache | None = None) -> ScanReport:
    """Scan a document as a reviewer reads it, and its source file.

    Args:
        document: the document (title and every section's Markdown text are scanned; locations
            name the section and the line and column within its text).
        include_source: also scan ``document.source.path`` when it exists and is a PDF or LaTeX
            source (a PDF's colours, sizes and boxes are only in the file; a Markdown source is
            the document text itself); a source that cannot be scanned adds a note.

    Returns:
        ScanReport with ``format="document"`` and target ``document <id>``. For a review
        (``kind="review"``) the score/accept/praise/suppress rules are not applied (a review
        legitimately recommends acceptance); override, role, system and address rules are.
    """

    categories = None
    if document.kind == "review":
        categories = frozenset({n.split(":", 1)[1] for n in rule_names()} - DIRECTIVE_CATEGORIES)
    key = text_key(document, categories) if cache is not None else ""
    cached = cache.get(key) if cache is not None else None
    if cached is not None:
        report = cached.model_copy(update={"target": f"document {document.id}"})
    else:
        report = ScanReport(target=f"document {document.id}", format="document")
        if document.title:
            report.findings += text_findings(document.title, lambda i: Location(section="(title)", column=i + 1),
                                             categories=categories)
        for section in document.sections:
            report.findings += _section_findings(section.title, section.text, categories)
        if cache is not None:
            cache.put(key, report)
    report = report.model_copy(deep=True)
    source = Path(document.source.path) if document.source.path else None
    if include_source and source is not None and source.exists() and not source.name.lower().endswith(MARKUP_SUFFIXES):
        try:
            inner = scan_path(source, cache=cache)
        except ScanError as exc:
            report.notes.append(f"source not scanned: {exc}")
        else:
            report.findings = _without_echoes(report.findings, inner.findings) + inner.findings
            report.notes += inner.notes
            report.unread += inner.unread
    return report


@functools.lru_cache(maxsize=512)
def _section_findings(title: str, text: str, categories: frozenset[str] | None) -> tuple[Finding, ...]:
    """:func:`text_findings` of one section (locations name the section and the line and column in
    its text), remembered: a variant's sections that its rewriter left unchanged are scanned once.
    The findings are shared: :func:`scan_document` returns deep copies."""
    return tuple(text_findings(text, line_locator(text, section=title), categories=categories))


def _squash(text: str) -> str:
    return " ".join(text.split()).casefold()


def _without_echoes(text_findings: list[Finding], source_findings: list[Finding]) -> list[Finding]:
    """Drop visible-instruction findings of the extracted text that are the extracted copy of a hidden
    span already reported from the source file (the source finding says more: why it is hidden)."""
    hidden = [_squash(f.hidden_text) for f in source_findings if f.hidden_text]
    return [f for f in text_findings
            if f.kind != "instruction" or not any(_squash(f.decoded or f.text) in h for h in hidden)]
