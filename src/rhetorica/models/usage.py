"""The one check of the token counts a provider reports for a call.

A provider's ``usage`` block is data from outside: a count is *usable* only when it is a
non-negative integer below :data:`MAX_TOKENS` (an ``int``, or a ``float`` with an integral value;
``bool``, strings, NaN, infinities, negatives and anything else are not); a count that is part of
another (the reused prompt tokens of the prompt, the reasoning tokens of the output) is usable only
when the whole is usable and the part is at most the whole. A count that is not usable is *not
reported*: :class:`rhetorica.models.api.Usage` keeps 0 for it (the call log's token columns are
``NOT NULL DEFAULT 0``, as for a server that sends no usage) and names it in ``Usage.unreported``,
so that sums can say how many calls they lack. The answer itself is never affected.
"""

from __future__ import annotations

import math
from typing import Any

from rhetorica.models.api import Usage

MAX_TOKENS = 2**53
"""Exclusive upper bound of a usable count: the largest range in which a JSON number (a double to
many parsers) still names one integer exactly, far above any real call's count, and low enough that
the sum of 1,024 such counts still fits SQLite's INTEGER (2**63 - 1)."""

NOT_SENT: Any = object()
"""A field the response does not carry (see :func:`usage_field`)."""


def token_count(value: Any) -> int | None:
    """``value`` as a token count, or ``None`` when it is not a usable one.

    Args:
        value: a count as decoded from a response (any type).

    Returns:
        The count (0 <= count < :data:`MAX_TOKENS`) for an ``int`` or an integral ``float`` in that
        range; ``None`` for everything else (``bool``, ``str``, ``None``, containers, NaN, infinities,
        non-integral, negative or too large numbers, :data:`NOT_SENT`).
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and (not math.isfinite(value) or not value.is_integer()):
        return None
    return int(value) if 0 <= value < MAX_TOKENS else None


def usage_field(data: Any, *path: str) -> Any:
    """The value at ``path`` in nested mappings, or :data:`NOT_SENT` when a level on the way is not a
    ``dict`` or lacks the key (``usage_field(body, "usage", "prompt_tokens_details", "cached_tokens")``)."""
    for key in path:
        if not isinstance(data, dict) or key not in data:
            return NOT_SENT
        data = data[key]
    return data


def zero_if_absent(value: Any) -> Any:
    """``value``, or 0 when it is :data:`NOT_SENT` or ``None``: for the fields a provider documents
    leaving out when they are zero (Gemini's proto3 JSON omits every zero field; Anthropic's cache
    counts of a call that used no prompt cache). Any other value passes unchanged, to be checked."""
    return 0 if value is NOT_SENT or value is None else value


def sum_counts(*values: Any) -> int | None:
    """The sum of several reported counts when every one is usable (:func:`token_count`) and the
    sum stays below :data:`MAX_TOKENS`; else ``None``."""
    counts = [token_count(v) for v in values]
    if any(c is None for c in counts):
        return None
    return token_count(sum(counts))  # type: ignore[arg-type]


def reported_usage(*, input_tokens: Any, output_tokens: Any, cached_tokens: Any = NOT_SENT,
                   reasoning_tokens: Any = NOT_SENT) -> Usage:
    """The :class:`Usage` of the counts a provider reported, each kept only when usable.

    Args:
        input_tokens: the prompt tokens (any decoded value).
        output_tokens: the generated tokens, reasoning included.
        cached_tokens: of ``input_tokens``, those reused from a prompt cache; usable only when
            ``input_tokens`` is and it is at most ``input_tokens``.
        reasoning_tokens: of ``output_tokens``, the reasoning ones; usable only when
            ``output_tokens`` is and it is at most ``output_tokens``.

    Returns:
        Usable counts as given; the others 0 and listed in ``Usage.unreported`` (in field order).
        Never raises.
    """
    counts: dict[str, int | None] = {"input_tokens": token_count(input_tokens),
                                     "output_tokens": token_count(output_tokens)}
    for part, whole, value in (("cached_tokens", "input_tokens", cached_tokens),
                               ("reasoning_tokens", "output_tokens", reasoning_tokens)):
        count, bound = token_count(value), counts[whole]
        counts[part] = count if count is not None and bound is not None and count <= bound else None
    return Usage(**{name: count or 0 for name, count in counts.items()},
                 unreported=[name for name, count in counts.items() if count is None])


def unknown_usage() -> Usage:
    """The usage of an answer that came but could not be read: every count unreported (0 each;
    the budget charges such a call at its bound, :func:`rhetorica.models.budget.charged_cost`)."""
    return Usage(unreported=["input_tokens", "output_tokens", "cached_tokens", "reasoning_tokens"])
