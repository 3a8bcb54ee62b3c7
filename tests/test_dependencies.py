"""Every core dependency declared in pyproject.toml is imported by src/rhetorica (or is on the short
list of dependencies used without an import, each with its reason)."""

from __future__ import annotations

import ast
import re
import tomllib
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: declared, used, never imported: distribution -> how it is used
USED_WITHOUT_IMPORT = {"pyarrow": "pandas' to_parquet engine (store/export.py, report/render.py)"}


def _declared() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return {re.split(r"[<>=!~\[ ;]", spec, maxsplit=1)[0].lower() for spec in project["dependencies"]}


def _imported_distributions() -> set[str]:
    tops: set[str] = set()
    for path in (ROOT / "src" / "rhetorica").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                tops |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                tops.add(node.module.split(".")[0])
    owners = metadata.packages_distributions()
    return {dist.lower() for top in tops for dist in owners.get(top, [])}


def test_every_declared_core_dependency_is_imported() -> None:
    declared = _declared()
    assert {"tenacity", "filelock", "httpx"} <= declared and "anyio" not in declared
    unused = declared - _imported_distributions() - set(USED_WITHOUT_IMPORT)
    assert unused == set(), f"declared in pyproject.toml, never imported by src/rhetorica: {sorted(unused)}"
    assert set(USED_WITHOUT_IMPORT) <= declared  # the exceptions are still declared
