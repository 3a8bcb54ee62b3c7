"""Fixtures for the model-layer tests: a loopback fake provider server and fast retries."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fake_servers import FakeServer  # noqa: E402

from rhetorica.models.call import RetryPolicy  # noqa: E402


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: takes more than 20 s (deselect with -m 'not slow')")


@pytest.fixture
def fake_server() -> Iterator[FakeServer]:
    """A started loopback server on 127.0.0.1 (random port), stopped after the test."""
    with FakeServer(hang_s=1.0) as server:
        yield server


@pytest.fixture
def fast_retry() -> RetryPolicy:
    """Retries without real waiting (Retry-After still honoured when the server sends one)."""
    return RetryPolicy(max_attempts=4, base_delay_s=0.001, max_delay_s=0.01, jitter=0.0)
