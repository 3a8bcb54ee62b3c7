"""Fixtures for the document readers: real papers from ../shared/data (never copied into the repo)."""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


@pytest.fixture(scope="session")
def papers_dir() -> Path:
    path = SHARED_DATA / "papers"
    if not path.is_dir():
        pytest.skip(f"shared data not found at {path}")
    return path


@pytest.fixture(scope="session")
def pdfs_dir() -> Path:
    path = SHARED_DATA / "pdfs"
    if not path.is_dir():
        pytest.skip(f"shared data not found at {path}")
    return path
