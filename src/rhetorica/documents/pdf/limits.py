"""The limits of a large operator in displayed math (``\\sum_{i=1}^{N}``, ``\\prod``, ``\\bigcup``):
TeX sets them centred right above and below the operator, in a smaller font, where a reader of
rows sees two stray lines of their own (``N M`` read as a table row, ``i=1 j=1`` after the
formula). Found by layout alone, on a page's fragments before they are joined into rows."""

from __future__ import annotations

from dataclasses import replace

from rhetorica.documents.pdf.lines import Line

TALL = 1.3  # a fragment holding a large operator is at least this many font sizes tall
SMALLER = 0.85  # a limit's font size is at most this share of the operator's line's
REACH = 0.6  # font sizes between the operator's box and its limit, at most
GLYPH = 1.2  # font sizes: the operator is the fragment's last (or first) glyph, this wide at most


def _base(limit: Line, lines: list[Line]) -> tuple[Line, bool, bool] | None:
    """``(fragment, above, at its end)`` of the operator ``limit`` belongs to, or ``None``: a
    fragment at least :data:`TALL` font sizes tall (the large glyph), in a font larger than
    ``limit``'s by :data:`SMALLER`, whose box ``limit`` lies right above or below (a gap under
    :data:`REACH` font sizes), ``limit``'s middle within :data:`GLYPH` font sizes of the fragment's
    right end (its last glyph) or left end (its first)."""
    middle = (limit.x0 + limit.x1) / 2
    for line in lines:
        size = max(line.size, 1.0)
        if line is limit or line.rotated or line.bottom - line.top < TALL * size or limit.size > SMALLER * size \
                or limit.x1 - limit.x0 > 2 * GLYPH * size:
            continue
        above = 0 <= line.top - limit.bottom < REACH * size
        below = 0 <= limit.top - line.bottom < REACH * size
        if not (above or below):
            continue
        if line.x1 - GLYPH * size <= middle <= line.x1:
            return line, above, True
        if line.x0 <= middle <= line.x0 + GLYPH * size:
            return line, above, False
    return None


def attach_limits(lines: list[Line]) -> list[Line]:
    """``lines`` with each operator's limits written into its fragment as a subscript and a
    superscript right after the operator (``X_{i=1}^{N}``, the notation of the script marks of
    :mod:`rhetorica.documents.pdf.lines`) and the limits' own fragments left out (see
    :func:`_base`)."""
    limits: dict[int, dict[tuple[bool, bool], str]] = {}
    bases: dict[int, Line] = {}
    gone: set[int] = set()
    for line in lines:
        found = None if line.rotated or not line.text.strip() else _base(line, lines)
        if found is None:
            continue
        base, above, end = found
        slot = limits.setdefault(id(base), {})
        if (above, end) in slot:
            continue  # one limit per place: a second fragment there is no limit
        slot[(above, end)] = line.text.strip()
        bases[id(base)] = base
        gone.add(id(line))
    out: list[Line] = []
    for line in lines:
        if id(line) in gone:
            continue
        slot = limits.get(id(line))
        if slot:
            text = line.text.rstrip()
            for end in (True, False):
                script = "".join(f"{mark}{{{slot[(above, end)]}}}" for above, mark in ((False, "_"), (True, "^"))
                                 if (above, end) in slot)
                if script:
                    text = text + script if end else text[:1] + script + text[1:]
            line = replace(line, text=text)
        out.append(line)
    return out
