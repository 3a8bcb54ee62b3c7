"""The ``attack`` dimension: the winning rewrite of a worst-case search against one reviewer (issue 27 §1).

``attack:+`` searches for a presentation that raises the target reviewer's score, ``attack:-`` one
that lowers it (:mod:`rhetorica.attack`). No stylistic shift is expected of either: the search may
apply any registered move, so its conditions get no directional check; the integrity checks apply
as to every variant. Only the ``attack`` rewriter kind produces them.
"""

from __future__ import annotations

from rhetorica.dimensions import register_dimension
from rhetorica.validation.shift import Dimension, ShiftRule

DIMENSION = register_dimension(Dimension(
    "attack", ShiftRule("the best-scoring of the searched rewrites; no one stylistic direction", None),
    directions={"+": "worst case: the rewrite the search found to raise the target reviewer's score most",
                "-": "worst case: the rewrite the search found to lower the target reviewer's score most"}))
