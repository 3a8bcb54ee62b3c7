"""Science-core extraction: one LLM call (system = the extraction instruction, user = the
manuscript), the final JSON object parsed as a :class:`~.core.ScienceCore`, one repair attempt,
then validation against the manuscript (:mod:`.validate`).

:func:`extract_core` is self-contained — document, model, options and call context in, a
:class:`CoreResult` out, its cache key fixed by the calls it makes — so that it can run as SciCore's
first step or as the unit of an ``extract`` stage (document → extract) whose result SciCore then
reads (:meth:`rhetorica.reviewers.scicore.evaluator.SciCore.evaluate`'s ``core`` argument).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rhetorica.documents.inputs import record_input, reviewer_input
from rhetorica.documents.models import Document
from rhetorica.models.api import ChatMessage, GenerateConfig, ModelAPI
from rhetorica.models.call import CallContext
from rhetorica.reviewers.scicore.answer import AnswerError, ask_json, final_object
from rhetorica.reviewers.scicore.core import HEADINGS, ScienceCore, core_schema
from rhetorica.reviewers.scicore.instructions import EXTRACT, instruction, instruction_hash
from rhetorica.reviewers.scicore.support import SUPPORT_THRESHOLD
from rhetorica.reviewers.scicore.validate import CoreChecks, validate_core
from rhetorica.status import Status

#: Default output limit of one extraction (tokens): ten fields of short statements.
DEFAULT_CORE_TOKENS = 3000


class ExtractOptions(BaseModel):
    """Everything about an extraction that can change its result (its :meth:`spec` is hashed).

    Attributes:
        temperature, top_p: sampling (``None`` = the provider's default).
        max_tokens: output limit in tokens (> 0).
        max_input_words: cut the manuscript after this many words (``None`` = whole text).
        support_threshold: claim support threshold in [0, 1] (:mod:`.support`).
        instruction: the instruction text's name (a versioned file).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    temperature: float | None = None
    top_p: float | None = None
    max_tokens: int = Field(default=DEFAULT_CORE_TOKENS, gt=0)
    max_input_words: int | None = Field(default=None, gt=0)
    support_threshold: float = Field(default=SUPPORT_THRESHOLD, ge=0.0, le=1.0)
    instruction: str = EXTRACT

    def spec(self) -> dict[str, Any]:
        """The options plus the instruction's text hash."""
        return {**self.model_dump(), "instruction_version": instruction_hash(self.instruction)}


@dataclass(frozen=True)
class CoreResult:
    """One extraction.

    Attributes:
        status: ``ok`` (parsed and validated), ``malformed`` (not a valid core after one repair, or
            a core that fails its checks), or a model failure status.
        core: the parsed core (kept when it fails its checks, for inspection; ``None`` when it
            did not parse).
        checks: the validation outcome (``None`` when nothing parsed).
        reason: why it failed (``None`` when ok); for failed checks, every new number and
            unsupported claim by location.
        raw_text: the model's last answer.
        source_hash: content hash of the document the core was extracted from (an evaluator given
            a precomputed core checks it against its target).
        input_truncated: the manuscript was cut to ``max_input_words``.
    """

    status: Status
    core: ScienceCore | None
    checks: CoreChecks | None
    reason: str | None
    raw_text: str
    source_hash: str
    input_truncated: bool = False

    def artefact(self) -> dict[str, Any]:
        """JSON-able record of the extraction (what SciCore stores as ``science_core``; the raw
        text is kept apart, as an assessment's is)."""
        return {"status": str(self.status), "reason": self.reason,
                "core": self.core.model_dump() if self.core is not None else None,
                "checks": self.checks.to_dict() if self.checks is not None else None,
                "source_hash": self.source_hash, "input_truncated": self.input_truncated}

    @classmethod
    def from_artefact(cls, data: dict[str, Any], raw_text: str = "") -> CoreResult:
        """The result stored by :meth:`artefact` (an ``extract`` stage's stored unit, read back).

        Raises:
            KeyError, ValueError, pydantic.ValidationError: ``data`` is not such a record.
        """
        return cls(Status(data["status"]), ScienceCore.model_validate(data["core"]) if data["core"] else None,
                   CoreChecks.from_dict(data["checks"]) if data["checks"] else None, data["reason"], raw_text,
                   data["source_hash"], data["input_truncated"])


def parse_core(text: str) -> ScienceCore:
    """The final JSON object of ``text`` as a :class:`ScienceCore`.

    Raises:
        AnswerError: no JSON object, or one that does not fit (each problem as ``field: problem``).
    """
    data = final_object(text, HEADINGS)
    try:
        return ScienceCore.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'core'}: {e['msg']}" for e in exc.errors())
        raise AnswerError(problems) from exc


def extraction_messages(text: str, options: ExtractOptions) -> list[ChatMessage]:
    """The extraction call's messages for manuscript ``text``."""
    return [ChatMessage(role="system", content=instruction(options.instruction)),
            ChatMessage(role="user", content=text)]


async def extract_core(document: Document, model: ModelAPI, context: CallContext | None, *,
                       options: ExtractOptions | None = None, replicate: int = 0) -> CoreResult:
    """Extract and validate ``document``'s science core.

    Args:
        document: the manuscript (an original or a variant), read as its Markdown.
        model: the extracting model.
        context: the unit's call context (cache, call log, limits, budget).
        options: see :class:`ExtractOptions` (default: all defaults).
        replicate: replicate index (seed and cache key).

    Returns:
        :class:`CoreResult`; never raises for a failed extraction.
    """
    options = options or ExtractOptions()
    found = record_input(context, reviewer_input(document, max_words=options.max_input_words))
    text, truncated = found.text, found.truncated
    config = GenerateConfig(temperature=options.temperature, top_p=options.top_p, max_tokens=options.max_tokens,
                            seed=replicate, json_schema=core_schema())
    answer = await ask_json(model, extraction_messages(text, options), config, parse_core,
                            replicate=replicate, context=context)
    source = document.content_hash
    if answer.status != Status.OK or answer.value is None:
        return CoreResult(answer.status, None, None, answer.reason, answer.raw_text, source, truncated)
    checks = validate_core(answer.value, text, options.support_threshold)
    if not checks.ok:
        reason = f"the science core fails its checks: {checks.reason()}"
        return CoreResult(Status.MALFORMED, answer.value, checks, reason, answer.raw_text, source, truncated)
    return CoreResult(Status.OK, answer.value, checks, None, answer.raw_text, source, truncated)
