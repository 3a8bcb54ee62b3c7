"""SciCore and ReconstructReview (STUDIES.md §4; issue 15 §3).

- :mod:`.core`: the science core (:class:`~.core.ScienceCore`), its JSON schema, its rendering.
- :mod:`.extract`: :func:`~.extract.extract_core` — the LLM extraction, parsed and validated.
- :mod:`.numbers`, :mod:`.support`, :mod:`.validate`: the model-free checks of a core against its
  manuscript (no new numbers; each claim lexically supported).
- :mod:`.answer`, :mod:`.review`: one JSON answer with one repair; a review on a declared form.
- :mod:`.form`: the ``scicore`` form; :mod:`.evaluator`: the SciCore evaluator (kind
  ``scicore``); :mod:`.reconstruct`: the ReconstructReview baseline (kind ``reconstruct``).
- :mod:`.instructions`: the extraction and reconstruction instruction texts (``texts/``).

Importing this package registers the evaluator kinds ``scicore`` and ``reconstruct`` and the form
``scicore``.
"""

from rhetorica.reviewers.scicore import evaluator, reconstruct  # noqa: F401  (registers the kinds)
