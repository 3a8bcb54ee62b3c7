"""A LaTeX project on disk: its main file, its included files, its editable paragraphs, copies and diffs.

The main file and the ``\\input``/``\\include`` graph come from :mod:`rhetorica.documents.latex.source`
(the reader's own detection). What is *editable* is the manuscript text of the body: paragraphs of
prose in the main file after ``\\begin{document}`` and in the files it includes from the body. Never
editable: the preamble (and files included from it), macro definitions, math, verbatim-like and
float/table environments, headings, environment delimiters, comment-only lines, bibliography and
style files, figures. Paragraphs are spans of whole source lines, so an edit never cuts a command in
half at a line boundary and line numbers stay meaningful for the checker's messages. A comment-only
line between two prose lines stays inside their paragraph (TeX drops it with its newline, so it
does not end the paragraph).
"""

from __future__ import annotations

import difflib
import hashlib
import os
import re
import shutil
from collections.abc import Iterable, Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from rhetorica.documents.latex.source import (
    comment_start,
    expand_inputs,
    find_main_file,
    input_commands,
    read_text_file,
    resolve_input,
)
from rhetorica.documents.options import DocumentReadError

#: Environments whose whole content is protected: math, verbatim-like, algorithms, floats, tables,
#: pictures, bibliography. Their lines are never part of an editable paragraph.
PROTECTED_ENVIRONMENTS = frozenset(
    {
        "equation", "align", "alignat", "flalign", "gather", "multline", "eqnarray", "displaymath",
        "math", "split", "subequations", "verbatim", "Verbatim", "lstlisting", "minted", "comment",
        "algorithm", "algorithmic", "figure", "table", "wrapfigure", "subfigure", "tabular",
        "tabularx", "tabu", "longtable", "tikzpicture", "thebibliography", "filecontents",
    }
)
_BEGIN = re.compile(r"\\begin\s*\{([a-zA-Z]+)\*?\}")
_END = "\\end{{{env}}}"
_STRUCTURE = re.compile(
    r"^\s*\\(?:part|chapter|section|subsection|subsubsection|paragraph|subparagraph|begin|end|label|"
    r"maketitle|tableofcontents|appendix|bibliography|bibliographystyle|printbibliography|input|include|"
    r"newcommand|renewcommand|providecommand|def|let|newif|newenvironment|renewenvironment|"
    r"clearpage|newpage|pagebreak|vspace|vskip|hspace|centering|noindent\s*$|thispagestyle|pagestyle|"
    r"flushbottom|iffalse|fi|else|if[a-zA-Z]*|setlength|setcounter|addtocounter|graphicspath)(?![a-zA-Z@])"
)
_NON_PROSE_ARGS = re.compile(
    r"\\(?:[a-zA-Z]*cite[a-zA-Z]*|ref|eqref|cref|Cref|autoref|pageref|label|url|href|includegraphics|"
    r"input|include)\*?\s*(?:\[[^\]]*\])*\s*\{[^{}]*\}"
)
_MATH = re.compile(r"\$\$.*?\$\$|\$.*?\$|\\\(.*?\\\)|\\\[.*?\\\]", re.S)
_DISPLAY_OPEN = re.compile(r"(?<!\\)(?:\\\\)*\\\[")
_DISPLAY_CLOSE = re.compile(r"(?<!\\)(?:\\\\)*\\\]")
_DOLLARS = re.compile(r"(?<!\\)\$\$")
_WORD = re.compile(r"[A-Za-z]{2,}")
#: A paragraph needs this many words of prose (outside commands' names, keys and math) to be editable.
MIN_PROSE_WORDS = 3


class Paragraph(BaseModel):
    """One editable paragraph: whole source lines ``start_line..end_line`` (1-based, inclusive) of
    ``file`` (project-relative POSIX path); ``text`` is those lines joined by newlines, exactly as
    in the source (no trailing newline)."""

    model_config = ConfigDict(frozen=True)

    file: str
    start_line: int
    end_line: int
    text: str

    @property
    def key(self) -> str:
        """``file:start-end``, unique within a project."""
        return f"{self.file}:{self.start_line}-{self.end_line}"


class LatexProject(BaseModel):
    """A LaTeX project folder with its main file and the ``.tex`` files it includes.

    Attributes:
        root: the project folder (absolute).
        main: the main file, relative to ``root``.
        body_files: included files whose whole content is body text (main excluded), in include order.
        preamble_files: files included from the preamble (never editable).
    """

    model_config = ConfigDict(frozen=True)

    root: Path
    main: str
    body_files: tuple[str, ...]
    preamble_files: tuple[str, ...]

    @property
    def tex_files(self) -> tuple[str, ...]:
        """Main file, then the body files, then the preamble files."""
        return (self.main, *self.body_files, *self.preamble_files)

    @property
    def editable_files(self) -> tuple[str, ...]:
        """The files holding manuscript text: the main file, then the body files."""
        return (self.main, *self.body_files)

    def read(self, file: str) -> str:
        """The text of a project file (UTF-8, Latin-1 fallback)."""
        return read_text_file(self.root / file)

    def write(self, file: str, text: str) -> None:
        """Replace a whole editable file (file-by-file rewriting) in the encoding it was read in
        (:func:`write_like`); the checker still guards the main file's preamble.

        Raises:
            ValueError: ``file`` is not one of :attr:`editable_files`.
            EncodingError: ``text`` has characters that encoding cannot hold.
        """
        if file not in self.editable_files:
            raise ValueError(f"{file}: not an editable manuscript file of this project (editable: {', '.join(self.editable_files)})")
        write_like(self.root / file, text)

    def preamble(self) -> str:
        """The main file's text up to and including ``\\begin{document}``."""
        text = self.read(self.main)
        cut = _begin_document(text)
        return text[: cut] if cut is not None else text

    def paragraphs(self) -> list[Paragraph]:
        """Every editable paragraph, in file order (main file first, then body files)."""
        out: list[Paragraph] = []
        for file in self.editable_files:
            out.extend(editable_paragraphs(file, self.read(file), is_main=file == self.main))
        return out


def load_project(root: Path, main: str | None = None) -> LatexProject:
    """Load a project folder: detect the main file (unless given) and follow its includes.

    Raises:
        DocumentReadError: ``root`` does not exist or is not a folder, has no main file, or ``main``
            does not exist.
    """
    root = Path(root).resolve()
    if not root.exists():
        raise DocumentReadError(root, "no such folder (a latex_project names the folder of a LaTeX project; "
                                      "globs are not expanded)")
    if not root.is_dir():
        raise DocumentReadError(root, "is a file, not a LaTeX project folder (use path: for a single .tex file)")
    main_path = (root / main) if main else find_main_file(root)
    if not main_path.is_file():
        raise DocumentReadError(root, f"main file {main} does not exist")
    main_path = main_path.resolve()
    main_rel = main_path.relative_to(root).as_posix()
    preamble_src = _strip_line_comments(read_text_file(main_path))
    cut = _begin_document(preamble_src)
    preamble_src = preamble_src[:cut] if cut is not None else preamble_src
    preamble_files: list[str] = []
    for _, _, name in input_commands(preamble_src):
        target = resolve_input(name, main_path.parent, main_path.parent, root)
        if isinstance(target, Path):
            preamble_files.extend(expand_inputs(target, root).files)
    everything = expand_inputs(main_path, root).files
    body = [f for f in everything[1:] if f not in preamble_files]
    return LatexProject(
        root=root,
        main=main_rel,
        body_files=tuple(dict.fromkeys(Path(f).as_posix() for f in body)),
        preamble_files=tuple(dict.fromkeys(Path(f).as_posix() for f in preamble_files)),
    )


def copy_project(project: LatexProject, dest: Path) -> LatexProject:
    """Copy the whole project folder to ``dest`` (which must not exist), files made writable, ``.git``
    and symbolic links left out, and return the copy (same main file and include graph).

    Raises:
        FileExistsError: ``dest`` exists.
    """
    dest = Path(dest)
    shutil.copytree(project.root, dest, ignore=shutil.ignore_patterns(".git"), symlinks=True)
    for link in [p for p in dest.rglob("*") if p.is_symlink()]:
        link.unlink()  # a link could point outside the project; its target is never copied
    for folder, _dirs, files in os.walk(dest):
        os.chmod(folder, 0o755)
        for name in files:
            os.chmod(os.path.join(folder, name), 0o644)
    return project.model_copy(update={"root": dest.resolve()})


def apply_replacements(project: LatexProject, replacements: Mapping[Paragraph, str]) -> LatexProject:
    """Replace paragraphs of ``project`` in place (write the files) and return the reloaded project.

    All paragraphs must come from ``project.paragraphs()`` of the current files; several in one file
    are applied bottom-up so their line spans stay valid. A replacement may span any number of
    lines (blank lines split it into several paragraphs); surrounding lines are untouched.

    Each file is written in the encoding it was read in, and a file whose text comes out unchanged
    is not written at all (:func:`write_like`).

    Raises:
        ValueError: a paragraph's lines no longer match its text (stale), or two overlap.
        EncodingError: a replacement has characters its file's encoding cannot hold.
    """
    by_file: dict[str, list[tuple[Paragraph, str]]] = {}
    for paragraph, new in replacements.items():
        by_file.setdefault(paragraph.file, []).append((paragraph, new))
    for file, edits in by_file.items():
        path = project.root / file
        lines = read_text_file(path).split("\n")
        edits.sort(key=lambda e: e[0].start_line, reverse=True)
        floor = len(lines) + 1
        for paragraph, new in edits:
            current = "\n".join(lines[paragraph.start_line - 1 : paragraph.end_line])
            if current != paragraph.text:
                raise ValueError(f"{paragraph.key}: the file no longer has this paragraph's text (stale paragraph)")
            if paragraph.end_line >= floor:
                raise ValueError(f"{paragraph.key}: overlaps another replacement")
            floor = paragraph.start_line
            lines[paragraph.start_line - 1 : paragraph.end_line] = new.rstrip("\n").split("\n")
        write_like(path, "\n".join(lines))
    return load_project(project.root, project.main)


class EncodingError(ValueError):
    """New text for a file holds characters the file's encoding cannot hold."""


def file_encoding(data: bytes) -> str:
    """The encoding :func:`~rhetorica.documents.latex.source.read_text_file` reads ``data`` in:
    ``utf-8`` when it decodes as UTF-8, else ``latin-1``."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return "latin-1"
    return "utf-8"


def write_like(path: Path, text: str) -> None:
    """Write ``text`` to the existing file ``path`` in the encoding the file is in
    (:func:`file_encoding`), so a Latin-1 project stays Latin-1; a file whose text is unchanged is
    left as it is, byte for byte.

    Raises:
        EncodingError: ``text`` has characters that encoding cannot hold (named).
    """
    data = path.read_bytes()
    encoding = file_encoding(data)
    if data.decode(encoding) == text:
        return
    try:
        encoded = text.encode(encoding)
    except UnicodeEncodeError as exc:
        bad = "".join(dict.fromkeys(text[exc.start : exc.end]))
        raise EncodingError(f"{path.name}: the new text has characters its encoding ({encoding}) cannot hold: "
                            f"{bad!r}") from None
    path.write_bytes(encoded)


def project_diff(baseline: LatexProject, variant: LatexProject) -> str:
    """Unified diff (``difflib``, 3 lines of context) of every file that differs between the two
    project folders; added, removed and binary files are named. Empty when identical."""
    base_files = set(project_files(baseline.root))
    var_files = set(project_files(variant.root))
    chunks: list[str] = []
    for rel in sorted(base_files | var_files):
        a = baseline.root / rel if rel in base_files else None
        b = variant.root / rel if rel in var_files else None
        a_bytes = a.read_bytes() if a else b""
        b_bytes = b.read_bytes() if b else b""
        if a_bytes == b_bytes:
            continue
        a_text, b_text = _text_or_none(a_bytes), _text_or_none(b_bytes)
        if a_text is None or b_text is None:
            chunks.append(f"Binary files a/{rel} and b/{rel} differ\n")
            continue
        chunks.extend(
            difflib.unified_diff(
                a_text.splitlines(keepends=True), b_text.splitlines(keepends=True),
                fromfile=f"a/{rel}" if a else "/dev/null", tofile=f"b/{rel}" if b else "/dev/null",
            )
        )
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in chunks)


def write_variant(
    baseline: LatexProject, dest: Path, replacements: Mapping[Paragraph, str]
) -> tuple[LatexProject, str]:
    """Write a complete rewritten project to ``dest`` (a copy of ``baseline`` with the paragraph
    replacements applied) and ``dest``'s sibling ``<name>.diff`` with the unified diff.

    Returns:
        The variant project and its diff against the baseline.
    """
    variant = apply_replacements(copy_project(baseline, dest), replacements)
    diff = project_diff(baseline, variant)
    Path(dest).with_suffix(".diff").write_text(diff, encoding="utf-8")
    return variant, diff


def editable_paragraphs(file: str, text: str, *, is_main: bool) -> list[Paragraph]:
    """The editable paragraphs of one file's text (see the module docstring for what is editable).

    Args:
        file: the project-relative name recorded in each paragraph.
        text: the file's text.
        is_main: whether this is the main file (then only lines after ``\\begin{document}`` and before
            ``\\end{document}`` count).
    """
    lines = text.split("\n")
    editable = [True] * len(lines)
    first_body, last_body = 0, len(lines)
    if is_main:
        first_body = next((i + 1 for i, line in enumerate(lines) if "\\begin{document}" in _code(line)), len(lines))
        last_body = next((i for i, line in enumerate(lines) if "\\end{document}" in _code(line)), len(lines))
    for i in range(len(lines)):
        if i < first_body or i >= last_body:
            editable[i] = False
    i = first_body
    while i < last_body:
        code = _code(lines[i])
        closing = _protected_until(lines, i, code)
        if closing is not None:
            for k in range(i, min(closing, len(lines) - 1) + 1):
                editable[k] = False
            i = closing + 1
            continue
        if not code.strip() or _STRUCTURE.match(code):
            editable[i] = False
        i += 1
    # a line holding only a comment does not end a paragraph (TeX drops it with its newline): it
    # joins the paragraph when prose follows it, and is left out of one that ends before it
    comment_only = [bool(line.strip()) and not _code(line).strip() for line in lines]
    out: list[Paragraph] = []
    block: list[int] = []
    pending: list[int] = []

    def flush() -> None:
        if block and _is_prose("\n".join(lines[k] for k in block)):
            out.append(Paragraph(file=file, start_line=block[0] + 1, end_line=block[-1] + 1,
                                 text="\n".join(lines[block[0] : block[-1] + 1])))
        block.clear()

    for k, ok in enumerate(editable):
        if ok and block and re.match(r"\s*\\item(?![a-zA-Z])", lines[k]):
            pending.clear()
            flush()
        if ok:
            block.extend(pending)
            block.append(k)
            pending.clear()
        elif block and comment_only[k] and first_body <= k < last_body:
            pending.append(k)
        else:
            pending.clear()
            flush()
    flush()
    return out


def _protected_until(lines: list[str], i: int, code: str) -> int | None:
    """Index of the last line of a protected block starting on line ``i``, or ``None``."""
    for m in _BEGIN.finditer(code):
        env = m.group(1)
        if env in PROTECTED_ENVIRONMENTS:
            star = "*" if code[m.end() - 2] == "*" else ""
            end = _END.format(env=env + star)
            rest = code[m.end():]
            if end in rest:
                continue  # opens and closes on this line: protected as part of the line below
            for k in range(i + 1, len(lines)):
                if end in lines[k]:
                    return k
            return len(lines) - 1
    stripped = code.strip()
    for opener, closer in ((_DISPLAY_OPEN, _DISPLAY_CLOSE), (_DOLLARS, _DOLLARS)):
        opens = list(opener.finditer(code))
        if not opens or (opener is _DOLLARS and len(opens) % 2 == 0):
            continue
        if opener is not _DOLLARS and closer.search(code, opens[-1].end()):
            continue
        for k in range(i + 1, len(lines)):
            if closer.search(_code(lines[k])):
                return k
        return len(lines) - 1
    if stripped.startswith("\\iffalse"):
        for k in range(i + 1, len(lines)):
            if _code(lines[k]).strip().startswith("\\fi"):
                return k
        return len(lines) - 1
    if any(m.group(1) in PROTECTED_ENVIRONMENTS for m in _BEGIN.finditer(code)):
        return i
    return None


def _is_prose(text: str) -> bool:
    code = "\n".join(_code(line) for line in text.split("\n"))
    code = _MATH.sub(" ", _NON_PROSE_ARGS.sub(" ", code))
    code = re.sub(r"\\[a-zA-Z@]+\*?", " ", code)
    return len(_WORD.findall(code)) >= MIN_PROSE_WORDS


def _code(line: str) -> str:
    """The line without its comment."""
    cut = comment_start(line)
    return line if cut is None else line[:cut]


def _strip_line_comments(text: str) -> str:
    """Comments removed line by line, every newline kept (offsets map to the same line numbers)."""
    return "\n".join(_code(line) for line in text.split("\n"))


def _begin_document(text: str) -> int | None:
    """Offset just after ``\\begin{document}`` outside comments, or ``None``."""
    offset = 0
    for line in text.split("\n"):
        code = _code(line)
        pos = code.find("\\begin{document}")
        if pos != -1:
            return offset + pos + len("\\begin{document}")
        offset += len(line) + 1
    return None


def project_files(root: Path) -> Iterable[str]:
    """Every file under ``root`` (``.git`` left out) as a relative POSIX path, sorted by folder."""
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != ".git")
        for name in files:
            yield (Path(folder) / name).relative_to(root).as_posix()


def file_digests(root: Path) -> dict[str, str]:
    """SHA-256 (hex) of every file under ``root`` (:func:`project_files`), by relative path."""
    return {name: hashlib.sha256((Path(root) / name).read_bytes()).hexdigest() for name in project_files(root)}


def changed_files(before: Mapping[str, str], after: Mapping[str, str]) -> list[str]:
    """Relative paths that differ between two :func:`file_digests`: changed, added or removed, sorted."""
    return sorted(name for name in before.keys() | after.keys() if before.get(name) != after.get(name))


def _text_or_none(data: bytes) -> str | None:
    if b"\x00" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")
