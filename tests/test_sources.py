"""Every Python file of the project compiles without a warning, such as an invalid escape sequence
in a docstring that quotes a LaTeX command (``\\colorbox``); Python 3.12 makes it a SyntaxWarning."""

from __future__ import annotations

import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_python_file_compiles_without_a_warning() -> None:
    files = [p for folder in ("src", "tests", "benchmarks", "scripts") for p in (ROOT / folder).rglob("*.py")]
    warned = []
    for path in files:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            compile(path.read_text(encoding="utf-8"), str(path), "exec")
        warned += [f"{path.relative_to(ROOT)}: {w.message}" for w in caught]
    assert len(files) > 300 and warned == []
