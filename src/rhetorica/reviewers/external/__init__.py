"""External reviewer systems behind the evaluator interface (issue 15 §2): a command
(:mod:`.command`), an HTTP endpoint (:mod:`.http`), a Python callable (:mod:`.python_entry`), and
the adapters from their native review formats onto rhetorica's forms (:mod:`.adapters`).

Importing this package registers the evaluator kinds ``command``, ``http`` and ``python`` in
:data:`rhetorica.registry.evaluators`.
"""

from rhetorica.reviewers.external import command, http, python_entry  # noqa: F401  (registers the kinds)
