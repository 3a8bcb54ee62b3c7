"""A run's problems: ``(stage, item, reason)`` triples, stored in the ``problems`` table and listed in
the report; those whose reason starts with :data:`WARNING_PREFIX` are warnings."""

from __future__ import annotations

import re

from pydantic import ValidationError

#: Prefix of a problem's reason that is a warning: the item was read and is used (a substitute
#: class, a skipped ``\input``); warnings are listed in the report but do not fail a run.
WARNING_PREFIX = "warning: "


def is_warning(reason: str) -> bool:
    """True for a problem reason that is only a warning (see :data:`WARNING_PREFIX`)."""
    return reason.startswith(WARNING_PREFIX)


def format_validation_error(source: str, exc: ValidationError) -> str:
    """One line per problem: ``<source>: <key path>: <problem>``, e.g. ``study.yaml: reviewers[0].protocl:
    unknown key`` (list positions count from 0)."""
    lines = []
    for err in exc.errors():
        loc = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err["loc"]).lstrip(".") or "(top level)"
        msg = "unknown key" if err["type"] == "extra_forbidden" else err["msg"].removeprefix("Value error, ")
        sub = _SUB_KEY.match(msg)  # a check of a whole item that names the key inside it
        if sub:
            loc, msg = f"{loc}.{sub[1]}" if loc != "(top level)" else sub[1], sub[2]
        lines.append(f"{source}: {loc}: {msg}")
    return "\n".join(lines)


#: A validator message that starts with the key it is about (``options.timeout: ...`` inside an
#: item; ``comparisons[0]: ...`` or ``rewriters[1]: ...`` from a check of the whole study).
_SUB_KEY = re.compile(
    r"^(options\.[A-Za-z0-9_.-]+|endpoints\[\d+\](?:\.[a-z_]+)?|"
    r"(?:comparisons|rewriters|reviewers)\[\d+\](?:\.(?:model|options|kind|sampling\.temperature))?|"
    r"aspects\.temperature): (.*)$",
    re.DOTALL,
)
