"""Run a backend in a child process with a wall-clock limit, so a pathological PDF cannot hang us.

The child is a fresh interpreter (``python -m rhetorica.documents.pdf.runner BACKEND PDF OUT``)
that pickles its pages to ``OUT``; the parent kills it when the limit passes. A separate
interpreter (rather than ``multiprocessing``) works from any caller, scripts without a
``__main__`` guard included.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path

from rhetorica.documents.pdf.lines import PageLines


class BackendTimeout(Exception):
    """The backend did not finish within the limit."""


class BackendFailure(Exception):
    """The backend raised; ``kind`` is the exception class name."""

    def __init__(self, kind: str, message: str) -> None:
        self.kind = kind
        super().__init__(message)


def run_backend(backend: str, path: Path, timeout_s: float) -> list[PageLines]:
    """Extract ``path`` with ``backend`` in a child interpreter, killed after ``timeout_s`` seconds.

    Raises:
        BackendTimeout: no result within ``timeout_s`` seconds.
        BackendFailure: the backend raised (class name in ``kind``) or the child died.
    """
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    with tempfile.TemporaryDirectory(prefix="rhetorica-pdf-") as tmp:
        out = Path(tmp) / "pages.pickle"
        try:
            done = subprocess.run(
                [sys.executable, "-m", "rhetorica.documents.pdf.runner", backend, str(path), str(out)],
                capture_output=True, timeout=timeout_s, env=env, check=False,
            )
        except subprocess.TimeoutExpired as exc:
            raise BackendTimeout(f"{backend} took longer than {timeout_s:g} s") from exc
        if not out.is_file():
            tail = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or [""]
            raise BackendFailure("Crash", f"{backend} process exited with code {done.returncode}: {tail[0]}")
        status, payload = pickle.loads(out.read_bytes())
    if status == "error":
        raise BackendFailure(payload[0], payload[1])
    return payload


def _main(argv: list[str]) -> None:
    from rhetorica.documents.pdf.backends import BACKENDS

    backend, path, out = argv
    try:
        result: tuple[str, object] = ("ok", BACKENDS[backend](Path(path)))
    except Exception as exc:  # reported to the parent as data
        result = ("error", (type(exc).__name__, str(exc) or type(exc).__name__))
    Path(out).write_bytes(pickle.dumps(result))


if __name__ == "__main__":
    _main(sys.argv[1:])
