"""Protected anchors: what a rewrite of a LaTeX project must leave exactly as it was.

Compared between a baseline project and its rewrite (comments ignored, as TeX ignores them):

- ``citation``: every key of ``\\cite``-family commands (``\\citep``, ``\\citet``, ``\\citeauthor``,
  ``\\nocite``, ...), as a multiset;
- ``reference`` / ``label``: keys of ``\\ref``, ``\\eqref``, ``\\pageref``, ``\\cref``, ``\\Cref``,
  ``\\autoref``, ``\\nameref`` / ``\\label``;
- ``url``: ``\\url`` and the target of ``\\href``; ``graphics``: ``\\includegraphics`` paths;
- ``math``: every math environment, ``\\[...\\]``, ``$$...$$``, ``$...$`` and ``\\(...\\)``, with
  whitespace runs collapsed to one space;
- ``verbatim``: ``verbatim``/``Verbatim``/``lstlisting``/``minted``/``algorithm``/``algorithmic``
  blocks and ``\\verb`` (exact text);
- ``number``: numbers in text and tables (outside math and the keys above; ``1,000`` = ``1000``);
- ``macro``: macro definitions in the body (by name and full definition);
- ``input``: the ``\\input``/``\\include`` targets;
- ``preamble``: the main file up to ``\\begin{document}`` and files included from it, byte-equal;
- ``bibliography``: ``.bib``/``.bbl`` files byte-equal; ``file``: every other file that is not
  editable manuscript text (styles, figures, data, unincluded ``.tex``) byte-equal;
- ``command``: a control sequence or environment the baseline's manuscript text does not use and
  that is not prose markup (:mod:`vocabulary`: the rule names what is allowed, so an unlisted
  spelling is refused too), found after ``^^`` escapes are decoded; not repeated for a name a
  ``dangerous`` violation on the same line already shows;
- ``dangerous``: a new argument starting with ``|`` (a pipe: a shell command as a file name,
  :func:`vocabulary.new_pipes`), a new ``\\write18``, ``\\immediate\\write``, ``\\openout``, ``\\openin``,
  ``\\ShellEscape``, ``\\directlua``, or an ``\\input`` of a file outside the project or not in the
  baseline; and the spellings that disguise them (issue 24 item 9): ``\\csname ...\\endcsname``,
  ``\\catcode``, ``^^`` character escapes, ``\\write``/``\\openout``/``\\immediate``/``\\scantokens``
  with any argument, and ``\\let``/``\\def``/``\\newcommand`` that defines or aliases one of
  :data:`GUARDED_PRIMITIVES`. Each is compared as its exact token sequence (whitespace removed),
  so a construct the baseline already had passes and every new one is named with its line.

The multisets are over the whole project (moving a cited sentence to another file is fine); a
missing and an added value of the same kind in the same file are reported together as one change.
"""

from __future__ import annotations

import difflib
import re
import time
from collections import Counter
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from rhetorica.documents.latex.source import GRAPHICS_RE, comment_start, read_text_file
from rhetorica.documents.latex.project import LatexProject, project_files
from rhetorica.rewriting.latex_project.vocabulary import allowed, code_lines, new_pipes, vocabulary

ANCHOR_KINDS = (
    "citation", "reference", "label", "url", "graphics", "math", "verbatim", "number", "macro",
    "input", "preamble", "bibliography", "file", "command", "dangerous",
)
_VERBATIM_ENVS = ("verbatim", "Verbatim", "lstlisting", "minted", "algorithm", "algorithmic")
_MATH_ENVS = (
    "equation", "align", "alignat", "flalign", "gather", "multline", "eqnarray", "displaymath", "math",
)
_ENV = r"\\begin\{(%s)(\*?)\}.*?\\end\{\1\2\}"
_VERBATIM_RE = re.compile(_ENV % "|".join(_VERBATIM_ENVS), re.S)
_VERB_RE = re.compile(r"\\(?:verb|lstinline)\*?([^a-zA-Z\s{*])(.*?)\1")
_MATH_ENV_RE = re.compile(_ENV % "|".join(_MATH_ENVS), re.S)
_DISPLAY_RE = re.compile(r"(?<!\\)\\\[.*?\\\]|(?<!\\)\$\$.*?(?<!\\)\$\$", re.S)
_INLINE_RE = re.compile(r"(?<!\\)\$(?:\\.|[^$\\])+?(?<!\\)\$|(?<!\\)\\\(.*?\\\)", re.S)
_CITE_RE = re.compile(r"\\(?:[a-zA-Z]*cite[a-zA-Z]*|nocite)\*?\s*(?:\[[^\]]*\]\s*){0,2}\{([^{}]*)\}")
_REF_RE = re.compile(r"\\(?:ref|eqref|pageref|cref|Cref|autoref|nameref|vref|Vref|cpageref)\*?\s*\{([^{}]*)\}")
_LABEL_RE = re.compile(r"\\label\s*\{([^{}]*)\}")
_URL_RE = re.compile(r"\\(?:url|nolinkurl)\s*\{([^{}]*)\}|\\href\s*\{([^{}]*)\}")
_INPUT_RE = re.compile(r"\\(?:input|include|subfile)(?![a-zA-Z@])\s*(?:\{([^{}]*)\}|([^\s{}\\%]+))")
_DEFINE_RE = re.compile(
    r"\\(?:re)?newcommand\*?\s*\{?\\[a-zA-Z@]+\}?(?:\[[^\]]*\])*\s*\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\}|"
    r"\\def\s*\\[a-zA-Z@]+[^{]*\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\}"
)
_KEYED_RE = re.compile(
    r"\\(?:[a-zA-Z]*cite[a-zA-Z]*|nocite|ref|eqref|pageref|cref|Cref|autoref|nameref|label|url|href|"
    r"includegraphics|input|include|bibliography|bibliographystyle|begin|end|usepackage|color|textcolor|"
    r"definecolor)\*?\s*(?:\[[^\]]*\]\s*)*\{[^{}]*\}"
)
_NUMBER_RE = re.compile(r"(?<![A-Za-z0-9_@])[-+]?\d+(?:[.,]\d+)*")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_DANGEROUS_RE = re.compile(
    r"\\write\s*18|\\immediate\s*\\write|\\openout|\\openin|\\ShellEscape|\\directlua|\\luaexec|"
    r"\\pdfshellescape|\\input\s*\|"
)
GUARDED_PRIMITIVES = frozenset({
    "write", "immediate", "openout", "openin", "closeout", "closein", "read", "readline", "input", "endinput",
    "scantokens", "csname", "endcsname", "catcode", "lccode", "uccode", "def", "edef", "gdef", "xdef", "let",
    "futurelet", "global", "expandafter", "noexpand", "string", "detokenize", "lowercase", "uppercase", "special",
    "shipout", "everyjob", "everypar", "everyeof", "afterassignment", "aftergroup", "directlua", "latelua",
    "pdfshellescape", "ShellEscape", "numexpr", "number", "romannumeral", "the", "newlinechar", "endlinechar",
    "escapechar",
})
"""TeX primitives (TeX, e-TeX, pdfTeX, LuaTeX) that write files, run commands, re-tokenise text or build
control sequences: a rewrite may not define, redefine or alias one of them (``\\let\\w=\\write``)."""
_CS = r"\\(?:[A-Za-z@]+|.)"
_DISGUISED_RE = re.compile(
    r"\\csname(?![A-Za-z@]).*?(?:\\endcsname(?![A-Za-z@])|$)"  # a control sequence built from text
    r"|\\catcode(?![A-Za-z@])\s*(?:`(?:\\.|.)|\d+|\"[0-9A-Fa-f]+|'[0-7]+)?\s*=?\s*\d*"  # changes tokenisation
    r"|\^\^(?:[0-9a-f]{2}|.)"  # ^^ character escape: ^^5c is a backslash, ^^69 an "i"
    r"|(?:\\global\s*)?\\(?:let|futurelet)(?![A-Za-z@])\s*(?:" + _CS + r")\s*=?\s*(?:" + _CS + r")?"
    r"|(?:\\global\s*)?\\[egx]?def(?![A-Za-z@])\s*(?:" + _CS + r")"
    r"|\\(?:re|provide)?(?:newcommand|DeclareRobustCommand)\*?\s*\{?\s*(?:" + _CS + r")"
    r"|\\(?:write|openout|immediate|scantokens|closeout)(?![A-Za-z@])\s*(?:" + _CS + r"|-?\d+)?",
    re.M,
)
_DEFINING = re.compile(r"(?:\\global\s*)?\\(?:let|futurelet|[egx]?def|(?:re|provide)?newcommand|DeclareRobustCommand)"
                       r"(?![A-Za-z@])")
_BIB_SUFFIXES = {".bib", ".bbl"}


class Anchor(BaseModel):
    """One protected value at its place: ``kind`` (one of :data:`ANCHOR_KINDS`), project-relative
    ``file``, 1-based ``line``, and the compared ``value``."""

    model_config = ConfigDict(frozen=True)

    kind: str
    file: str
    line: int
    value: str


class Violation(BaseModel):
    """A protected anchor that changed: where (``file``, 1-based ``line``: the variant's place for
    a change or an addition, the baseline's for a removal), what kind, the expected value (``None``
    for an addition) and the value found (``None`` for a removal)."""

    model_config = ConfigDict(frozen=True)

    kind: str
    file: str
    line: int
    expected: str | None
    found: str | None
    detail: str | None = None

    @property
    def message(self) -> str:
        """``file:line: kind: expected 'x', found 'y'`` (or ``file:line: kind: detail`` when a
        detail says more) — the exact text sent back to a rewriter."""
        if self.detail:
            return f"{self.file}:{self.line}: {self.kind}: {self.detail}"
        expected = "nothing" if self.expected is None else f"'{_short(self.expected)}'"
        found = "nothing" if self.found is None else f"'{_short(self.found)}'"
        return f"{self.file}:{self.line}: {self.kind}: expected {expected}, found {found}"


class AnchorReport(BaseModel):
    """Result of :func:`check_anchors`: the violations (file order), the baseline's anchor counts
    per kind, and the checker's time in seconds."""

    model_config = ConfigDict(frozen=True)

    violations: tuple[Violation, ...]
    baseline_counts: dict[str, int]
    seconds: float

    @property
    def ok(self) -> bool:
        """No violation."""
        return not self.violations

    @property
    def messages(self) -> tuple[str, ...]:
        """One message per violation."""
        return tuple(v.message for v in self.violations)


def extract_anchors(project: LatexProject) -> list[Anchor]:
    """Every content anchor (citation, reference, label, url, graphics, math, verbatim, number,
    macro, input, dangerous) in the main file's body and the body files."""
    anchors: list[Anchor] = []
    for file in project.editable_files:
        text = project.read(file)
        start = 0
        if file == project.main:
            cut = project.preamble()
            start = len(cut) if text.startswith(cut) else 0
        anchors.extend(_text_anchors(file, text, start))
    return anchors


def check_anchors(baseline: LatexProject, variant: LatexProject) -> AnchorReport:
    """Compare ``variant`` with ``baseline`` and list every protected anchor that changed.

    Returns:
        An :class:`AnchorReport`; ``ok`` when nothing protected changed.
    """
    started = time.perf_counter()
    base = extract_anchors(baseline)
    var = extract_anchors(variant)
    violations: list[Violation] = []
    for kind in ANCHOR_KINDS:
        b = [a for a in base if a.kind == kind]
        v = [a for a in var if a.kind == kind]
        if kind == "dangerous":
            violations.extend(_diff(b, v, only_added=True))
        else:
            violations.extend(_diff(b, v))
    violations.extend(_unsafe_inputs(baseline, variant, var))
    violations.extend(_new_code(baseline, variant, violations))
    violations.extend(_preamble(baseline, variant))
    violations.extend(_files(baseline, variant))
    violations = [_url_left_as_text(v, variant) for v in violations]
    violations.sort(key=lambda x: (x.file, x.line, ANCHOR_KINDS.index(x.kind)))
    counts = Counter(a.kind for a in base)
    return AnchorReport(
        violations=tuple(violations),
        baseline_counts={k: counts.get(k, 0) for k in ANCHOR_KINDS},
        seconds=time.perf_counter() - started,
    )


def _url_left_as_text(violation: Violation, variant: LatexProject) -> Violation:
    """A removed URL whose text the variant's file still holds: ``\\url{}`` was removed, not the URL."""
    if violation.kind != "url" or violation.found is not None or not violation.expected:
        return violation
    path = variant.root / violation.file
    if not path.is_file() or violation.expected not in _URL_RE.sub(" ", variant.read(violation.file)):
        return violation
    return violation.model_copy(update={"detail": f"\\url{{}} was removed around '{_short(violation.expected)}' "
                                                  "(the URL is left as plain text); put it back in \\url{}"})


def _text_anchors(file: str, text: str, start: int) -> list[Anchor]:
    code = _blank_comments(text)
    code = re.sub(r"[^\n]", " ", code[:start]) + code[start:]
    line_starts = [0] + [i + 1 for i, ch in enumerate(code) if ch == "\n"]

    def line_of(offset: int) -> int:
        lo, hi = 0, len(line_starts)
        while lo + 1 < hi:
            mid = (lo + hi) // 2
            if line_starts[mid] <= offset:
                lo = mid
            else:
                hi = mid
        return lo + 1

    out: list[Anchor] = []

    def add(kind: str, offset: int, value: str) -> None:
        out.append(Anchor(kind=kind, file=file, line=line_of(offset), value=value))

    def blank(s: str, m: re.Match[str]) -> str:
        return s[: m.start()] + re.sub(r"[^\n]", " ", m.group(0)) + s[m.end():]

    work = code
    for regex in (_VERBATIM_RE, _VERB_RE):
        for m in list(regex.finditer(work)):
            add("verbatim", m.start(), m.group(0).replace("\r\n", "\n"))
            work = blank(work, m)
    taken: list[tuple[int, int]] = []
    for m in _DANGEROUS_RE.finditer(work):
        add("dangerous", m.start(), re.sub(r"\s+", "", m.group(0)))
        taken.append((m.start(), m.end()))
    for start, value in _disguised(work, taken):
        add("dangerous", start, value)
    for m in _CITE_RE.finditer(work):
        for key in m.group(1).split(","):
            if key.strip():
                add("citation", m.start(), key.strip())
    for m in _REF_RE.finditer(work):
        for key in m.group(1).split(","):
            if key.strip():
                add("reference", m.start(), key.strip())
    for m in _LABEL_RE.finditer(work):
        add("label", m.start(), m.group(1).strip())
    for m in _URL_RE.finditer(work):
        add("url", m.start(), (m.group(1) if m.group(1) is not None else m.group(2)).strip())
    for m in GRAPHICS_RE.finditer(work):
        add("graphics", m.start(), m.group(1).strip())
    for m in _INPUT_RE.finditer(work):
        add("input", m.start(), (m.group(1) if m.group(1) is not None else m.group(2)).strip())
    for regex in (_MATH_ENV_RE, _DISPLAY_RE, _INLINE_RE):
        for m in list(regex.finditer(work)):
            add("math", m.start(), _normalise(m.group(0)))
            work = blank(work, m)
    for m in list(_DEFINE_RE.finditer(work)):
        add("macro", m.start(), _normalise(m.group(0)))
        work = blank(work, m)
    for m in list(_KEYED_RE.finditer(work)):
        work = blank(work, m)
    for m in _NUMBER_RE.finditer(work):
        add("number", m.start(), _THOUSANDS.sub("", m.group(0)))
    return out


def _disguised(code: str, taken: list[tuple[int, int]]) -> list[tuple[int, str]]:
    """``(offset, token sequence without whitespace)`` of every construct of :data:`_DISGUISED_RE` in
    ``code`` that does not start inside a ``taken`` span (a plain ``\\immediate\\write18`` is reported
    once, by :data:`_DANGEROUS_RE`); a definition counts only when it names a guarded primitive."""
    out: list[tuple[int, str]] = []
    for m in _DISGUISED_RE.finditer(code):
        if any(s <= m.start() < e for s, e in taken):
            continue
        if _DEFINING.match(m.group(0)):
            names = set(re.findall(r"\\([A-Za-z@]+)", m.group(0)[len(_DEFINING.match(m.group(0)).group(0)):]))
            if not names & GUARDED_PRIMITIVES:
                continue
        out.append((m.start(), re.sub(r"\s+", "", m.group(0))))
    return out


def _diff(base: list[Anchor], var: list[Anchor], *, only_added: bool = False) -> list[Violation]:
    """Align the values file by file (``difflib``), then cancel a removal against an addition of the
    same value anywhere (a move); what is left is a change, a removal or an addition."""
    changes: list[tuple[Anchor, Anchor]] = []
    removed: list[Anchor] = []
    added: list[Anchor] = []
    for file in sorted({a.file for a in base} | {a.file for a in var}):
        b = [a for a in base if a.file == file]
        v = [a for a in var if a.file == file]
        matcher = difflib.SequenceMatcher(None, [a.value for a in b], [a.value for a in v], autojunk=False)
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            if op == "equal":
                continue
            pairs = min(i2 - i1, j2 - j1) if op == "replace" else 0
            changes.extend(zip(b[i1 : i1 + pairs], v[j1 : j1 + pairs]))
            removed.extend(b[i1 + pairs : i2])
            added.extend(v[j1 + pairs : j2])
    for r in list(removed):
        twin = next((a for a in added if a.value == r.value), None)
        if twin is not None:
            removed.remove(r)
            added.remove(twin)
    out = [Violation(kind=a.kind, file=a.file, line=a.line, expected=None, found=a.value) for a in added]
    if only_added:
        extra = Counter(a.value for a in var) - Counter(a.value for a in base)
        new_ones: list[Violation] = []
        for a in [n for _, n in changes] + added:
            if extra[a.value] > 0:
                extra[a.value] -= 1
                new_ones.append(Violation(kind=a.kind, file=a.file, line=a.line, expected=None, found=a.value))
        return new_ones
    out += [Violation(kind=o.kind, file=n.file, line=n.line, expected=o.value, found=n.value) for o, n in changes]
    out += [Violation(kind=a.kind, file=a.file, line=a.line, expected=a.value, found=None) for a in removed]
    return out


def _manuscript_code(project: LatexProject) -> list[tuple[str, list[str]]]:
    """``(file, code lines)`` of every editable file (:func:`vocabulary.code_lines`), the main
    file's preamble blanked (it is compared byte for byte)."""
    out = []
    for file in project.editable_files:
        text = project.read(file)
        if file == project.main:
            cut = project.preamble()
            if text.startswith(cut):
                text = re.sub(r"[^\n]", " ", cut) + text[len(cut):]
        out.append((file, code_lines(text)))
    return out


def _new_code(baseline: LatexProject, variant: LatexProject, found: list[Violation]) -> list[Violation]:
    """``command`` violations for control sequences and environments the rewrite introduced
    (:func:`vocabulary.allowed`), once per name and line and not for a name a ``dangerous``
    violation on that line already shows; ``dangerous`` ones for new pipe arguments."""
    base = _manuscript_code(baseline)
    var = _manuscript_code(variant)
    known = {name for _, lines in base for _, name in vocabulary(lines)}
    shown = {(v.file, v.line): v.found or "" for v in found if v.kind == "dangerous"}
    out: list[Violation] = []
    seen: set[tuple[str, int, str]] = set()
    for file, lines in var:
        for line, name in vocabulary(lines):
            if allowed(name, known) or (file, line, name) in seen or name in shown.get((file, line), ""):
                continue
            seen.add((file, line, name))
            what = "environment" if name.startswith("{") else "command"
            out.append(Violation(kind="command", file=file, line=line, expected=None, found=name,
                                 detail=f"new {what} '{name}': a rewrite may use only the commands and environments "
                                        "the original's text uses, and prose markup (\\emph, \\textbf, \\footnote, ...)"))
    for file, line, text in new_pipes([lines for _, lines in base], var):
        out.append(Violation(kind="dangerous", file=file, line=line, expected=None, found=text,
                             detail=f"'{_short(text)}' names a pipe: a file name starting with '|' is a shell command "
                                    "(run whenever shell escape is on)"))
    return out


def _unsafe_inputs(baseline: LatexProject, variant: LatexProject, var: list[Anchor]) -> list[Violation]:
    """An ``\\input`` the variant added that names a file outside its project or not in the baseline."""
    known = set(baseline.tex_files)
    base_names = Counter(a.value for a in extract_anchors(baseline) if a.kind == "input")
    out: list[Violation] = []
    for a in var:
        if a.kind != "input" or base_names[a.value] > 0:
            continue
        name = a.value.strip('"')
        target = (variant.root / Path(variant.main).parent / name)
        candidates = [target, target.with_name(target.name + ".tex")]
        inside = all(c.resolve().is_relative_to(variant.root) for c in candidates)
        rel = {c.resolve().relative_to(variant.root).as_posix() for c in candidates if c.resolve().is_relative_to(variant.root)}
        if Path(name).is_absolute() or not inside or not rel & known:
            out.append(Violation(kind="dangerous", file=a.file, line=a.line, expected=None, found=f"\\input{{{a.value}}}"))
    return out


def _preamble(baseline: LatexProject, variant: LatexProject) -> list[Violation]:
    pairs = [(baseline.main, baseline.preamble(), variant.preamble())]
    pairs += [(f, baseline.read(f), _read_or_none(variant.root / f)) for f in baseline.preamble_files]
    out: list[Violation] = []
    for file, old, new in pairs:
        if new is None:
            out.append(Violation(kind="preamble", file=file, line=1, expected="the file", found=None))
            continue
        if old == new:
            continue
        old_lines, new_lines = old.split("\n"), new.split("\n")
        k = next((i for i, (a, b) in enumerate(zip(old_lines, new_lines)) if a != b), min(len(old_lines), len(new_lines)))
        expected = old_lines[k] if k < len(old_lines) else None
        found = new_lines[k] if k < len(new_lines) else None
        out.append(Violation(kind="preamble", file=file, line=k + 1, expected=expected, found=found))
    return out


def _files(baseline: LatexProject, variant: LatexProject) -> list[Violation]:
    """Byte equality of every file that is not editable manuscript text."""
    editable = set(baseline.editable_files)
    base = {f for f in project_files(baseline.root) if f not in editable}
    var = {f for f in project_files(variant.root) if f not in editable and f not in variant.tex_files}
    out: list[Violation] = []
    for rel in sorted(base | var):
        if rel in baseline.preamble_files:
            continue
        kind = "bibliography" if Path(rel).suffix.lower() in _BIB_SUFFIXES else "file"
        a, b = baseline.root / rel, variant.root / rel
        if rel not in var and not b.is_file():
            out.append(Violation(kind=kind, file=rel, line=1, expected="the file", found=None))
        elif rel not in base:
            out.append(Violation(kind=kind, file=rel, line=1, expected=None, found="a new file"))
        elif a.read_bytes() != b.read_bytes():
            line = _first_different_line(a.read_bytes(), b.read_bytes())
            out.append(Violation(kind=kind, file=rel, line=line, expected="the file unchanged", found="a changed file"))
    return out


def _first_different_line(a: bytes, b: bytes) -> int:
    la, lb = a.split(b"\n"), b.split(b"\n")
    return next((i + 1 for i, (x, y) in enumerate(zip(la, lb)) if x != y), min(len(la), len(lb)) + 1)


def _blank_comments(text: str) -> str:
    """Comments replaced by spaces (every offset and line number kept)."""
    out = []
    for line in text.split("\n"):
        cut = comment_start(line)
        out.append(line if cut is None else line[:cut] + " " * (len(line) - cut))
    code = "\n".join(out)
    return re.sub(r"\\begin\{comment\}.*?\\end\{comment\}", lambda m: re.sub(r"[^\n]", " ", m.group(0)), code, flags=re.S)


def _normalise(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _read_or_none(path: Path) -> str | None:
    return read_text_file(path) if path.is_file() else None
