"""The built-in rewriter kinds a study names (``kind:`` of a rewriter), registered in
:data:`rhetorica.registry.rewriters`.

A :class:`RewriterKind` says whether the kind needs a model and which conditions it can produce;
the study config checks every rewriter against its kind when the study is loaded. Built-ins:

- ``llm``: a model rewrites section by section (:mod:`rhetorica.rewriting.llm`); any condition
  whose parts all have an instruction text;
- ``rule-based``: the deterministic confidence rewriter (:mod:`rhetorica.rewriting.rule_based`),
  ``confidence:+`` and ``confidence:-`` only;
- ``injection``: plants an instruction aimed at the reviewer (:mod:`rhetorica.rewriting.injection`),
  one ``injection:...`` condition each, not combined with ``|``;
- ``latex-project`` / ``agent``: rewrite a whole LaTeX project (a model paragraph by paragraph, or
  an external agent command), through the anchor checker, compile and repair rounds
  (:mod:`rhetorica.study.project_rewrite`); the six-dimension conditions and workflows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rhetorica.registry import rewriters
from rhetorica.rewriting.conditions import Condition, definition
from rhetorica.rewriting.rule_based import RULE_CONDITIONS


@dataclass(frozen=True)
class RewriterKind:
    """A kind of rewriter.

    Attributes:
        name: the ``kind`` a study writes.
        needs_model: a rewriter of this kind must name a ``model``.
        refuses: ``refuses(condition)`` → why this kind cannot produce ``condition`` (one
            sentence, completing "rewriter <name> of kind <kind> ..."), or ``None`` when it can.
    """

    name: str
    needs_model: bool
    refuses: Callable[[Condition], str | None]


def _llm_refuses(condition: Condition) -> str | None:
    if any(p.dimension == "injection" for p in condition.parts):
        return "cannot produce injection conditions; they need kind 'injection', not 'llm'"
    missing = [p.name for p in condition.parts if not definition(p).has_instruction]
    return f"has no instruction text for {', '.join(missing)}" if missing else None


def _rule_refuses(condition: Condition) -> str | None:
    if condition.name in RULE_CONDITIONS:
        return None
    return f"only produces {' and '.join(RULE_CONDITIONS)}, not {condition.name!r}"


def _injection_refuses(condition: Condition) -> str | None:
    if condition.composition or condition.dimension != "injection":
        return f"only produces injection:... conditions (one each, not combined with '|'), not {condition.name!r}"
    return None


for _kind, _description in (
    (RewriterKind("llm", True, _llm_refuses), "a model rewrites each section under the condition's instruction"),
    (RewriterKind("rule-based", False, _rule_refuses), "deterministic confidence rewriter (hedge/booster rules)"),
    (RewriterKind("injection", False, _injection_refuses), "plants one instruction aimed at the reviewer"),
):
    rewriters.add(_kind.name, _kind, description=_description)


def _project_refuses(condition: Condition) -> str | None:
    from rhetorica.rewriting.six_dimensions import condition_names

    if condition.composition:
        return f"does not combine conditions with '|' ({condition.name!r}); use 'joint' for all six at once"
    if condition.dimension == "joint" or condition.name in condition_names():
        return None
    return (f"only produces the six-dimension conditions, joint, recursive:<n> and guided, not {condition.name!r}")


# the six-dimension study's project rewriters (rhetorica.study.project_rewrite runs them)
for _kind, _description in (
    (RewriterKind("latex-project", True, _project_refuses),
     "a model rewrites a LaTeX project paragraph by paragraph; anchors checked, compiled, repaired"),
    (RewriterKind("agent", False, _project_refuses),
     "an external agent command edits a copy of a LaTeX project; anchors checked, compiled, repaired"),
):
    rewriters.add(_kind.name, _kind, description=_description)
