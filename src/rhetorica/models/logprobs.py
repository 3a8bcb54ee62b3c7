"""Soft ratings: a reviewer's probability over the levels of an integer score, read from the token
log-probabilities of the answer that carries the score (issue 27, section 2).

An integer score hides any shift smaller than one scale step. The model's probability over the
allowed levels at the position where it writes the value gives an *expected score*
``E = sum_l l * p(l) / sum_l p(l)`` that moves continuously (the "soft ratings" of recent
reviewer-bias work). This module turns the per-token top-k log-probabilities a provider returns
(:class:`TokenLogprob`, OpenAI's ``logprobs.content`` shape) into one :class:`SoftRating` per
score.

Reading the distribution (:func:`soft_rating`):

- The value is located in the generated text as the last ``"<metric>": <digits>`` whose digits are
  the parsed score; the token holding its first digit is the *value position*. The distribution is
  conditional on everything generated before it.
- Each alternative token there (the top-k plus the token actually generated) is read as the start
  of a number: a token that is not a number (``"``, a letter, ``-``) is mass *outside* the levels;
  a token whose digits are followed by a character that ends a JSON number (``,``, ``}``, ``]``,
  whitespace) or by nothing at the end of generation is that number; a token of digits only may
  go on.
- Multi-token levels (``10`` on a 1-10 scale written ``1`` then ``0``): where the alternative is the
  token actually generated, the next position's top-k says how the number goes on (``1`` then
  ``0`` is level 10, ``1`` then ``,`` level 1, ``1`` then ``.`` or ``7`` outside). An alternative
  that was *not* generated has no observed continuation: it is taken to end there when no allowed
  level extends its digits (``7`` on a 1-10 scale), and is *unresolved* when one does (``1`` on a
  1-10 scale while the model wrote ``7``) — neither counted as a level nor guessed.
- ``covered`` is the mass on allowed levels; ``distribution`` holds each level's probability (not
  renormalised, so it sums to ``covered``); ``expected`` renormalises over the allowed levels. Mass
  beyond the top-k is neither covered, outside nor unresolved.
- ``low`` and ``high`` bound the expectation over the covered *and* unresolved mass (issue 36): the
  unresolved mass is some allowed level we did not see, so the expectation lies between
  ``(sum_l l p(l) + u min) / (covered + u)`` (all of it at the scale's minimum) and the same with
  the maximum; both equal ``expected`` when nothing is unresolved.

A provider without log-probabilities (Anthropic's Messages API) gives a :class:`SoftRating` with
``expected = None`` and the reason; a soft rating is never imputed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence

from pydantic import BaseModel, Field

#: Alternatives asked for at each generated token: OpenAI's maximum ``top_logprobs`` (also vLLM's
#: default ``max_logprobs``).
TOP_LOGPROBS = 20

#: Characters that end a JSON number.
_ENDS_NUMBER = frozenset(",}] \t\r\n")
_DIGITS = re.compile(r"\d*")


class TokenLogprob(BaseModel):
    """One generated token with its log-probability and the top alternatives at its position.

    Attributes:
        token: the token's text as generated.
        logprob: natural-log probability of ``token`` (<= 0).
        top: ``(text, logprob)`` of the most likely tokens at this position, most likely first
            (may or may not include ``token``).
    """

    token: str
    logprob: float
    top: list[tuple[str, float]] = Field(default_factory=list)


class SoftRating(BaseModel):
    """A score's probability over its allowed levels at the value position.

    Attributes:
        metric: the form's metric name.
        expected: ``sum(level * p) / covered`` on the metric's scale; ``None`` when there is no
            soft rating (``reason`` says why).
        distribution: level (as text, e.g. ``"10"``) -> probability in [0, 1], levels in scale
            order, only levels with mass; sums to ``covered``.
        covered: probability mass on allowed levels (0-1).
        outside: seen mass on continuations that are no allowed level (another token, a number
            out of range, a decimal).
        unresolved: mass on a prefix of a longer level whose continuation was never generated.
        low, high: the expectation with every unresolved mass at the scale's minimum / maximum
            (module docstring); ``None`` with ``expected``.
        reason: why ``expected`` is missing (``None`` when it is present).
    """

    metric: str
    expected: float | None = None
    distribution: dict[str, float] = Field(default_factory=dict)
    covered: float = 0.0
    outside: float = 0.0
    unresolved: float = 0.0
    low: float | None = None
    high: float | None = None
    reason: str | None = None


def missing(metric: str, reason: str) -> SoftRating:
    """A soft rating that could not be read, with the reason (never imputed)."""
    return SoftRating(metric=metric, reason=reason)


def value_position(tokens: Sequence[TokenLogprob], metric: str, value: int,
                   occurrence: int | None = None) -> tuple[int, str] | None:
    """Where the digits of ``"<metric>": <value>`` start in the generated tokens.

    Args:
        tokens: the generated tokens.
        metric: the JSON key.
        value: the parsed integer value.
        occurrence: ``None``: the last ``"<metric>": <value>``; else the index (Python's: ``-1``
            the last, ``-n`` the n-th from the end) among *every* ``"<metric>": <digits>`` of the
            text, whose digits must be ``value`` (the i-th point of a list of ``n`` answers is
            ``i - n``).

    Returns:
        ``(index of the token holding the first digit, that token's text before the digit)``, or
        ``None`` when the generated text has no such key with that value (there).
    """
    starts, at = [], 0
    for token in tokens:
        starts.append(at)
        at += len(token.token)
    text = "".join(t.token for t in tokens)
    pattern = re.compile(rf'"{re.escape(metric)}"\s*:\s*(\d+)')
    every = list(pattern.finditer(text))
    if occurrence is None:
        found = [m for m in every if int(m.group(1)) == value]
        chosen = found[-1] if found else None
    else:
        chosen = every[occurrence] if -len(every) <= occurrence < len(every) else None
        chosen = chosen if chosen is not None and int(chosen.group(1)) == value else None
    if chosen is None:
        return None
    digit = chosen.start(1)
    index = max(i for i, s in enumerate(starts) if s <= digit and len(tokens[i].token) > 0)
    return index, tokens[index].token[: digit - starts[index]]


def _alternatives(token: TokenLogprob) -> list[tuple[str, float]]:
    """The top alternatives with the generated token added when missing (first text wins)."""
    seen: dict[str, float] = {}
    for text, logprob in [*token.top, (token.token, token.logprob)]:
        seen.setdefault(text, logprob)
    return list(seen.items())


class _Tally:
    """Mass found per level, outside and unresolved while walking the alternatives."""

    def __init__(self, levels: Iterable[int]) -> None:
        self.levels = [str(level) for level in levels]
        self.mass = dict.fromkeys(self.levels, 0.0)
        self.outside = 0.0
        self.unresolved = 0.0

    def number(self, digits: str, p: float) -> None:
        if digits in self.mass:
            self.mass[digits] += p
        else:
            self.outside += p

    def extendable(self, digits: str) -> bool:
        return any(level != digits and level.startswith(digits) for level in self.levels)


def _walk(tokens: Sequence[TokenLogprob], index: int, prefix: str, weight: float, tally: _Tally) -> None:
    """Spread ``weight`` over the numbers that start with ``prefix`` and go on at ``index``."""
    if index >= len(tokens):  # generation ended right after the digits
        tally.number(prefix, weight)
        return
    for text, logprob in _alternatives(tokens[index]):
        p = weight * math.exp(logprob)
        if text == "" or text[0] in _ENDS_NUMBER:
            tally.number(prefix, p)
        elif text[0].isdigit():
            _digits(tokens, index, prefix, text, text == tokens[index].token, p, tally)
        else:  # '.', 'e', a letter: no whole level
            tally.outside += p


def _digits(tokens: Sequence[TokenLogprob], index: int, prefix: str, text: str, generated: bool, p: float,
            tally: _Tally) -> None:
    """Account for the alternative ``text`` (starting with a digit) at ``index`` after the digits
    ``prefix``; ``generated``: it is the token actually generated there."""
    digits = prefix + _DIGITS.match(text).group()  # type: ignore[union-attr]
    tail = text[len(digits) - len(prefix):]
    if tail:
        if tail[0] in _ENDS_NUMBER:
            tally.number(digits, p)
        else:
            tally.outside += p
    elif generated:  # its continuation was observed
        _walk(tokens, index + 1, digits, p, tally)
    elif tally.extendable(digits):
        tally.unresolved += p
    else:
        tally.number(digits, p)


def soft_rating(tokens: Sequence[TokenLogprob], metric: str, value: int, levels: Sequence[int],
                occurrence: int | None = None) -> SoftRating:
    """The soft rating of the score ``metric = value`` (see the module docstring).

    Args:
        tokens: the generated tokens of the answer that was parsed, in order.
        metric: the metric's name (the JSON key).
        value: the parsed integer score.
        levels: the metric's allowed levels (e.g. ``range(1, 11)``), in scale order.
        occurrence: which ``"<metric>": <digits>`` of the text holds the value
            (:func:`value_position`; ``None``: the last one with this value).

    Returns:
        A :class:`SoftRating`; ``expected`` is ``None`` with a reason when the value is not found
        in the tokens or no allowed level has mass at its position.
    """
    where = value_position(tokens, metric, value, occurrence)
    if where is None:
        return missing(metric, f'"{metric}": {value} was not found in the generated tokens')
    index, lead = where
    tally = _Tally(levels)
    for text, logprob in _alternatives(tokens[index]):
        p = math.exp(logprob)
        if lead.strip() and not text.startswith(lead):  # e.g. ': 7' generated, '"' offered
            tally.outside += p
            continue
        rest = (text[len(lead):] if text.startswith(lead) else text).lstrip()  # JSON allows spaces before a value
        if not rest or not rest[0].isdigit():
            tally.outside += p
            continue
        _digits(tokens, index, "", rest, text == tokens[index].token, p, tally)
    covered = sum(tally.mass.values())
    distribution = {level: mass for level, mass in tally.mass.items() if mass > 0}
    common = {"metric": metric, "distribution": distribution, "covered": covered, "outside": tally.outside,
              "unresolved": tally.unresolved}
    if covered <= 0:
        return SoftRating(**common, reason=f"no allowed level of {metric} among the top tokens at its position")
    total = sum(int(level) * mass for level, mass in distribution.items())
    u = tally.unresolved
    low, high = ((total + u * bound) / (covered + u) for bound in (min(levels), max(levels)))
    return SoftRating(**common, expected=total / covered, low=low, high=high)
