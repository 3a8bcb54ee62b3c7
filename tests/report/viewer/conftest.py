"""A headless Chromium that logs console messages and network requests, and a running viewer."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from rhetorica.report.viewer.server import ViewerServer

from ..test_html_chromium import CHROMIUM_FLAGS, INSTALL_HINT


@pytest.fixture(scope="module")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.fail("selenium is missing: pip install -e '.[test]'")
    binary, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    if binary is None or driver_path is None:
        pytest.fail(f"headless Chromium not found (chromium={binary}, chromedriver={driver_path}); {INSTALL_HINT}")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in (*CHROMIUM_FLAGS, "--window-size=1400,1200",
                 f"--user-data-dir={tmp_path_factory.mktemp('viewer-chromium-profile')}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        yield driver
    finally:
        driver.quit()


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
