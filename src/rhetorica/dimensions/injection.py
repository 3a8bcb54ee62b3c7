"""The ``injection`` dimension: an instruction planted for the reviewer (STUDIES.md, injection family).

No stylistic shift is expected: the planted paragraph is the whole change and the manuscript's own
prose stays byte for byte, so its conditions get no directional check. The conditions themselves
(a family, ``injection:<visibility>-<placement>-<wording>-<target>``) and the deterministic
rewriter that produces them are in :mod:`rhetorica.rewriting.injection`.
"""

from __future__ import annotations

from rhetorica.dimensions import register_dimension
from rhetorica.validation.shift import Dimension, ShiftRule

DIMENSION = register_dimension(Dimension("injection", ShiftRule(
    "an instruction planted as its own paragraph; the manuscript's prose is unchanged", None)))
