"""The CLI parses, calls the package and prints: no module under ``cli/`` runs SQL or defines a
model class (the store runs SQL, the model layer defines the clients)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import rhetorica.cli

CLI_DIR = Path(rhetorica.cli.__file__).parent

#: a string that starts like an SQL statement, in any case ("Drop the bibliography" is prose)
SQL = re.compile(r"^\s*(SELECT\b.*\bFROM\b|INSERT\s+(OR\s+\w+\s+)?INTO\b|UPDATE\s+\w+\s+SET\b|DELETE\s+FROM\b"
                 r"|(CREATE|DROP|ALTER)\s+(TABLE|INDEX|VIEW)\b|PRAGMA\s+\w+|WITH\s+\w+\s+AS\s*\()",
                 re.IGNORECASE | re.DOTALL)
SQL_MODULES = ("sqlite3", "sqlalchemy")


def sql_uses(path: Path) -> list[str]:
    """Every SQL-looking string constant of ``path`` and every import of an SQL module, as
    ``line: text``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL.match(node.value):
            found.append(f"{node.lineno}: {node.value[:40]!r}")
        elif isinstance(node, ast.Import):
            found += [f"{node.lineno}: import {a.name}" for a in node.names if a.name.split(".")[0] in SQL_MODULES]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in SQL_MODULES:
            found.append(f"{node.lineno}: from {node.module}")
    return sorted(found, key=lambda use: int(use.split(":")[0]))


def model_classes(path: Path) -> list[str]:
    """Classes of ``path`` whose base is a name imported from ``rhetorica.models`` (a model client)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    model_names = {alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                   and (node.module or "").startswith("rhetorica.models") for alias in node.names}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            bases = {ast.unparse(base).split(".")[-1] for base in node.bases}
            if bases & model_names or any("ModelAPI" in b for b in bases):
                found.append(f"{node.lineno}: class {node.name}")
    return found


def test_the_checkers_see_sql_and_model_classes(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import sqlite3\n"
        "def f(store):\n"
        "    return store.rows('select count(*) FROM runs')\n"
        "def g():\n"
        "    from rhetorica.models.api import ModelAPI\n"
        "    class Capture(ModelAPI):\n"
        "        pass\n"
        "class Fine:\n"
        "    text = 'Drop the bibliography; select the papers from the list'\n"
        "    more = 'DELETE FROM runs'\n")
    assert sql_uses(sample) == ["1: import sqlite3", "3: 'select count(*) FROM runs'", "10: 'DELETE FROM runs'"]
    assert model_classes(sample) == ["6: class Capture"]


def test_no_cli_module_runs_sql_or_defines_a_model_class():
    modules = sorted(CLI_DIR.rglob("*.py"))
    assert len(modules) > 5, "no cli modules found"
    offenders = {f"{path.name}: {use}" for path in modules for use in sql_uses(path) + model_classes(path)}
    assert offenders == set()
