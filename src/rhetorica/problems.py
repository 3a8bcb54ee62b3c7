"""A run's problems: ``(stage, item, reason)`` triples, stored in the ``problems`` table and listed in
the report; those whose reason starts with :data:`WARNING_PREFIX` are warnings."""

from __future__ import annotations

#: Prefix of a problem's reason that is a warning: the item was read and is used (a substitute
#: class, a skipped ``\input``); warnings are listed in the report but do not fail a run.
WARNING_PREFIX = "warning: "


def is_warning(reason: str) -> bool:
    """True for a problem reason that is only a warning (see :data:`WARNING_PREFIX`)."""
    return reason.startswith(WARNING_PREFIX)
