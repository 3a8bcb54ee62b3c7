"""Protected spans: the parts of a manuscript a rewrite must carry over unchanged.

Kinds, extracted in this order (a region taken by an earlier kind is not searched again):

* ``equation``: ``$$..$$``, ``$..$``, ``\\[..\\]``, ``\\(..\\)`` and math environments
  (``equation``, ``align``, ``gather``, ``multline``, ``eqnarray``, starred or not); compared with
  all whitespace removed.
* ``url``: ``http(s)://`` and ``www.`` addresses, ``\\url{..}`` and the target of ``\\href{..}``.
* ``citation_key``: each key of ``\\cite``-family commands (``\\citep{a,b}`` gives ``a`` and ``b``).
* ``label`` / ``ref``: each key of ``\\label{..}`` and of ``\\ref``-family commands.
* ``citation_marker``: numeric markers ``[12]``, ``[3, 5]``, ``[1-4]`` and author-year markers
  ``(Author, 2020)``, ``(Author et al., 2020; Other 2019a)``, ``Author et al. (2020)``.
* ``number``: numbers (signs, thousands separators, decimals, scientific ``e`` notation) with a
  following unit symbol when there is one (``%``, ``ms``, ``GB``, ``GHz``, ``x``, ``M`` ...; nouns
  such as *epochs* are not units); the space between number and unit is ignored and ``\\%`` is
  read as ``%``.

A span "is kept" when the same (kind, normalised value) occurs anywhere in the variant (set
semantics: a value the original repeats need only appear once).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel

SpanKind = Literal["equation", "url", "citation_key", "label", "ref", "citation_marker", "number"]

_MATH = re.compile(
    r"\$\$.+?\$\$|(?<![\\$])\$(?:\\.|[^$\\])+\$|\\\[.+?\\\]|\\\(.+?\\\)"
    r"|\\begin\{(?P<env>(?:equation|align|alignat|gather|multline|eqnarray|flalign|math|"
    r"displaymath)\*?)\}.+?\\end\{(?P=env)\}",
    re.DOTALL,
)
_URL = re.compile(
    r"\\url\{(?P<u1>[^}]*)\}|\\href\{(?P<u2>[^}]*)\}"
    r"|(?P<u3>(?:https?://|www\.)[^\s)\]}>]*[^\s)\]}>.,;:!?'\"])"
)
_CITE = re.compile(r"\\[a-zA-Z]*cite[a-zA-Z]*\*?(?:\[[^\]]*\])*\{(?P<keys>[^}]*)\}")
_LABEL = re.compile(r"\\label\{(?P<keys>[^}]*)\}")
_REF = re.compile(r"\\(?:[a-zA-Z]*ref|autoref|cref|Cref)\*?\{(?P<keys>[^}]*)\}")
_NUMERIC_MARKER = re.compile(r"\[\s*\d+(?:\s*[-\u2013,]\s*\d+)*\s*\]")
_AUTHOR = r"[A-Z][A-Za-z'\u2019\-]+(?:\s+(?:and|&)\s+[A-Z][A-Za-z'\u2019\-]+|\s+et\s+al\.?)?"
_YEAR = r"(?:19|20)\d\d[a-z]?"
_AUTHOR_YEAR = re.compile(
    r"\(\s*" + _AUTHOR + r",?\s+" + _YEAR + r"(?:\s*[;,]\s*" + _AUTHOR + r",?\s+" + _YEAR + r")*\s*\)"
    r"|" + _AUTHOR + r"\s+\(\s*" + _YEAR + r"\s*\)"
)
_UNITS = (
    r"\\?%|‰|x\b|×|[mµun]?s\b|sec\b|min\b|h\b|[KMGTP]i?B\b|[kMG]?Hz\b|dB\b|px\b|pp\b|"
    r"[kcmµn]?m\b|kg\b|g\b|[KMBk]\b|[GTP]?FLOPs?\b|°C?"
)
_NUMBER = re.compile(
    r"(?<![\w.])[-\u2212+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?:\s?(?:" + _UNITS + r"))?"
    r"|(?<![\w.])[-\u2212+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?:\s?(?:" + _UNITS + r"))?"
    r"|(?<![\w\d])\.\d+(?:\s?(?:" + _UNITS + r"))?"
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


def extract_spans(text: str) -> set[tuple[SpanKind, str]]:
    """Extract the protected spans of ``text`` (rules in the module docstring).

    Args:
        text: Markdown with inline LaTeX, or LaTeX source.

    Returns:
        Set of ``(kind, normalised value)`` pairs.
    """
    spans: set[tuple[SpanKind, str]] = set()

    def take(kind: SpanKind, value: str) -> None:
        if value.strip():
            spans.add((kind, value.strip()))

    def equation(m: re.Match[str]) -> str:
        take("equation", re.sub(r"\s+", "", m.group(0)))
        return " " * len(m.group(0))

    def url(m: re.Match[str]) -> str:
        take("url", m.group("u1") or m.group("u2") or m.group("u3") or "")
        return " " * len(m.group(0))

    def keyed(kind: SpanKind) -> Callable[[re.Match[str]], str]:
        def record(m: re.Match[str]) -> str:
            for key in m.group("keys").split(","):
                take(kind, key)
            return " " * len(m.group(0))

        return record

    def marker(m: re.Match[str]) -> str:
        take("citation_marker", " ".join(m.group(0).split()))
        return " " * len(m.group(0))

    work = _MATH.sub(equation, text)
    work = _URL.sub(url, work)
    work = _CITE.sub(keyed("citation_key"), work)
    work = _LABEL.sub(keyed("label"), work)
    work = _REF.sub(keyed("ref"), work)
    work = _NUMERIC_MARKER.sub(marker, work)
    work = _AUTHOR_YEAR.sub(marker, work)
    for m in _NUMBER.finditer(work):
        take("number", re.sub(r"\s+", "", m.group(0)).replace("\u2212", "-").replace("\\%", "%"))
    return spans


def compare_spans(original: str, variant: str) -> SpanReport:
    """Check that every protected span of ``original`` also occurs in ``variant``.

    Args:
        original: original text.
        variant: rewritten text.

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
