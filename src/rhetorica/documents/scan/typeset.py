"""Hidden text in a LaTeX project judged from what TeX typesets, not from how the source spells it.

The rule: the text a reviewer receives from a LaTeX project must be text TeX typesets visibly.
The project is compiled with the project's safe compile
(:func:`rhetorica.documents.latex.compile.compile_project`: no shell escape, paranoid file
access, a time limit, a temporary copy), and then

- each glyph of the compiled PDF is judged by the one definition of hidden PDF text
  (:mod:`rhetorica.documents.pdf.visibility`, through :func:`rhetorica.documents.scan.pdf.scan_pdf`):
  render mode 3/7, no contrast with its background (white, transparent), off the page box,
  clipped, covered, or below the legible size. So ``\\pdfrender{TextRenderingMode=3}``,
  ``\\hspace{-50cm}``, a ``\\resizebox`` to 0.1 pt and a white colour defined through a macro are
  one rule, and a ``\\fontsize{0.1pt}`` that LaTeX substitutes with a 5 pt font is what it is:
  visible. Consecutive hidden glyphs are one span whatever hides each; a span without an
  instruction that is part of a word whose other letters are visible (a line running past the
  page edge) is ``info``;
- the text the LaTeX reader passes on (:func:`rhetorica.documents.latex.reader.read_latex`, which
  does not run TeX) is compared with everything the PDF typesets (:func:`untypeset_spans`): a run
  TeX never typesets (text put in a box never used, a branch of ``\\ifnum`` TeX skips, a graphic
  scaled to 0) that carries an instruction is ``latex-untypeset``. Runs without one are not
  reported: there the reader's rendering of a bibliography, of math beside words or of a citation
  key differs from TeX's (on the six shared real projects every such run was one of these).

Text TeX never typesets and the reader does not pass on either (comments, ``\\iffalse``, unused
macros, ``\\phantom``) is no hidden text shown to anyone and is not judged here.

Each hidden span becomes a finding of kind ``latex-`` + the PDF kind's name
(``latex-invisible-text``, ``latex-off-page``, ``latex-clipped``, ``latex-covered``,
``latex-white-text``, ``latex-tiny-text``), an instruction in the compiled PDF's information
dictionary ``latex-metadata``, and visible instruction-like text ``instruction``; each is located at
the source line that holds its first words, of several the one the words before the span precede
(:mod:`rhetorica.documents.scan.occurrence`; the compiled page is named in its reason).
"""

from __future__ import annotations

import re
import shutil
import tempfile
import time
import unicodedata
from itertools import product
from dataclasses import dataclass, field
from pathlib import Path

from rhetorica.documents.latex.compile import compile_project, main_name_problem
from rhetorica.documents.latex.project import load_project
from rhetorica.documents.latex.reader import read_latex
from rhetorica.documents.latex.source import expand_inputs, find_main_file
from rhetorica.documents.options import DocumentReadError, ReadOptions
from rhetorica.documents.scan.findings import Finding, Location
from rhetorica.documents.scan.instructions import find_instructions
from rhetorica.documents.scan.occurrence import CONTEXT_WORDS, copies, hidden_copy, words_before
from rhetorica.documents.scan.pdf import scan_pdf, typeset_text

TYPESET_TIMEOUT_S = 120.0
"""Wall-clock seconds for compiling one project to judge its text (all attempts together)."""

_PDFIUM_HYPHEN = re.compile(r"[\x02\ufffe\u00ad]\s*")
"""pdfium's mark for a hyphen TeX inserted at a line end (the word continues on the next line), as
pdfium gives it or as :func:`rhetorica.documents.scan.pdf.typeset_text` passes it on."""

MIN_UNTYPESET_WORDS = 3
"""A run of at least this many words the LaTeX reader passes on but TeX never typesets is reported
(fewer: a reference label or a citation key the reader leaves as markup)."""

_WORD = re.compile(r"[^\W\d_]+")
_MARKUP = re.compile(r"\$\$.*?\$\$|\$.*?\$|\\\[.*?\\\]|\\\(.*?\\\)|\\begin\{([A-Za-z*]+)\}.*?\\end\{\1\}"
                     r"|\\[A-Za-z@]+\*?(?:\[[^\]]*\])?(?:\{[^{}]*\})?", re.S)
"""What the reader leaves as LaTeX (math, environments, commands it does not render, with their
argument): typeset as something else, so not compared word for word."""


@dataclass
class Typeset:
    """What compiling a project said about its text.

    Attributes:
        compiled: whether a PDF was produced and judged (``False``: the findings are empty and
            ``note`` says why, so hidden text must be judged from the source).
        findings: the compiled PDF's findings, located in the source (see the module docstring).
        note: one sentence for the report: what was compiled, or why nothing was.
    """

    compiled: bool
    note: str
    findings: list[Finding] = field(default_factory=list)


def _clean(text: str) -> str:
    """Extracted PDF text as the LaTeX reader writes it: TeX's line-end hyphens joined, ligatures
    and compatibility forms unfolded (NFKC)."""
    return unicodedata.normalize("NFKC", _PDFIUM_HYPHEN.sub("", text))


def _source_place(text: str, sources: dict[str, str], before: str | None = None) -> tuple[str, int, int] | None:
    """``(file, line, column)`` of the place in ``sources`` (relative path -> text) that holds the
    first words of ``text`` (four words, else two, else one, as a copy:
    :func:`rhetorica.documents.scan.occurrence.copies`; inside a longer word only when no whole
    words hold it: a fragment of a word), of several the one the words ``before`` the span precede
    (:func:`rhetorica.documents.scan.occurrence.hidden_copy`)."""
    words = text.split()
    for count, whole in product((4, 2, 1), (True, False)):
        if len(words) < count:
            continue
        found = [(name, source, match) for name, source in sources.items()
                 for match in copies(source, " ".join(words[:count]), whole_words=whole)]
        k = hidden_copy([words_before(source, match.start(), CONTEXT_WORDS + 4) for _, source, match in found],
                        before, strict=False)
        if k is not None:
            name, source, match = found[k]
            line = source.count("\n", 0, match.start()) + 1
            column = match.start() - (source.rfind("\n", 0, match.start()) + 1) + 1
            return name, line, column
    return None


def _relocate(finding: Finding, sources: dict[str, str], main: str) -> Finding:
    kind = finding.kind
    if kind.startswith("pdf-"):
        kind = "latex-" + kind.removeprefix("pdf-")
    text = _clean(finding.text)
    hidden = _clean(finding.hidden_text) if finding.hidden_text is not None else None
    words = hidden if hidden is not None else text
    place = _source_place(words, sources, finding.before)
    file, line, column = place if place else (main, None, None)
    page = f" on page {finding.location.page}" if finding.location.page is not None else ""
    reason = f"as typeset{page}: {finding.reason}"
    location = Location(file=file, line=line, column=column, field=finding.location.field)
    return finding.model_copy(update={"kind": kind, "text": text, "hidden_text": hidden, "location": location,
                                      "reason": reason, "decoded": _clean(finding.decoded) if finding.decoded else None})


def _words(text: str) -> list[tuple[str, int, int]]:
    """``(word, start, end)`` of every run of letters of ``text``, case-folded, markup left out."""
    plain = _MARKUP.sub(lambda m: " " * len(m.group(0)), text)
    return [(m.group(0).casefold(), m.start(), m.end()) for m in _WORD.finditer(plain)]


def untypeset_spans(received: list[str], typeset: str) -> list[tuple[int, str]]:
    """The spans of the ``received`` texts (what the LaTeX reader passes on) that TeX never typeset.

    The texts' words are read as one sequence, in order. A word counts as typeset when one of the
    three word triples it belongs to occurs in ``typeset`` (every character of the compiled PDF,
    hidden or not); then, outwards from typeset words, a neighbour whose word pair with it occurs
    there is typeset too (a word beside a gap has no typeset triple), and so are the first and the
    last two words when their pair occurs. Runs of at least :data:`MIN_UNTYPESET_WORDS` other
    words within one text are returned.

    Args:
        received: the reader's texts (title, then each section's title and text).
        typeset: the compiled PDF's text, as :func:`rhetorica.documents.scan.pdf.typeset_text` gives it.

    Returns:
        ``(index of the text, exact span from its first untypeset word to its last)`` per run.
    """
    pdf_words = [w for w, _, _ in _words(_clean(typeset))]
    pairs = set(zip(pdf_words, pdf_words[1:]))
    triples = set(zip(pdf_words, pdf_words[1:], pdf_words[2:]))
    words = [(k, w, a, b) for k, text in enumerate(received) for w, a, b in _words(text)]
    names = [w for _, w, _, _ in words]
    n = len(names)
    shown = [any(tuple(names[k:k + 3]) in triples for k in range(max(0, i - 2), min(i, n - 3) + 1))
             for i in range(n)]
    for edge in ((0, 1), (n - 2, n - 1)):
        if n >= 2 and (names[edge[0]], names[edge[1]]) in pairs:
            shown[edge[0]] = shown[edge[1]] = True
    for i in range(n - 1):
        if shown[i] and not shown[i + 1] and (names[i], names[i + 1]) in pairs:
            shown[i + 1] = True
    for i in range(n - 1, 0, -1):
        if shown[i] and not shown[i - 1] and (names[i - 1], names[i]) in pairs:
            shown[i - 1] = True
    spans = []
    i = 0
    while i < n:
        j = i
        while j < n and not shown[j] and words[j][0] == words[i][0]:
            j += 1
        if j - i >= MIN_UNTYPESET_WORDS:
            spans.append((words[i][0], received[words[i][0]][words[i][2]:words[j - 1][3]]))
        i = max(j, i + 1)
    return spans


def _untypeset_finding(span: str, before: str, sources: dict[str, str], fallback: str) -> Finding | None:
    """A ``latex-untypeset`` finding for an untypeset span that carries an instruction, else ``None``:
    without one, a span is the reader's own rendering of what TeX typesets differently (a
    bibliography entry, math beside words, a citation key, a subfigure label), not hidden text.
    ``before``: the words the reader passes on right before the span."""
    matches = find_instructions(span)
    if not matches:
        return None
    place = _source_place(span, sources, before)
    file, line, column = place if place else (fallback, None, None)
    return Finding(kind="latex-untypeset", severity="high", text=span, hidden_text=span, before=before or None,
                   reason="the LaTeX reader passes this text on, but TeX never typesets it (it is not in the compiled "
                          f"PDF); contains an instruction ({matches[0].rule})",
                   instruction=matches[0].rule, location=Location(file=file, line=line, column=column))


def typeset_findings(path: Path, sources: dict[str, str]) -> Typeset:
    """Compile the LaTeX project at ``path`` and judge its text from the compiled PDF.

    Args:
        path: a project folder (its main file is detected) or a main ``.tex`` file (compiled with
            the files it inputs, copied into a temporary folder; a missing style or figure is
            substituted by the compile's fallback).
        sources: the project's LaTeX files (name -> text), where findings are located; a finding
            whose words none holds is placed in the main file (for a single file: the first name
            of ``sources``) without a line.

    Returns:
        A :class:`Typeset`; never raises for a project that does not compile (``compiled`` is then
        ``False`` and ``note`` names the reason: no TeX, no main file, compile failed without a
        PDF, timeout, a main file name the compile refuses).
    """
    if shutil.which("latexmk") is None or shutil.which("pdflatex") is None:
        return Typeset(False, "not compiled (latexmk/pdflatex not found): hidden text judged from source constructs only")
    with tempfile.TemporaryDirectory(prefix="rhetorica-typeset-") as tmp:
        try:
            if path.is_dir():
                root, main = path.resolve(), find_main_file(path).resolve()
            else:
                root, main = Path(tmp) / "project", path.resolve()
                for rel in [main.name, *expand_inputs(main, main.parent).files]:
                    (root / rel).parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(main.parent / rel, root / rel)
                main = root / main.name
            main_rel = main.relative_to(root).as_posix()
            problem = main_name_problem(main_rel)
            if problem:
                return Typeset(False, f"not compiled ({main_rel}: {problem}): hidden text judged from source constructs only")
            project, pdf_out = load_project(root, main_rel), Path(tmp) / "typeset.pdf"
            started = time.monotonic()
            result = compile_project(project, pdf_out=pdf_out, fallback=False, timeout_s=TYPESET_TIMEOUT_S)
            if result.status == "failed":  # missing styles or figures are substituted on a second try
                left = TYPESET_TIMEOUT_S - (time.monotonic() - started)
                result = compile_project(project, pdf_out=pdf_out, timeout_s=max(left, 1.0))
        except (DocumentReadError, OSError) as exc:
            return Typeset(False, f"not compiled ({exc}): hidden text judged from source constructs only")
        if result.pdf is None:
            return Typeset(False, f"not compiled ({result.status}: {result.reason}): hidden text judged from source "
                                  "constructs only")
        report = scan_pdf(result.pdf, whole_spans=True)
        typeset = typeset_text(result.pdf)
    fallback = main_rel if path.is_dir() else next(iter(sources), str(path))
    findings = [_relocate(f, sources, fallback) for f in report.findings]
    try:
        document = read_latex(path, "typeset-check", ReadOptions(cut_after_references=False))
    except DocumentReadError as exc:
        return Typeset(True, f"compiled {main_rel} with pdflatex, but its text could not be read for the comparison "
                             f"({exc.problem})", findings)
    received = [document.title] + [t for s in document.sections for t in (s.title, s.text)]
    findings += [f for k, span in untypeset_spans(received, typeset)
                 if (f := _untypeset_finding(span, " ".join(words_before(received[k], received[k].find(span))),
                                             sources, fallback)) is not None]
    errors = f" with {len(result.errors)} TeX error(s), first: {result.errors[0]}" if result.errors else ""
    note = f"compiled {main_rel} with pdflatex{errors}: hidden text judged from the typeset glyphs"
    return Typeset(True, note, findings)
