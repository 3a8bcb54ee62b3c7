"""Hidden text in Markdown and HTML (and in a document's Markdown sections).

Hidden constructs found:

- ``html-comment``: ``<!-- ... -->`` and the Markdown comment idiom ``[//]: # (...)``;
- ``css-hidden``: an element whose inline ``style`` hides it (``display:none``,
  ``visibility:hidden``, ``font-size`` of at most 1 px/pt, ``opacity`` of at most 0.05, a white,
  near-white (every channel >= 240) or transparent ``color``, an off-screen position or
  ``text-indent`` of -1000 px or less, zero ``height``/``max-height``), the ``hidden`` attribute,
  ``<font color=white>``, or a class that a ``<style>`` block of the same text hides;
- ``unicode-tags``: a run of Unicode tag characters (U+E0000-U+E007F), invisible but readable by a
  tokenizer; the shadowed ASCII text is decoded;
- ``zero-width``: zero-width and other invisible format characters;
- ``bidi-control``: bidirectional override/isolate controls, which reorder displayed text.

Invisible characters of one kind close together on a line (:data:`INVISIBLE_GAP`) are one finding
that counts them, not one finding per character.

Instruction-like text anywhere (:mod:`rhetorica.documents.scan.instructions`) is ``instruction``
(``medium`` when visible and plain, ``high`` when it needed an obfuscation trick or demands a
verdict: a score, a positive review or acceptance). Hidden content
carrying an instruction is ``high``; hidden content without one is ``low``; a lone invisible
character is ``info``. External style sheets and scripts are not evaluated.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from rhetorica.documents.scan.findings import Finding, Location, ScanReport, Severity
from rhetorica.documents.scan.instructions import InstructionMatch, find_instructions, visible_verdict
from rhetorica.documents.scan.normalise import BIDI_CONTROLS, ZERO_WIDTH, decode_tags
from rhetorica.documents.scan.occurrence import copies, words_before

_COMMENT = re.compile(r"<!--(.*?)(?:-->|\Z)", re.DOTALL)
_MD_COMMENT = re.compile(r"^[ \t]*\[(?://|comment|_)\]:[ \t]*(?:#|<>)[ \t]*(?:\((.*)\)|\"(.*)\"|'(.*)')[ \t]*$",
                         re.MULTILINE)
_OPEN_TAG = re.compile(r"<([a-zA-Z][\w-]*)\b([^<>]*)>")
_STYLE_BLOCK = re.compile(r"<style\b[^>]*>(.*?)</style\s*>", re.DOTALL | re.IGNORECASE)
_CLASS_RULE = re.compile(r"\.([A-Za-z_][\w-]*)\s*\{([^}]*)\}")
_ATTR = re.compile(r"([a-zA-Z_:][\w:.-]*)(?:\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?")
_TAG_TEXT = re.compile(r"<[^<>]*>")
_INVISIBLE_RUN = re.compile("[" + "".join(sorted(ZERO_WIDTH | BIDI_CONTROLS)) + "]+")
_TAG_RUN = re.compile("[\U000e0000-\U000e007f]+")
_VOID = frozenset({"br", "hr", "img", "input", "meta", "link", "wbr", "source", "area", "col", "embed"})


@dataclass(frozen=True)
class HiddenSpan:
    """Hidden text found in a string.

    Attributes:
        start: index of the span's first character (the construct, e.g. ``<!--``).
        end: index after the span.
        kind: ``html-comment``, ``css-hidden``, ``unicode-tags``, ``zero-width`` or ``bidi-control``.
        reason: why it is hidden.
        content: the hidden text a model would read (tags removed, tag characters decoded).
    """

    start: int
    end: int
    kind: str
    reason: str
    content: str


def _hiding_style(style: str) -> str | None:
    """Why an inline CSS declaration list hides its element, or ``None``."""
    props: dict[str, str] = {}
    for declaration in style.split(";"):
        name, _, value = declaration.partition(":")
        if value:
            props[name.strip().lower()] = value.strip().lower().removesuffix("!important").strip()
    if props.get("display") == "none":
        return "display:none"
    if props.get("visibility") in ("hidden", "collapse"):
        return f"visibility:{props['visibility']}"
    size = re.fullmatch(r"(-?[\d.]+)\s*(px|pt|em|rem|%)?", props.get("font-size", ""))
    if size and float(size.group(1)) <= (0.0 if size.group(2) in ("em", "rem", "%") else 1.0):
        return f"font-size:{props['font-size']}"
    opacity = re.fullmatch(r"[\d.]+", props.get("opacity", ""))
    if opacity and float(opacity.group(0)) <= 0.05:
        return f"opacity:{props['opacity']}"
    color = props.get("color", "")
    if color and _near_white(color):
        return f"color:{color} (on a white page)"
    for key in ("left", "top", "text-indent", "margin-left"):
        offset = re.fullmatch(r"(-[\d.]+)\s*(px|pt|em)?", props.get(key, ""))
        if offset and float(offset.group(1)) <= (-60.0 if offset.group(2) == "em" else -1000.0):
            return f"{key}:{props[key]} (off screen)"
    for key in ("height", "max-height", "width", "max-width"):
        if re.fullmatch(r"0(\.0*)?\s*(px|pt|em|%)?", props.get(key, "")) and props.get("overflow") == "hidden":
            return f"{key}:0 with overflow:hidden"
    return None


def _near_white(color: str) -> bool:
    """True for ``white``, ``transparent``, ``#fff``-like and ``rgb()`` colours with every channel >= 240."""
    color = color.strip().lower()
    if color in ("white", "transparent", "snow", "ghostwhite", "whitesmoke", "ivory", "floralwhite"):
        return True
    hex_match = re.fullmatch(r"#([0-9a-f]{3}|[0-9a-f]{6})([0-9a-f]{2})?", color)
    if hex_match:
        digits = hex_match.group(1)
        if hex_match.group(2) is not None and int(hex_match.group(2), 16) <= 13:
            return True
        channels = [int(c * 2, 16) for c in digits] if len(digits) == 3 else [int(digits[i:i + 2], 16)
                                                                                for i in (0, 2, 4)]
        return min(channels) >= 240
    rgb = re.fullmatch(r"rgba?\(\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)\s*(?:,\s*([\d.]+)\s*)?\)", color)
    if rgb:
        if rgb.group(4) is not None and float(rgb.group(4)) <= 0.05:
            return True
        return min(float(rgb.group(i)) for i in (1, 2, 3)) >= 240
    return False


def _attributes(text: str) -> dict[str, str]:
    return {m.group(1).lower(): (m.group(2) or "").strip("\"'") for m in _ATTR.finditer(text)}


def _hidden_classes(text: str) -> dict[str, str]:
    classes: dict[str, str] = {}
    for block in _STYLE_BLOCK.finditer(text):
        for rule in _CLASS_RULE.finditer(block.group(1)):
            why = _hiding_style(rule.group(2))
            if why:
                classes[rule.group(1)] = why
    return classes


def _element_ends(text: str) -> dict[int, int]:
    """For every opening tag's start index, the index after its matching closing tag (same-tag
    nesting counted; the end of the text when never closed). One pass over the tags."""
    ends: dict[int, int] = {}
    stacks: dict[str, list[int]] = {}
    for match in re.finditer(r"<(/?)([a-zA-Z][\w-]*)\b[^<>]*>", text):
        name = match.group(2).lower()
        if match.group(1):
            if stacks.get(name):
                ends[stacks[name].pop()] = match.end()
        elif name not in _VOID and not match.group(0).endswith("/>"):
            stacks.setdefault(name, []).append(match.start())
    for pending in stacks.values():
        for start in pending:
            ends[start] = len(text)
    return ends


def hidden_spans(text: str) -> list[HiddenSpan]:
    """Every hidden construct of ``text`` (see the module docstring), in text order."""
    spans: list[HiddenSpan] = []
    ascii_only = text.isascii()  # tag characters and invisible characters are not ASCII
    for match in _COMMENT.finditer(text):
        spans.append(HiddenSpan(match.start(), match.end(), "html-comment",
                                "HTML comment: not shown when the Markdown or HTML is rendered", match.group(1)))
    for match in _MD_COMMENT.finditer(text) if "]:" in text else ():
        content = next(g for g in match.groups() if g is not None)
        spans.append(HiddenSpan(match.start(), match.end(), "html-comment",
                                "Markdown comment ([//]: # (...)): not shown when rendered", content))
    classes = _hidden_classes(text) if "<style" in text.lower() else {}
    ends: dict[int, int] | None = None
    for match in _OPEN_TAG.finditer(text):
        tag = match.group(1).lower()
        if tag in _VOID or tag == "style" or match.group(0).endswith("/>"):
            continue
        attrs = _attributes(match.group(2))
        why = None
        if "style" in attrs:
            why = _hiding_style(attrs["style"])
        if why is None and "hidden" in attrs:
            why = "hidden attribute"
        if why is None and tag == "font" and _near_white(attrs.get("color", "")):
            why = f"font color={attrs['color']} (on a white page)"
        if why is None:
            why = next((f"class {c}: {classes[c]}" for c in attrs.get("class", "").split() if c in classes), None)
        if why is None:
            continue
        if ends is None:
            ends = _element_ends(text)
        end = ends.get(match.start(), len(text))
        inner = _TAG_TEXT.sub(" ", text[match.end():end])
        spans.append(HiddenSpan(match.start(), end, "css-hidden", f"<{tag}> hidden by {why}",
                                " ".join(inner.split())))
    for match in _TAG_RUN.finditer(text) if not ascii_only else ():
        spans.append(HiddenSpan(match.start(), match.end(), "unicode-tags",
                                f"{len(match.group(0))} invisible Unicode tag characters", decode_tags(match.group(0))))
    for match in _INVISIBLE_RUN.finditer(text) if not ascii_only else ():
        run = match.group(0)
        bidi = any(c in BIDI_CONTROLS for c in run)
        kind = "bidi-control" if bidi else "zero-width"
        names = ", ".join(sorted({f"U+{ord(c):04X}" for c in run}))
        spans.append(HiddenSpan(match.start(), match.end(), kind,
                                f"{len(run)} invisible character(s) {names}", ""))
    spans.sort(key=lambda s: (s.start, -s.end))
    return _outermost(spans)


INVISIBLE_GAP = 40
"""Runs of invisible characters of one kind at most this many characters apart on one line are one finding."""


def group_invisible(runs: list[HiddenSpan], text: str) -> list[HiddenSpan]:
    """Runs of invisible characters grouped: consecutive runs of one kind (``zero-width`` or
    ``bidi-control``) separated by at most :data:`INVISIBLE_GAP` characters of ``text`` and no line
    break become one span from the first run to the last, its reason counting the characters and
    the places. ``runs`` are :func:`hidden_spans` of those kinds, in text order; other kinds pass
    through unchanged."""
    groups: list[list[HiddenSpan]] = []
    for run in runs:
        if groups and groups[-1][-1].kind == run.kind and run.kind in ("zero-width", "bidi-control"):
            gap = text[groups[-1][-1].end:run.start]
            if len(gap) <= INVISIBLE_GAP and "\n" not in gap:
                groups[-1].append(run)
                continue
        groups.append([run])
    out = []
    for members in groups:
        if len(members) == 1:
            out.append(members[0])
            continue
        chars = "".join(text[m.start:m.end] for m in members)
        names = ", ".join(sorted({f"U+{ord(c):04X}" for c in chars}))
        out.append(HiddenSpan(members[0].start, members[-1].end, members[0].kind,
                              f"{len(chars)} invisible character(s) {names} in {len(members)} places", ""))
    return out


def _outermost(spans: list[HiddenSpan]) -> list[HiddenSpan]:
    """Drop content spans nested in an earlier content span (e.g. a hidden span inside a comment)."""
    out: list[HiddenSpan] = []
    for span in spans:
        container = next((o for o in out if o.start <= span.start and span.end <= o.end
                          and o.kind in ("html-comment", "css-hidden")), None)
        if container is not None and span.kind in ("html-comment", "css-hidden"):
            continue
        out.append(span)
    return out


def _hidden_severity(span: HiddenSpan, match: InstructionMatch | None) -> Severity:
    if match is not None:
        return "high"
    if span.kind in ("zero-width", "bidi-control"):
        return "info"
    return "low" if span.content.strip() else "info"


def _blanked(text: str, spans: list[HiddenSpan]) -> str:
    """``text`` with every span's characters but line breaks replaced by spaces (indices kept), so
    that a visible instruction is never stitched together from hidden pieces."""
    chars = list(text)
    for span in spans:
        for i in range(span.start, span.end):
            if chars[i] != "\n":
                chars[i] = " "
    return "".join(chars)


def text_findings(
    text: str,
    locate: Callable[[int], Location],
    *,
    categories: Iterable[str] | None = None,
) -> list[Finding]:
    """Findings of one text: hidden constructs and instruction-like text.

    Args:
        text: Markdown, HTML or plain text.
        locate: maps an index of ``text`` to a :class:`Location`.
        categories: instruction rule categories to apply (all when ``None``).

    Returns:
        Findings in text order. An instruction inside a hidden comment, element or tag run is
        reported once, as that hidden span (``high``); zero-width characters inside an
        instruction are reported as part of it; the others are grouped (:func:`group_invisible`).
    """
    cats = list(categories) if categories is not None else None
    findings: list[tuple[int, Finding]] = []
    content_spans: list[HiddenSpan] = []
    invisible: list[HiddenSpan] = []
    for span in hidden_spans(text):
        inner = find_instructions(span.content, categories=cats) if span.content.strip() else []
        match = inner[0] if inner else None
        if span.kind in ("zero-width", "bidi-control"):
            invisible.append(span)
            continue
        content_spans.append(span)
        reason = span.reason + (f"; contains an instruction ({match.rule})" if match else "")
        decoded = span.content if span.kind == "unicode-tags" else None
        findings.append((span.start, Finding(kind=span.kind, severity=_hidden_severity(span, match),
                                             location=locate(span.start), text=text[span.start:span.end],
                                             reason=reason, instruction=match.rule if match else None,
                                             decoded=decoded, hidden_text=span.content,
                                             before=" ".join(words_before(text, span.start)))))
    shown = _blanked(text, content_spans)
    findings = [(at, f.model_copy(update={"visible": len(copies(shown, f.hidden_text))}) if f.hidden_text else f)
                for at, f in findings]
    matches = find_instructions(shown, categories=cats)
    for match in matches:
        severity, reason = visible_verdict(match)
        span_text = text[match.start:match.end]
        findings.append((match.start, Finding(kind="instruction", severity=severity, location=locate(match.start),
                                              text=span_text, reason=reason, instruction=match.rule,
                                              decoded=match.decoded if match.decoded != span_text else None)))
    outside = [s for s in invisible if not any(m.start <= s.start and s.end <= m.end for m in matches)]
    for span in group_invisible(outside, text):
        findings.append((span.start, Finding(kind=span.kind, severity="info", location=locate(span.start),
                                             text=text[span.start:span.end], reason=span.reason, hidden_text="")))
    findings.sort(key=lambda item: item[0])
    return [f for _, f in findings]


def line_locator(text: str, **fixed: object) -> Callable[[int], Location]:
    """A ``locate`` function giving 1-based line and column of an index of ``text``.

    Args:
        text: the text the indices refer to.
        **fixed: other :class:`Location` fields set on every location (``file``, ``section``).
    """
    starts = [0] + [m.end() for m in re.finditer(r"\n", text)]

    def locate(index: int) -> Location:
        line = bisect.bisect_right(starts, index) - 1
        return Location(line=line + 1, column=index - starts[line] + 1, **fixed)  # type: ignore[arg-type]

    return locate


def scan_markup_file(path: Path) -> ScanReport:
    """Scan a Markdown, HTML or plain-text file.

    Raises:
        OSError: if the file cannot be read.
        UnicodeDecodeError: if it is not UTF-8 text.
    """
    text = path.read_bytes().decode("utf-8-sig").replace("\r\n", "\n")
    return ScanReport(target=str(path), format="markup",
                      findings=text_findings(text, line_locator(text, file=str(path))))
