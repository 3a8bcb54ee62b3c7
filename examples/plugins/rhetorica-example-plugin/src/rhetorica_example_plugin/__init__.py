"""Example rhetorica plug-in: the ``example-command`` evaluator kind, the ``readability`` dimension
and the ``median_shift`` analysis table.

rhetorica imports this module through the ``rhetorica.plugins`` entry point (see ``pyproject.toml``);
the registrations below are all a plug-in needs.
"""

from __future__ import annotations

from rhetorica.registry import conditions, dimensions, evaluators, tables
from rhetorica.rewriting.conditions import ConditionDefinition
from rhetorica.validation.shift import Dimension, ShiftRule
from rhetorica_example_plugin.command import CommandEvaluator
from rhetorica_example_plugin.median_shift import MEDIAN_SHIFT
from rhetorica_example_plugin.readability import FOG_MEASURE, minus_gunning_fog

__all__ = ["CommandEvaluator"]

evaluators.add("example-command", CommandEvaluator,
               description="runs an external command: manuscript on stdin, one JSON review (review-000) on stdout")
dimensions.add("readability", Dimension("readability", ShiftRule(FOG_MEASURE, minus_gunning_fog)),
               description=f"shift measure: {FOG_MEASURE} (Gunning 1952)")
for _direction, _word, _file in (("+", "plainer", "readability_plus.md"), ("-", "denser", "readability_minus.md")):
    _description = f"{_word} prose (Gunning Fog {'falls' if _direction == '+' else 'rises'})"
    conditions.add(f"readability:{_direction}",
                   ConditionDefinition("readability", _description, _file,
                                       instruction_package="rhetorica_example_plugin"),
                   description=_description)
tables.add(MEDIAN_SHIFT.key, MEDIAN_SHIFT, description="median paired shift per reviewer, bootstrap interval")
