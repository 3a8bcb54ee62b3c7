"""LaTeX source handling: comments, balanced arguments, main-file detection, ``\\input`` resolution.

Everything here works on raw source text and never runs TeX.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

from rhetorica.documents.options import DocumentReadError

MAX_INPUT_DEPTH = 20
MAX_TEX_FILES = 2000
MAX_TEX_BYTES = 20_000_000

_COMMENT_ENV = re.compile(r"\\begin\{comment\}.*?\\end\{comment\}", re.DOTALL)
_INPUT = re.compile(r"\\(input|include|subfile)(?![a-zA-Z@])\s*(?:\{([^{}]*)\}|([^\s{}\\%]+))")
_IMPORT = re.compile(r"\\(sub)?(?:import|inputfrom|includefrom)\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
_MAIN_PENALTY = re.compile(r"rebuttal|response|cover|letter|supplement|reply|poster|slides", re.I)
_MAIN_BONUS = {"main", "paper", "ms", "manuscript", "article", "arxiv"}


GRAPHICS_RE = re.compile(r"\\includegraphics\*?\s*(?:\[[^\]]*\])?\s*\{([^{}]*)\}")
"""An ``\\includegraphics`` command; group 1 is the path it names (the anchors the rewriting checks, the
figure files a compile may substitute)."""


def strip_comments(text: str) -> str:
    """Remove ``%`` comments and ``comment`` environments, keeping escaped ``\\%``.

    A line that is only a comment disappears with its newline (as in TeX); a trailing comment is cut
    and the newline kept.
    """
    out: list[str] = []
    for line in text.splitlines(keepends=True):
        cut = comment_start(line)
        if cut is None:
            out.append(line)
        elif line[:cut].strip() == "":
            continue
        else:
            out.append(line[:cut].rstrip() + "\n")
    return _COMMENT_ENV.sub("", "".join(out))


_CARET = re.compile(r"\^\^([0-9a-f]{2}|[\x00-\x7f])")
#: Most ``^^`` decoding rounds (each only shortens the text; a real file needs one or two).
_MAX_CARET_ROUNDS = 16


def decode_carets(text: str) -> str:
    """``text`` with TeX's ``^^`` escapes decoded as its input processor does (``^^xx``: two
    lowercase hex digits; ``^^c``: the character 64 code points away from ``c``), repeated until
    nothing changes (at most 16 rounds)."""

    def one(m: re.Match[str]) -> str:
        code = m.group(1)
        if len(code) == 2:
            return chr(int(code, 16))
        return chr(ord(code) + 64 if ord(code) < 64 else ord(code) - 64)

    for _ in range(_MAX_CARET_ROUNDS):
        decoded = _CARET.sub(one, text)
        if decoded == text:
            break
        text = decoded
    return text


def comment_start(line: str) -> int | None:
    """Index of the ``%`` that starts a comment in ``line`` (one not escaped by an odd number of
    backslashes), or ``None`` if the line has no comment."""
    i = line.find("%")
    while i != -1:
        backslashes = 0
        j = i - 1
        while j >= 0 and line[j] == "\\":
            backslashes += 1
            j -= 1
        if backslashes % 2 == 0:
            return i
        i = line.find("%", i + 1)
    return None


@functools.lru_cache(maxsize=8)
def _group_characters(open_: str, close: str) -> re.Pattern[str]:
    """The characters :func:`read_group` acts on: a backslash, a brace and the group's brackets."""
    return re.compile("[" + re.escape("\\{" + open_ + close) + "]")


def read_group(text: str, start: int, open_: str = "{", close: str = "}") -> tuple[str, int] | None:
    """Read a balanced group whose opening bracket is at ``start`` (after optional spaces).

    Returns:
        ``(inner text, index after the closing bracket)``, or ``None`` if there is no group at
        ``start``. An unclosed group runs to the end of ``text``.
    """
    i = start
    while i < len(text) and text[i] in " \t\n" and not text.startswith("\n\n", i):
        i += 1
    if i >= len(text) or text[i] != open_:
        return None
    depth = 0
    special = _group_characters(open_, close)
    j = i
    while found := special.search(text, j):  # every other character leaves the depth as it is
        j = found.start()
        ch = text[j]
        if ch == "\\":
            j += 2
            continue
        if ch == "{" and open_ != "{":
            inner = read_group(text, j)
            j = inner[1] if inner else j + 1
            continue
        if ch == open_:
            depth += 1
        elif ch == close:
            depth -= 1
            if depth == 0:
                return text[i + 1 : j], j + 1
        j += 1
    return text[i + 1 :], len(text)


def read_text_file(path: Path) -> str:
    """Read a source file as UTF-8, falling back to Latin-1 for old projects."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _is_main_candidate(text: str) -> bool:
    return "\\documentclass" in text and "\\begin{document}" in text


def _candidates(folder: Path) -> tuple[dict[Path, str], list[Path]]:
    tex_files = sorted(p for p in folder.rglob("*.tex") if p.is_file())[:MAX_TEX_FILES]
    texts = {p: strip_comments(read_text_file(p)) for p in tex_files if p.stat().st_size < MAX_TEX_BYTES}
    return texts, [p for p, t in texts.items() if _is_main_candidate(t)]


def main_candidates(folder: Path) -> list[Path]:
    """Every file :func:`find_main_file` chooses among (``\\documentclass`` and
    ``\\begin{document}`` outside comments), sorted by path."""
    return _candidates(folder)[1]


def _included_stems(texts: dict[Path, str]) -> set[str]:
    included = {m.group(2) or m.group(3) for t in texts.values() for m in _INPUT.finditer(t)}
    return {Path(name.strip()).with_suffix("").name for name in included if name}


def _projects(folder: Path, texts: dict[Path, str], candidates: list[Path]) -> list[str]:
    if any(len(p.relative_to(folder).parts) == 1 for p in candidates):
        return []
    included = _included_stems(texts)
    return sorted({p.relative_to(folder).parts[0] for p in candidates if p.stem not in included
                   and ("\\title" in texts[p] or "\\begin{abstract}" in texts[p])})


def project_folders(folder: Path) -> list[str]:
    """The subfolders of ``folder`` that are each a LaTeX project, when ``folder`` is not one itself:
    ``folder`` has no main candidate (:func:`main_candidates`) at its top level, and each name
    returned is a subfolder holding, at any depth, a candidate that no other file includes and that
    has a ``\\title`` or an abstract (a paper, not a standalone figure). Fewer than two such
    subfolders: ``[]`` (``folder`` is one project whose main file lies in a subfolder)."""
    texts, candidates = _candidates(folder)
    found = _projects(folder, texts, candidates)
    return found if len(found) > 1 else []


def several_projects_problem(folder: Path, projects: list[str]) -> str:
    """The one message for a folder that holds ``projects`` rather than being one."""
    shown = ", ".join(projects[:10]) + (f", … ({len(projects) - 10} more)" if len(projects) > 10 else "")
    return (f"holds {len(projects)} LaTeX projects, not one ({shown}); name each project folder, or the "
            f"glob '{folder.as_posix().rstrip('/')}/*' for one document each")


def find_main_file(folder: Path) -> Path:
    """Find the main file of a LaTeX project: the file with ``\\documentclass`` and ``\\begin{document}``.

    Among several candidates, files included by another file and files named like a rebuttal or
    cover letter are set aside; the rest are ranked by ``\\title``/``abstract``/section evidence,
    a conventional name (``main``, ``paper``, ``ms``), then size.

    Raises:
        DocumentReadError: no candidate main file in ``folder``, or ``folder`` holds several
            projects (:func:`project_folders`) rather than being one.
    """
    texts, candidates = _candidates(folder)
    if not candidates:
        raise DocumentReadError(
            folder, "no main .tex file found (none has both \\documentclass and \\begin{document})"
        )
    if len(candidates) == 1:
        return candidates[0]
    projects = _projects(folder, texts, candidates)
    if len(projects) > 1:
        raise DocumentReadError(folder, several_projects_problem(folder, projects))
    included_stems = _included_stems(texts)

    def score(p: Path) -> tuple[int, int]:
        t = texts[p]
        s = 0
        s += 10 if "\\begin{abstract}" in t else 0
        s += 5 if "\\title" in t else 0
        s += min(len(re.findall(r"\\(sub)*section\*?\s*\{|\\input\s*\{", t)), 20)
        s += 3 if p.stem.lower() in _MAIN_BONUS else 0
        s -= 30 if _MAIN_PENALTY.search(p.stem) else 0
        s -= 30 if p.stem in included_stems else 0
        return s, len(t)

    return max(candidates, key=score)


def input_commands(text: str) -> list[tuple[int, str, str]]:
    """Every ``\\input``/``\\include``/``\\subfile`` in ``text``: ``(offset, command, file name)``.

    ``text`` is searched as given (strip comments first to skip commented-out inputs).
    """
    return [(m.start(), m.group(1), m.group(2) if m.group(2) is not None else m.group(3)) for m in _INPUT.finditer(text)]


def resolve_input(name: str, base: Path, main_dir: Path, root: Path) -> Path | str:
    """Resolve an ``\\input`` file name as :func:`expand_inputs` does.

    Tried relative to ``main_dir`` (TeX's working directory), ``root``, then ``base`` (the including
    file's folder), with and without ``.tex``.

    Returns:
        The resolved file, or why not: ``"missing"``, or ``"outside"`` (it exists, but not inside
        ``root``; ``root`` must be resolved).
    """
    name = name.strip().strip('"')
    why = "missing"
    for folder in (main_dir, root, base):
        for candidate in (folder / name, folder / f"{name}.tex"):
            try:
                resolved = candidate.resolve()
                exists = resolved.is_file()
            except OSError:
                continue
            if exists and resolved.is_relative_to(root):
                return resolved
            if exists:
                why = "outside"
    return why


@dataclass
class ExpandedSource:
    """A main file with every ``\\input``/``\\include`` inlined and comments stripped."""

    text: str
    files: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def expand_inputs(main: Path, root: Path) -> ExpandedSource:
    """Inline ``\\input``, ``\\include``, ``\\subfile`` and ``\\import`` recursively.

    Paths are tried relative to the main file's folder (TeX's working directory), the project
    root, then the including file's folder, with and without a ``.tex`` extension. A missing file,
    a file outside the project (an absolute path or ``../``: refused, with that reason), or an
    include cycle gives a warning and is skipped (a partial result, as a user would expect); a
    missing file's warning reads ``file:line: missing \\input file 'name': the text it would bring
    in is absent from this document``.

    Args:
        main: the main file.
        root: the project folder; files outside it are never read.
    """
    result = ExpandedSource(text="")
    root = root.resolve()
    main_dir = main.resolve().parent

    def resolve(name: str, base: Path) -> Path | str:
        return resolve_input(name, base, main_dir, root)

    def expand(path: Path, stack: tuple[Path, ...]) -> str:
        rel = str(path.relative_to(root))
        result.files.append(rel)
        raw = read_text_file(path)
        text = strip_comments(raw)

        def include(name: str, base: Path, command: str) -> str:
            target = resolve(name, base)
            if target == "outside":
                result.warnings.append(
                    f"\\{command} file '{name}' (referenced from {rel}) is outside the project; refused"
                )
                return ""
            if not isinstance(target, Path):
                result.warnings.append(
                    f"{rel}:{_line_naming(raw, name)}: missing \\{command} file '{name}': the text it would "
                    "bring in is absent from this document"
                )
                return ""
            if target in stack or len(stack) >= MAX_INPUT_DEPTH:
                result.warnings.append(f"\\{command}{{{name}}} in {rel} forms a cycle or is too deep; skipped")
                return ""
            body = expand(target, (*stack, target))
            return f"\n{body}\n" if command != "include" else f"\n\\clearpage\n{body}\n"

        def on_input(m: re.Match[str]) -> str:
            name = m.group(2) if m.group(2) is not None else m.group(3)
            return include(name, path.parent, m.group(1))

        def on_import(m: re.Match[str]) -> str:
            folder = (path.parent if m.group(1) else main_dir) / m.group(2)
            return include(str(folder / m.group(3)), path.parent, "import")

        text = _IMPORT.sub(on_import, text)
        return _INPUT.sub(on_input, text)

    result.text = expand(main.resolve(), (main.resolve(),))
    return result


def _line_naming(text: str, name: str) -> int:
    """1-based line of the first line of ``text`` whose code (comment cut) names ``name`` (1 when none)."""
    for number, line in enumerate(text.split("\n"), 1):
        cut = comment_start(line)
        if name in (line if cut is None else line[:cut]):
            return number
    return 1


def main_file_problem(root: Path, main: str) -> str | None:
    """Why ``main`` (a path relative to the project folder ``root``) cannot be the project's main
    file: it is not a file there, or holds no ``\\documentclass``; ``None`` when it can (also when
    ``root`` is not a folder: that is the project's own problem, reported when it is read)."""
    if not root.is_dir():
        return None
    path = root / main
    if not path.is_file():
        return f"{main!r} is not a file of the project folder {root}"
    if "\\documentclass" not in strip_comments(read_text_file(path)):
        return f"{main!r} holds no \\documentclass: not a LaTeX main file"
    return None
