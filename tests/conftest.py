"""Shared test fixtures: the real data in ../shared/data (read in place, never copied)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rhetorica.documents import read_document
from rhetorica.documents.models import Document

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
# One terminal width for every process of the suite (a pytest-xdist worker has no terminal: rich
# would fall back to 80 columns and wrap the CLI lines that tests read); set before rich is imported.
os.environ["COLUMNS"] = "200"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not (SHARED_DATA / "papers").is_dir():
        pytest.fail(f"shared data not found at {SHARED_DATA}; tests need ../shared/data beside the repo")
    return SHARED_DATA


@pytest.fixture(scope="session")
def shared_papers(shared_data: Path) -> dict[str, Document]:
    """Every shared paper read with the project's LaTeX reader, keyed by folder name."""
    root = shared_data / "papers"
    return {path.name: read_document(path) for path in sorted(root.iterdir()) if path.is_dir()}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runapi", action="store_true", default=False,
                     help="also run the live provider tests (needs API keys in the environment)")
