"""The ``joint`` workflows (STUDIES.md §2): every joint dimension's ``+`` target at once.

``joint`` applies the ``+`` targets of all registered dimensions marked ``joint``
(:func:`rhetorica.rewriting.six_dimensions.joint_dimensions`, in their joint order) in one instruction,
paragraph by paragraph; ``recursive:<n>`` applies it again to its own output (``n`` ≥ 2
applications in all); ``guided`` rewrites the joint rewrite once more to answer a review of it.
Their prompts are built by :mod:`rhetorica.rewriting.six_dimensions`, so only the project rewriter
kinds produce them.

Shift measure: the sum of the joint dimensions' shift measures (each oriented so that its ``+``
direction raises it), undefined when any of them is. A composite of mixed units (per-1k rates and
a complexity index): it says whether they moved up *on balance*, not that each did.
"""

from __future__ import annotations

from dataclasses import dataclass

from rhetorica.registry import conditions, dimensions
from rhetorica.rewriting.conditions import JOINT, Condition, ConditionDefinition
from rhetorica.rewriting.six_dimensions import joint_dimensions
from rhetorica.validation.shift import Dimension, ShiftRule
from rhetorica.validation.measures import TextMeasures


SIX = ("novelty", "scope", "evidence", "contribution", "register", "complexity")
"""The joint dimensions of the six-dimension study (STUDIES.md §2), whose composite keeps its first label."""

INSTRUCTIONS_VERSION = "v2"
"""Version of the workflows' instruction texts (``rhetorica/rewriting/instructions/v2``)."""

WORKFLOWS: dict[str, str] = {
    "joint": "all six + targets in one instruction, paragraph by paragraph",
    "recursive": "the joint instruction applied again to its own output (recursive:2, recursive:3)",
    "guided": "joint rewrite, a review of it, then a rewrite that answers that review",
}
"""Workflow name -> one line for reports."""


def composite(m: TextMeasures) -> float | None:
    """Sum of the joint dimensions' shift measures of one text; ``None`` when any is undefined."""
    values = [d.shift.function(m) for d in joint_dimensions() if d.shift.function is not None]
    return None if any(v is None for v in values) else float(sum(values))  # type: ignore[arg-type]


@dataclass(frozen=True)
class JointRule(ShiftRule):
    """The composite's rule: its label names the joint dimensions registered when it is checked."""

    def label(self) -> str:
        """``sum of the six six-dimension measures`` for the six of STUDIES.md §2 (the label stored
        by every earlier run), else ``sum of the measures of <names>``."""
        names = tuple(d.name for d in joint_dimensions())
        return self.measure if names == SIX else f"sum of the measures of {', '.join(names)}"


def _recursive_member(condition: Condition) -> str:
    if condition.iteration < 2 or condition.guidance is not None:
        raise ValueError(f"condition {condition.name!r} is not 'recursive:<n>' with n >= 2")
    return f"joint rewrite applied {condition.iteration} times in a row"


DIMENSION = dimensions.add(JOINT, Dimension(JOINT, JointRule("sum of the six six-dimension measures", composite)),
                           description="shift measure: sum of the joint dimensions' measures")
for _name in ("joint", "guided"):
    conditions.add(_name, ConditionDefinition(JOINT, WORKFLOWS[_name], instruction_version=INSTRUCTIONS_VERSION),
                   description=WORKFLOWS[_name])
conditions.add("recursive:<n>", ConditionDefinition(JOINT, WORKFLOWS["recursive"], family=_recursive_member,
                                                    instruction_version=INSTRUCTIONS_VERSION),
               description=WORKFLOWS["recursive"])
