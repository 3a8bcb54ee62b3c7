"""Shared test fixtures: the real data in ../shared/data (read in place, never copied)."""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not (SHARED_DATA / "papers").is_dir():
        pytest.fail(f"shared data not found at {SHARED_DATA}; tests need ../shared/data beside the repo")
    return SHARED_DATA


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runapi", action="store_true", default=False,
                     help="also run the live provider tests (needs API keys in the environment)")
