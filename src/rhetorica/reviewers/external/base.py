"""What every external reviewer system shares: the manuscript it reads, the cached and logged
call, and the reading of its answer (issue 15 §2; ARCHITECTURE.md, "Plug-ins").

An external call is cached, counted, timed and resumed like a model call, through the same store
cache and call log (:class:`rhetorica.models.cache.CallLog` on the unit's
:class:`~rhetorica.models.call.CallContext`) and the same single flight
(:func:`rhetorica.models.call.single_flight`: identical calls at the same time run the system
once); it is logged ``in_flight`` before it starts, so a killed run's calls become ``abandoned``
and are counted. Its answer is recorded as a
:class:`~rhetorica.models.api.ModelOutput` whose ``provider`` is the system's kind (``command``,
``http``, ``python``) and whose ``model`` is the configuration's name. The cache key hashes the
system's spec (everything that can change its answer), the manuscript as sent (text, or the PDF's
bytes) and the replicate index — never a timeout, and never a secret's value. Only ``ok`` answers
are cached; a failed call is logged with its status and reason.

Failures are data: ``timeout`` (ran past its limit), ``error`` (crashed, non-zero exit, HTTP
error, exception), ``empty`` (answered nothing), ``malformed`` (not a JSON object, or a review that
does not map onto the declared form — see :mod:`rhetorica.reviewers.external.adapters`).
"""

from __future__ import annotations

import hashlib
import json
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

from rhetorica.documents.inputs import (
    PDF_PATH_KEY,
    ReviewerInput,
    blind_document,
    pdf_input,
    record_input,
    reviewer_input,
)
from rhetorica.documents.options import DocumentReadError
from rhetorica.evaluation import Evaluation, Target
from rhetorica.forms import Form
from rhetorica.hashing import content_hash
from rhetorica.models.api import GenerateConfig, ModelOutput
from rhetorica.reviewers.external.adapters import Adapter, AdapterError, get_adapter
from rhetorica.status import Status
from rhetorica.documents.models import Document
from rhetorica.models.call import CallContext, single_flight


InputFormat = Literal["markdown", "text", "pdf"]

#: Longest stored reason for a failed call (characters).
REASON_CHARS = 500


class ManuscriptError(ValueError):
    """The manuscript cannot be given to the system in the configured format (e.g. no PDF)."""


class NoPdfError(ManuscriptError):
    """``input: pdf`` and the document has no PDF of its own (a variant of a text input, an original
    read from Markdown): the review is left out by design (``discarded``, an exclusion of the study
    flow), not a failure of the system."""


@dataclass(frozen=True)
class Manuscript:
    """The manuscript as the system receives it.

    Attributes:
        format: ``markdown`` | ``text`` | ``pdf``.
        text: the Markdown or plain text (``None`` for ``pdf``).
        pdf_path: the PDF file (``pdf`` only).
        digest: SHA-256 hex of what is sent (the text's UTF-8 bytes; for a PDF, see
            :class:`rhetorica.documents.inputs.PdfInput`).
        sent: the blinded text with its audit (for ``pdf``: the blinded copy's text layer).
    """

    format: InputFormat
    text: str | None
    pdf_path: Path | None
    digest: str
    sent: ReviewerInput | None = None


def plain_text(document: Document) -> str:
    """The document as plain text: title, then each section's title and body, blank-line separated."""
    parts = [document.title] if document.title else []
    for section in document.sections:
        parts.extend(p for p in (section.title, section.text.strip()) if p)
    return "\n\n".join(parts) + "\n"


def manuscript_for(target: Target, fmt: InputFormat) -> Manuscript:
    """What the system reads for ``target`` in format ``fmt``, blinded by the reviewer-input
    builder: text formats by :func:`rhetorica.documents.inputs.reviewer_input`, a PDF by
    :func:`rhetorica.documents.inputs.pdf_input` (a copy without the identity strings; the
    original file is never sent).

    The PDF is ``metadata["pdf_path"]`` (a compiled rendering of exactly this document, set by the
    stage that compiled it) or, for an original only, its source file when that is a ``.pdf``. A
    variant never falls back to its original's PDF (it would be reviewed as the original).

    Raises:
        NoPdfError: ``pdf`` asked for and this document has no PDF.
        ManuscriptError: its PDF is missing on disk or cannot be read.
    """
    document = target.document
    if fmt != "pdf":
        found = reviewer_input(document)  # blinded (rhetorica.documents.inputs)
        text = found.text if fmt == "markdown" else plain_text(blind_document(document)[0])
        return Manuscript(fmt, text, None, hashlib.sha256(text.encode("utf-8")).hexdigest(),
                          found.model_copy(update={"text": text}))
    compiled = document.metadata.get(PDF_PATH_KEY)
    source = Path(document.source.path)
    if compiled:
        path = Path(str(compiled))
    elif target.condition.original and source.suffix.lower() == ".pdf":
        path = source
    else:
        raise NoPdfError(f"{target.document_id} ({target.condition}): no PDF of this document for a reviewer "
                         "that reads PDFs (only LaTeX-project variants and originals read from a PDF have one)")
    if not path.is_file():
        raise ManuscriptError(f"{target.document_id} ({target.condition}): PDF {path} does not exist")
    try:
        blinded = pdf_input(document, path)
    except DocumentReadError as exc:
        raise ManuscriptError(f"{target.document_id} ({target.condition}): {exc}") from exc
    return Manuscript("pdf", None, blinded.path, blinded.digest, blinded.sent)


@dataclass(frozen=True)
class Reply:
    """What one live call of a system returned.

    Attributes:
        status: ``ok``, or ``timeout`` / ``error`` / ``empty`` / ``malformed`` (never cached).
        text: the answer as text (stdout, response body, the callable's JSON).
        reason: why it failed (``None`` when ok).
    """

    status: Status
    text: str = ""
    reason: str | None = None


class SystemOptions(Protocol):
    """What every external system's options carry: its input format and its answer's adapter."""

    input: InputFormat
    adapter: str
    form: str | None
    mapping: dict[int, int] | None
    rating_field: str


class ExternalReviewer(ABC):
    """An external reviewer system behind the :class:`rhetorica.evaluation.Evaluator` interface.

    Subclasses set :attr:`kind` and implement :meth:`system_spec` and :meth:`invoke`.

    Args:
        name: the configuration's name in the study.
        options: the system's options; their ``adapter``, ``form``, ``mapping`` and
            ``rating_field`` build the adapter that maps the native answer onto :attr:`form`
            (:func:`rhetorica.reviewers.external.adapters.get_adapter`), ``input`` is what the
            system reads (``markdown``, ``text`` or ``pdf``).

    Raises:
        rhetorica.reviewers.external.adapters.AdapterError: an unknown adapter or form.
    """

    kind: str = "external"

    def __init__(self, name: str, options: SystemOptions) -> None:
        self.name = name
        self.adapter: Adapter = get_adapter(options.adapter, form=options.form, mapping=options.mapping,
                                            rating_field=options.rating_field)
        self.input_format: InputFormat = options.input

    @property
    def form(self) -> Form:
        """The declared output form (the adapter's)."""
        return self.adapter.form

    @abstractmethod
    def system_spec(self) -> dict[str, Any]:
        """The options of this system that can change its answer (no timeouts, no secret values)."""

    @abstractmethod
    async def invoke(self, manuscript: Manuscript, target: Target) -> Reply:
        """Call the system once; never raises for a failed call (returns its status)."""

    def spec(self) -> dict[str, Any]:
        """Everything that can change the output (hashed into unit keys)."""
        return {"kind": self.kind, "input": self.input_format, **self.system_spec(), **self.adapter.spec()}

    def cache_key(self, manuscript: Manuscript, replicate: int) -> str:
        """Hash of (kind, spec, manuscript digest, replicate): equal inputs → equal key across runs."""
        return content_hash("external-call/v1", self.spec(), manuscript.digest, replicate, length=64)

    @property
    def provider(self) -> str:
        """The call log's provider of this system's calls: its kind."""
        return self.kind

    @property
    def model(self) -> str:
        """The call log's model of this system's calls: the configuration's name."""
        return self.name

    async def call(self, manuscript: Manuscript, target: Target, context: CallContext) -> ModelOutput:
        """One cached, logged call, under the rules of a model call
        (:func:`rhetorica.models.call.single_flight`): a cache hit makes no call, an identical call
        in flight is waited for and shared (one run of the system per cache key at a time), and
        the call is logged ``in_flight`` before the system starts, so a run killed meanwhile
        leaves an ``abandoned`` row. Only ``ok`` answers are cached."""
        key = self.cache_key(manuscript, target.replicate)
        config = GenerateConfig()
        return await single_flight(key, config, context, lambda: self._live(manuscript, target, key, config, context))

    async def _live(self, manuscript: Manuscript, target: Target, key: str, config: GenerateConfig,
                    context: CallContext) -> ModelOutput:
        log = context.log
        call_id = log.begin_call(context.unit_key, key, self, config, 0.0) if log is not None else None
        started = time.perf_counter()
        reply = await self.invoke(manuscript, target)
        output = ModelOutput(provider=self.kind, model=self.name, text=reply.text, status=reply.status,
                             error=reply.reason[:REASON_CHARS] if reply.reason else None,
                             latency_s=time.perf_counter() - started)
        if log is not None and call_id is not None:
            log.finish_call(call_id, output, config, key if output.status == Status.OK else None)
        return output

    async def evaluate(self, target: Target, context: CallContext) -> Evaluation:
        """Review ``target`` once through the system; failures come back as statuses, never raised."""
        try:
            manuscript = manuscript_for(target, self.input_format)
        except NoPdfError as exc:  # left out by design: an exclusion of the flow, never an error
            return Evaluation(Status.DISCARDED, str(exc))
        except ManuscriptError as exc:
            return Evaluation(Status.ERROR, str(exc))
        if manuscript.sent is not None:
            record_input(context, manuscript.sent)
        output = await self.call(manuscript, target, context)
        if output.status != Status.OK:
            return Evaluation(output.status, output.error, raw_text=output.text)
        return read_answer(output.text, self.adapter)


def read_answer(text: str, adapter: Adapter) -> Evaluation:
    """The evaluation of one answer: ``empty`` when blank, ``malformed`` when it is not one JSON
    object or does not map onto the adapter's form, else ``ok`` with validated scores."""
    if not text.strip():
        return Evaluation(Status.EMPTY, "the system answered nothing", raw_text=text)
    try:
        native = json.loads(text)
    except ValueError as exc:
        return Evaluation(Status.MALFORMED, f"the answer is not JSON: {exc}", raw_text=text)
    if not isinstance(native, dict):
        return Evaluation(Status.MALFORMED, f"the answer is a JSON {type(native).__name__}, not an object",
                          raw_text=text)
    try:
        payload = adapter.adapt(native)
    except AdapterError as exc:
        return Evaluation(Status.MALFORMED, f"{adapter.name} review: {exc}", raw_text=text)
    scores = {m.name: payload[m.name] for m in adapter.form.metrics}
    return Evaluation(Status.OK, scores=scores, payload=payload, raw_text=text)
