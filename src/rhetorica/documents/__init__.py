"""rhetorica.documents: read papers (LaTeX projects, archives, PDF, Markdown) into blinded Documents.

Heavy readers are imported lazily inside :func:`read_document`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rhetorica.documents.options import DocumentReadError, ReadOptions

if TYPE_CHECKING:
    from rhetorica.documents.models import Document

__all__ = ["DocumentReadError", "ReadOptions", "read_document"]


def read_document(
    path: str | Path, *, doc_id: str | None = None, options: ReadOptions | None = None
) -> Document:
    """Read a paper into a :class:`~rhetorica.documents.models.Document`.

    Dispatches on the path: a folder or ``.tex`` file is a LaTeX project (main file detected by
    ``\\documentclass`` + ``\\begin{document}``); ``.tar.gz``/``.tgz``/``.tar``/``.zip`` is unpacked
    safely and read as a LaTeX project; ``.pdf`` goes to the PDF reader; ``.md``/``.txt`` to the
    Markdown reader (headings become sections).

    Args:
        path: file or folder.
        doc_id: document id; default the folder name or the file name without extension.
        options: reading options; default :class:`ReadOptions()` (cut after references, blind).

    Returns:
        The Document, with ``source`` (path, parser name and version, text hash), ``removed``
        (blinding audit) and ``warnings``. With ``options.max_words`` only the leading text within
        the budget is kept, cut at a paragraph boundary (see :func:`rhetorica.documents.excerpt.excerpt`).

    Raises:
        DocumentReadError: the input cannot be read; the message names the path and the problem.
    """
    from rhetorica.documents.excerpt import excerpt
    from rhetorica.documents.reader import default_doc_id, read_path

    options = options or ReadOptions()
    path = Path(path)
    try:
        document = read_path(path, doc_id or default_doc_id(path), options)
    except DocumentReadError:
        raise
    except (OSError, UnicodeError, ValueError, RecursionError) as exc:
        raise DocumentReadError(path, f"could not be read ({type(exc).__name__}: {exc})") from exc
    if document.word_count == 0:
        raise DocumentReadError(path, f"document '{document.id}' has no text after reading ({document.source.parser})")
    if options.max_words is not None:
        document = excerpt(document, options.max_words)
    return document
