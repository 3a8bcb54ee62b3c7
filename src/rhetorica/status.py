"""Outcome statuses shared by model outputs, variants and assessments.

Failures are data (ARCHITECTURE.md): a failed output is stored with its status and reason and is
never replaced by an imputed value.
"""

from __future__ import annotations

from enum import StrEnum


class Status(StrEnum):
    """Outcome of one model output, rewrite or assessment.

    - ``ok``: valid output.
    - ``malformed``: output did not validate against the schema (after one repair attempt).
    - ``truncated``: generation stopped at the token limit (``finish_reason=length``).
    - ``refused``: the model or a content filter declined.
    - ``empty``: no content returned.
    - ``timeout``: the call exceeded its time limit after retries.
    - ``error``: any other failure (transport, permanent API error, bad input).
    - ``discarded``: a rewrite that still violated a protected anchor or failed to compile after
      its repair rounds (:mod:`rhetorica.rewriting.latex_project.repair`); never reviewed.
    """

    OK = "ok"
    MALFORMED = "malformed"
    TRUNCATED = "truncated"
    REFUSED = "refused"
    EMPTY = "empty"
    TIMEOUT = "timeout"
    ERROR = "error"
    DISCARDED = "discarded"


#: Statuses of a call that brought no answer at all (transport or API failure, time limit), as
#: opposed to an answer that is truncated, refused or empty.
CALL_FAILURES = frozenset({Status.ERROR, Status.TIMEOUT})
