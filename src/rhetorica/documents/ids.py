"""The one rule that gives a document its id (issue 23: a source's ids are kept verbatim).

1. **The source's id, verbatim**, when it gives one: a study entry's ``id`` (an entry naming one
   file or project), a review's id in its source (``review_id``, read by
   :func:`rhetorica.documents.reviews.model.source_id`: a number is kept as its JSON text), an
   imported rewrite's ``rewrite_id``.
2. **Otherwise generated from where the document sits:** a manuscript's id is its folder's name,
   or its file's name without its (possibly double) extension (:func:`path_id`); a review's is
   ``<paper>.review<n>`` and an imported rewrite's ``<original>.rewrite<n>``, n counting from 1
   within the paper (the original).

A review or rewrite whose id was generated says so in ``metadata.id_generated`` (``tables/ids.csv``
lists every id beside the source's). Ids are never changed afterwards: two documents of a study
with one id are refused (the second is reported, not renamed), and so is a paper id met again for
another paper (another ``forum_id``/``forum`` or title, in the same file or another): one problem
naming both places, never a merge.

3. **Scoped by file when the study says so** (``id_scope: file``): every paper, review and
   rewrite id read from a ``reviews``/``pairs`` file becomes ``<file>#<id>`` (:func:`scoped`),
   ``<file>`` the file's path as the study resolves it, relative to the study's folder where it
   lies below it; two files that each number their papers from 0 then stay two sets of papers.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rhetorica.documents.models import Document

ID_SCOPES = ("source", "file")
"""Values of a study's ``id_scope``: ids as the source wrote them (``source``, the default), or
prefixed by their file (``file``)."""

SCOPE_SEPARATOR = "#"
"""Joins a file scope and an id (``pairs/a.jsonl#0``)."""

ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".tar", ".zip", ".gz")
"""Suffixes of packed LaTeX sources (stripped whole from a file's name: ``paper.tar.gz`` -> ``paper``)."""


def path_id(path: Path) -> str:
    """A manuscript's generated id: a folder's name (of the folder ``path`` resolves to: ``.`` is the
    current folder's name, never ``""``), or a file's name without its (possibly double) extension
    (``paper.tar.gz`` -> ``paper``, ``paper.pdf`` -> ``paper``)."""
    name = path.name
    if path.is_dir():
        return path.resolve().name
    for suffix in ARCHIVE_SUFFIXES:
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return path.stem if path.is_file() else name


def manuscript_id(path: Path, given: str | None = None) -> str:
    """The id of the manuscript read from ``path``: ``given`` (the study entry's ``id``) verbatim,
    else :func:`path_id`."""
    return given if given else path_id(path)


def review_id(paper_id: str, index: int, given: str | None = None) -> str:
    """The id of the ``index``-th (1-based) review of ``paper_id``: the source's id ``given``
    verbatim, else ``<paper>.review<index>``."""
    return given if given is not None else f"{paper_id}.review{index}"


def rewrite_id(original_id: str, index: int, given: str | None = None) -> str:
    """The id of the ``index``-th (1-based) imported rewrite of ``original_id``: the source's
    ``rewrite_id`` verbatim, else ``<original>.rewrite<index>``."""
    return given if given else f"{original_id}.rewrite{index}"


def file_scope(path: Path, base_dir: Path) -> str:
    """The scope of the ids of ``path``: its path relative to ``base_dir`` when it lies below it,
    else as given, with ``/`` separators."""
    try:
        return path.resolve().relative_to(base_dir.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def scoped(document: Document, scope: str, rewrites_key: str | None = None) -> Document:
    """``document`` with its id and paper id prefixed by ``<scope>#`` (its imported rewrites'
    ``rewrite_id`` too, under ``metadata[rewrites_key]``); the source's ids stay verbatim in
    ``metadata.review_id`` and ``metadata.source_paper_id``; its text, hence its content hash, is
    unchanged."""
    metadata = {**document.metadata, "source_paper_id": document.paper_id}
    if rewrites_key and isinstance(metadata.get(rewrites_key), list):
        metadata[rewrites_key] = [{**r, "rewrite_id": f"{scope}{SCOPE_SEPARATOR}{r['rewrite_id']}"}
                                  for r in metadata[rewrites_key]]
    paper = None if document.paper_id is None else f"{scope}{SCOPE_SEPARATOR}{document.paper_id}"
    return document.model_copy(update={"id": f"{scope}{SCOPE_SEPARATOR}{document.id}", "paper_id": paper,
                                       "metadata": metadata})
