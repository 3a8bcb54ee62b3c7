"""How rhetorica writes a count and a number in the text it prints (reports, tables, CLI).

One definition each: a count with its noun agreeing in number (``1 paper``, ``2 papers``), and a
fixed-decimal number that never prints a sign on a value that rounds to zero (``-0.0004`` to two
decimals is ``0.00``, not ``-0.00``: the sign of a zero says nothing).
"""

from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None, *, grouped: bool = False) -> str:
    """``n`` and ``noun`` agreeing in number: ``counted(1, "paper") == "1 paper"``,
    ``counted(2, "paper") == "2 papers"``, ``counted(0, "paper") == "0 papers"`` (English: the
    singular for exactly one). ``plural`` overrides ``noun + "s"`` (``counted(3, "stratum",
    plural="strata")``); ``grouped`` writes thousands separators (``1,200 calls``).
    """
    number = f"{n:,}" if grouped else str(n)
    return f"{number} {noun if n == 1 else (plural or noun + 's')}"


def fixed(value: float, digits: int = 2, *, signed: bool = False) -> str:
    """``value`` to ``digits`` decimals (``+`` shown when ``signed``), with the sign of a result that
    rounds to zero dropped: ``fixed(-0.004) == "0.00"``, ``fixed(-0.006) == "-0.01"``,
    ``fixed(-0.0, 1, signed=True) == "0.0"``. Infinity and NaN are for the caller to handle (they
    print as Python writes them)."""
    text = f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"
    if text[:1] in "+-" and text[1:].strip("0.") == "":
        return text[1:]
    return text
