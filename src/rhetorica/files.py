"""Reading and writing files: atomic writes (a killed process never leaves half of one), text and JSON lines."""

from __future__ import annotations

import glob
import json
import os
import secrets
from collections.abc import Iterable
from pathlib import Path
from typing import Any


def write_atomic(path: Path, data: bytes | str) -> None:
    """Write ``data`` (``str``: as UTF-8) to ``path`` through a temporary file in the same folder and
    a rename (``os.replace``), so that a reader, or a process killed at any moment (SIGKILL
    included), finds either the previous file or the new one whole, never part of one.

    The temporary file is ``.<name>.<random>.tmp`` beside ``path`` (a dot file: folder listings and
    ``*.csv``-style globs skip it); a killed writer can leave one behind, never a partial ``path``.
    The new file gets the permissions an ordinary write would (``0o666`` less the umask).

    Raises:
        OSError: the folder cannot be created or written.
    """
    payload = data.encode("utf-8") if isinstance(data, str) else data
    path.parent.mkdir(parents=True, exist_ok=True)
    while True:
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:  # a name left by a killed writer: draw another
            continue
        break
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(payload)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


class TextFileError(ValueError):
    """A file that cannot be read as UTF-8 text; the message names the file and the problem."""


def read_text_file(path: Path, what: str) -> str:
    """The UTF-8 text of ``path``.

    Args:
        path: the file.
        what: what the file is, for the message (``"study file"``).

    Raises:
        TextFileError: ``<path>: cannot read <what> (<reason>)`` when it is missing or unreadable,
            or ``<path>: <what> is not UTF-8 text (byte 0x.. at offset N)``.
    """
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise TextFileError(f"{path}: {what} is not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset "
                            f"{exc.start})") from exc
    except OSError as exc:
        raise TextFileError(f"{path}: cannot read {what} ({exc.strerror})") from exc


def json_objects(lines: Iterable[str], source: object, problems: list[str]) -> list[tuple[int, dict[str, Any]]]:
    """The JSON objects of JSON-lines text, each with its line number (from 1); blank lines are skipped.

    A line that is not JSON is listed in ``problems`` as ``SOURCE:N: not JSON (why)``, one that is not
    an object as ``SOURCE:N: not a JSON object``, and left out (one bad line never stops a file).
    """
    rows = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append(f"{source}:{number}: not JSON ({exc.msg})")
            continue
        if not isinstance(row, dict):
            problems.append(f"{source}:{number}: not a JSON object")
            continue
        rows.append((number, row))
    return rows


def resolve_pattern(path: str, base_dir: Path) -> list[Path]:
    """Paths named by ``path`` (relative to ``base_dir``): an existing file or folder as named
    (``paper[v2].md`` included), otherwise the matches of ``path`` read as a glob, sorted."""
    pattern = path if Path(path).is_absolute() else str(base_dir / path)
    if any(ch in path for ch in "*?[") and not Path(pattern).exists():
        return [Path(p) for p in sorted(glob.glob(pattern))]
    return [Path(pattern)]
