"""Another process holding a transaction on a store file, for tests of readers beside it."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

EXCLUSIVE = ('c.execute("PRAGMA locking_mode=EXCLUSIVE"); c.execute("BEGIN EXCLUSIVE"); '
             'c.execute("CREATE TABLE held (x)")')
WRITING = 'c.execute("BEGIN IMMEDIATE"); c.execute("CREATE TABLE held (x)"); c.execute("INSERT INTO held VALUES (1)")'


@contextmanager
def holding(path: Path, statements: str) -> Iterator[None]:
    """Another process that runs ``statements`` on ``path`` (connection ``c``) and keeps its
    transaction open while the block runs."""
    code = (f"import sqlite3, sys\nc = sqlite3.connect({str(path)!r}, isolation_level=None)\n{statements}\n"
            "print('held', flush=True)\nsys.stdin.read()\n")
    holder = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        yield
    finally:
        holder.kill()
        holder.wait()
