"""What TeX code a rewrite may introduce: the original's own commands and environments, plus prose markup.

A rewrite changes wording. Every control sequence and environment in its manuscript text must
therefore be one the original project's manuscript text already uses (outside comments and
verbatim), or one of the prose markup of :data:`PROSE_COMMANDS` / :data:`PROSE_ENVIRONMENTS`.
Anything else is refused by name and line — ``\\ExplSyntaxOn``, ``\\catcode``, ``\\openin``,
``\\csname``, ``\\def``, ``\\directlua``, ``\\usepackage``, a spelling nobody has listed — because
the rule lists what is allowed, never what is forbidden.

The text is read as TeX's input processor reads it before tokenising: ``^^`` escapes are decoded
first (``^^5c`` is a backslash, ``^^69`` an ``i``, ``^^I`` a tab: two lowercase hex digits, or one
character whose code is shifted by 64; repeated until nothing changes, as a decoded ``^`` can start
a new escape), then comments are dropped. Catcode changes need ``\\catcode`` (or a command the
original uses that runs it), so a rewrite cannot change how its own text is tokenised without a
new control sequence. A control word's letters are ``A-Z``, ``a-z`` and ``@`` (``@`` counted as a
letter wherever it may be one: this can only make a name longer, hence new).

A second rule covers what needs no new command: a file name that starts with ``|`` is a shell
command (pdfTeX, LuaTeX and the LaTeX kernel open it as a pipe when shell escape is on). Every
argument that starts with a pipe — ``{|...}``, ``{"|..."}``, ``"|..."``, ``=|...``, ``\\input|...``
— outside math and verbatim is compared as a multiset with the original's; a new one is refused
(tables' column specifications ``{|c|c|}`` the original has may move; a new table is not prose).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from rhetorica.documents.latex.source import comment_start, decode_carets

PROSE_COMMANDS = frozenset({
    # emphasis and type style
    "emph", "textit", "textbf", "textsc", "textsl", "textup", "textmd", "textnormal", "underline",
    # environments (their names are checked on their own), notes, lists, paragraphs
    "begin", "end", "footnote", "item", "par", "noindent",
    # punctuation, dashes, quotes, dots
    "ldots", "dots", "textendash", "textemdash", "textquoteleft", "textquoteright", "textquotedblleft",
    "textquotedblright", "slash",
    # spacing and line breaking (control symbols)
    " ", ",", ";", ":", "!", "@", "/", "-", "\\",
    # escaped special characters
    "%", "&", "$", "#", "_", "{", "}",
    # accents and letters of names
    "'", "`", '"', "^", "~", "=", ".", "c", "v", "u", "H", "k", "r", "i", "j", "o", "O", "ss", "ae", "AE",
    "oe", "OE", "aa", "AA", "l", "L",
})
"""Control sequences a rewrite may add although the original never uses them: prose markup only
(emphasis, footnotes, list items, dashes and quotes, spacing, escaped characters, accents). The
characters ``~`` (a tie), `````` and ``''`` (quotes) are not control sequences and need no entry."""

PROSE_ENVIRONMENTS = frozenset({"itemize", "enumerate", "description", "quote", "quotation"})
"""Environments a rewrite may add although the original never uses them: lists and quotations."""

_VERBATIM = re.compile(
    r"\\begin\s*\{(verbatim|Verbatim|lstlisting|minted|comment)(\*?)\}.*?\\end\s*\{\1\2\}"
    r"|\\(?:verb|lstinline)\*?([^a-zA-Z\s{*])(.*?)\3",
    re.S,
)
_CONTROL = re.compile(r"\\([A-Za-z@]+|.|$)", re.M)
_ENVIRONMENT = re.compile(r"\\begin\s*\{([^{}]*)\}")
_MATH = re.compile(
    r"\\begin\{(equation|align|alignat|flalign|gather|multline|eqnarray|displaymath|math)(\*?)\}.*?\\end\{\1\2\}"
    r"|(?<!\\)\\\[.*?\\\]|(?<!\\)\$\$.*?(?<!\\)\$\$|(?<!\\)\$(?:\\.|[^$\\])+?(?<!\\)\$|(?<!\\)\\\(.*?\\\)",
    re.S,
)
_PIPE = re.compile(r"(?:(?<!\\)[{\"=]|\\[A-Za-z@]+)[ \t]*\"?[ \t]*\|(?:\"[^\"\n]*\"?|[^}\"\n])*")


def blank(text: str, pattern: re.Pattern[str]) -> str:
    """``text`` with every match of ``pattern`` replaced by spaces (newlines kept, so offsets and
    line numbers stay)."""
    return pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def code_lines(text: str) -> list[str]:
    """The lines of a manuscript file as TeX code: verbatim blocks and ``\\verb`` blanked, then each
    line ``^^``-decoded (:func:`decode_carets`; a decoded line break becomes a space so the line
    count stays) and cut at its comment."""
    out = []
    for line in blank(text, _VERBATIM).split("\n"):
        decoded = re.sub(r"[\r\n]", " ", decode_carets(line))
        cut = comment_start(decoded)
        out.append(decoded if cut is None else decoded[:cut])
    return out


def vocabulary(lines: list[str]) -> Iterator[tuple[int, str]]:
    """``(1-based line, name)`` of every control sequence (``\\name``) and environment
    (``{name}`` after ``\\begin``) in :func:`code_lines` output."""
    for number, line in enumerate(lines, 1):
        for m in _CONTROL.finditer(line):
            yield number, "\\" + (m.group(1) or " ")
        for m in _ENVIRONMENT.finditer(line):
            yield number, "{" + m.group(1).strip() + "}"


def allowed(name: str, original: set[str]) -> bool:
    """Whether a rewrite may use ``name`` (``\\cs`` or ``{env}`` as :func:`vocabulary` yields it)."""
    if name in original:
        return True
    if name.startswith("{"):
        return name[1:-1] in PROSE_ENVIRONMENTS
    return name[1:] in PROSE_COMMANDS


def pipe_arguments(lines: list[str]) -> Iterator[tuple[int, str]]:
    """``(1-based line, text)`` of every argument starting with ``|`` in :func:`code_lines` output,
    math left out; the text is the argument up to its ``}`` or line end (a quoted part read whole),
    whitespace runs as one space."""
    code = blank("\n".join(lines), _MATH)
    for number, line in enumerate(code.split("\n"), 1):
        for m in _PIPE.finditer(line):
            yield number, " ".join(m.group(0).split())


def new_pipes(original: list[list[str]], variant: list[tuple[str, list[str]]]) -> Iterator[tuple[str, int, str]]:
    """``(file, line, text)`` of the variant's pipe arguments beyond the original's (as a multiset
    over all files: a moved one is not new). ``original``: the original's files' code lines;
    ``variant``: ``(file, code lines)`` per variant file."""
    left = Counter(text for lines in original for _, text in pipe_arguments(lines))
    for file, lines in variant:
        for number, text in pipe_arguments(lines):
            if left[text] > 0:
                left[text] -= 1
            else:
                yield file, number, text
