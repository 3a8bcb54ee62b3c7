"""Scan results cached by the content that was scanned, so an unchanged input is scanned once.

A cache is anything with :meth:`ScanCache.get` and :meth:`ScanCache.put` (the study store's
``scan_cache`` table through :class:`rhetorica.study.scanning.StoreScanCache`). Keys name what was
scanned and the rules it was scanned with (:data:`~rhetorica.documents.scan.findings.SCANNER_VERSION`):

- :func:`text_key`: a document's text (kind and content hash: title and every section);
- :func:`source_key`: a source file or LaTeX project by its path (locations name it) and the
  SHA-256 of its bytes (for a folder: of every LaTeX source file in it, with its relative path).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Protocol

from rhetorica.documents.scan.findings import SCANNER_VERSION, ScanReport
from rhetorica.hashing import content_hash
from rhetorica.documents.scan.latex import LATEX_SUFFIXES
from rhetorica.documents.models import Document



class ScanCache(Protocol):
    """Where scan reports are kept between runs."""

    def get(self, key: str) -> ScanReport | None:
        """The report stored under ``key``, ``None`` when there is none."""

    def put(self, key: str, report: ScanReport) -> None:
        """Keep ``report`` under ``key``."""


def text_key(document: Document, categories: frozenset[str] | None) -> str:
    """Key of the scan of ``document``'s text with the instruction rule ``categories`` (``None``: all)."""
    return content_hash("scan-text", SCANNER_VERSION, document.kind, document.content_hash,
                        sorted(categories) if categories is not None else None)


def source_key(path: Path) -> str:
    """Key of the scan of the file or LaTeX project folder at ``path``.

    Raises:
        OSError: if a file cannot be read.
    """

    digest = hashlib.sha256()
    if path.is_dir():
        for file in sorted(p for p in path.rglob("*") if p.suffix.lower() in LATEX_SUFFIXES and p.is_file()):
            digest.update(file.relative_to(path).as_posix().encode() + b"\0" + file.read_bytes() + b"\0")
    else:
        digest.update(path.read_bytes())
    return content_hash("scan-source", SCANNER_VERSION, str(path), digest.hexdigest())
