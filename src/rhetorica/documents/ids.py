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
with one id are refused (the second is reported, not renamed).
"""

from __future__ import annotations

from pathlib import Path

ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".tar", ".zip", ".gz")
"""Suffixes of packed LaTeX sources (stripped whole from a file's name: ``paper.tar.gz`` -> ``paper``)."""


def path_id(path: Path) -> str:
    """A manuscript's generated id: a folder's name, or a file's name without its (possibly double)
    extension (``paper.tar.gz`` -> ``paper``, ``paper.pdf`` -> ``paper``)."""
    name = path.name
    if path.is_dir():
        return name
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
