"""The store holds rows, not model clients: no module under ``store/`` imports ``rhetorica.models``,
and no module outside ``store/`` opens SQLite."""

from __future__ import annotations

import ast
from pathlib import Path

import rhetorica.store

STORE_DIR = Path(rhetorica.store.__file__).parent


def imported_modules(path: Path) -> set[str]:
    """Every module an ``import`` or ``from ... import`` statement of ``path`` names (any depth,
    function-level imports included; relative imports resolved against ``rhetorica.store``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = "rhetorica.store".split(".")[: max(0, 2 - node.level + 1)]
                found.add(".".join([*base, node.module] if node.module else base))
            elif node.module:
                found.add(node.module)
    return found


def test_the_checker_sees_function_level_and_relative_imports(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from rhetorica.models.api import ModelOutput\nfrom ..models import cache\n")
    assert imported_modules(sample) == {"rhetorica.models.api", "rhetorica.models"}


def test_no_store_module_imports_the_model_layer():
    offenders = {
        f"{path.relative_to(STORE_DIR)}: {name}"
        for path in sorted(STORE_DIR.rglob("*.py"))
        for name in imported_modules(path)
        if name == "rhetorica.models" or name.startswith("rhetorica.models.")
    }
    assert sorted(STORE_DIR.rglob("*.py")), "no store modules found"
    assert offenders == set()


def test_sqlite_is_used_only_under_store():
    package = STORE_DIR.parent
    offenders = sorted(
        str(path.relative_to(package))
        for path in package.rglob("*.py")
        if STORE_DIR not in path.parents and "sqlite3" in imported_modules(path)
    )
    assert offenders == []
