"""Protected spans: the parts of a manuscript a rewrite must carry over unchanged.

Kinds:

* ``equation``: each math region of the shared tokenizer's mask (``$$..$$``, ``$..$``,
  ``\\[..\\]``, ``\\(..\\)`` and math environments such as ``equation``, ``align``, ``gather``,
  starred or not), compared with all whitespace removed.
* ``url``: ``http(s)://`` and ``www.`` addresses, ``\\url{..}`` and the target of ``\\href{..}``.
* ``citation_key``: each key of ``\\cite``-family commands (``\\citep{a,b}`` gives ``a`` and ``b``).
* ``label`` / ``ref``: each key of ``\\label{..}`` and of ``\\ref``-family commands.
* ``citation_marker``: numeric markers ``[12]``, ``[3, 5]``, ``[1-4]`` and author-year markers
  ``(Author, 2020)``, ``(Author et al., 2020; Other 2019a)``, ``Author et al. (2020)``.
* ``number``: numbers (signs, thousands separators, decimals, scientific ``e`` notation) with a
  following unit symbol when there is one (``%``, ``ms``, ``GB``, ``GHz``, ``x``, ``M`` ...; nouns
  such as *epochs* are not units); the space between number and unit is ignored and ``\\%`` is
  read as ``%``.

The first four come from the regions that :func:`rhetorica.tokenizer.mask_regions`
blanks (so a label inside an equation is part of that equation, and numbers inside math, code,
tables or URLs are not separate spans); markers and numbers are searched in the masked text.

A span "is kept" when the same (kind, normalised value) occurs anywhere in the variant (set
semantics: a value the original repeats need only appear once).
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel

from rhetorica.tokenizer import Tokens, mask_regions

SpanKind = Literal["equation", "url", "citation_key", "label", "ref", "citation_marker", "number"]

_COMMAND = re.compile(r"\\(?P<name>[a-zA-Z]+)\*?(?:\[[^\]]*\])*\{(?P<arg>[^{}]*)\}")
_NUMERIC_MARKER = re.compile(r"\[\s*\d+(?:\s*[-\u2013,]\s*\d+)*\s*\]")
_AUTHOR = r"[A-Z][A-Za-z'\u2019\-]+(?:\s+(?:and|&)\s+[A-Z][A-Za-z'\u2019\-]+|\s+et\s+al\.?)?"
_YEAR = r"(?:19|20)\d\d[a-z]?"
_AUTHOR_YEAR = re.compile(
    r"\(\s*"
    + _AUTHOR
    + r",?\s+"
    + _YEAR
    + r"(?:\s*[;,]\s*"
    + _AUTHOR
    + r",?\s+"
    + _YEAR
    + r")*\s*\)"
    r"|" + _AUTHOR + r"\s+\(\s*" + _YEAR + r"\s*\)"
)
_UNITS = (
    r"\\?%|‰|x\b|×|[mµun]?s\b|sec\b|min\b|h\b|[KMGTP]i?B\b|[kMG]?Hz\b|dB\b|px\b|pp\b|"
    r"[kcmµn]?m\b|kg\b|g\b|[KMBk]\b|[GTP]?FLOPs?\b|°C?"
)
_NUMBER = re.compile(
    r"(?=[-\u2212+.\d])"  # fast skip of positions that cannot start a number
    r"(?<![\w.])(?:[-\u2212+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?|\.\d+)"
    r"(?:\s?(?:" + _UNITS + r"))?"
)


class Span(BaseModel):
    """One protected span.

    Attributes:
        kind: span kind (see the module docstring).
        value: normalised value (whitespace removed for equations and numbers).
    """

    kind: SpanKind
    value: str


class SpanReport(BaseModel):
    """Protected-span comparison of an original and a variant.

    Attributes:
        original: distinct spans of the original.
        kept: number of the original's spans found in the variant.
        kept_fraction: ``kept / len(original)``, in [0, 1]; 1.0 when the original has none.
        missing: spans of the original absent from the variant.
        added: spans of the variant absent from the original.
    """

    original: int
    kept: int
    kept_fraction: float
    missing: list[Span]
    added: list[Span]


def _command_spans(command: str) -> list[tuple[SpanKind, str]]:
    m = _COMMAND.match(command)
    if m is None:
        return []
    name, arg = m.group("name"), m.group("arg")
    if name in ("url", "href"):
        return [("url", arg.strip())]
    kind: SpanKind
    if "cite" in name:
        kind = "citation_key"
    elif name == "label":
        kind = "label"
    elif name.endswith("ref"):
        kind = "ref"
    else:
        return []  # \\includegraphics, \\input ...: not part of what a reviewer reads
    return [(kind, key.strip()) for key in arg.split(",")]


def extract_spans(text: str | Tokens) -> set[tuple[SpanKind, str]]:
    """Extract the protected spans of ``text`` (rules in the module docstring).

    Args:
        text: Markdown with inline LaTeX, or its :class:`Tokens` (reuses their mask).

    Returns:
        Set of ``(kind, normalised value)`` pairs.
    """
    if isinstance(text, Tokens):
        source, masked, regions = text.text, text.masked, text.regions
    else:
        source = text
        masked, regions = mask_regions(text)
    spans: list[tuple[SpanKind, str]] = []
    for start, end, kind in regions:
        segment = source[start:end]
        if kind == "math":
            spans.append(("equation", "".join(segment.split())))
        elif kind == "url":
            spans.append(("url", segment))
        elif kind == "command":
            spans.extend(_command_spans(segment))

    def marker(m: re.Match[str]) -> str:
        spans.append(("citation_marker", " ".join(m.group(0).split())))
        return " " * len(m.group(0))

    work = _NUMERIC_MARKER.sub(marker, masked)
    work = _AUTHOR_YEAR.sub(marker, work)
    for m in _NUMBER.finditer(work):
        spans.append(
            ("number", "".join(m.group(0).split()).replace("\u2212", "-").replace("\\%", "%"))
        )
    return {(kind, value) for kind, value in spans if value}


def compare_spans(original: str | Tokens, variant: str | Tokens) -> SpanReport:
    """Check that every protected span of ``original`` also occurs in ``variant``.

    Args:
        original: original text (or its :class:`Tokens`).
        variant: rewritten text (or its :class:`Tokens`).

    Returns:
        :class:`SpanReport` with the kept fraction and the missing and added spans (sorted).
    """
    before = extract_spans(original)
    after = extract_spans(variant)
    kept = len(before & after)
    return SpanReport(
        original=len(before),
        kept=kept,
        kept_fraction=kept / len(before) if before else 1.0,
        missing=[Span(kind=k, value=v) for k, v in sorted(before - after)],
        added=[Span(kind=k, value=v) for k, v in sorted(after - before)],
    )
