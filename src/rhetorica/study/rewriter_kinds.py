"""The built-in rewriter kinds a study names (``kind:`` of a rewriter), each one class registered in
:data:`rhetorica.registry.rewriters` (:mod:`rhetorica.kinds`); the study config checks every
rewriter against its kind when the study is loaded.

- ``llm``: a model rewrites section by section (:mod:`rhetorica.rewriting.llm`); any condition
  whose parts all have an instruction text;
- ``rule-based``: the deterministic confidence rewriter (:mod:`rhetorica.rewriting.rule_based`),
  ``confidence:+`` and ``confidence:-`` only;
- ``injection``: plants an instruction aimed at the reviewer (:mod:`rhetorica.rewriting.injection`),
  one ``injection:...`` condition each, not combined with ``|``;
- ``latex-project`` / ``agent``: rewrite a whole LaTeX project (a model paragraph by paragraph, or
  an external agent command), through the anchor checker, compile and repair rounds
  (:mod:`rhetorica.study.project_rewrite`); the six-dimension conditions and workflows.

The review rewriter kinds (``review``, ``imported``) are registered by :mod:`rhetorica.judges.study`.
"""

from __future__ import annotations

from typing import Any

from rhetorica.kinds import RewriterKind, RunContext
from rhetorica.registry import rewriters
from rhetorica.rewriting import llm as llm_rewriter, rule_based
from rhetorica.rewriting.conditions import Condition, definition, prompt_version
from rhetorica.rewriting.injection import INJECTION_VERSION, inject_document
from rhetorica.rewriting.six_dimensions import condition_names, prompt_version as six_version
from rhetorica.status import Status
from rhetorica.store.rows import VariantRow
from rhetorica.study import project_rewrite
from rhetorica.study.config import ModelOptions, _check_model_options
from rhetorica.study.planned_calls import PlannedCall, rewrite_cap, with_truncation_retry


class LLMRewriter(RewriterKind):
    """A model rewrites each section under the condition's instruction; ``options`` are provider options."""

    needs_model = True
    options_model = ModelOptions

    def refuses(self, condition: Condition) -> str | None:
        if any(p.dimension == "injection" for p in condition.parts):
            return "cannot produce injection conditions; they need kind 'injection', not 'llm'"
        missing = [p.name for p in condition.parts if not definition(p).has_instruction]
        return f"has no instruction text for {', '.join(missing)}" if missing else None

    def check(self, spec: Any) -> None:
        _check_model_options(spec.model, spec.options)

    def prompt_version(self, condition: str) -> str:
        return prompt_version(condition)

    def planned_calls(self, unit: Any) -> list[PlannedCall]:
        rw = unit.rewriter
        if rw.model is None:
            return []
        return with_truncation_retry([
            PlannedCall(rw.served_model, llm_rewriter.chunk_messages(unit.condition, chunk),
                        rewrite_cap(rw.served_model, chunk))
            for section in unit.document.sections if section.text.strip()
            for chunk in llm_rewriter.split_chunks(section.text, rw.max_chunk_words)])

    async def execute(self, unit: Any, ctx: RunContext) -> VariantRow:
        rw = unit.rewriter
        model = ctx.model(rw.model, rw.options.as_kwargs())
        result = await llm_rewriter.rewrite_document(
            unit.document, unit.condition, model, temperature=rw.sampling.temperature, top_p=rw.sampling.top_p,
            max_chunk_words=rw.max_chunk_words, context=ctx.calls(unit.key))
        return self.variant_row(unit, result.status, result.document, result.reason)


class RuleBasedRewriter(RewriterKind):
    """Deterministic confidence rewriter (hedge/booster rules)."""

    def refuses(self, condition: Condition) -> str | None:
        if condition.name in rule_based.RULE_CONDITIONS:
            return None
        return f"only produces {' and '.join(rule_based.RULE_CONDITIONS)}, not {condition.name!r}"

    def prompt_version(self, condition: str) -> str:
        return rule_based.RULES_VERSION

    async def execute(self, unit: Any, ctx: RunContext) -> VariantRow:
        variant = rule_based.rewrite_document(unit.document, unit.condition)
        return self.variant_row(unit, Status.OK, variant)


class InjectionRewriter(RewriterKind):
    """Plants one instruction aimed at the reviewer."""

    def refuses(self, condition: Condition) -> str | None:
        if condition.composition or condition.dimension != "injection":
            return f"only produces injection:... conditions (one each, not combined with '|'), not {condition.name!r}"
        return None

    def prompt_version(self, condition: str) -> str:
        return INJECTION_VERSION

    async def execute(self, unit: Any, ctx: RunContext) -> VariantRow:
        variant = inject_document(unit.document, unit.condition)
        return self.variant_row(unit, Status.OK, variant)


class ProjectRewriter(RewriterKind):
    """A model rewrites a LaTeX project paragraph by paragraph; anchors checked, compiled, repaired
    (``options``: the paragraph model's provider options; ``project``: the project settings)."""

    needs_model = True
    uses_project = True
    options_model = ModelOptions

    def refuses(self, condition: Condition) -> str | None:
        if condition.composition:
            return f"does not combine conditions with '|' ({condition.name!r}); use 'joint' for all six at once"
        if condition.dimension == "joint" or condition.name in condition_names():
            return None
        return f"only produces the six-dimension conditions, joint, recursive:<n> and guided, not {condition.name!r}"

    def prompt_version(self, condition: str) -> str:
        return six_version(condition, agent=self.agent)

    def planned_calls(self, unit: Any) -> list[PlannedCall]:
        return project_rewrite.planned_calls(unit, self.agent)

    async def execute(self, unit: Any, ctx: RunContext) -> dict[str, Any]:  # type: ignore[override]
        # the row is still a mapping (project_rewrite, reworked by the guided-review change);
        # the rewrite stage validates it as a VariantRow when it stores it
        return await project_rewrite.execute(unit, ctx, self.agent)


class AgentRewriter(ProjectRewriter):
    """An external agent command edits a copy of a LaTeX project; anchors checked, compiled, repaired."""

    needs_model = False
    agent = True
    options_model = None


for _name, _kind, _description in (
    ("llm", LLMRewriter(), "a model rewrites each section under the condition's instruction"),
    ("rule-based", RuleBasedRewriter(), "deterministic confidence rewriter (hedge/booster rules)"),
    ("injection", InjectionRewriter(), "plants one instruction aimed at the reviewer"),
    ("latex-project", ProjectRewriter(),
     "a model rewrites a LaTeX project paragraph by paragraph; anchors checked, compiled, repaired"),
    ("agent", AgentRewriter(),
     "an external agent command edits a copy of a LaTeX project; anchors checked, compiled, repaired"),
):
    rewriters.add(_name, _kind, description=_description)
