"""ReconstructReview, SciCore's baseline (STUDIES.md §4), registered as evaluator kind
``reconstruct``: extract the science core, rebuild a manuscript (Markdown) from it with an LLM,
and review the rebuilt manuscript under ``standard`` on the ``iclr-2026`` form.

Artefacts: ``science_core`` (the extraction), ``reconstruction`` (the rebuilt Markdown) and
``reconstruction_new_numbers`` (numbers of the rebuilt manuscript that the original does not
state, :mod:`.numbers`; a diagnostic — the reconstruction instruction forbids them, and the study
can count how often a rebuilt manuscript adds one). A failed extraction, rebuild or review fails
the assessment with its status and a reason naming the step.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from rhetorica.documents.inputs import identity_metadata, record_input, reviewer_input
from rhetorica.documents.models import Document, DocumentSource, Section
from rhetorica.evaluation import Evaluation, Target
from rhetorica.forms import Form
from rhetorica.models.api import ChatMessage, GenerateConfig, ModelAPI
from rhetorica.models.call import CallContext, call_model
from rhetorica.reviewers.form import is_refusal, strip_reasoning
from rhetorica.reviewers.protocols import get_protocol, protocol_version
from rhetorica.reviewers.scicore.answer import refusal_reason
from rhetorica.reviewers.scicore.base import CoreEvaluator, CoreOptions, branch_failure
from rhetorica.reviewers.scicore.core import core_document
from rhetorica.reviewers.scicore.extract import CoreResult
from rhetorica.reviewers.scicore.instructions import RECONSTRUCT, instruction, instruction_hash
from rhetorica.reviewers.scicore.numbers import appears, find_numbers, manuscript_values
from rhetorica.reviewers.scicore.review import protocol_form, review_on_form
from rhetorica.status import Status

#: Default output limit of one reconstruction (tokens).
DEFAULT_RECONSTRUCTION_TOKENS = 6000


class RebuildOptions(BaseModel):
    """Options of the reconstruction call (part of the spec).

    Attributes:
        temperature, top_p: sampling (``None`` = the provider's default).
        max_tokens: output limit in tokens (> 0).
        instruction: the instruction text's name (a versioned file).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    temperature: float | None = None
    top_p: float | None = None
    max_tokens: int = Field(default=DEFAULT_RECONSTRUCTION_TOKENS, gt=0)
    instruction: str = RECONSTRUCT

    def spec(self) -> dict[str, Any]:
        return {**self.model_dump(), "instruction_version": instruction_hash(self.instruction)}


async def reconstruct(record: Document, model: ModelAPI, *, replicate: int, options: RebuildOptions,
                      context: CallContext | None) -> Evaluation:
    """Rebuild a manuscript from a science record.

    Returns:
        An :class:`~rhetorica.evaluation.Evaluation` without scores whose ``raw_text`` is the
        Markdown (reasoning removed) when ``ok``; ``refused`` for a plain-text refusal, ``empty``
        for no text, or the model's failure status.
    """
    messages = [ChatMessage(role="system", content=instruction(options.instruction)),
                ChatMessage(role="user", content=record_input(context, reviewer_input(record)).text)]
    config = GenerateConfig(temperature=options.temperature, top_p=options.top_p, max_tokens=options.max_tokens,
                            seed=replicate)
    output = await call_model(model, messages, config, replicate=replicate, context=context)
    if output.status != Status.OK:
        return Evaluation(output.status, output.error, raw_text=output.text)
    text = strip_reasoning(output.text).strip()
    if not text:
        return Evaluation(Status.EMPTY, "the reconstruction is empty", raw_text=output.text)
    if is_refusal(text):
        return Evaluation(Status.REFUSED, refusal_reason(text), raw_text=output.text)
    return Evaluation(Status.OK, raw_text=text)


def reconstruction_document(markdown: str, original: Document) -> Document:
    """The rebuilt manuscript as a :class:`Document` (one untitled section holding the Markdown;
    the original's id and source path, parser ``scicore-reconstruction``)."""
    return Document(id=original.id, sections=[Section(title="", text=markdown)],
                    source=DocumentSource(path=original.source.path, parser="scicore-reconstruction",
                                          parser_version="1"),
                    metadata={"reconstruction_of": original.content_hash, **identity_metadata(original)})


class ReconstructOptions(CoreOptions):
    """The ``options`` of a ``kind: reconstruct`` reviewer: :class:`~.base.CoreOptions`, the final
    review's protocol and the reconstruction call's options."""

    protocol: str = Field(default="standard", description="protocol of the review of the rebuilt manuscript")
    rebuild: RebuildOptions = Field(default_factory=RebuildOptions, description="sampling and limit of the "
                                                                                 "reconstruction call")


class ReconstructReview(CoreEvaluator):
    """The ReconstructReview baseline (see the module docstring).

    Args:
        name, model, extractor: as :class:`~.base.CoreEvaluator` (the extractor also rebuilds the
            manuscript).
        **options: :class:`ReconstructOptions` fields (final protocol, rebuild, review and extract options).

    Raises:
        rhetorica.reviewers.protocols.UnknownProtocolError: an unknown protocol.
        pydantic.ValidationError: an unknown or ill-typed option.
    """

    kind = "reconstruct"
    options_model = ReconstructOptions
    options: ReconstructOptions

    def __init__(self, name: str, *, model: ModelAPI, **options: Any) -> None:
        super().__init__(name, model=model, **options)
        self.protocol = get_protocol(self.options.protocol)
        self.form: Form = protocol_form(self.protocol)
        self.rebuild = self.options.rebuild

    def spec(self) -> dict[str, Any]:
        """Models, protocol and version, form, and the extraction, rebuild and review options."""
        return {**self.base_spec(), "protocol": self.protocol.name, "protocol_version": protocol_version(self.protocol),
                "form": f"{self.form.name}@{self.form.version}", "rebuild": self.rebuild.spec()}

    async def evaluate(self, target: Target, context: CallContext, *, core: CoreResult | None = None) -> Evaluation:
        """Extract (or take ``core``), rebuild, review; never raises for a failed assessment."""
        extracted = await self.science_core(target, context, core)
        failure = self.core_failure(target, extracted)
        if failure is not None:
            return failure
        assert extracted.core is not None
        artefacts: dict[str, Any] = {"science_core": extracted.artefact()}
        record = core_document(extracted.core, target.document)
        rebuilt = await reconstruct(record, self.extractor, replicate=target.replicate, options=self.rebuild,
                                    context=context)
        if rebuilt.status != Status.OK:
            return branch_failure("reconstruction", rebuilt, artefacts)
        values = manuscript_values(target.document.to_markdown())
        artefacts["reconstruction"] = rebuilt.raw_text
        artefacts["reconstruction_new_numbers"] = [n.text for n in find_numbers(rebuilt.raw_text)
                                                   if not appears(n, values)]
        review = await review_on_form(reconstruction_document(rebuilt.raw_text, target.document), self.protocol,
                                      self.model, replicate=target.replicate, options=self.review, context=context,
                                      system_note=target.notice)
        if review.status != Status.OK:
            return branch_failure("review of the reconstruction", review, artefacts)
        review.artefacts = artefacts
        return review


def reconstruct_review(name: str, **options: Any) -> ReconstructReview:
    """Factory of the ``reconstruct`` evaluator kind (options as :class:`ReconstructReview`)."""
    return ReconstructReview(name, **options)
