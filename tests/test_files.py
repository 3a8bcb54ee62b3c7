"""JSON-lines reading: each object with its line number; bad lines listed, never fatal. Atomic writes:
the old file or the new one, whole."""

from __future__ import annotations

import os
import stat

import pytest

from rhetorica.files import json_objects, write_atomic


def test_json_objects_keeps_objects_and_lists_bad_lines():
    problems: list[str] = []
    lines = ['{"a": 1}', "", "   ", "[1, 2]", "{not json", '{"b": "x"}']
    assert json_objects(lines, "pairs.jsonl", problems) == [(1, {"a": 1}), (6, {"b": "x"})]
    assert problems == ["pairs.jsonl:4: not a JSON object",
                        "pairs.jsonl:5: not JSON (Expecting property name enclosed in double quotes)"]


def test_write_atomic_replaces_the_file_whole_with_ordinary_permissions(tmp_path):
    path = tmp_path / "sub" / "report.html"
    write_atomic(path, b"old")
    old_inode = path.stat().st_ino
    previous = os.umask(0o027)
    try:
        write_atomic(path, "néw")  # str: written as UTF-8
    finally:
        os.umask(previous)
    assert path.read_bytes() == "néw".encode()
    assert path.stat().st_ino != old_inode  # a new file renamed over the old one, not rewritten in place
    assert stat.S_IMODE(path.stat().st_mode) == 0o640  # 0o666 less the umask (mkstemp would give 0o600)
    assert sorted(p.name for p in path.parent.iterdir()) == ["report.html"]


def test_write_atomic_that_fails_keeps_the_old_file_and_leaves_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "report.md"
    path.write_bytes(b"previous report")

    def refuse(src, dst):  # noqa: ANN001, ANN202 - the rename fails (a full disk, a signal)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("rhetorica.files.os.replace", refuse)
    with pytest.raises(OSError, match="No space left"):
        write_atomic(path, b"new report")
    assert path.read_bytes() == b"previous report"
    assert [p.name for p in tmp_path.iterdir()] == ["report.md"]
