"""The mock provider is for tests and demos by model id (``mock/…``): no production module imports it."""

from __future__ import annotations

from pathlib import Path

import rhetorica
from tests.store.test_imports import imported_modules

SRC = Path(rhetorica.__file__).parent
MOCK = "rhetorica.models.providers.mock"


def test_no_module_imports_the_mock_provider():
    modules = sorted(SRC.rglob("*.py"))
    offenders = {
        f"{path.relative_to(SRC)}: {name}"
        for path in modules if path.name != "mock.py"
        for name in imported_modules(path)
        if name == MOCK or name.startswith(MOCK + ".")
    }
    assert len(modules) > 100, "no source modules found"
    assert offenders == set()


def test_the_checker_sees_an_import_of_the_mock_provider(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from rhetorica.models.providers.mock import TEXT_MARKER\n")
    assert MOCK in imported_modules(sample)
