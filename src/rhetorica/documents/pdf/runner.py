"""Run the PDFium extraction and the layout pass in a child process with a wall-clock limit, a memory cap and a
clean environment, so a pathological or hostile PDF can neither hang us nor read our secrets.

The child is a fresh interpreter (``python -m rhetorica.documents.pdf.runner PDF OUT MB DROP``)
that pickles its pages and layout to ``OUT``; the parent kills it when the limit passes. A separate
interpreter (rather than ``multiprocessing``) works from any caller, scripts without a
``__main__`` guard included. The child sees only ``PATH``, the locale, ``HOME``, the temporary
folder variables and the ``PYTHONPATH`` it needs: no API key or other secret of the parent's
environment. It caps its own address space (``RLIMIT_AS``) before parsing, so a PDF that asks for
huge allocations fails with a clear error instead of exhausting the machine.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path

from rhetorica.documents.pdf.backends import BACKEND, extract_pdfium
from rhetorica.documents.pdf.layout import Layout, analyse
from rhetorica.documents.pdf.lines import PageLines
import signal

CHILD_ENV_KEYS = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "HOME", "TMPDIR", "TMP", "TEMP", "SYSTEMROOT")


class BackendTimeout(Exception):
    """The extraction did not finish within the limit."""


class BackendFailure(Exception):
    """The extraction raised; ``kind`` is the exception class name."""

    def __init__(self, kind: str, message: str) -> None:
        self.kind = kind
        super().__init__(message)


def child_environment() -> dict[str, str]:
    """The child's environment: the few variables above (when set) and this ``sys.path``."""
    env = {k: os.environ[k] for k in CHILD_ENV_KEYS if k in os.environ}
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    return env


def run_backend(path: Path, timeout_s: float, memory_mb: int = 4096,
                drop_hidden: bool = False) -> tuple[list[PageLines], Layout]:
    """Extract ``path`` with PDFium and run the layout pass in a child interpreter.

    Args:
        path: the PDF.
        timeout_s: wall-clock limit in seconds for extraction and layout together.
        memory_mb: the child's address-space limit in MiB (``RLIMIT_AS``; POSIX only).
        drop_hidden: leave hidden characters out of the lines (see
            :func:`~rhetorica.documents.pdf.backends.extract_pdfium`).

    Raises:
        BackendTimeout: no result within ``timeout_s`` seconds.
        BackendFailure: the extraction raised (class name in ``kind``; ``MemoryError`` when the
            memory cap was hit) or the child died.
    """
    with tempfile.TemporaryDirectory(prefix="rhetorica-pdf-") as tmp:
        out = Path(tmp) / "pages.pickle"
        try:
            done = subprocess.run(
                [sys.executable, "-m", "rhetorica.documents.pdf.runner", str(path), str(out), str(memory_mb),
                 "drop" if drop_hidden else "keep"],
                capture_output=True, timeout=timeout_s, env=child_environment(), check=False,
            )
        except subprocess.TimeoutExpired as exc:
            raise BackendTimeout(f"{BACKEND} took longer than {timeout_s:g} s") from exc
        if not out.is_file():
            tail = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or [""]
            if "MemoryError" in tail[0] or "bad_alloc" in tail[0]:
                raise BackendFailure("MemoryError", f"{BACKEND} ran out of memory (limit {memory_mb} MiB)")
            if done.returncode < 0:

                name = signal.Signals(-done.returncode).name if -done.returncode in signal.valid_signals() else "?"
                raise BackendFailure("Crash", (
                    f"{BACKEND} process was killed by signal {-done.returncode} ({name}); a PDF that needs more "
                    f"than the {memory_mb} MiB memory limit ends this way (ReadOptions.parse_memory_mb)"
                ))
            raise BackendFailure("Crash", f"{BACKEND} process exited with code {done.returncode}: {tail[0]}")
        status, payload = pickle.loads(out.read_bytes())
    if status == "error":
        kind, message = payload
        if kind == "MemoryError":
            message = f"{BACKEND} ran out of memory (limit {memory_mb} MiB)"
        raise BackendFailure(kind, message)
    return payload


def _limit_memory(memory_mb: int) -> None:
    try:
        import resource
    except ImportError:  # not POSIX: no cap
        return
    limit = memory_mb * 1024 * 1024
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _main(argv: list[str]) -> None:
    path, out, memory_mb, hidden = argv
    _limit_memory(int(memory_mb))
    try:
        pages = extract_pdfium(Path(path), drop_hidden=hidden == "drop")
        result: tuple[str, object] = ("ok", (pages, analyse(pages)))
    except MemoryError:
        result = ("error", ("MemoryError", "out of memory"))
    except Exception as exc:  # reported to the parent as data
        result = ("error", (type(exc).__name__, str(exc) or type(exc).__name__))
    Path(out).write_bytes(pickle.dumps(result))


if __name__ == "__main__":
    _main(sys.argv[1:])
