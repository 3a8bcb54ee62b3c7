"""The ``judge`` evaluator kind (review-quality judge: model + metric family + rubric), registered
in :data:`rhetorica.registry.evaluators` by the judges package as a plug-in would
(:mod:`rhetorica.kinds`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from rhetorica.evaluation import Evaluator
from rhetorica.forms import Form
from rhetorica.judges.families import get_family
from rhetorica.judges.judge import DEFAULT_JUDGE_TOKENS, judge_factory
from rhetorica.judges.options import JudgeOptions, check_judge_options
from rhetorica.judges.study import planned_judge_calls
from rhetorica.kinds import EvaluatorKind, RunContext, evaluator_kind, options_error
from rhetorica.registry import evaluators
from rhetorica.study.planned_calls import PlannedCall, with_repair


class JudgeKind(EvaluatorKind):
    """Review-quality judge: model + metric family + rubric; scores reviews (``reviews``/``pairs``)."""

    factory = judge_factory
    options_model = JudgeOptions
    reads_reference = True
    soft_ratings = True
    document_entries = ("reviews", "pairs")
    document_need = "scores reviews"

    def check(self, spec: Any) -> None:  # checked without building the model (rhetorica.judges.options)
        check_judge_options(spec.name, spec.model, spec.options.as_kwargs())
        try:  # and typed as the options model (what judge_options reads)
            JudgeOptions.model_validate(spec.options.as_kwargs())
        except ValidationError as exc:
            raise ValueError(f"reviewer {spec.name!r} of kind {spec.kind!r}: {options_error(exc)}") from None

    def reference_need(self, spec: Any) -> str | None:
        """``family <name>`` for a family whose unit is ``reference`` (ScholarPeer), else ``None``."""
        family = get_family(JudgeOptions.model_validate(spec.options.as_kwargs()).family)
        return f"family {family.name}" if family.unit == "reference" else None

    def declared_form(self, spec: Any) -> Form:
        """Its metric family's form (rubric files are read by the run, relative to the study file)."""
        return get_family(JudgeOptions.model_validate(spec.options.as_kwargs()).family).form

    def build(self, spec: Any, ctx: RunContext) -> Evaluator:
        """The judge with its model (``options.model_options`` as provider options, or a declared
        model's), its options, the reviewer's ``sampling`` temperature and ``max_tokens`` and its
        ``soft_ratings``; rubric files relative to the study file."""
        options = dict(spec.options.as_kwargs())
        model = ctx.model(spec.model, dict(options.pop("model_options", None) or {}))
        if options.get("rubric_file") and not Path(options["rubric_file"]).is_absolute():
            options["rubric_file"] = str(ctx.base_dir / options["rubric_file"])
        if options.get("metric_rubrics"):
            options["metric_rubrics"] = {m: p if Path(p).is_absolute() else str(ctx.base_dir / p)
                                         for m, p in options["metric_rubrics"].items()}
        return judge_factory(spec.name, model=model, temperature=spec.sampling.temperature,
                             max_tokens=spec.sampling.max_tokens, soft_ratings=spec.soft_ratings, **options)

    def planned_calls(self, unit: Any) -> list[PlannedCall]:
        rv = unit.reviewer
        return with_repair([PlannedCall(rv.served_model, call.messages(), rv.sampling.max_tokens or DEFAULT_JUDGE_TOKENS,
                                        schema=call.schema()) for call in planned_judge_calls(rv, unit.target)])


evaluators.add("judge", JudgeKind(), description="review-quality judge: model + metric family + rubric")


def judge_options(spec: Any) -> JudgeOptions | None:
    """The judge options of a reviewer configuration (:class:`~rhetorica.study.config.ReviewerSpec`)
    whose kind is a :class:`JudgeKind`, or ``None`` for any other kind (the report and viewer tell
    judges from reviewers by this, never by the kind's name).

    Raises:
        pydantic.ValidationError: options a loaded study would have refused (a study loaded through
            :func:`rhetorica.study.config.parse_study` never raises it).
    """
    if not isinstance(evaluator_kind(spec.kind), JudgeKind):
        return None
    return JudgeOptions.model_validate(spec.options.as_kwargs())
