"""rhetorica.documents: read papers (LaTeX projects, archives, PDF, Markdown) into blinded Documents.

Heavy readers are imported lazily inside :func:`read_document`.
"""

from __future__ import annotations

from pathlib import Path

from rhetorica.documents.options import DocumentReadError, ReadOptions
from rhetorica.documents.excerpt import excerpt
from rhetorica.documents.ids import manuscript_id
from rhetorica.documents.reader import read_path
from rhetorica.documents.scan.hidden_text import check_hidden_text
from rhetorica.documents.models import Document
from rhetorica.documents.scan.cache import ScanCache


__all__ = ["DocumentReadError", "ReadOptions", "read_document"]


def read_document(
    path: str | Path, *, doc_id: str | None = None, options: ReadOptions | None = None,
    scan_cache: ScanCache | None = None,
) -> Document:
    """Read a paper into a :class:`~rhetorica.documents.models.Document`.

    Dispatches on the path: a folder or ``.tex`` file is a LaTeX project (main file detected by
    ``\\documentclass`` + ``\\begin{document}``); ``.tar.gz``/``.tgz``/``.tar``/``.zip`` is unpacked
    safely and read as a LaTeX project; ``.pdf`` goes to the PDF reader; ``.md``/``.txt`` to the
    Markdown reader (headings become sections).

    Args:
        path: file or folder.
        doc_id: document id; default the folder name or the file name without extension.
        options: reading options; default :class:`ReadOptions()` (cut after references, blind,
            hidden text dropped).
        scan_cache: earlier scan reports, so that the hidden-text check scans an unchanged source once.

    Returns:
        The Document, with ``source`` (path, parser name and version, text hash), ``removed``
        (blinding audit, hidden text dropped) and ``warnings`` (one per hidden span, see
        :func:`rhetorica.documents.scan.hidden_text.apply_hidden_text`). With ``options.max_words`` only the leading text within
        the budget is kept, cut at a paragraph boundary (see :func:`rhetorica.documents.excerpt.excerpt`).

    Raises:
        DocumentReadError: the input cannot be read; the message names the path and the problem.
    """

    options = options or ReadOptions()
    path = Path(path)
    try:
        document = read_path(path, manuscript_id(path, doc_id), options)
    except DocumentReadError:
        raise
    except (OSError, UnicodeError, ValueError, RecursionError) as exc:
        raise DocumentReadError(path, f"could not be read ({type(exc).__name__}: {exc})") from exc
    if document.word_count == 0:
        raise DocumentReadError(path, f"document '{document.id}' has no text after reading ({document.source.parser})")
    document = check_hidden_text(document, options.hidden_text, scan_cache)
    if options.max_words is not None:
        document = excerpt(document, options.max_words)
    return document
