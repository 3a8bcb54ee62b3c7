"""User macros (``\\newcommand``, ``\\def``) and TeX conditionals, resolved on source text."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rhetorica.documents.latex.source import read_group

_DEFINE = re.compile(r"\\(?:re)?newcommand\*?|\\providecommand\*?|\\def(?![a-zA-Z])")
_NAME = re.compile(r"\s*\{?\s*\\([a-zA-Z@]+)\s*\}?")
_CONDITIONAL = re.compile(r"\\(newif\s*\\if[a-zA-Z@]*|if[a-zA-Z@]*|else|fi)(?![a-zA-Z@])")
# \if-prefixed control words that are not conditionals.
_NOT_CONDITIONAL = {"iff", "ifthenelse", "ifpdf"}
_RESERVED = {
    "section", "subsection", "subsubsection", "paragraph", "cite", "citep", "citet", "ref",
    "label", "caption", "begin", "end", "item", "input", "include", "footnote", "url", "href",
}
MAX_EXPANSION_PASSES = 8
# what a conditional tests, skipped with it
_TESTED = {
    "ifdefined": re.compile(r"\s*\\[a-zA-Z@]+"),
    "ifx": re.compile(r"\s*(?:\\[a-zA-Z@]+|\S)\s*(?:\\[a-zA-Z@]+|\S)"),
    "ifcsname": re.compile(r".*?\\endcsname", re.DOTALL),
}


@dataclass(frozen=True)
class Macro:
    """A user macro: number of arguments (0-9), optional default for the first, body."""

    nargs: int
    default: str | None
    body: str


def collect_macros(text: str) -> dict[str, Macro]:
    """Find ``\\newcommand``/``\\renewcommand``/``\\providecommand``/``\\def`` definitions in ``text``."""
    macros: dict[str, Macro] = {}
    for m in _DEFINE.finditer(text):
        name_m = _NAME.match(text, m.end())
        if not name_m:
            continue
        name, i = name_m.group(1), name_m.end()
        nargs, default = 0, None
        if m.group(0).startswith("\\def"):
            params = re.match(r"((?:#\d)*)", text[i:])
            nargs = len(params.group(1)) // 2 if params else 0
            i += len(params.group(1)) if params else 0
        else:
            opt = read_group(text, i, "[", "]")
            if opt is not None and opt[0].strip().isdigit():
                nargs, i = int(opt[0].strip()), opt[1]
                default_group = read_group(text, i, "[", "]")
                if default_group is not None:
                    default, i = default_group
        body = read_group(text, i)
        if body is None or name in _RESERVED:
            continue
        macros[name] = Macro(nargs=nargs, default=default, body=body[0])
    return macros


def remove_definitions(text: str) -> str:
    """Delete macro definitions from ``text`` (they are not prose)."""
    out: list[str] = []
    pos = 0
    for m in _DEFINE.finditer(text):
        if m.start() < pos:
            continue
        name_m = _NAME.match(text, m.end())
        if not name_m:
            continue
        i = name_m.end()
        if m.group(0).startswith("\\def"):
            params = re.match(r"((?:#\d)*)", text[i:])
            i += len(params.group(1)) if params else 0
        else:
            for _ in range(2):
                opt = read_group(text, i, "[", "]")
                if opt is not None:
                    i = opt[1]
        body = read_group(text, i)
        if body is None:
            continue
        out.append(text[pos : m.start()])
        pos = body[1]
    out.append(text[pos:])
    return "".join(out)


def substitute(body: str, args: list[str]) -> str:
    """Put ``args`` in place of ``#1``...``#9`` in ``body``, never joining a control word to a
    letter: ``\\lVert#1`` with ``x`` gives ``\\lVert x``, not the control word ``\\lVertx``."""

    def put(m: re.Match[str]) -> str:
        k = int(m.group(2))
        arg = args[k - 1] if k <= len(args) else m.group(0)
        before = m.group(1) or ""
        if before and arg[:1].isalpha():
            before += " "
        after = m.string[m.end():m.end() + 1]
        if after.isalpha() and re.search(r"\\[a-zA-Z@]+$", arg):
            arg += " "
        return before + arg

    return re.sub(r"(\\[a-zA-Z@]+)?#(\d)", put, body)


def expand_macros(text: str, macros: dict[str, Macro]) -> str:
    """Replace uses of user macros by their bodies, arguments substituted (bounded passes)."""
    if not macros:
        return text
    pattern = re.compile(r"\\(" + "|".join(re.escape(n) for n in sorted(macros, key=len, reverse=True)) + r")(?![a-zA-Z@])")
    for _ in range(MAX_EXPANSION_PASSES):
        changed = False
        out: list[str] = []
        pos = 0
        for m in pattern.finditer(text):
            if m.start() < pos:
                continue
            macro = macros[m.group(1)]
            i = m.end()
            args: list[str] = []
            if macro.nargs:
                if macro.default is not None:
                    opt = read_group(text, i, "[", "]")
                    if opt is not None:
                        args.append(opt[0])
                        i = opt[1]
                    else:
                        args.append(macro.default)
                while len(args) < macro.nargs:
                    group = read_group(text, i)
                    if group is None:
                        tok = re.match(r"\s*(\\[a-zA-Z]+|\S)", text[i:])
                        if not tok:
                            break
                        args.append(tok.group(1))
                        i += tok.end()
                    else:
                        args.append(group[0])
                        i = group[1]
            body = substitute(macro.body, args)
            # a control word followed by a letter needs a separating space
            if macro.nargs == 0 and text[i : i + 1].isalpha() and re.search(r"\\[a-zA-Z@]+$", body):
                body += " "
            out.append(text[pos : m.start()])
            out.append(body)
            pos = i
            changed = True
        out.append(text[pos:])
        text = "".join(out)
        if not changed:
            break
    return text


def resolve_conditionals(text: str) -> str:
    """Resolve TeX conditionals: ``\\iffalse`` branches are dropped, other ``\\if...`` keep their
    first branch (a project's switches are normally set the way its PDF was built); ``\\newif`` lines
    go.
    """
    out: list[str] = []
    # stack of (keep_this_branch) flags; text is kept when every level keeps it
    stack: list[bool] = []
    pos = 0
    for m in _CONDITIONAL.finditer(text):
        word = m.group(1)
        if word.startswith("newif"):
            if all(stack):
                out.append(text[pos : m.start()])
            pos = m.end()
            continue
        if word.startswith("if") and word in _NOT_CONDITIONAL:
            continue
        if all(stack):
            out.append(text[pos : m.start()])
        pos = m.end()
        if word == "fi":
            if stack:
                stack.pop()
        elif word == "else":
            if stack:
                stack[-1] = not stack[-1]
        else:
            stack.append(word != "iffalse")
            tested = _TESTED.get(word)
            if tested is not None:
                skip = tested.match(text, pos)
                if skip:
                    pos = skip.end()
    if all(stack):
        out.append(text[pos:])
    return "".join(out)
