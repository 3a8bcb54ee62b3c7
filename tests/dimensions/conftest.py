"""Fixtures of the dimension tests: the real "Spatial anisotropy" paragraph (read in place)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.dimensions.paragraphs import spatial_paragraph


@pytest.fixture(scope="module")
def spatial(shared_data: Path) -> str:
    return spatial_paragraph(shared_data)
