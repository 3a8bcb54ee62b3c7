"""What an evaluator reads: the one builder of every reviewer and judge input (issue 24 §1).

Every text a reviewer, judge, SciCore branch or guided-review step receives is built here, and
every one goes through the one blinding function (:func:`rhetorica.documents.blinding.scrub_text`,
with acknowledgement sections dropped by :func:`~rhetorica.documents.blinding.blind_sections`)
with the authors the document's reader found (``metadata["identity"]``,
:meth:`~rhetorica.documents.blinding.Identity.record`). For a document a reader has blinded
already, the builder changes nothing (blinding twice removes nothing more); it blinds what no
reader produced: the compiled PDF of a rewritten project, a science record, a review shown to a
judge, the review text that guides a second rewrite, the defence's notice.

Each input carries its audit — everything removed from the text the evaluator read, and why: the
reader's removals (``Document.removed``) and the builder's own. A unit that sends an input records
it through its call context (:func:`record_input`); the study store keeps the text and its audit
per unit (``reviewer_inputs``, ``unit_inputs``; schema version 8).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, Field, PrivateAttr

from rhetorica.documents.blinding import IDENTITY_KEY, Identity, blind_sections, scrub_text
from rhetorica.documents.models import Document, Memo, RemovedItem, Section
from rhetorica.documents.options import DocumentReadError
from rhetorica.hashing import canonical_json, content_hash
from rhetorica.documents.pdf.redact import identity_strings, pdf_text, redact_pdf
import hashlib
import os
import tempfile
from rhetorica.models.call import CallContext



class ReviewerInput(BaseModel):
    """One text an evaluator reads.

    Attributes:
        role: what it is: ``manuscript`` (a paper or variant under review), ``review`` (a review a
            judge assesses), ``reference review``, ``science record``, ``reconstruction``,
            ``guided feedback`` (the review text that guides a second rewrite), ``notice`` (the
            defence's note in the system prompt).
        text: exactly the text sent (blinded; cut after ``max_words`` words when given).
        truncated: the text was cut to the evaluator's input limit.
        removed: the blinding audit of this text: the reader's removals, then the builder's.
    """

    role: str
    text: str
    truncated: bool = False
    removed: list[RemovedItem] = Field(default_factory=list)

    _hash_memo: tuple[str, list[RemovedItem], str, int] | None = PrivateAttr(default=None)

    @property
    def input_hash(self) -> str:
        """Hash of the text and its audit (the store keeps each distinct input once).

        Remembered with the very objects it was computed from: an input whose text or audit was
        replaced (or whose audit list changed length) is hashed again."""
        memo = self._hash_memo
        if memo is not None and memo[0] is self.text and memo[1] is self.removed and len(memo[1]) == memo[3]:
            return memo[2]
        digest = content_hash(self.text, [r.model_dump() for r in self.removed])
        self._hash_memo = Memo((self.text, self.removed, digest, len(self.removed)))
        return digest


@runtime_checkable
class InputLog(Protocol):
    """A call log that also keeps the inputs of the unit it logs for (the study runner's)."""

    def record_input(self, unit_key: str, item: ReviewerInput) -> None: ...


#: Metadata keys of documents derived from a manuscript, with the role of their text.
_DERIVED = {"science_record_of": "science record", "reconstruction_of": "reconstruction"}


def identity_of(document: Document) -> Identity:
    """The authors a reader found for ``document`` (empty when none was recorded)."""
    return Identity.from_record(document.metadata.get(IDENTITY_KEY))


def identity_metadata(document: Document) -> dict[str, Any]:
    """``{"identity": ...}`` of ``document`` for a document derived from it (a science record, a
    reconstruction), or ``{}``."""
    record = document.metadata.get(IDENTITY_KEY)
    return {IDENTITY_KEY: record} if record else {}


def _blinding_key(document: Document) -> tuple[str, str]:
    """What blinding ``document`` depends on: its sections (content hash) and its identity."""
    return document.content_hash, canonical_json(document.metadata.get(IDENTITY_KEY))


def _blind(document: Document) -> tuple[list[Section], list[RemovedItem]]:
    removed: list[RemovedItem] = []
    return blind_sections(document.sections, identity_of(document), removed), removed


def blind_document(document: Document) -> tuple[Document, list[RemovedItem]]:
    """``document`` through the one blinding function with its own identity.

    The result depends only on the sections (the content hash) and the identity, so it is
    remembered with ``document`` (its blinded sections only when something was removed) and a
    second call on it (the next replicate's judge or external review) blinds nothing again.

    Returns:
        The blinded copy (``document`` itself when nothing was removed) and what this call removed.
    """
    key = _blinding_key(document)
    memo = document._blind_memo
    if memo is None or memo[0] != key:
        sections, removed = _blind(document)
        memo = document._blind_memo = Memo((key, sections if removed else None, removed))
    if not memo[2]:
        return document, []
    return document.model_copy(update={"sections": list(memo[1])}), list(memo[2])


def cut_words(text: str, max_words: int | None) -> tuple[str, bool]:
    """``text`` cut after ``max_words`` words (``True`` when cut; ``None``: never)."""
    if max_words is None:
        return text, False
    words = list(re.finditer(r"\S+", text))
    if len(words) <= max_words:
        return text, False
    return text[: words[max_words - 1].end()] + "\n", True


def reviewer_input(document: Document, *, role: str | None = None, max_words: int | None = None) -> ReviewerInput:
    """The Markdown an evaluator reads of ``document``: blinded (:func:`blind_document`), then cut
    after ``max_words`` words.

    Args:
        document: a manuscript, variant, review, science record or reconstruction.
        role: see :class:`ReviewerInput`; ``None``: ``review`` for a review, ``science record`` /
            ``reconstruction`` for those (their metadata says so), else ``manuscript``.
        max_words: the evaluator's input limit in words (``None``: the whole text).

    Returns:
        The input; a second call with the same document, role and limit returns the same object
        (do not change it).
    """
    if role is None:
        role = "review" if document.kind == "review" else next(
            (name for key, name in _DERIVED.items() if key in document.metadata), "manuscript")
    key = (*_blinding_key(document), role, max_words)
    memo = document._input_memo  # the same input for every replicate: made (and hashed) once
    if memo is not None and memo[0] == key and memo[1] is document.removed and len(memo[1]) == memo[3]:
        return memo[2]
    sections, removed = _blind(document)  # not remembered apart: the input itself is
    blinded = document.model_copy(update={"sections": sections}) if removed else document  # as blind_document
    text, truncated = cut_words(blinded.to_markdown(), max_words)
    found = ReviewerInput(role=role, text=text, truncated=truncated, removed=[*document.removed, *removed])
    document._input_memo = Memo((key, document.removed, found, len(document.removed)))
    return found


def text_input(text: str, about: Document, role: str) -> ReviewerInput:
    """Free text about ``about`` that an evaluator or rewriter reads (guided feedback, a notice),
    through the one blinding function with ``about``'s identity."""
    removed: list[RemovedItem] = []
    blinded = scrub_text(text, identity_of(about), role, removed)
    return ReviewerInput(role=role, text=blinded, removed=removed)


#: Version of the PDF blinding, part of every blinded PDF's digest.
PDF_PATH_KEY = "pdf_path"
"""Document metadata key of a PDF that renders exactly that document (a compiled LaTeX variant):
what a reviewer that reads PDF files gets, blinded by :func:`pdf_input`."""

PDF_BLINDING = "pdf-redact/v1"


class PdfInput(BaseModel):
    """The PDF file an evaluator that reads PDF files receives.

    Attributes:
        path: the blinded copy (:func:`rhetorica.documents.pdf.redact.redact_pdf`).
        digest: SHA-256 hex of the source PDF's bytes, the strings removed, the identity and
            :data:`PDF_BLINDING` (the copy's own bytes carry its creation time).
        sent: its text layer as the evaluator's PDF reader will find it, with the blinding audit:
            the document's removals, the blinding function's, and each removed text run.
    """

    path: Path
    digest: str
    sent: ReviewerInput


def pdf_input(document: Document, source: Path, folder: Path | None = None) -> PdfInput:
    """A blinded copy of ``source``, the PDF that ``document`` was read from (or compiled to), for
    an evaluator that reads PDF files.

    What is removed from the PDF: every identity string of the blinding audit of ``document``
    (its reader's and :func:`blind_document`'s) and of the one blinding function
    (:func:`~rhetorica.documents.blinding.scrub_text`) applied to the PDF's own text layer with
    ``document``'s identity, and the identity's names, emails and own identifiers
    (:func:`rhetorica.documents.pdf.redact.identity_strings`), and every link that opens an
    identity URL. The copy is written to
    ``folder`` (default: ``rhetorica-blinded-pdfs`` in the system's temporary folder) as
    ``<digest>.pdf``.

    Raises:
        DocumentReadError: ``source`` is no readable PDF (the message names it).
    """

    from pypdfium2 import PdfiumError


    identity = identity_of(document)
    found: list[RemovedItem] = []
    try:
        scrub_text(pdf_text(source), identity, "PDF text layer", found)
    except PdfiumError as exc:
        raise DocumentReadError(source, f"not a readable PDF ({exc})") from exc
    # a text layer has no paragraphs: a short page naming two authors is no author list (the
    # names themselves are looked up one by one)
    found = [item for item in found if item.item != "author list"]
    _, extra = blind_document(document)
    removed = [*document.removed, *extra, *found]
    strings = identity_strings(identity, removed)
    digest = content_hash(PDF_BLINDING, hashlib.sha256(source.read_bytes()).hexdigest(), strings,
                          identity.record(), length=64)
    folder = folder or Path(tempfile.gettempdir()) / "rhetorica-blinded-pdfs"
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / f"{digest}.pdf"
    partial = folder / f"{digest}.{os.getpid()}.part"
    audit = redact_pdf(source, strings, partial, identity)
    partial.replace(out)  # atomic: a concurrent call writes the same content
    return PdfInput(path=out, digest=digest,
                    sent=ReviewerInput(role="manuscript", text=pdf_text(out), removed=[*removed, *audit]))


def record_input(context: CallContext | None, item: ReviewerInput) -> ReviewerInput:
    """Keep ``item`` with the unit of ``context`` when its call log keeps inputs (the study
    runner's does; a bare context keeps nothing). Returns ``item``."""
    log = context.log if context is not None else None
    if isinstance(log, InputLog) and context is not None and context.unit_key is not None:
        log.record_input(context.unit_key, item)
    return item


def blinded(document: Document) -> Document:
    """``document`` through :func:`blind_document`, the removals appended to its audit (a reader
    of documents that names no authors, e.g. reviews, still loses emails and identifiers)."""
    found, removed = blind_document(document)
    return found.model_copy(update={"removed": [*document.removed, *removed]}) if removed else document


def with_identity(document: Document, identity: Identity) -> Document:
    """``document`` blinded again with ``identity`` added to its own (the authors a LaTeX source
    names, for the text of its compiled PDF), the merged identity recorded in its metadata and
    the removals appended to its audit."""
    merged = identity_of(document).merged(identity)
    if not merged:
        return document
    return blinded(document.model_copy(update={"metadata": {**document.metadata, IDENTITY_KEY: merged.record()}}))
