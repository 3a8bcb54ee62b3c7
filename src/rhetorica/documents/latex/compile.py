"""Compile a LaTeX project safely: latexmk + pdflatex from Debian's TeX Live, in a temporary copy.

Safety (every compile, no option to turn it off):

- shell escape off twice: ``-no-shell-escape`` on latexmk and pdflatex, and ``shell_escape=f`` in
  the environment (kpathsea reads ``texmf.cnf`` variables from it);
- ``openout_any=p`` and ``openin_any=p`` (paranoid: TeX writes and reads only below the working
  folder, never dot files or absolute paths), the ``HOME``/``TMPDIR`` of the run inside the temp
  folder, an environment of only ``PATH`` and those variables;
- ``latexmk -norc``: a ``latexmkrc`` in the project (Perl code) is never read;
- ``-recorder`` and kpathsea's search trace (``-kpathsea-debug=32``): what TeX *tried* to do is read
  back from the log, the trace and the ``.fls`` file list (:func:`find_dangers`): a shell command
  (pdfTeX logs ``runsystem(...)...disabled``), a pipe it was asked to open or test (a search for a
  file named ``|...``), ``\\directlua``/``\\latelua`` (undefined in pdfTeX: the log's context line
  ends with it), a read or write refused by ``openin_any``/``openout_any``, and any file read or
  written outside the compile folder and the TeX distribution's trees. Any of these makes the
  result ``dangerous`` (with ``file:line`` where the source has one);
- a wall-clock limit (the whole process group is killed) and a per-file output-size limit
  (``RLIMIT_FSIZE``); the copy is deleted afterwards (the PDF is copied out when asked).

The result is ``dangerous`` (see above), ``ok`` (a PDF and no error in the log), ``failed`` (errors, listed as
``file:line: message`` from the ``-file-line-error`` log — or, when the log has none and there is no
PDF, from the end of the terminal output, where TeX prints e.g. an input line over its buffer —
or no PDF), ``timeout`` or ``error``
(TeX Live missing, output too large). A compile that reports missing files — a style or class, a
bibliography style, figures, pgfplots data tables — is retried with :mod:`substitutes` for exactly those files (any other
error stays an error); the result lists what was substituted, and a variant is compiled with its baseline's substitutes
(:func:`compile_variant`) so both go through the same path.
"""

from __future__ import annotations

import functools
import os
import re
import resource
import shutil
import signal
import subprocess
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from rhetorica.documents.latex.project import LatexProject, copy_project
from rhetorica.documents.latex.source import GRAPHICS_RE, strip_comments
from rhetorica.documents.latex.substitutes import Substitutes, apply_substitutes

#: Default limits: seconds of wall clock for one compile (latexmk's reruns included) and bytes per
#: output file.
DEFAULT_TIMEOUT_S = 180.0
DEFAULT_MAX_FILE_BYTES = 64 * 1024 * 1024
#: At most this many compile attempts while discovering missing files (each missing package
#: stops TeX, so one is found per attempt).
MAX_SUBSTITUTION_ROUNDS = 12
#: At most this many errors are kept from one log.
MAX_ERRORS = 1000
#: Bytes read from the end of the captured terminal output (stdout, stderr), which is searched for
#: errors when the log has none and there is no PDF.
TERMINAL_TAIL_BYTES = 256 * 1024
_SAFE_MAIN = re.compile(r"^[A-Za-z0-9_.+/-]+\.tex$")
_FILE_LINE = re.compile(r"^(.+?\.(?:tex|sty|cls|bbl|aux|def|cfg|clo|ltx|toc)):(\d+): (.*)$")
_MISSING = re.compile(r"File `([^']+)' not found")
_MISSING_TABLE = re.compile(r"Package pgfplots Error: Could not read table file '([^']+)'")
_DATA_SUFFIXES = (".dat", ".csv", ".tsv", ".txt", ".table")
#: Lines that only report the consequence of an earlier error.
_CONSEQUENCES = {"Emergency stop.", "==> Fatal error occurred, no output PDF file produced!"}
_BIBSTYLE = re.compile(r"^[^%\n]*?\\bibliographystyle\s*\{([^{}]+)\}", re.M)
_MISSING_BST = re.compile(r"I couldn't open style file (\S+)\.bst")


class LogError(BaseModel):
    """One error from the TeX log: project-relative ``file`` (or ``""``), 1-based ``line`` (0 when
    unknown) and the ``message`` line."""

    model_config = ConfigDict(frozen=True)

    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}" if self.file else self.message


class CompileResult(BaseModel):
    """Outcome of one compile.

    Attributes:
        status: ``dangerous`` | ``ok`` | ``failed`` | ``timeout`` | ``error``.
        main: the main file compiled, relative to the project (``None`` in records made before it
            was kept).
        errors: the log's errors in order (at most :data:`MAX_ERRORS`).
        dangers: what TeX tried that a manuscript never needs (:func:`find_dangers`), in order.
        substitutes: what was substituted for missing files (empty when none).
        notes: one line per substitute, for the report ("compiled with a substitute class").
        pdf: where the PDF was copied (``None`` when not asked or none was produced).
        pdf_bytes: size of the PDF in bytes (0 when none).
        seconds: wall-clock time of the compile(s).
        reason: why it is not ``ok`` (``None`` when ok).
    """

    model_config = ConfigDict(frozen=True)

    status: Literal["dangerous", "ok", "failed", "timeout", "error"]
    main: str | None = None
    errors: tuple[LogError, ...] = ()
    dangers: tuple[LogError, ...] = ()
    substitutes: Substitutes = Substitutes()
    notes: tuple[str, ...] = ()
    pdf: Path | None = None
    pdf_bytes: int = 0
    seconds: float = 0.0
    reason: str | None = None



def compile_project(
    project: LatexProject,
    *,
    pdf_out: Path | None = None,
    substitutes: Substitutes | None = None,
    fallback: bool = True,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
) -> CompileResult:
    """Compile ``project`` in a temporary copy (see the module docstring for the safety rules).

    Args:
        project: the project (never modified).
        pdf_out: where to copy the PDF (optional).
        substitutes: substitutes to apply from the start (a baseline's, for its variant).
        fallback: when the compile reports missing style, class, bibliography-style or figure files,
            add substitutes for them and retry.
        timeout_s: wall-clock limit for the whole compile (all attempts together), seconds.
        max_file_bytes: largest file the compile may write.

    Returns:
        A :class:`CompileResult` (never raises for a bad project).

    Raises:
        ValueError: the main file's name has characters other than letters, digits and ``_.+/-``.
    """
    problem = main_name_problem(project.main)
    if problem:
        raise ValueError(f"{project.main}: refusing to compile a main file with this name ({problem})")
    if shutil.which("latexmk") is None or shutil.which("pdflatex") is None:
        return CompileResult(status="error", reason="latexmk/pdflatex not found: run scripts/install-test-system-deps.sh")
    started = time.monotonic()
    current = substitutes or Substitutes()
    if fallback:
        externalized = any("\\tikzexternalize" in project.read(f) for f in project.tex_files)
        current = current.merge(Substitutes(bibstyles=_missing_bibstyles(project), tikz_externalize_off=externalized))
        graphics = _graphics_names(project)
        for _ in range(MAX_SUBSTITUTION_ROUNDS):
            left = timeout_s - (time.monotonic() - started)
            probe = _compile_once(project, current, None, left, max_file_bytes, draft=True)
            if probe.status in {"timeout", "error"}:
                return probe.model_copy(update={"seconds": time.monotonic() - started, "main": project.main})
            missing = _missing_files(probe, graphics)
            if current.merge(missing) == current:
                break
            current = current.merge(missing)
    left = timeout_s - (time.monotonic() - started)
    result = _compile_once(project, current, pdf_out, left, max_file_bytes)
    return result.model_copy(update={"seconds": time.monotonic() - started, "main": project.main})


def main_name_problem(main: str) -> str | None:
    """Why :func:`compile_project` refuses a main file's project-relative name, or ``None``.

    Only letters, digits and ``_.+/-`` are accepted: latexmk hands the name on to pdflatex and
    BibTeX in command lines it builds itself, so spaces, ``$``, ``;``, quotes and non-ASCII letters
    are refused rather than trusted to its quoting.
    """
    if _SAFE_MAIN.match(main):
        return None
    return ("unexpected characters: only letters, digits and _ . + / - are compiled "
            "(no spaces, $, ;, quotes or accented letters); rename the file")


def compile_variant(variant: LatexProject, baseline: CompileResult, **options: object) -> CompileResult:
    """Compile a variant with its baseline's substitutes and no further fallback (a file the variant
    newly lacks is a new error). ``options`` as for :func:`compile_project`."""
    return compile_project(variant, substitutes=baseline.substitutes, fallback=False, **options)  # type: ignore[arg-type]


def new_errors(baseline: CompileResult, variant: CompileResult) -> tuple[LogError, ...]:
    """Errors of ``variant`` that ``baseline`` does not have (same file and message; line numbers
    are ignored because edits move lines), plus a note when the baseline produced a PDF and the
    variant did not."""
    seen = Counter((e.file, e.message) for e in baseline.errors)
    out: list[LogError] = []
    for e in variant.errors:
        if seen[(e.file, e.message)] > 0:
            seen[(e.file, e.message)] -= 1
        else:
            out.append(e)
    if variant.status == "timeout":
        out.append(LogError(file="", line=0, message=f"compile timed out: {variant.reason}"))
    elif baseline.pdf_bytes and not variant.pdf_bytes and not out:
        out.append(LogError(file="", line=0, message=variant.reason or "no PDF produced"))
    return tuple(out)


def parse_log(log: str, build: Path) -> list[LogError]:
    """The errors of a ``-file-line-error`` pdflatex log, in order: ``./x.tex:12: message`` lines
    and ``! message`` lines (fatal errors without a place).

    Args:
        log: the log's text (lines not wrapped: the compile sets ``max_print_line``).
        build: the compile folder, to make absolute paths relative.
    """
    errors: list[LogError] = []
    for line in log.splitlines():
        m = _FILE_LINE.match(line)
        if m:
            file = m.group(1)
            file = file[2:] if file.startswith("./") else file
            if file.startswith(str(build)):
                file = os.path.relpath(file, build)
            elif file.startswith("/"):
                file = Path(file).name
            message = m.group(3).strip()
            if message not in _CONSEQUENCES:
                errors.append(LogError(file=file, line=int(m.group(2)), message=message))
        elif line.startswith("! ") and line[2:].strip() not in _CONSEQUENCES:
            errors.append(LogError(file="", line=0, message=line[2:].strip()))
    return errors[:MAX_ERRORS]


def _compile_once(
    project: LatexProject, substitutes: Substitutes, pdf_out: Path | None, timeout_s: float, max_file_bytes: int,
    *, draft: bool = False,
) -> CompileResult:
    """One compile in a fresh temporary copy: latexmk (reruns, BibTeX), or with ``draft`` a single
    ``pdflatex -draftmode`` pass (no PDF written) that only finds the errors."""
    with tempfile.TemporaryDirectory(prefix="rhetorica-tex-") as tmp:
        tmp_path = Path(tmp)
        build = tmp_path / "project"
        copy_project(project, build)
        for rc in [p for p in build.rglob("*latexmkrc") if p.is_file()]:
            rc.unlink()
        apply_substitutes(build, project.main, substitutes)
        main = build / project.main
        home = tmp_path / "home"
        home.mkdir()
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(home),
            "TMPDIR": str(home),
            "LANG": "C.UTF-8",
            "openout_any": "p",
            "openin_any": "p",
            "shell_escape": "f",
            "max_print_line": "100000",
            "error_line": "254",
            "half_error_line": "238",
        }
        engine = "pdflatex -no-shell-escape -recorder -kpathsea-debug=32 -file-line-error -interaction=nonstopmode %O %S"
        cmd = [
            "latexmk", "-norc", "-pdf", "-f", "-interaction=nonstopmode", "-no-shell-escape",
            f"-pdflatex={engine}", main.name,
        ]
        if draft:
            cmd = ["pdflatex", "-draftmode", *engine.split()[1:-2], main.name]

        def limits() -> None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (max_file_bytes, max_file_bytes))

        if timeout_s <= 0:
            return CompileResult(status="timeout", substitutes=substitutes, reason="no time left for the compile")
        out_path, err_path = tmp_path / "terminal.out", tmp_path / "terminal.err"
        with out_path.open("wb") as out, err_path.open("wb") as err:
            proc = subprocess.Popen(
                cmd, cwd=main.parent, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                start_new_session=True, preexec_fn=limits,
            )
        try:
            proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            return CompileResult(status="timeout", substitutes=substitutes, notes=substitutes.describe(),
                                 reason=f"compile exceeded {timeout_s:.0f} s")
        finally:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        log_path = main.with_suffix(".log")
        log = log_path.read_text(encoding="utf-8", errors="replace") if log_path.is_file() else ""
        errors = parse_log(log, build)
        if not errors and not main.with_suffix(".pdf").is_file():
            # a fatal error TeX prints before or instead of its log (e.g. an input line over
            # buf_size goes to the terminal only)
            errors = [e for path in (err_path, out_path) for e in parse_log(_tail_text(path), build)]
        blg = main.with_suffix(".blg")
        blg_text = blg.read_text(encoding="utf-8", errors="replace") if blg.is_file() else ""
        for m in _MISSING_BST.finditer(blg_text):
            errors.append(LogError(file=f"{Path(project.main).stem}.blg", line=0, message=f"File `{m.group(1)}.bst' not found."))
        oversized = [p.name for p in build.rglob("*") if p.is_file() and p.stat().st_size >= max_file_bytes]
        pdf = main.with_suffix(".pdf")
        pdf_bytes = pdf.stat().st_size if pdf.is_file() else 0
        copied = None
        if pdf_bytes and pdf_out is not None:
            pdf_out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(pdf, pdf_out)
            copied = pdf_out
        dangers = find_dangers(log, "\n".join(_lines_with(path, _TRACE_MARKERS) for path in (err_path, out_path)),
                               _read(main.with_suffix(".fls")), build, tmp_path)
        if dangers:
            status, reason = "dangerous", f"{len(dangers)} attempt(s) to leave the project, first: {dangers[0]}"
        elif oversized:
            status, reason = "error", f"output file over {max_file_bytes} bytes: {', '.join(oversized)}"
        elif errors or (not pdf_bytes and not draft):
            status = "failed"
            reason = f"{len(errors)} error(s), first: {errors[0]}" if errors else "no PDF produced"
        else:
            status, reason = "ok", None
        return CompileResult(
            status=status, errors=tuple(errors), dangers=dangers, substitutes=substitutes, notes=substitutes.describe(),
            pdf=copied, pdf_bytes=pdf_bytes, reason=reason,
        )


_RUNSYSTEM = re.compile(r"runsystem\((.*)\)\.\.\.(disabled[^.\n]*|executed[^.\n]*)")
_PIPE_SEARCH = re.compile(r"kpse_find_file: searching for \"?\|(.*?)\"? of type ")
_PIPE_NAME = re.compile(r"`\"?\|([^'\"\n]*)\"?'")
_REFUSED = re.compile(r"Not (reading from|writing to) (.+?) \((openin_any|openout_any) = \w+\)")
_LUA_CONTEXT = re.compile(r"^l\.(\d+) .*\\(directlua|latelua)\s*$")
#: Lines of the terminal output :func:`find_dangers` reads (kpathsea's trace is long; only these are kept).
_TRACE_MARKERS = ("searching for |", 'searching for "|', "Not reading from", "Not writing to")


def find_dangers(log: str, trace: str, fls: str, build: Path, allowed_root: Path) -> tuple[LogError, ...]:
    """What a compile tried that a manuscript never needs, from what TeX wrote down.

    Args:
        log: the ``.log`` (``runsystem(...)...disabled`` lines; ``l.N ...\\directlua`` context
            lines, whose file is that of the error line before; a missing file named ``|...``).
        trace: terminal lines with kpathsea's searches for a file named ``|...`` (a pipe TeX was
            asked to open or test) and the ``Not reading from``/``Not writing to`` refusals of
            ``openin_any``/``openout_any``.
        fls: the ``-recorder`` file list (``PWD``, ``INPUT``, ``OUTPUT`` lines): a path outside
            ``allowed_root`` and the TeX distribution's trees (:func:`texmf_trees`) is a danger.
        build: the compile folder (for relative paths and for finding the source line).
        allowed_root: the folder the compile may use (the project copy and its ``HOME``).

    Returns:
        One :class:`LogError` per distinct attempt, in the order found; ``file``/``line`` from the
        log, else the first line of the project's ``.tex`` files that holds the command or name,
        else empty/0.
    """
    found: list[tuple[str, str, int, str]] = []  # (message, file, line, text to locate)
    for m in _RUNSYSTEM.finditer(log):
        found.append((f"shell command attempted: {m.group(1)} (runsystem ... {m.group(2).strip()})", "", 0, m.group(1)))
    for m in [*_PIPE_SEARCH.finditer(trace), *_PIPE_NAME.finditer(log)]:
        found.append((f"pipe: TeX was asked to open or test '|{m.group(1)}'", "", 0, m.group(1)))
    for m in _REFUSED.finditer(trace):
        verb = "read" if m.group(1) == "reading from" else "write"
        found.append((f"file outside the project: {verb} of {m.group(2)} (refused by {m.group(3)})", "", 0, m.group(2)))
    place = ("", 0)
    for line in log.splitlines():
        error = _FILE_LINE.match(line)
        if error:
            place = (_relative(error.group(1), build), int(error.group(2)))
        lua = _LUA_CONTEXT.match(line)
        if lua:
            found.append((f"\\{lua.group(2)}: Lua code (pdfTeX does not run it; LuaTeX would)", place[0], int(lua.group(1)), ""))
    pwd = Path(next((line[4:] for line in fls.splitlines() if line.startswith("PWD ")), str(build)))
    trees = [Path(os.path.realpath(allowed_root)), *texmf_trees()]
    for line in fls.splitlines():
        verb, _, name = line.partition(" ")
        if verb not in {"INPUT", "OUTPUT"} or not name:
            continue
        path = Path(os.path.realpath(pwd / name))
        if not any(path.is_relative_to(tree) for tree in trees):
            action = "read" if verb == "INPUT" else "written"
            found.append((f"file outside the project {action}: {name}", "", 0, name))
    out: dict[str, LogError] = {}
    for message, file, line, text in found:
        if message not in out:
            if not file and text:
                file, line = _locate(text, build)
            out[message] = LogError(file=file, line=line, message=message)
    return tuple(out.values())


def new_dangers(baseline: CompileResult, variant: CompileResult) -> tuple[LogError, ...]:
    """Dangers of ``variant`` that ``baseline`` does not have (same message; places are ignored)."""
    seen = {e.message for e in baseline.dangers}
    return tuple(e for e in variant.dangers if e.message not in seen)


@functools.lru_cache(maxsize=1)
def texmf_trees() -> tuple[Path, ...]:
    """The TeX distribution's own folders (``kpsewhich -var-value`` of ``TEXMF``, ``TEXMFCNF``,
    ``TEXMFSYSVAR``, ``TEXMFSYSCONFIG``, ``TEXMFDIST``; the user's home trees left out), real paths."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": "/nonexistent-home"}
    trees: list[Path] = []
    for var in ("TEXMF", "TEXMFCNF", "TEXMFSYSVAR", "TEXMFSYSCONFIG", "TEXMFDIST"):
        value = subprocess.run(["kpsewhich", f"-var-value={var}"], capture_output=True, text=True, env=env,
                               check=False).stdout
        for part in re.split(r"[,:;]", value.replace("{", "").replace("}", "").replace("!!", "")):
            part = part.strip()
            if part.startswith("/") and not part.startswith("/nonexistent-home"):
                trees.append(Path(os.path.realpath(part)))
    return tuple(dict.fromkeys(trees))


def _relative(file: str, build: Path) -> str:
    file = file[2:] if file.startswith("./") else file
    if file.startswith(str(build)):
        return os.path.relpath(file, build)
    return Path(file).name if file.startswith("/") else file


def _locate(text: str, build: Path) -> tuple[str, int]:
    """``(file, line)`` of the first line of a ``.tex`` file under ``build`` that holds ``text``
    (whitespace runs and ``~`` read as one space), or ``("", 0)``."""
    needle = " ".join(text.replace("~", " ").split())
    if not needle:
        return "", 0
    for path in sorted(build.rglob("*.tex")):
        for number, line in enumerate(_read(path).split("\n"), 1):
            if needle in " ".join(line.replace("~", " ").split()):
                return path.relative_to(build).as_posix(), number
    return "", 0


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""


def _lines_with(path: Path, markers: tuple[str, ...]) -> str:
    """The lines of ``path`` that contain one of ``markers`` (read as a stream)."""
    if not path.is_file():
        return ""
    with path.open("r", encoding="utf-8", errors="replace") as handle:
        return "".join(line for line in handle if any(m in line for m in markers))


def _tail_text(path: Path, limit: int = TERMINAL_TAIL_BYTES) -> str:
    """The last ``limit`` bytes of a captured terminal stream, as text (its first, possibly cut,
    line dropped when cut)."""
    with path.open("rb") as handle:
        size = handle.seek(0, os.SEEK_END)
        handle.seek(max(0, size - limit))
        text = handle.read().decode("utf-8", errors="replace")
    return text.split("\n", 1)[-1] if size > limit else text


def _missing_files(result: CompileResult, graphics: set[str]) -> Substitutes:
    """Substitutes for the files a compile reported missing: packages, classes, bibliography styles,
    figures named in an ``\\includegraphics`` of the project, and pgfplots data tables (``.dat``,
    ``.csv``, ``.tsv``, ``.txt``, ``.table``); any other missing file is left as an error."""
    packages, classes, bibstyles, figures, data = [], [], [], [], []
    for error in result.errors:
        table = _MISSING_TABLE.search(error.message)
        if table and table.group(1).lower().endswith(_DATA_SUFFIXES):
            data.append(table.group(1))
            continue
        m = _MISSING.search(error.message)
        name = m.group(1) if m else ""
        if name.endswith(".sty"):
            packages.append(name[:-4])
        elif name.endswith(".cls"):
            classes.append(name[:-4])
        elif name.endswith(".bst"):
            bibstyles.append(name[:-4])
        elif name and name in graphics:
            figures.append(name)
    return Substitutes(packages=tuple(packages), classes=tuple(classes), bibstyles=tuple(bibstyles),
                       graphics=tuple(figures), plot_data=tuple(data))


def _missing_bibstyles(project: LatexProject) -> tuple[str, ...]:
    """``\\bibliographystyle`` names found neither beside the main file nor by ``kpsewhich``."""
    names = [a for f in project.editable_files for a in _BIBSTYLE.findall(project.read(f))]
    folder = (project.root / project.main).parent
    missing = []
    for name in dict.fromkeys(n.strip() for n in names):
        if (folder / f"{name}.bst").is_file():
            continue
        found = subprocess.run(["kpsewhich", f"{name}.bst"], capture_output=True, text=True, check=False).stdout
        if not found.strip():
            missing.append(name)
    return tuple(missing)


def _graphics_names(project: LatexProject) -> set[str]:
    return {m.group(1).strip() for file in project.editable_files
            for m in GRAPHICS_RE.finditer(strip_comments(project.read(file)))}
