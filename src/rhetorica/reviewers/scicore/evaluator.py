"""SciCore, the dual-branch reviewer (STUDIES.md §4; issue 15 §3), registered as evaluator kind
``scicore``.

- Branch (a): the manuscript reviewed under ``strict-iclr`` on the ``iclr-2026`` form.
- Branch (b): the manuscript's science core extracted (:func:`~.extract.extract_core`, validated
  against the manuscript) and the record reviewed under ``science-record`` on the same form.
- Final ``overall`` = the mean of the two branch overall assessments. Both branches' scores are
  metrics of the ``scicore`` form (:mod:`.form`); the payload holds both reviews
  (``{"full": …, "core": …}``); the core and the record as the reviewer read it are artefacts
  (``science_core``, ``science_record``).

A failed branch — the full review, the extraction (including a core that fails its checks,
unless ``require_valid_core: false``, :mod:`.base`) or the record review — fails the assessment
with that status and a reason naming the branch; a mean of one branch is never reported. Branch
(a) runs first, so a failed full review makes no extraction call.

Study configuration::

    reviewers:
      - name: scicore-qwen
        kind: scicore
        model: qwen            # the reviewing model; ``extractor:`` another model for the core
        review: {temperature: 0.0}
        extract: {max_tokens: 3000, support_threshold: 0.5}
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import Field

from rhetorica.evaluation import Evaluation, Target
from rhetorica.forms import Form
from rhetorica.models.api import ModelAPI
from rhetorica.models.call import CallContext
from rhetorica.reviewers.protocols import get_protocol, protocol_version
from rhetorica.reviewers.scicore.base import CoreEvaluator, CoreOptions, branch_failure
from rhetorica.reviewers.scicore.core import core_document
from rhetorica.reviewers.scicore.extract import CoreResult
from rhetorica.reviewers.scicore.form import SCICORE_FORM
from rhetorica.reviewers.scicore.review import review_on_form
from rhetorica.status import Status


class SciCoreOptions(CoreOptions):
    """The ``options`` of a ``kind: scicore`` reviewer: :class:`~.base.CoreOptions` and the two
    branches' protocols (both on the ``iclr-2026`` form)."""

    full_protocol: str = Field(default="strict-iclr", description="branch (a)'s protocol: the full manuscript")
    core_protocol: str = Field(default="science-record", description="branch (b)'s protocol: the science record")


class SciCore(CoreEvaluator):
    """The SciCore evaluator (see the module docstring).

    Args:
        name, model, extractor: as :class:`~.base.CoreEvaluator`.
        **options: :class:`SciCoreOptions` fields (branch protocols, review and extract options).

    Raises:
        rhetorica.reviewers.protocols.UnknownProtocolError: an unknown protocol.
        ValueError: a protocol not on the ``iclr-2026`` form (the SciCore form is built on it).
    """

    kind = "scicore"
    form: Form = SCICORE_FORM
    options_model = SciCoreOptions
    options: SciCoreOptions

    def __init__(self, name: str, *, model: ModelAPI, **options: Any) -> None:
        super().__init__(name, model=model, **options)
        self.full_protocol = get_protocol(self.options.full_protocol)
        self.core_protocol = get_protocol(self.options.core_protocol)
        for protocol in (self.full_protocol, self.core_protocol):
            if getattr(protocol.form, "name", protocol.form) != "iclr-2026":
                raise ValueError(f"SciCore {name!r}: protocol {protocol.name!r} is not on the 'iclr-2026' form; "
                                 "both branches must use it (the scicore form is built on it)")

    def spec(self) -> dict[str, Any]:
        """Models, both protocols with their versions, the options and the form (hashed into unit keys)."""
        return {**self.base_spec(), "form": f"{self.form.name}@{self.form.version}",
                "full_protocol": self.full_protocol.name, "full_protocol_version": protocol_version(self.full_protocol),
                "core_protocol": self.core_protocol.name, "core_protocol_version": protocol_version(self.core_protocol)}

    async def evaluate(self, target: Target, context: CallContext, *, core: CoreResult | None = None) -> Evaluation:
        """Assess ``target`` with both branches; never raises for a failed assessment.

        Args:
            target: the manuscript to assess.
            context: the unit's call context (every call of both branches goes through it).
            core: a precomputed extraction of ``target.document`` (an ``extract`` stage's result);
                ``None`` = extract it here.

        Returns:
            ``ok`` with the ``scicore`` form's scores, or the first failed branch's status.
        """
        full = await review_on_form(target.document, self.full_protocol, self.model, replicate=target.replicate,
                                    options=self.review, context=context, system_note=target.notice)
        if full.status != Status.OK:
            return branch_failure("full-manuscript branch", full)
        extracted = await self.science_core(target, context, core)
        failure = self.core_failure(target, extracted)
        if failure is not None:
            return failure
        assert extracted.core is not None
        record = core_document(extracted.core, target.document)
        artefacts = {"science_core": extracted.artefact(), "science_record": record.to_markdown()}
        on_core = await review_on_form(record, self.core_protocol, self.model, replicate=target.replicate,
                                       options=self.review, context=context, system_note=target.notice)
        if on_core.status != Status.OK:
            return branch_failure("science-record branch", on_core, artefacts)
        scores = {"overall": (full.scores["overall"] + on_core.scores["overall"]) / 2,
                  **{f"{k}_full": v for k, v in full.scores.items()},
                  **{f"{k}_core": v for k, v in on_core.scores.items()},
                  "core_valid": extracted.checks is not None and extracted.checks.ok}
        return Evaluation(Status.OK, scores=self.form.check_scores(scores),
                          payload={"full": full.payload, "core": on_core.payload},
                          raw_text=json.dumps({"full": full.raw_text, "core": on_core.raw_text}),
                          input_truncated=full.input_truncated or extracted.input_truncated, artefacts=artefacts)


def scicore(name: str, **options: Any) -> SciCore:
    """Factory of the ``scicore`` evaluator kind (options as :class:`SciCore`)."""
    return SciCore(name, **options)
