"""Reviews as a study's documents (the review-metric study, STUDIES.md §3; issue 13).

A study declares review sources among its ``documents``:

- ``{reviews: <file or glob>, paper: <id>}``: every review in the files
  (:func:`rhetorica.documents.reviews.read_reviews`: CMT ``.htm``, OpenReview ``.md``/``.json``,
  ISMIR ``.txt``), each one ``Document(kind="review")`` with ``paper_id`` (``paper``, by
  default the name of the files' folder, or of the folder above a folder named ``review(s)``), the
  reviewer's own scores as the human reference, reviewer identities blinded by the readers;
- ``{pairs: <file.jsonl>}``: the originals of a file of (original, rewrite) review pairs
  (:func:`rhetorica.documents.reviews.pairs.read_review_pairs`); their rewrites ride along under
  ``metadata.imported_rewrites`` (one dict per rewrite: ``rewriter``, ``condition``,
  ``rewrite_id``, ``text``, ``rating``: the rewrite's own rating, ``None`` when not given) for a rewriter of kind ``imported``
  (:mod:`rhetorica.judges.study`), which stores them as variants with no model call.

With the study's ``id_scope: file`` every id read from a file is prefixed by that file
(:func:`rhetorica.documents.ids.scoped`; each file of a ``reviews`` glob is then read on its own).
Each paper's identity as its source tells it (``forum_id``/``forum``, title) rides along in
``metadata.paper_identity`` (with ``metadata.paper_where``, its ``<file>:<line>``), so that
:func:`rhetorica.study.inputs.review_clash` refuses a paper id another file gave to another paper.

Each review goes through the one blinding function (:func:`rhetorica.documents.inputs.blinded`:
emails, the paper's own identifiers), so its content hash is that of the text a judge reads. A file
that cannot be read, or an unusable line or score, is one ``("ingest", item, reason)`` problem;
the rest is read.
"""

from __future__ import annotations

from pathlib import Path

from rhetorica.documents import ids as id_rule
from rhetorica.documents.inputs import blinded
from rhetorica.documents.models import Document
from rhetorica.documents.options import DocumentReadError
from rhetorica.files import resolve_pattern
from rhetorica.hashing import content_hash
from rhetorica.study.config import DocumentSpec
from rhetorica.documents.excerpt import excerpt
from rhetorica.documents.reviews import read_reviews
from rhetorica.documents.reviews.pairs import PairsError, read_review_pairs

IMPORTED = "imported_rewrites"
"""Metadata key of an imported original's rewrites: one mapping per rewrite with
:data:`IMPORTED_CONTENT` and where its id came from (:data:`IMPORTED_PROVENANCE`)."""

IMPORTED_CONTENT = ("rewriter", "condition", "rewrite_id", "text", "rating")
"""What an imported rewrite is: the keys of its mapping that the rewrite unit's input hash reads."""

IMPORTED_PROVENANCE = ("id_generated", "source")
"""Where an imported rewrite's id came from: ``id_generated`` (the source had no ``rewrite_id``;
``<review>.rewrite<k>`` was made) and ``source`` (``<file>:<line>``), for ``tables/ids.csv``;
not hashed (moving the file changes no unit)."""


def default_paper_id(path: Path) -> str:
    """The paper id of a review file: its folder's name, or the folder above one named
    ``review``/``reviews`` (``papers/chebnet_nips2016/review/reviews.htm`` -> ``chebnet_nips2016``)."""
    folder = path.parent
    return folder.parent.name if folder.name.lower() in ("review", "reviews") else folder.name


def review_documents(spec: DocumentSpec, base_dir: Path, problems: list[tuple[str, str, str]],
                     max_words: int | None = None, id_scope: str = "source") -> list[Document]:
    """The review documents of one ``reviews`` or ``pairs`` entry (see the module docstring).

    Args:
        spec: a document entry with ``reviews`` or ``pairs`` set.
        base_dir: folder relative paths are resolved against.
        problems: receives one ``("ingest", item, reason)`` per unusable file, line or score.
        max_words: keep each review's leading text up to this many words, cut at a paragraph
            boundary (:func:`rhetorica.documents.excerpt.excerpt`; ``document_options.max_words``).
        id_scope: the study's ``id_scope`` (``source`` or ``file``, :data:`rhetorica.documents.ids.ID_SCOPES`).
    """
    docs = [blinded(d) for d in _review_documents(spec, base_dir, problems, id_scope)]  # a judge reads it blinded
    if max_words is None:
        return docs

    return [excerpt(d, max_words) for d in docs]


def _review_documents(spec: DocumentSpec, base_dir: Path, problems: list[tuple[str, str, str]],
                      id_scope: str) -> list[Document]:
    if spec.pairs is not None:
        path = Path(spec.pairs) if Path(spec.pairs).is_absolute() else base_dir / spec.pairs
        docs = _pair_originals(path, problems)
        if id_scope == "file":
            scope = id_rule.file_scope(path, base_dir)
            return [id_rule.scoped(d, scope, IMPORTED) for d in docs]
        return docs
    assert spec.reviews is not None
    paths = [p for p in resolve_pattern(spec.reviews, base_dir) if p.is_file()]
    if not paths:
        problems.append(("ingest", spec.reviews, "no review file matches this path or glob"))
        return []

    paper = spec.paper or default_paper_id(paths[0])
    groups = [[p] for p in sorted(paths)] if id_scope == "file" else [paths]  # a file scope: each file alone
    docs: list[Document] = []
    for group in groups:
        try:
            reviews, found = read_reviews(group, paper)
        except DocumentReadError as exc:
            problems.append(("ingest", str(exc.path), exc.problem))
            continue
        problems.extend(("ingest", spec.reviews, p) for p in found)  # a line left out is an error, a note a warning
        empty = [r.id for r in reviews if not any(s.text.strip() for s in r.sections)]
        problems.extend(("ingest", f"{spec.reviews} ({rid})", "review has no text") for rid in empty)
        kept = [r for r in reviews if r.id not in empty]
        if id_scope == "file":
            kept = [id_rule.scoped(r, id_rule.file_scope(group[0], base_dir)) for r in kept]
        docs += kept
    return docs


def _pair_originals(path: Path, problems: list[tuple[str, str, str]]) -> list[Document]:

    try:
        imported = read_review_pairs(path)
    except PairsError as exc:
        problems.append(("ingest", str(path), str(exc)))
        return []
    problems.extend(("ingest", str(path), p) for p in imported.problems)
    rewrites: dict[str, list[dict[str, str]]] = {}
    for variant in imported.variants:
        meta = variant.metadata
        rewrites.setdefault(meta["original_id"], []).append({
            "rewriter": meta["rewriter"], "condition": meta["condition"], "rewrite_id": meta["rewrite_id"],
            "text": variant.sections[0].text, "rating": meta.get("rating"),
            "id_generated": bool(meta.get("id_generated")), "source": variant.source.path if variant.source else None})
    return [d.model_copy(update={"metadata": {**d.metadata, IMPORTED: rewrites.get(d.id, [])}})
            for d in imported.originals]


def imported_input_hash(document: Document) -> str:
    """The input hash of a rewrite unit: the document's content hash, and for an imported original
    the hash of its imported rewrites too (an edited pairs file makes new variants)."""
    rewrites = document.metadata.get(IMPORTED)
    return document.content_hash if not rewrites else content_hash(
        document.content_hash, [{k: r.get(k) for k in IMPORTED_CONTENT} for r in rewrites])
