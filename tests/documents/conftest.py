"""Fixtures for the document readers: real papers and PDFs read in place from ../shared/data."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def papers_dir(shared_data: Path) -> Path:
    return shared_data / "papers"


@pytest.fixture(scope="session")
def pdfs_dir(shared_data: Path) -> Path:
    return shared_data / "pdfs"
