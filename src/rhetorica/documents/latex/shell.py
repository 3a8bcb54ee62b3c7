"""Shell, pipe and Lua attempts in LaTeX source: what would run a program when the file is compiled.

TeX reaches the operating system in three ways only, and this module looks for each by what it
does, in the code (comments dropped) and again after ``^^`` escapes are decoded
(:func:`~rhetorica.documents.latex.source.decode_carets`):

- ``write18``: a ``\\write`` to stream 18 (``18``, ``"12``, ``'22``: pdfTeX and XeTeX run the text
  as a command) or to a computed stream (``\\numexpr``, ``\\number``, ``\\romannumeral``,
  ``\\the``), or a command whose name says it runs the shell (``shell`` in its name:
  ``\\ShellEscape``, expl3's ``\\sys_shell_now:n``, ...);
- ``pipe``: a file name that starts with ``|`` (``\\input``, ``\\openin``, ``\\IfFileExists`` and every
  command that opens a file run it as a command under shell escape): an argument ``{|...}``,
  ``"|..."``, ``=|...`` or ``\\input|...`` outside math (``|x|`` is an absolute value there) whose
  text, once groups, control words and lengths are removed, holds a word of two or more letters
  (a program name; a table's column specification ``{|c|p{2cm}|}`` holds single letters only);
- ``lua``: ``\\directlua``, ``\\latelua``, ``\\luaexec``, ``\\luadirect`` or a ``luacode`` environment
  (LuaTeX runs it; Lua's ``os.execute`` runs a program);

and in three ways that hide which command is meant: ``alias`` (``\\let``/``\\futurelet`` to, or
a ``\\def`` of nothing but, ``\\write``, ``\\immediate``, ``\\input``, ``\\openin`` or a Lua
command), ``csname`` (``\\csname ...\\endcsname`` whose letters spell one of the commands above)
and ``catcode`` (``\\catcode`` making a character an escape character, category 0). An attempt
found only after decoding says so. None of the 31 .tex/.sty/.cls files of the shared papers has
one; each of the 76 generated attempts of the rewrite-safety corpus is found.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rhetorica.documents.latex.source import comment_start, decode_carets

_WRITE18 = re.compile(r"\\write\s*=?\s*(?:18|\"12|'22)(?![0-9])|\\write\s*\\(?:numexpr|number|romannumeral|the)(?![A-Za-z@])")
_SHELL_NAME = re.compile(r"\\[A-Za-z@_:]*[Ss]hell[A-Za-z@_:]*")
_PIPE = re.compile(r"(?:(?<!\\)[{\"=]|\\[A-Za-z@]*input)[ \t]*\"?[ \t]*\|((?:\"[^\"\n]*\"?|\{[^{}\n]*\}|\[[^\]\n]*\]|[^}\"\n])*)")
_LUA = re.compile(r"\\(?:directlua|latelua|luaexec|luadirect)(?![A-Za-z@])|\\begin\s*\{luacode\*?\}")
_CSNAME = re.compile(r"\\csname(?![A-Za-z@])(.*?)\\endcsname(?![A-Za-z@])")
_ESCAPE_CATCODE = re.compile(r"\\catcode\s*(?:`\\?.|\d+|\"[0-9A-Fa-f]+|'[0-7]+)\s*=?\s*0(?![0-9])")
_ALIAS = re.compile(r"\\(?:let|futurelet)\s*\\[A-Za-z@]+\s*=?\s*\\(?:write|immediate|input|openin|directlua|latelua)(?![A-Za-z@])"
                    r"|\\[egx]?def\s*\\[A-Za-z@]+[^{]*\{\s*(?:\\noexpand\s*)?\\(?:write|input|openin|directlua|latelua)\s*\}")
_SPELLED = re.compile(r"^(?:immediate)?(?:write|input|openin|directlua|latelua|luaexec|@@input|.*shell.*)$", re.I)


@dataclass(frozen=True)
class ShellAttempt:
    """One attempt: ``kind`` (``write18``, ``pipe``, ``lua``, ``alias``, ``csname``, ``catcode``),
    1-based ``line``, the source ``text`` of the line's construct (decoded when ``decoded``), and a
    ``reason`` sentence."""

    kind: str
    line: int
    text: str
    reason: str
    decoded: bool = False


_REASONS = {
    "write18": "runs a shell command when compiled with shell escape (\\write to stream 18)",
    "pipe": "opens a pipe: a file name starting with '|' runs as a shell command under shell escape",
    "lua": "runs Lua code when compiled with LuaTeX (Lua can run programs)",
    "csname": "builds a command name from letters, spelling a command that runs programs or opens files",
    "alias": "gives another name to a command that runs programs or opens files",
    "catcode": "makes a character an escape character (catcode 0), so commands can be written unseen",
}


_MATH = re.compile(r"(?<!\\)\$\$.*?(?<!\\)\$\$|(?<!\\)\$(?:\\.|[^$\\])+?(?<!\\)\$|(?<!\\)\\\(.*?\\\)|(?<!\\)\\\[.*?\\\]", re.S)
_NOT_A_WORD = re.compile(r"\\[A-Za-z@]+|\d*\.?\d+\s*(?:pt|em|ex|cm|mm|in|bp|pc|sp)|\{[^{}]*\}?|\[[^\]]*\]?")


def _in_line(line: str, outside_math: str) -> list[tuple[str, str]]:
    """Attempts in one line of code; pipes are looked for in ``outside_math`` (the line with its
    math blanked: ``|x|`` is an absolute value there)."""
    out: list[tuple[str, str]] = []
    for m in _WRITE18.finditer(line):
        out.append(("write18", m.group(0)))
    for m in _SHELL_NAME.finditer(line):
        out.append(("write18", m.group(0)))
    for m in _PIPE.finditer(outside_math):
        if re.search(r"[A-Za-z]{2}", _NOT_A_WORD.sub(" ", m.group(1))):
            out.append(("pipe", m.group(0)))
    for m in _LUA.finditer(line):
        out.append(("lua", m.group(0)))
    for m in _CSNAME.finditer(line):
        letters = re.sub(r"\\string|\\noexpand|[\s\\]", "", m.group(1))
        if _SPELLED.match(letters):
            out.append(("csname", m.group(0)))
    for m in _ALIAS.finditer(line):
        out.append(("alias", m.group(0)))
    for m in _ESCAPE_CATCODE.finditer(line):
        out.append(("catcode", m.group(0)))
    return out


def _code(lines: list[str]) -> tuple[list[str], list[str]]:
    """The lines cut at their comments, and the same with math blanked."""
    code = []
    for line in lines:
        cut = comment_start(line)
        code.append(line if cut is None else line[:cut])
    blanked = _MATH.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), "\n".join(code)).split("\n")
    return code, blanked


def shell_attempts(text: str) -> list[ShellAttempt]:
    """Every attempt in one LaTeX file's ``text`` (see the module docstring), in line order; a line
    whose decoded form shows an attempt its written form does not gives it with ``decoded=True``."""
    raw = text.split("\n")
    code, outside = _code(raw)
    decoded, decoded_outside = _code([re.sub(r"[\r\n]", " ", decode_carets(line)) for line in raw])
    out: list[ShellAttempt] = []
    for number, line in enumerate(code, 1):
        plain = _in_line(line, outside[number - 1])
        hidden = ([item for item in _in_line(decoded[number - 1], decoded_outside[number - 1]) if item not in plain]
                  if decoded[number - 1] != line else [])
        for kind, found in plain:
            out.append(ShellAttempt(kind=kind, line=number, text=found, reason=_REASONS[kind]))
        for kind, found in hidden:
            out.append(ShellAttempt(kind=kind, line=number, text=found, reason=_REASONS[kind] + " (written with ^^ escapes)",
                                    decoded=True))
    return out
