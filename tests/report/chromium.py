"""Headless Chromium for the report and viewer tests: flags that keep it off the network, and one
way to start it (selenium + Debian's chromium and chromium-driver)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync")
INSTALL_HINT = "run scripts/install-test-system-deps.sh (Debian: apt-get install chromium chromium-driver)"


@contextmanager
def headless_chromium(profile: Path, *flags: str, logs: tuple[str, ...] = ("browser",)) -> Iterator[Any]:
    """A selenium driver of headless Chromium with its profile in ``profile``, the extra ``flags``
    and ``logs`` (``browser``, ``performance``) captured at level ALL; quit when the block ends.
    Fails the test (never skips) when selenium or Chromium is missing."""
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
    for flag in (*CHROMIUM_FLAGS, *flags, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", dict.fromkeys(logs, "ALL"))
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        yield driver
    finally:
        driver.quit()
