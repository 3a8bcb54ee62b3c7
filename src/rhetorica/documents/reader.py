"""Dispatch a path to the right reader (LaTeX project, archive, PDF, Markdown, plain text)."""

from __future__ import annotations

from pathlib import Path

from rhetorica.documents.ids import ARCHIVE_SUFFIXES
from rhetorica.documents.models import Document
from rhetorica.documents.options import DocumentReadError, ReadOptions
from rhetorica.documents.archive import unpacked
from rhetorica.documents.latex.reader import read_latex
from rhetorica.documents.markdown import read_markdown
from rhetorica.documents.pdf.reader import read_pdf


def read_path(path: Path, doc_id: str, options: ReadOptions) -> Document:
    """Read ``path`` according to its kind; see :func:`rhetorica.documents.read_document`."""
    name = path.name.lower()
    if path.is_dir():

        return read_latex(path, doc_id, options)
    if not path.is_file():
        raise DocumentReadError(path, "no such file or folder")
    if path.stat().st_size == 0:
        raise DocumentReadError(path, "file is empty (0 bytes)")
    if name.endswith(ARCHIVE_SUFFIXES):

        with unpacked(path) as folder:

            document = read_latex(folder, doc_id, options)
        return document.model_copy(update={
            "source": document.source.model_copy(update={"path": str(path)}),
            "metadata": {**document.metadata, "archive": path.name},
        })
    if name.endswith(".tex"):

        return read_latex(path, doc_id, options)
    if name.endswith(".pdf"):

        return read_pdf(path, doc_id, options)
    if name.endswith((".md", ".markdown", ".txt", ".text")):

        return read_markdown(path, doc_id, options)
    raise DocumentReadError(
        path, "unsupported file type (expected a folder, .tex, .tar.gz, .zip, .pdf, .md or .txt)"
    )
