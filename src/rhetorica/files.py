"""Writing files so that a killed process never leaves half of one."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename.

    Raises:
        OSError: the folder cannot be created or written.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
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
