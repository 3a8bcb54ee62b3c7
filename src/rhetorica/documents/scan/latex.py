"""Hidden text in LaTeX sources (a project folder or one ``.tex`` file).

What is hidden is decided from what TeX typesets: :func:`scan_latex` compiles the project and judges
the compiled glyphs (:mod:`rhetorica.documents.scan.typeset`; kinds ``latex-invisible-text``,
``latex-off-page``, ``latex-clipped``, ``latex-covered``, ``latex-white-text``, ``latex-tiny-text``,
``latex-metadata``, ``instruction``). Only where the project cannot be compiled (no TeX, no main
file, no PDF; the report's note says so) are the source's hiding constructs below looked for
instead, as a fallback that knows only these spellings.

Source-construct kinds of the fallback (span = the exact source text from the command to the end
of what it hides):

- ``latex-white-text``: ``\\color{c}`` (to the end of its group or paragraph) and
  ``\\textcolor{c}{...}`` where ``c`` is white or near-white: ``white``, a ``\\definecolor`` /
  ``\\colorlet`` name whose value has every channel >= 0.94 (rgb, RGB >= 240, HTML, gray; cmyk all
  <= 0.06), or an xcolor mix such as ``white!95`` / ``black!5``;
- ``latex-tiny-text``: ``\\fontsize{s}{...}`` with ``s`` below :data:`MIN_FONT_PT`, ``\\tiny`` (not
  where a style file defines it: ``\\def\\tiny{\\@setsize\\tiny{7pt}...}``),
  ``\\scalebox{f}`` with ``f`` below 0.2, ``\\resizebox`` to a width or height below 1 pt;
- ``latex-phantom``: ``\\phantom``, ``\\hphantom``, ``\\vphantom`` with words in them;
- ``latex-zero-box``: ``\\makebox[0pt]`` and ``\\parbox{0pt}``;
- ``latex-hidden-macro``: uses of a macro defined to swallow its argument
  (``\\newcommand{\\hide}[1]{}``) or to hide it with one of the constructs above;
- ``latex-invisible-render``: ``\\pdfliteral`` / ``\\special{pdf:literal}`` setting text render
  mode 3 (invisible);
- ``latex-metadata``: an instruction in PDF metadata (``\\pdfinfo``, hyperref ``pdfkeywords``,
  ``pdfsubject``, ``pdftitle``, ``pdfauthor``, ``pdfcreator``, ``pdfproducer``);
- ``latex-comment`` (always looked for): an instruction in a ``%`` comment, a ``comment``
  environment or ``\\iffalse ... \\fi`` — ``low`` and no hidden text: TeX never typesets it, so
  neither a reader nor a reviewer given the paper's text receives it;
- ``unicode-tags``, ``zero-width``, ``bidi-control`` (always looked for): invisible characters (as in
  :mod:`rhetorica.documents.scan.markup`, nearby runs grouped into one finding);
- ``instruction``: visible instruction-like text;
- ``latex-shell`` (always looked for): a shell, pipe or Lua attempt (:mod:`rhetorica.documents.latex.shell`: a
  ``\\write18``, a file name starting with ``|``, ``\\directlua``, and the aliases, built names,
  catcode changes and ``^^`` escapes that hide them) — always ``high``: a manuscript never needs to
  run a program where it is compiled.

A project folder's main file is followed through its ``\\input``/``\\include`` commands: one that
names a missing file is unread text, listed in the report's ``unread`` (``scan`` exits 2).

Hidden content with an instruction in it is ``high`` (a comment's: ``low``, see above); without
one ``low`` (``info`` for ``\\tiny``, which is small but legible). Only constructs whose hidden content has a letter are reported.
Macros are not expanded beyond one level of definition, and colours set through packages or
class files that are not in the project are not known.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rhetorica.documents.latex.shell import shell_attempts
from rhetorica.documents.latex.source import comment_start, expand_inputs, find_main_file, read_group
from rhetorica.documents.options import DocumentReadError
from rhetorica.documents.scan.findings import Finding, Location, ScanReport, Severity, Unread
from rhetorica.documents.scan.instructions import find_instructions, visible_verdict
from rhetorica.documents.scan.markup import group_invisible, hidden_spans, line_locator
from rhetorica.documents.scan.occurrence import words_before
from rhetorica.documents.scan.typeset import typeset_findings

MIN_FONT_PT = 3.0
"""Font sizes below this (points) count as unreadable."""

NEAR_WHITE = 0.94
"""A colour channel at or above this share of full intensity counts as white on a white page."""

_UNITS_PT = {"pt": 1.0, "bp": 1.00375, "mm": 2.84528, "cm": 28.4528, "in": 72.27, "pc": 12.0, "sp": 1 / 65536,
             "em": 10.0, "ex": 4.3}
_FONT_DEFINITION = re.compile(r"(?:\\(?:g|e|x)?def|\\let|\\(?:re)?newcommand\*?\s*\{?|\\providecommand\*?\s*\{?"
                              r"|\\DeclareRobustCommand\*?\s*\{?|\\@setsize|\\@setfontsize)\s*$")
"""What stands right before ``\\tiny`` when it is the size command being defined, not used."""
_NOT_NEWLINE = re.compile(r"[^\n]")
_METADATA_KEYS = ("pdfkeywords", "pdfsubject", "pdftitle", "pdfauthor", "pdfcreator", "pdfproducer")
_DEFINE_COLOR = re.compile(r"\\definecolor\s*\{([^{}]+)\}\s*\{([^{}]+)\}\s*\{([^{}]+)\}")
_COLORLET = re.compile(r"\\colorlet\s*\{([^{}]+)\}\s*\{([^{}]+)\}")
_NEW_MACRO = re.compile(r"\\(?:re)?newcommand\*?\s*\{?\s*\\([A-Za-z@]+)\s*\}?\s*(?:\[(\d)\])?(?:\[[^\]]*\])?\s*\{"
                        r"|\\(?:providecommand|DeclareRobustCommand)\*?\s*\{?\s*\\([A-Za-z@]+)\s*\}?\s*(?:\[(\d)\])?\s*\{"
                        r"|\\(?:g|e|x)?def\s*\\([A-Za-z@]+)((?:#\d)*)\s*\{")


@dataclass(frozen=True)
class _Hidden:
    start: int
    end: int
    kind: str
    reason: str
    content: str


def _enclosing_end(code: str, start: int) -> int:
    """End of the group containing ``start``, or of the paragraph (blank line), whichever is first."""
    # Not read_group: this starts inside a group, stops before the unmatched "}", and stops at a
    # blank line even inside a nested group, where read_group reads on to the matching "}".
    depth = 0
    i = start
    while i < len(code):
        char = code[i]
        if char == "\\":
            i += 2
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            if depth == 0:
                return i
            depth -= 1
        elif char == "\n" and code.startswith("\n", i + 1) or code.startswith("\\par", i) and depth == 0:
            return i
        i += 1
    return len(code)


def _skip(code: str, i: int) -> int:
    while i < len(code) and code[i] in " \t\n":
        i += 1
    return i


def _argument(code: str, i: int) -> tuple[int, int] | None:
    """``(start, end)`` of the braced argument at or after ``i`` (whitespace skipped), inner text
    at ``start+1 .. end-1`` (an unclosed group ends at the end of the text); ``None`` when no brace
    follows."""
    # _skip, not read_group's own skipping: the scanner looks for the argument past blank lines too
    i = _skip(code, i)
    group = read_group(code, i)
    return None if group is None else (i, group[1])


def _optional(code: str, i: int) -> tuple[str | None, int]:
    i = _skip(code, i)
    if i < len(code) and code[i] == "[":
        close = code.find("]", i)
        if close > 0:
            return code[i + 1:close], close + 1
    return None, i


def _to_pt(length: str) -> float | None:
    match = re.fullmatch(r"\s*(-?[\d.]+)\s*([a-z]{2})?\s*", length)
    if not match or match.group(1) in ("", ".", "-"):
        return None
    return float(match.group(1)) * _UNITS_PT.get(match.group(2) or "pt", 1.0)


def _white_value(model: str, spec: str) -> bool:
    model = model.strip()
    values = [v.strip() for v in spec.split(",")]
    try:
        if model == "rgb" and len(values) == 3:
            return min(float(v) for v in values) >= NEAR_WHITE
        if model == "RGB" and len(values) == 3:
            return min(float(v) for v in values) >= 255 * NEAR_WHITE
        if model == "gray" and len(values) == 1:
            return float(values[0]) >= NEAR_WHITE
        if model == "cmyk" and len(values) == 4:
            return max(float(v) for v in values) <= 1 - NEAR_WHITE
        if model == "HTML" and re.fullmatch(r"[0-9A-Fa-f]{6}", spec.strip()):
            return min(int(spec.strip()[k:k + 2], 16) for k in (0, 2, 4)) >= 255 * NEAR_WHITE
    except ValueError:
        return False
    return False


def _white_expression(expr: str, white_names: set[str]) -> bool:
    """True for a colour expression that renders white or near-white (see the module docstring)."""
    expr = expr.strip()
    if expr in white_names or expr == "white":
        return True
    mix = re.fullmatch(r"([A-Za-z]+)!(\d+(?:\.\d+)?)(?:!([A-Za-z]+))?", expr)
    if mix:
        first, share, second = mix.group(1), float(mix.group(2)) / 100, mix.group(3) or "white"
        white_first = first in white_names or first == "white"
        white_second = second in white_names or second == "white"
        return (white_first and (share >= NEAR_WHITE or white_second)) or (white_second and share <= 1 - NEAR_WHITE)
    return False


def _colour_names(code: str) -> set[str]:
    names: set[str] = set()
    for match in _DEFINE_COLOR.finditer(code):
        if _white_value(match.group(2), match.group(3)):
            names.add(match.group(1).strip())
    for _ in range(2):  # \colorlet chains
        for match in _COLORLET.finditer(code):
            if _white_expression(match.group(2), names):
                names.add(match.group(1).strip())
    return names


def _colour_arg(code: str, i: int, white_names: set[str]) -> tuple[bool, str, int]:
    """Parse ``[model]{spec}`` or ``{name}`` at ``i``: (is white, spec text, index after)."""
    model, i = _optional(code, i)
    arg = _argument(code, i)
    if arg is None:
        return False, "", i
    spec = code[arg[0] + 1:arg[1] - 1]
    white = _white_value(model, spec) if model else _white_expression(spec, white_names)
    return white, spec, arg[1]


def _hiding_constructs(code: str, white_names: set[str]) -> list[_Hidden]:
    found: list[_Hidden] = []
    for match in re.finditer(r"\\(textcolor|color)(?![A-Za-z])", code):
        white, spec, after = _colour_arg(code, match.end(), white_names)
        if not white:
            continue
        if match.group(1) == "textcolor":
            arg = _argument(code, after)
            if arg is None:
                continue
            found.append(_Hidden(match.start(), arg[1], "latex-white-text", f"\\textcolor{{{spec}}}: white on a white page",
                                 code[arg[0] + 1:arg[1] - 1]))
        else:
            end = _enclosing_end(code, after)
            found.append(_Hidden(match.start(), end, "latex-white-text", f"\\color{{{spec}}}: white on a white page",
                                 code[after:end]))
    for match in re.finditer(r"\\fontsize\s*\{([^{}]*)\}\s*\{[^{}]*\}", code):
        size = _to_pt(match.group(1))
        if size is not None and size < MIN_FONT_PT:
            end = _enclosing_end(code, match.end())
            found.append(_Hidden(match.start(), end, "latex-tiny-text", f"\\fontsize{{{match.group(1)}}}: below "
                                 f"{MIN_FONT_PT:g} pt", code[match.end():end]))
    for match in re.finditer(r"\\tiny(?![A-Za-z])", code):
        if _FONT_DEFINITION.search(code, max(0, match.start() - 40), match.start()):
            continue  # a style file defining the size (\def\tiny{\@setsize\tiny{7pt}...}) hides nothing
        end = _enclosing_end(code, match.end())
        found.append(_Hidden(match.start(), end, "latex-tiny-text", "\\tiny: small text", code[match.end():end]))
    for match in re.finditer(r"\\scalebox\s*\{([^{}]*)\}", code):
        try:
            factor = float(match.group(1))
        except ValueError:
            continue
        _, after = _optional(code, match.end())
        arg = _argument(code, after)
        if factor < 0.2 and arg:
            found.append(_Hidden(match.start(), arg[1], "latex-tiny-text", f"\\scalebox{{{match.group(1)}}}: scaled "
                                 "below 20%", code[arg[0] + 1:arg[1] - 1]))
    for match in re.finditer(r"\\resizebox\*?\s*\{([^{}]*)\}\s*\{([^{}]*)\}", code):
        sizes = [_to_pt(v) for v in (match.group(1), match.group(2)) if v.strip() != "!"]
        arg = _argument(code, match.end())
        if arg and any(s is not None and s < 1.0 for s in sizes):
            found.append(_Hidden(match.start(), arg[1], "latex-tiny-text", "\\resizebox to under 1 pt",
                                 code[arg[0] + 1:arg[1] - 1]))
    for match in re.finditer(r"\\[hv]?phantom\s*(?=\{)", code):
        arg = _argument(code, match.end())
        if arg:
            found.append(_Hidden(match.start(), arg[1], "latex-phantom", f"{match.group(0).strip()}: takes space, "
                                 "prints nothing", code[arg[0] + 1:arg[1] - 1]))
    for match in re.finditer(r"\\makebox\s*\[\s*0(?:\.0*)?\s*(?:pt|mm|cm|em|ex|in|bp|sp)?\s*\](?:\s*\[[^\]]*\])?"
                             r"|\\parbox\s*(?:\[[^\]]*\])*\s*\{\s*0(?:\.0*)?\s*(?:pt|mm|cm|em)?\s*\}", code):
        arg = _argument(code, match.end())
        if arg:
            found.append(_Hidden(match.start(), arg[1], "latex-zero-box", "zero-width box: its text overprints "
                                 "its neighbours", code[arg[0] + 1:arg[1] - 1]))
    for match in re.finditer(r"\\pdfliteral\s*(?:direct\s*|page\s*)?\{[^{}]*\b3\s+Tr\b[^{}]*\}"
                             r"|\\special\s*\{\s*pdf:\s*literal[^{}]*\b3\s+Tr\b[^{}]*\}", code):
        end = _enclosing_end(code, match.end())
        found.append(_Hidden(match.start(), end, "latex-invisible-render", "PDF text render mode 3 (invisible)",
                             code[match.end():end]))
    return found


def _macro_body_hides(body: str, white_names: set[str], takes_argument: bool) -> str | None:
    if takes_argument and "#1" not in body:
        return "discards its argument"
    inner = _hiding_constructs(body, white_names)
    if inner and ("#1" in body or not takes_argument):
        return f"hides its text ({inner[0].reason})"
    return None


def _hidden_macro_uses(code: str, white_names: set[str]) -> list[_Hidden]:
    macros: dict[str, str] = {}
    for match in _NEW_MACRO.finditer(code):
        name = match.group(1) or match.group(3) or match.group(5)
        if match.group(5):
            takes = bool(match.group(6))
        else:
            takes = int(match.group(2) or match.group(4) or 0) >= 1
        arg = _argument(code, match.end() - 1)  # the pattern ends at the body's "{"
        body = code[arg[0] + 1:arg[1] - 1] if arg else ""
        why = _macro_body_hides(body, white_names, takes)
        if why:
            macros[name] = why
    found = []
    for name, why in macros.items():
        for use in re.finditer(rf"\\{re.escape(name)}(?![A-Za-z@])", code):
            arg = _argument(code, use.end())
            if arg is None or code[max(0, use.start() - 12):use.start()].rstrip().endswith(("command", "def", "{")):
                continue
            found.append(_Hidden(use.start(), arg[1], "latex-hidden-macro", f"\\{name} {why}",
                                 code[arg[0] + 1:arg[1] - 1]))
    return found


def _comments(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, content)`` of every ``%`` comment (escaped ``\\%`` kept), ``comment``
    environment and ``\\iffalse`` block."""
    found = []
    offset = 0
    for line in text.split("\n"):
        cut = comment_start(line) if "%" in line else None
        if cut is not None:
            found.append((offset + cut, offset + len(line), line[cut + 1:]))
        offset += len(line) + 1
    for match in re.finditer(r"\\begin\{comment\}(.*?)\\end\{comment\}|\\iffalse\b(.*?)\\fi\b", text, re.DOTALL):
        found.append((match.start(), match.end(), match.group(1) or match.group(2) or ""))
    return found


def _blank(text: str, spans: list[tuple[int, int, str]]) -> str:
    """``text`` with every character of ``spans`` but line breaks replaced by a space (indices kept)."""
    pieces = []
    position = 0
    for start, end, _ in sorted(spans):
        start = max(start, position)
        if start >= end:
            continue
        pieces += [text[position:start], _NOT_NEWLINE.sub(" ", text[start:end])]
        position = end
    pieces.append(text[position:])
    return "".join(pieces)


def _metadata(code: str) -> list[tuple[int, int, str, str]]:
    """``(start, end, field, value)`` of PDF metadata set in the source."""
    found: list[tuple[int, int, str, str]] = []
    lowered = code.lower()
    if "\\pdfinfo" not in code and not any(key in lowered for key in _METADATA_KEYS):
        return found
    for match in re.finditer(r"\\pdfinfo\s*(?=\{)", code):
        arg = _argument(code, match.end())
        if arg:
            for item in re.finditer(r"/(\w+)\s*\(((?:[^()\\]|\\.)*)\)", code[arg[0]:arg[1]]):
                found.append((arg[0] + item.start(), arg[0] + item.end(), item.group(1), item.group(2)))
    keys = "|".join(_METADATA_KEYS)
    for match in re.finditer(rf"\b({keys})\s*=\s*", code, re.IGNORECASE):
        start = match.end()
        arg = _argument(code, start)  # no whitespace to skip: the pattern took it
        if arg:
            end = arg[1]
            value = code[start + 1:end - 1]
        else:
            stop = re.compile(r"[,\]}\n]").search(code, start)
            end = stop.start() if stop else len(code)
            value = code[start:end]
        found.append((match.start(), end, match.group(1), value))
    return found


def _severity(kind: str, has_instruction: bool) -> Severity:
    if has_instruction:
        return "high"
    return "info" if kind == "latex-tiny-text" else "low"


def scan_latex_text(text: str, locate: Callable[[int], Location], *, typeset: bool = False) -> list[Finding]:
    """Findings of one LaTeX source text.

    Args:
        text: the file's text.
        locate: maps an index of ``text`` to a :class:`Location`.
        typeset: the project was compiled and its typeset text judged
            (:mod:`rhetorica.documents.scan.typeset`): the source's hiding constructs, metadata
            keys and visible instructions are then not looked for here (the compiled PDF says what
            is hidden and what is shown); comments, invisible characters and shell attempts still are.

    Returns:
        Findings in text order (see the module docstring for kinds and severities).
    """
    comments = _comments(text)
    code = _blank(text, comments)
    white_names = _colour_names(code)
    findings: list[tuple[int, Finding]] = []
    hidden = [] if typeset else _hiding_constructs(code, white_names) + _hidden_macro_uses(code, white_names)
    covered: list[tuple[int, int]] = []
    for item in sorted(hidden, key=lambda h: (h.start, -h.end)):
        if not re.search(r"[^\W\d_]", item.content):
            continue
        if any(s <= item.start and item.end <= e for s, e in covered) and item.kind == "latex-tiny-text":
            continue
        matches = find_instructions(item.content)
        reason = item.reason + (f"; contains an instruction ({matches[0].rule})" if matches else "")
        findings.append((item.start, Finding(kind=item.kind, severity=_severity(item.kind, bool(matches)),
                                             location=locate(item.start), text=text[item.start:item.end],
                                             reason=reason, instruction=matches[0].rule if matches else None,
                                             hidden_text=item.content.strip(),
                                             before=" ".join(words_before(text, item.start)))))
        covered.append((item.start, item.end))
    for start, end, field, value in ([] if typeset else _metadata(code)):
        matches = find_instructions(value)
        if matches:
            location = locate(start).model_copy(update={"field": field})
            findings.append((start, Finding(kind="latex-metadata", severity="high", location=location,
                                            text=text[start:end], reason=f"PDF metadata field {field} (not shown on "
                                            f"the page) contains an instruction ({matches[0].rule})",
                                            instruction=matches[0].rule, hidden_text=value)))
            covered.append((start, end))
    for start, end, content in comments:
        matches = find_instructions(content)
        if matches:
            findings.append((start, Finding(kind="latex-comment", severity="low", location=locate(start),
                                            text=text[start:end], reason="comment contains an instruction "
                                            f"({matches[0].rule}); TeX never typesets it, so neither a reader "
                                            "nor a reviewer given the paper's text receives it",
                                            instruction=matches[0].rule)))
    invisible = [] if text.isascii() else [s for s in hidden_spans(text)  # invisible characters are not ASCII
                                           if s.kind in ("unicode-tags", "zero-width", "bidi-control")]
    covered += [(s.start, s.end) for s in invisible]  # each run, not its group: text between runs stays scanned
    for span in group_invisible(invisible, text):
        matches = find_instructions(span.content) if span.content else []
        severity: Severity = "high" if matches else ("low" if span.content.strip() else "info")
        reason = span.reason + (f"; contains an instruction ({matches[0].rule})" if matches else "")
        findings.append((span.start, Finding(kind=span.kind, severity=severity, location=locate(span.start),
                                             text=text[span.start:span.end], reason=reason,
                                             instruction=matches[0].rule if matches else None,
                                             decoded=span.content or None, hidden_text=span.content,
                                             before=" ".join(words_before(text, span.start)))))
    for match in ([] if typeset else find_instructions(code)):
        if any(s <= match.start < e for s, e in covered):
            continue
        severity, reason = visible_verdict(match)
        findings.append((match.start, Finding(
            kind="instruction", severity=severity, location=locate(match.start),
            text=text[match.start:match.end], instruction=match.rule, reason=reason,
            decoded=match.decoded if match.decoded != text[match.start:match.end] else None)))
    lines = text.split("\n")
    line_starts = [0]
    for line in lines[:-1]:
        line_starts.append(line_starts[-1] + len(line) + 1)
    for attempt in shell_attempts(text):
        start = line_starts[attempt.line - 1] + max(0, lines[attempt.line - 1].find(attempt.text))
        findings.append((start, Finding(kind="latex-shell", severity="high", location=locate(start), text=attempt.text,
                                        reason=attempt.reason)))
    findings.sort(key=lambda item: item[0])
    return [f for _, f in findings]


LATEX_SUFFIXES = (".tex", ".sty", ".cls", ".ltx")


def scan_latex(path: Path, *, typeset: bool = True) -> ScanReport:
    """Scan a LaTeX project folder (every ``.tex``/``.sty``/``.cls``/``.ltx`` file below it) or one file.

    With ``typeset`` (the default) the project is compiled and what is hidden or shown is judged
    from the typeset glyphs (:func:`rhetorica.documents.scan.typeset.typeset_findings`); the
    source's hiding constructs are looked for only where it cannot be compiled (no TeX, no main
    file, no PDF), and a note says which was done.

    Locations name files relative to the folder.

    Raises:
        FileNotFoundError: if the folder holds no LaTeX source file.
        OSError: if a file cannot be read.
    """
    files = sorted(p for p in path.rglob("*") if p.suffix.lower() in LATEX_SUFFIXES) if path.is_dir() else [path]
    if not files:
        raise FileNotFoundError(f"{path}: a folder is scanned as a LaTeX project, and this one holds no "
                                f"{'/'.join(LATEX_SUFFIXES)} file; pass its files instead (e.g. {path}/*.pdf)")
    report = ScanReport(target=str(path), format="latex")
    sources: dict[str, str] = {}
    for file in files:
        name = str(file.relative_to(path)) if path.is_dir() else str(file)
        raw = file.read_bytes()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = raw.decode("latin-1")
            report.notes.append(f"{name}: not UTF-8, read as Latin-1")
        sources[name] = text.replace("\r\n", "\n")
    compiled = typeset_findings(path, sources) if typeset else None
    if compiled is not None:
        report.notes.append(compiled.note)
    judged = compiled is not None and compiled.compiled
    for name, text in sources.items():
        report.findings += scan_latex_text(text, line_locator(text, file=name), typeset=judged)
    if judged:
        order = {name: i for i, name in enumerate(sources)}
        report.findings = sorted(report.findings + compiled.findings, key=lambda f: (  # type: ignore[union-attr]
            order.get(f.location.file or "", len(order)), f.location.line or 10**9, f.location.column or 0))
    if path.is_dir():
        report.unread += _missing_inputs(path)
    return report


def _missing_inputs(root: Path) -> list[Unread]:
    """One :class:`Unread` per ``\\input``/``\\include`` of the project's main file (and what it
    includes) that names a missing file: its text is not in the project, so it was not scanned. Its
    ``file`` is the including file's path and line (``<project>/main.tex:4``)."""
    try:
        main = find_main_file(root)
    except DocumentReadError:  # a folder of style files or fragments: nothing to follow
        return []
    out = []
    for warning in expand_inputs(main, root.resolve()).warnings:
        where, _, reason = warning.partition(": ")
        if reason.startswith("missing "):
            out.append(Unread(file=str(root / where), reason=reason))
    return out
