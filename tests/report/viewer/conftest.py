"""A headless Chromium that logs console messages and network requests, and a running viewer."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from rhetorica.report.viewer.server import ViewerServer

from ..chromium import headless_chromium


@pytest.fixture(scope="module")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with headless_chromium(tmp_path_factory.mktemp("viewer-chromium-profile"), "--window-size=1400,1200",
                           logs=("browser", "performance")) as driver:
        yield driver


@contextmanager
def serve(run_dir: Path) -> Iterator[str]:
    """A viewer of ``run_dir`` on a free loopback port, serving from a background thread while the
    block runs; yields its URL and shuts it down afterwards."""
    server = ViewerServer(run_dir, 0, quiet=True)
    server.start_background()
    try:
        yield server.url
    finally:
        server.shutdown()
        server.server_close()
