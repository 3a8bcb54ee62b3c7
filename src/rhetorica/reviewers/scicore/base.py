"""What SciCore and ReconstructReview share: the models, the extraction options, the extraction
step (or a precomputed core) and the branch-failure rule.

A branch failure fails the whole assessment with the branch's status and a reason that names the
branch (``"science-core extraction: …"``); an evaluator never reports a score computed from one
branch alone.

A core that parses but fails its checks (a new number, an unsupported claim) fails the
assessment too, unless the configuration sets ``require_valid_core: false``: then the core is
reviewed anyway and the failed checks are stored with it (``science_core.checks``; SciCore's
``core_valid`` diagnostic is 0). This is for studies of small models whose cores rarely pass; the
checks are never skipped and their outcome is never hidden.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from rhetorica.evaluation import Evaluation, Target
from rhetorica.models.api import ModelAPI
from rhetorica.models.call import CallContext
from rhetorica.reviewers.scicore.extract import CoreResult, ExtractOptions, extract_core
from rhetorica.reviewers.scicore.review import ReviewOptions
from rhetorica.status import Status


class CoreOptions(BaseModel):
    """The ``options`` every science-core reviewer takes (``kind: scicore``, ``kind: reconstruct``;
    each kind's model adds its own), checked when the study loads.

    Attributes:
        extractor: the model (an id or a declared model's name) that extracts the core and
            rebuilds a manuscript; ``None``: the reviewing model.
        model_id, extractor_id: the models as stored in specs (``None``: ``provider/model``).
        review: :class:`~.review.ReviewOptions` (sampling and input limit of the review calls).
        extract: :class:`~.extract.ExtractOptions` (sampling, limits, support threshold).
        require_valid_core: a core that fails its checks fails the assessment (default); ``False``
            reviews it anyway (see the module docstring).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    extractor: str | None = Field(default=None, description="model that extracts the core (default: the reviewing "
                                                            "model)")
    model_id: str | None = Field(default=None, description="the reviewing model as stored in specs "
                                                           "(default provider/model)")
    extractor_id: str | None = Field(default=None, description="the extractor as stored in specs "
                                                               "(default provider/model)")
    review: ReviewOptions = Field(default_factory=ReviewOptions, description="sampling and input limit of the "
                                                                             "review calls")
    extract: ExtractOptions = Field(default_factory=ExtractOptions, description="sampling, limits and support "
                                                                                "threshold of the extraction")
    require_valid_core: bool = Field(default=True, description="a core that fails its checks fails the assessment; "
                                                               "false reviews it anyway, checks stored")


class CoreEvaluator:
    """Base of the evaluators that read a science core.

    Args:
        name: the configuration's name in the study.
        model: the reviewing model (every review call).
        extractor: the model that extracts the core (and rebuilds a manuscript); default ``model``.
        **options: the fields of the subclass's :attr:`options_model` (a :class:`CoreOptions`),
            ``extractor`` aside.

    Raises:
        pydantic.ValidationError: an unknown or ill-typed option (nested ones included, e.g.
            ``review.max_tokens``).
    """

    kind: str  # set by each subclass: its evaluator kind
    options_model: ClassVar[type[CoreOptions]] = CoreOptions

    def __init__(self, name: str, *, model: ModelAPI, extractor: ModelAPI | None = None, **options: Any) -> None:
        self.options = self.options_model.model_validate(options)
        self.name = name
        self.model = model
        self.extractor = extractor or model
        self.model_id = self.options.model_id or f"{model.provider}/{model.model}"
        self.extractor_id = self.options.extractor_id or (
            self.model_id if extractor is None else f"{self.extractor.provider}/{self.extractor.model}")
        self.review = self.options.review
        self.extract = self.options.extract
        self.require_valid_core = self.options.require_valid_core

    def extract_spec(self) -> dict[str, Any]:
        """What fixes this evaluator's extraction: the extractor and the extraction's spec. Two
        configurations with equal extract specs read the same core (an ``extract`` stage keys its
        unit on it with the document's content hash and the replicate)."""
        return {"extractor": self.extractor_id, **self.extract.spec()}

    def base_spec(self) -> dict[str, Any]:
        """Kind, reviewing model, review options and the extract spec."""
        return {"kind": self.kind, "model": self.model_id, "review": self.review.model_dump(),
                "extract": self.extract_spec(), "require_valid_core": self.require_valid_core}

    async def science_core(self, target: Target, context: CallContext, core: CoreResult | None) -> CoreResult:
        """``core`` when given (a precomputed extraction of ``target.document``), else a new extraction."""
        if core is not None:
            return core
        return await extract_core(target.document, self.extractor, context, options=self.extract,
                                  replicate=target.replicate)

    def core_failure(self, target: Target, extracted: CoreResult) -> Evaluation | None:
        """The failed assessment when the core is unusable: failed (a core that only fails its
        checks is usable when ``require_valid_core`` is off), or extracted from another document."""
        artefacts = {"science_core": extracted.artefact()}
        if extracted.source_hash != target.document.content_hash:
            return Evaluation(Status.ERROR, f"{target.document_id} ({target.condition}): the science core given was "
                              "extracted from another document", artefacts=artefacts)
        only_checks_failed = (extracted.core is not None and extracted.checks is not None
                              and not extracted.checks.ok and extracted.status == Status.MALFORMED)
        if only_checks_failed and not self.require_valid_core:
            return None
        if extracted.status != Status.OK or extracted.core is None:
            return Evaluation(extracted.status, f"science-core extraction: {extracted.reason}",
                              raw_text=extracted.raw_text, input_truncated=extracted.input_truncated,
                              artefacts=artefacts)
        return None


def branch_failure(branch: str, failed: Evaluation, artefacts: dict[str, Any] | None = None) -> Evaluation:
    """The assessment failed by ``branch``: its status, its reason prefixed with the branch's name."""
    return Evaluation(failed.status, f"{branch}: {failed.reason}", raw_text=failed.raw_text,
                      input_truncated=failed.input_truncated, artefacts=dict(artefacts or {}))
