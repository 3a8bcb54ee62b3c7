"""``rhetorica calls release``: a file that is no rhetorica store is refused untouched (the release of a
real run's abandoned calls: tests/study/test_runner_interrupted.py)."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from rhetorica.cli.app import app
from rhetorica.store.db import STORE_FILENAME

runner = CliRunner()


def _not_stores(root: Path) -> list[Path]:
    """Generated run folders whose store.sqlite is no rhetorica store: empty, text, random bytes, and
    SQLite files of another application (1-20 tables of its own, with rows)."""
    rng = random.Random(7)
    contents = [b"", b"notsqlite\n", bytes(rng.randrange(256) for _ in range(100)),
                b"SQLite format 3\x00" + bytes(84)]  # an SQLite header and nothing behind it
    folders = []
    for i, data in enumerate(contents):
        folder = root / f"bytes{i}"
        folder.mkdir()
        (folder / STORE_FILENAME).write_bytes(data)
        folders.append(folder)
    for tables in range(1, 21):
        folder = root / f"foreign{tables}"
        folder.mkdir()
        conn = sqlite3.connect(folder / STORE_FILENAME)
        with conn:
            for t in range(tables):
                conn.execute(f"CREATE TABLE mine{t} (x TEXT)")
                conn.executemany(f"INSERT INTO mine{t} VALUES (?)", [(f"row {r}",) for r in range(t + 1)])
        conn.close()
        folders.append(folder)
    return folders


def test_release_refuses_a_file_that_is_no_rhetorica_store_and_writes_nothing(tmp_path: Path) -> None:
    folders = _not_stores(tmp_path)
    assert len(folders) == 24
    refused = 0
    for folder in folders:
        path = folder / STORE_FILENAME
        before = path.read_bytes()
        result = runner.invoke(app, ["calls", "release", str(folder)])
        lines = [line for line in result.output.splitlines() if line.strip()]
        assert result.exit_code == 2 and len(lines) == 1, (folder.name, result.output)
        assert str(path) in lines[0] and "rhetorica store" in lines[0], lines
        assert path.read_bytes() == before, folder.name  # no schema written into it
        assert sorted(p.name for p in folder.iterdir()) == [STORE_FILENAME], folder.name  # no run.lock, no -wal
        refused += 1
    assert refused == 24
